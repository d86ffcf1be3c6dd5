"""The exec cache across two builds of the small project: an edit of posenc shows in the next
build, and nothing else runs again."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from support.project import ROOT, TURKISH

# The small project (support/fixture_project.py): its lesson page prints a sinusoidal table, once in
# each language.
PAGES = ["lesson/index.html", f"{TURKISH.url_prefix}lesson/index.html"]


def build_fixture(project: Path, site: Path, **env: str) -> dict[str, str]:
    """Build the fixture project into ``site``; its pages' text by path."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=project,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "NO_MKDOCS_2_WARNING": "1",
            "PYTHONPATH": str(project / "src"),
            "POSENC_EXEC_CACHE_DIR": str(project / "cache"),
            **env,
        },
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return {page: (site / page).read_text(encoding="utf-8") for page in PAGES}


def entries(project: Path) -> dict[str, int]:
    """The cache's entries and their modification times."""
    return {entry.name: entry.stat().st_mtime_ns for entry in (project / "cache").glob("*.txt")}


def outputs(project: Path) -> list[str]:
    """What the stored blocks printed, sorted."""
    return sorted(entry.read_text("utf-8") for entry in (project / "cache").glob("*.txt"))


def test_an_edit_of_posenc_shows_in_the_next_build_and_nothing_else_reruns(small_project):
    tmp_path = small_project  # the build runs this copy of posenc (PYTHONPATH)
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__"))

    for page in build_fixture(tmp_path, tmp_path / "site1").values():
        assert "[0.841 0.54  0.01  1.   ]" in page
    table = "[[0.    1.    0.    1.   ]\n [0.841 0.54  0.01  1.   ]]\n"
    assert outputs(tmp_path) == [table, table]  # the printed text, once per page language

    source = tmp_path / "src/posenc/sinusoidal.py"
    # An edit of the function, as an author makes one: the table comes out twice as large.
    edit = "\n_unscaled = sinusoidal_encoding\n\n\ndef sinusoidal_encoding(*args, **kwargs):\n"
    edit += "    return 2 * _unscaled(*args, **kwargs)\n"
    source.write_text(source.read_text(encoding="utf-8") + edit, "utf-8")
    edited = build_fixture(tmp_path, tmp_path / "site2")
    for page in edited.values():
        assert "[1.683 1.081 0.02  2.   ]" in page
        assert "0.841" not in page
    stored = entries(tmp_path)
    assert len(stored) == 4  # under the salt of each posenc

    assert build_fixture(tmp_path, tmp_path / "site3") == edited
    assert entries(tmp_path) == stored  # nothing run, nothing written

    shutil.rmtree(tmp_path / "cache")
    assert build_fixture(tmp_path, tmp_path / "site4", POSENC_EXEC_CACHE="off") == edited
    assert not (tmp_path / "cache").exists()
