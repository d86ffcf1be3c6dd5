"""The import layers of pyproject.toml ([tool.importlinter]): posenc never imports posenc_site;
posenc_site's sub-packages import only the layers below them (plugin and config, publish,
transforms or execute, figures, i18n); no package's modules import each other in a cycle.

import-linter checks them (grimp reads the imports without running the code). A copy of the
sources with an import up a layer, or into posenc_site from posenc, must break the contracts.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from support.project import ROOT

CONFIG = ROOT / "pyproject.toml"
PACKAGES = {"posenc": ROOT / "src/posenc", "posenc_site": ROOT / "website/src/posenc_site"}
LINT_IMPORTS = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def lint_imports(folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the contracts of pyproject.toml, on the packages found from
    ``folder``; without a cache, which would be written there."""
    return subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "--no-cache", str(CONFIG)],
        cwd=folder,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_contracts_are_kept():
    result = lint_imports(ROOT)
    assert "Contracts: 3 kept, 0 broken." in result.stdout, result.stdout + result.stderr
    assert result.returncode == 0


# Imports against the contracts, each in a module that does not import it today, with the
# contract it breaks. glossary imports languages, and rotary imports _validation: the last two
# close a cycle.
PLANTED = [
    ("posenc.rotary", "posenc_site.i18n", "the library never imports"),
    ("posenc_site.i18n.slugs", "posenc_site.publish", "import only the layers"),
    ("posenc_site.transforms.quiz", "posenc_site.execute", "import only the layers"),
    ("posenc_site.publish.social", "posenc_site.plugin", "import only the layers"),
    ("posenc_site.i18n.languages", "posenc_site.i18n.glossary", "no import cycles"),
    ("posenc._validation", "posenc.rotary", "no import cycles"),
]


def test_an_import_against_the_layers_breaks_its_contract(tmp_path):
    # One copy of both packages holds every planted import; the report names each of them.
    for name, source in PACKAGES.items():
        shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    for module, imported, _ in PLANTED:
        path = tmp_path.joinpath(*module.split(".")).with_suffix(".py")
        if not path.exists():
            path = path.with_suffix("") / "__init__.py"
        path.write_text(f"import {imported}\n{path.read_text(encoding='utf-8')}", "utf-8")
    result = lint_imports(tmp_path, PYTHONPATH=str(tmp_path))  # before the installed packages
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Contracts: 0 kept, 3 broken." in result.stdout, result.stdout
    for module, imported, contract in PLANTED[:4]:
        assert re.search(rf"{re.escape(contract)}.* BROKEN$", result.stdout, re.MULTILINE)
        assert f"{module} -> {imported} (l.1)" in result.stdout, result.stdout
    # A cycle is reported by its package, with the imports that would break it.
    assert "No cycles are allowed in posenc_site.i18n.\n" in result.stdout, result.stdout
    assert "- .languages -> .glossary (1 import)" in result.stdout, result.stdout
    assert "No cycles are allowed in posenc.\n" in result.stdout, result.stdout
    assert "- .rotary -> ._validation (1 import)" in result.stdout, result.stdout
