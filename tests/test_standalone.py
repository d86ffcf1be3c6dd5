"""Every Python block a reader can copy runs on its own, in a fresh interpreter that has only
NumPy and posenc (or the whole environment, for a block that imports torch or ml_dtypes), and
prints what the page shows."""

import os
import re
import subprocess
import sys
from html import unescape
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

import posenc
from conftest import SITE
from docblocks import DOCS, blocks_of, skip_without_optional
from posenc_site.blocks import optional_package, runnable

PAGES = sorted(DOCS.rglob("*.md"))
CASES = [
    pytest.param(page, block, following, id=f"{page.relative_to(DOCS)}:{block.line}")
    for page in PAGES
    for block, following in pairwise([*blocks_of(page), None])
    if block.copyable
]


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


def run_fresh(code: str, tmp_path: Path, path: Path | None) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    if path is None:  # needs torch or ml_dtypes: the full environment, still a fresh interpreter
        command = [sys.executable, "-I", str(script)]
    else:
        bootstrap = (
            f"import sys; sys.path[:0] = [{str(path)!r}]; exec(open({str(script)!r}).read())"
        )
        command = [sys.executable, "-I", "-S", "-c", bootstrap]
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONHASHSEED": "0"}
    return subprocess.run(
        command, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize(("md_page", "block", "following"), CASES)
def test_block_runs_alone_in_a_fresh_interpreter(
    md_page, block, following, tmp_path, numpy_and_posenc_only, site
):
    code = runnable(block)
    skip_without_optional(code)
    optional = optional_package(code) is not None
    result = run_fresh(code, tmp_path, None if optional else numpy_and_posenc_only)
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
    result = run_fresh("import matplotlib\n", tmp_path, numpy_and_posenc_only)
    assert result.returncode != 0
    assert "No module named 'matplotlib'" in result.stderr
