"""Each lesson's downloads: the starter file, the lesson's code as a script, the notebook.

Each lesson's script and the first lesson's notebook run here, in each language: that is what
these tests check. What they must print is what the lesson's blocks print when each runs alone,
read from the one fresh run of every block (``support.fresh_runs``), not run again here.
"""

import subprocess
import sys

import nbformat
import pytest
from nbclient import NotebookClient

from posenc_site.i18n.languages import load_strings
from posenc_site.publish.downloads import downloadable
from posenc_site.publish.notebook import INSTALL
from support.docblocks import DOCS, blocks_of
from support.fresh_runs import case_id
from support.project import SITE, TURKISH

LESSONS = {
    "en": ("lessons/positional-encoding/", DOCS / "lessons/positional-encoding.md"),
    "tr": (
        f"{TURKISH.url_prefix}lessons/positional-encoding/",
        SITE.twin(DOCS / "lessons/positional-encoding.md", TURKISH),
    ),
}
ALL_LESSONS = [
    (language, page)
    for page in sorted(DOCS.glob("lessons/*.md"))
    for language in [SITE.of_page(page).code]
    if any(b.attributes.get("id") == "exercise-solution" for b in blocks_of(page))
]


def built_folder(language: str, page) -> str:
    slug = SITE.source(page).name.removesuffix(".md")
    return f"{SITE.get(language).url_prefix}lessons/{slug}/"


@pytest.mark.parametrize(("language", "md_page"), ALL_LESSONS, ids=lambda v: getattr(v, "name", v))
def test_every_lesson_offers_and_links_its_downloads(site, language, md_page, tmp_path, fresh_runs):
    folder = built_folder(language, md_page)
    slug = folder.rstrip("/").rsplit("/", 1)[-1]
    html = (site / folder / "index.html").read_text(encoding="utf-8")
    for name in ("model.py", f"{slug}.py", f"{slug}.ipynb"):
        assert f'<a href="{name}" download>' in html, name
        assert (site / folder / name).is_file(), name
    script = site / folder / f"{slug}.py"
    result = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected_output(md_page, fresh_runs)


WRITE_HERE = {"en": "# write here", "tr": "# buraya yaz"}
FIRST_HEADING = {"en": "## Attention does not see order", "tr": "## Dikkat sırayı görmez"}


def expected_output(page, fresh_runs) -> str:
    """What the page's downloadable blocks print, one after the other, each run alone."""
    return "".join(fresh_runs[case_id(page, b)].stdout for b in blocks_of(page) if downloadable(b))


@pytest.mark.parametrize("language", ["en", "tr"])
def test_starter_file_is_the_exercise_starter(site, language, tmp_path):
    starter = (site / LESSONS[language][0] / "model.py").read_text(encoding="utf-8")
    code, marker, check = starter.partition(WRITE_HERE[language] + "\n")
    assert marker  # then the check of the answer (tests/build/test_exercise_check.py)
    assert "check_exercise(EXPECTED_OUTPUT, path=__file__" in check
    assert "def self_attention(x):" in code
    assert "def positional_encoding" not in starter
    (tmp_path / "model.py").write_text(starter, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "model.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert result.returncode == 1, result.stderr  # the reader's code prints nothing yet
    assert result.stdout.startswith(("Not yet:", "Henüz değil:"))


@pytest.mark.parametrize("language", ["en", "tr"])
def test_script_prints_the_exercise_result(language, fresh_runs):
    # The script prints expected_output: test_every_lesson_offers_and_links_its_downloads.
    assert "True False\n" in expected_output(LESSONS[language][1], fresh_runs)


@pytest.mark.parametrize("language", ["en", "tr"])
def test_notebook_is_valid_runs_and_speaks_the_page_language(site, language, fresh_runs):
    folder, page = LESSONS[language]
    book = nbformat.read(site / folder / "positional-encoding.ipynb", as_version=4)
    nbformat.validate(book)
    assert book.nbformat == 4
    prose = "\n".join(cell.source for cell in book.cells if cell.cell_type == "markdown")
    assert FIRST_HEADING[language] in prose
    assert "```quiz" not in prose
    # posenc is installed here: the install cell would fetch it from the package index.
    assert book.cells[0].source == INSTALL
    del book.cells[0]
    shown = stdout_of(book)  # the outputs the build put in (tests/build/test_notebooks.py)
    NotebookClient(book, timeout=120, kernel_name="python3").execute()
    printed = stdout_of(book)
    errors = [
        o
        for c in book.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "error"
    ]
    assert errors == []
    # A notebook also shows each pycon cell's last value; compare the printed text only.
    assert printed == expected_output(page, fresh_runs)
    assert shown == printed  # run again, the notebook prints what it shows


def stdout_of(book: nbformat.NotebookNode) -> str:
    """What the notebook's code cells show as printed, one after the other."""
    return "".join(
        output.get("text", "")
        for cell in book.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "stream" and output.name == "stdout"
    )


@pytest.mark.parametrize("language", ["en", "tr"])
def test_the_scripts_example_solution_says_what_it_is(site, language):
    # Run top to bottom, the script meets the solution right after the starter: its cell is
    # marked, in the page's language, and it is the only one.
    folder, _ = LESSONS[language]
    script = (site / folder / "positional-encoding.py").read_text(encoding="utf-8")
    label = load_strings(language)["downloads"]["solution_cell"]
    assert script.count(f"# %% {label}\n") == 1
    solution = script.split(f"# %% {label}\n")[1]
    assert solution.lstrip().startswith(("import", "def ", "from")), solution[:80]
