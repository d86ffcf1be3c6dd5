"""Every block a reader can copy, run alone in a fresh interpreter, once per test run.

The interpreter has only NumPy and posenc (or the whole environment, for a block that imports
torch or ml_dtypes). The blocks run in one interpreter (one more per optional package) that
forks a fresh process for each block (support/fresh_interpreter.py): a block still runs alone,
and pays a fork rather than an interpreter start and the imports of NumPy and torch.

The runs start in the background with the test run (``FreshRuns``, started by tests/conftest.py
when a selected test takes ``fresh_runs``), as the site build does. ``fresh_runs`` holds what
each block printed, by case id (``page.md:line``); the tests that need
what a block prints read it from there rather than running the block again: in the docs tier
test_standalone.py (the output the page writes by hand) and test_docs_parity.py (the exercise
solution's output), in the build tier test_shown_outputs.py (the output the built page shows)
and test_downloads.py (what the lesson's script prints). A fixture of the docs and build tiers
(imported by their conftest.py).
"""

import importlib.util
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

import posenc
from posenc_site.execute.blocks import Block, optional_package, runnable
from support.builds import BackgroundRun
from support.docblocks import DOCS, blocks_of

PAGES = sorted(DOCS.rglob("*.md"))


def case_id(page: Path, block: Block) -> str:
    """The id of a block's case: its page under docs/ and its line, ``lessons/rotary.md:40``."""
    return f"{page.relative_to(DOCS)}:{block.line}"


CASES = [
    pytest.param(page, block, following, id=case_id(page, block))
    for page in PAGES
    for block, following in pairwise([*blocks_of(page), None])
    if block.copyable
]
RUNNER = Path(__file__).with_name("fresh_interpreter.py")
TIMEOUT = 120  # seconds, for one block


def numpy_and_posenc_only(folder: Path) -> Path:
    """``folder``, holding only numpy (with its bundled libraries) and posenc, for ``-S`` runs."""
    folder.mkdir()
    numpy_dir = Path(np.__file__).parent
    (folder / "numpy").symlink_to(numpy_dir)
    libs = numpy_dir.parent / "numpy.libs"
    if libs.exists():
        (folder / "numpy.libs").symlink_to(libs)
    (folder / "posenc").symlink_to(Path(posenc.__file__).parent)
    return folder


@dataclass(frozen=True)
class Run:
    """What a block did, run alone."""

    returncode: int
    stdout: str
    stderr: str


def fresh_command(
    blocks: dict[str, str], folder: Path, path: Path, optional: str | None = None
) -> dict[str, object]:
    """The command that runs each of ``blocks`` (code by name) alone in a fresh process, its
    results into ``folder``/results.json (arguments of ``subprocess.run``).

    Only ``path`` (numpy and posenc) is importable (``python -I -S``); with an ``optional``
    package (torch, ml_dtypes), the installed packages are too (``python -I``), that package
    imported first, posenc still from ``path``.
    """
    job = {
        "path": [str(path)],
        "preload": ["numpy", "posenc", *([optional] if optional else [])],
        "timeout": TIMEOUT,
        "blocks": [
            {"name": name, "code": code, "folder": str(folder / f"block-{k}")}
            for k, (name, code) in enumerate(blocks.items())
        ],
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "job.json").write_text(json.dumps(job), encoding="utf-8")
    flags = ["-I"] if optional else ["-I", "-S"]
    return {
        "args": [sys.executable, *flags, str(RUNNER), "job.json", "results.json"],
        "cwd": str(folder),
        "env": {"PATH": os.environ.get("PATH", ""), "PYTHONHASHSEED": "0"},
        "timeout": TIMEOUT * len(blocks) + 60,
    }


def results_of(folder: Path) -> dict[str, Run]:
    """The runs a ``fresh_command`` recorded in ``folder``, by block name."""
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    return {name: Run(**result) for name, result in results.items()}


def run_fresh(
    blocks: dict[str, str], folder: Path, path: Path, optional: str | None = None
) -> dict[str, Run]:
    """Run each of ``blocks`` alone in a fresh process now (see ``fresh_command``)."""
    finished = subprocess.run(
        **fresh_command(blocks, folder, path, optional),  # type: ignore[call-overload]
        capture_output=True,
        text=True,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    return results_of(folder)


class FreshRuns(BackgroundRun):
    """Every copyable block of the pages run alone, once per test run, in the background."""

    name = "fresh-runs"

    def _groups(self) -> dict[str | None, dict[str, str]]:
        """The blocks by the optional package they need (None: NumPy and posenc only)."""
        groups: dict[str | None, dict[str, str]] = {}
        for case in CASES:
            code = runnable(case.values[1])
            groups.setdefault(optional_package(code), {})[case.id] = code
        return {
            optional: blocks
            for optional, blocks in groups.items()
            # Without the package, its blocks' tests skip (or fail, in CI: skip_without_optional).
            if optional is None or importlib.util.find_spec(optional) is not None
        }

    def _folder(self, optional: str | None) -> Path:
        return self.root / f"{self.name}-{optional or 'numpy'}"

    def commands(self) -> list[dict[str, object]]:
        """One runner per group of blocks (``fresh_command``)."""
        path = numpy_and_posenc_only(self.root / "only-numpy-posenc")
        return [
            fresh_command(blocks, self._folder(optional), path, optional)
            for optional, blocks in self._groups().items()
        ]

    def runs(self, timeout: float = 900) -> dict[str, Run]:
        """What every block did, by case id, once the runs have ended."""
        self.wait(timeout)
        runs: dict[str, Run] = {}
        for optional in self._groups():
            runs |= results_of(self._folder(optional))
        return runs


@pytest.fixture(scope="session")
def fresh_runs(fresh_runs_job: FreshRuns) -> dict[str, Run]:
    """Every copyable block run alone, by case id (``case_id``): once per test run."""
    return fresh_runs_job.runs()


@pytest.fixture
def numpy_only(tmp_path: Path) -> Path:
    """A folder holding only numpy and posenc (``numpy_and_posenc_only``), for one test."""
    return numpy_and_posenc_only(tmp_path / "only-numpy-posenc")
