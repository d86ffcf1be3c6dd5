"""The suite's layout: each test module in the folder of its tier, and no test module importing
another (what tests share is in tests/support). tests/conftest.py marks a test with its
folder's tier, and stops the run if a test uses the site build or a browser outside the tiers
that may."""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
TIERS = {"lib", "oracle", "site", "docs", "build", "browser", "style"}


def layout_problems(tests: Path) -> list[str]:
    """Test modules outside a tier's folder, and imports of a test module or a conftest.py."""
    problems = []
    for path in sorted(tests.rglob("*.py")):
        where = path.relative_to(tests)
        if "node_modules" in where.parts:
            continue
        if path.name.startswith("test_") and where.parts[0] not in TIERS:
            problems.append(f"{where}: not in a tier's folder ({', '.join(sorted(TIERS))})")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top == "conftest" or top.startswith("test_"):
                    problems.append(f"{where}:{node.lineno}: imports {name}")
    return problems


def test_every_test_is_in_its_tiers_folder_and_imports_no_other_test():
    assert layout_problems(TESTS) == []
    assert {path.parent.name for path in TESTS.glob("*/test_*.py")} == TIERS


ORACLES = {"torch", "transformers"}  # what tests/oracle needs beyond the library


def oracle_uses(folder: Path) -> list[str]:
    """Where the test modules of ``folder`` import torch or transformers, by an import statement
    or ``importlib.import_module``, or take the fixture of one."""
    uses = []
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "import_module"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                names = [str(node.args[0].value)]
            elif isinstance(node, ast.FunctionDef):
                names = [arg.arg for arg in node.args.args]
            else:
                continue
            for name in names:
                if name.split(".")[0] in ORACLES:
                    uses.append(f"{path.name}:{node.lineno}: {name}")
    return uses


def test_the_library_tier_needs_neither_torch_nor_transformers():
    # tests/lib is the library with NumPy (and matplotlib): what compares with PyTorch or
    # Transformers, or tests posenc.torch, is in tests/oracle.
    assert oracle_uses(TESTS / "lib") == []
    assert "test_torch.py:31: torch" in oracle_uses(TESTS / "oracle")  # it sees a fixture
