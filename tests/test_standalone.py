"""Every Python block a reader can copy runs on its own, in a fresh interpreter that has only
NumPy and posenc (or the whole environment, for a block that imports torch or ml_dtypes), and
prints what the page shows.

The blocks run in one interpreter (one more per optional package) that forks a fresh process
for each block (tests/fresh_interpreter.py), once per test run: a block still runs alone, and
pays a fork rather than an interpreter start and the imports of NumPy and torch.
"""

import importlib.util
import json
import os
import re
import subprocess
import sys
from dataclasses import asdict, dataclass
from html import unescape
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from filelock import FileLock

import posenc
from conftest import SITE
from docblocks import DOCS, blocks_of, skip_without_optional
from posenc_site.execute.blocks import optional_package, runnable

PAGES = sorted(DOCS.rglob("*.md"))


def case_id(page: Path, block) -> str:
    return f"{page.relative_to(DOCS)}:{block.line}"


CASES = [
    pytest.param(page, block, following, id=case_id(page, block))
    for page in PAGES
    for block, following in pairwise([*blocks_of(page), None])
    if block.copyable
]
RUNNER = Path(__file__).with_name("fresh_interpreter.py")
TIMEOUT = 120  # seconds, for one block


@pytest.fixture(scope="session")
def numpy_and_posenc_only(tmp_path_factory) -> Path:
    """A folder holding only numpy (with its bundled libraries) and posenc, for ``-S`` runs."""
    folder = tmp_path_factory.mktemp("only-numpy-posenc")
    numpy_dir = Path(np.__file__).parent
    (folder / "numpy").symlink_to(numpy_dir)
    libs = numpy_dir.parent / "numpy.libs"
    if libs.exists():
        (folder / "numpy.libs").symlink_to(libs)
    (folder / "posenc").symlink_to(Path(posenc.__file__).parent)
    return folder


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


def run_fresh(
    blocks: dict[str, str], tmp_path: Path, path: Path, optional: str | None = None
) -> dict[str, Run]:
    """Run each of ``blocks`` (code by name) alone in a fresh process.

    Only ``path`` (numpy and posenc) is importable (``python -I -S``); with an ``optional``
    package (torch, ml_dtypes), the installed packages are too (``python -I``), that package
    imported first, posenc still from ``path``.
    """
    job = {
        "path": [str(path)],
        "preload": ["numpy", "posenc", *([optional] if optional else [])],
        "timeout": TIMEOUT,
        "blocks": [
            {"name": name, "code": code, "folder": str(tmp_path / f"block-{k}")}
            for k, (name, code) in enumerate(blocks.items())
        ],
    }
    (tmp_path / "job.json").write_text(json.dumps(job), encoding="utf-8")
    flags = ["-I"] if optional else ["-I", "-S"]
    command = [sys.executable, *flags, str(RUNNER), "job.json", "results.json"]
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONHASHSEED": "0"}
    finished = subprocess.run(
        command,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=TIMEOUT * len(blocks) + 60,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    return {name: Run(**result) for name, result in results.items()}


@pytest.fixture(scope="session")
def fresh_runs(shared_dir, numpy_and_posenc_only) -> dict[str, Run]:
    """Every copyable block run alone, by test id: once per test run, for every page.

    The first xdist worker to need them runs them; the others wait for its results.
    """
    results = shared_dir / "fresh-runs.json"
    with FileLock(str(shared_dir / "fresh-runs.lock")):
        if not results.exists():
            blocks = {case.id: runnable(case.values[1]) for case in CASES}
            groups: dict[str | None, dict[str, str]] = {}
            for name, code in blocks.items():
                groups.setdefault(optional_package(code), {})[name] = code
            runs: dict[str, Run] = {}
            for optional, chosen in groups.items():
                if optional and importlib.util.find_spec(optional) is None:
                    continue  # its tests skip (or fail, in CI): skip_without_optional
                folder = shared_dir / f"fresh-runs-{optional or 'numpy'}"
                folder.mkdir()
                runs |= run_fresh(chosen, folder, numpy_and_posenc_only, optional)
            partial = results.with_suffix(".partial")
            partial.write_text(json.dumps({k: asdict(v) for k, v in runs.items()}), "utf-8")
            partial.replace(results)
    return {name: Run(**run) for name, run in json.loads(results.read_text("utf-8")).items()}


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize(("md_page", "block", "following"), CASES)
def test_block_runs_alone_in_a_fresh_interpreter(md_page, block, following, fresh_runs, site):
    skip_without_optional(runnable(block))
    result = fresh_runs[case_id(md_page, block)]
    assert result.returncode == 0, result.stderr
    if block.language == "pycon":
        return  # its outputs are checked as a doctest, prompts and all
    # What the md_page shows: a hand-written output right after the block, or, for a block the
    # build ran, its output on the built md_page.
    if following is not None and following.language == "text" and block.language == "python":
        assert result.stdout == following.source
    if "exec" in block.attributes and result.stdout.strip():
        url = SITE.source(md_page).relative_to(DOCS).as_posix().removesuffix(".md")
        language_root = SITE.of_page(md_page).url_prefix
        built = site / language_root / ("" if url == "index" else url) / "index.html"
        assert result.stdout.strip() in text_of(built.read_text(encoding="utf-8"))


def test_a_block_that_needs_more_than_numpy_fails_alone(tmp_path, numpy_and_posenc_only):
    result = run_fresh({"b": "import matplotlib\n"}, tmp_path, numpy_and_posenc_only)["b"]
    assert result.returncode != 0
    assert "No module named 'matplotlib'" in result.stderr


def test_blocks_run_together_share_nothing(tmp_path, numpy_and_posenc_only):
    first = "import numpy as np\nnp.set_printoptions(precision=1)\nnp.random.seed(1)\nshared = 1\n"
    # 0.417022004702574: the first draw after np.random.seed(1)
    second = "import numpy as np\n"
    second += "print(np.array([0.123]), np.random.rand() != 0.417022004702574)\nshared\n"
    results = run_fresh({"a": first, "b": second}, tmp_path, numpy_and_posenc_only)
    assert results["a"].returncode == 0, results["a"].stderr
    assert results["b"].returncode == 1
    assert results["b"].stdout == "[0.123] True\n"  # default print options, unseeded
    assert "NameError: name 'shared' is not defined" in results["b"].stderr
    assert 'File "b", line 3' in results["b"].stderr  # the block is named in its traceback


def test_a_block_prints_as_a_script(tmp_path, numpy_and_posenc_only):
    code = "import sys\nprint(__name__)\nprint('err', file=sys.stderr)\nsys.exit(3)\n"
    result = run_fresh({"b": code}, tmp_path, numpy_and_posenc_only)["b"]
    assert (result.returncode, result.stdout, result.stderr) == (3, "__main__\n", "err\n")
