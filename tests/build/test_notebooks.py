"""Each lesson's notebook as a reader opens it: it installs posenc first, shows what the page
shows under each block (read from the built page, not run again), folds the solution after the
starter, has no empty section, links the site by address, and opens in Colab where the site
has a GitHub repository (posenc_site.publish.notebook, .notebook_prose, .colab).
"""

import html
import itertools
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest

from posenc_site.i18n import translations
from posenc_site.i18n.languages import load_strings
from posenc_site.publish import colab
from posenc_site.publish.notebook import INSTALL, downloadable
from posenc_site.widgets import MARKER as WIDGET_MARKER
from support.docblocks import DOCS, blocks_of
from support.fixture_project import THEME, project_config
from support.project import SITE, SITE_URL, TURKISH

LESSONS = [
    pytest.param(language, page, id=f"{language}-{SITE.source(page).stem}")
    for page in sorted(DOCS.glob("lessons/*.md"))
    for language in [SITE.of_page(page).code]
    if any(b.attributes.get("id") == "exercise-solution" for b in blocks_of(page))
]
_HIGHLIGHT = re.compile(
    r'<div class="highlight">(?:<span class="filename">[^<]*</span>)?<pre><span></span>'
    r"<code>(?P<code>.*?)</code></pre></div>",
    re.DOTALL,
)
_FIGURE = re.compile(
    r'<figure class="pe-figure"[^>]*>(?P<svg><svg .*?</svg>).*?'
    r"<figcaption>(?P<caption>.*?)</figcaption>",
    re.DOTALL,
)
_HEADING = re.compile(r"^(#{1,6})\s")
_LINK = re.compile(r'\]\((?P<target>[^)\s]+)\)|\b(?:href|src)="(?P<url>[^"]*)"')


def folder_of(language: str, page: Path) -> str:
    return f"{SITE.get(language).url_prefix}lessons/{SITE.source(page).stem}/"


def read_notebook(site: Path, language: str, page: Path) -> nbformat.NotebookNode:
    folder = folder_of(language, page)
    book = nbformat.read(site / folder / f"{SITE.source(page).stem}.ipynb", as_version=4)
    nbformat.validate(book)
    return book


def shown_blocks(page_html: str) -> list[str]:
    """The text of every highlighted block of a built page, in order: sources and outputs."""
    return [
        html.unescape(re.sub(r"<[^>]+>", "", match["code"]))
        for match in _HIGHLIGHT.finditer(page_html)
    ]


def without_tags(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text))


@pytest.mark.parametrize(("language", "page"), LESSONS)
def test_the_notebook_opens_with_the_install_cell_and_a_note(site, language, page):
    install, note = read_notebook(site, language, page).cells[:2]
    assert install.cell_type == "code"
    assert install.source == INSTALL == "%pip install posenc"
    assert note.cell_type == "markdown"
    assert note.source == load_strings(language)["downloads"]["install_note"]
    assert "\n" not in note.source


@pytest.mark.parametrize(("language", "page"), LESSONS)
def test_each_code_cell_shows_the_output_the_page_shows(site, language, page):
    book = read_notebook(site, language, page)
    page_html = (site / folder_of(language, page) / "index.html").read_text(encoding="utf-8")
    shown = shown_blocks(page_html)
    pairs = {(a.rstrip("\n"), b) for a, b in itertools.pairwise(shown)}
    sessions = [text for text in shown if text.startswith(">>> ")]
    with_outputs = 0
    for cell in book.cells[1:]:
        if cell.cell_type != "code" or not cell.outputs:
            continue
        [output] = cell.outputs
        if "image/svg+xml" in output.get("data", {}):  # a figure: see the next test
            continue
        with_outputs += 1
        assert output.output_type == "stream"
        assert output.name == "stdout"
        if (cell.source, output.text) in pairs:  # a block, then the block of its output
            continue
        # A pycon session: its code without prompts, its outputs the lines between.
        session = next(s for s in sessions if cell.source.split("\n")[0] in s)
        lines = session.splitlines()
        assert output.text == "".join(f"{line}\n" for line in lines if line[:4] not in PROMPTS)
        assert cell.source == "\n".join(line[4:] for line in lines if line[:4] in PROMPTS)
    # Every block the page runs and shows, and every pycon session, has its output.
    blocks = [b for b in blocks_of(page) if downloadable(b)]
    assert with_outputs == sum("exec" in b.attributes or b.language == "pycon" for b in blocks)
    assert with_outputs >= 5


PROMPTS = (">>> ", "... ", ">>>", "...")


@pytest.mark.parametrize(("language", "page"), LESSONS)
def test_the_figures_are_the_svg_the_page_shows_with_their_captions(site, language, page):
    book = read_notebook(site, language, page)
    page_html = (site / folder_of(language, page) / "index.html").read_text(encoding="utf-8")
    on_page = [
        (match["svg"].replace('class="pe-figure__zoomable" ', ""), without_tags(match["caption"]))
        for match in _FIGURE.finditer(page_html)
    ]
    in_notebook = []
    for index, cell in enumerate(book.cells):
        if (
            cell.cell_type == "code"
            and cell.outputs
            and "image/svg+xml" in cell.outputs[0].get("data", {})
        ):
            caption = book.cells[index + 1].source.replace("**", "")
            in_notebook.append((cell.outputs[0].data["image/svg+xml"], without_tags(caption)))
            assert cell.outputs[0].output_type == "display_data"
            assert cell.outputs[0].data["text/plain"]  # the alt text, where SVG is not shown
    assert len(in_notebook) == len(on_page)
    assert in_notebook == on_page


@pytest.mark.parametrize(("language", "page"), LESSONS)
def test_the_solution_is_folded_after_the_starter_and_a_note(site, language, page):
    book = read_notebook(site, language, page)
    blocks = blocks_of(page)
    solution = next(b for b in blocks if b.attributes.get("id") == "exercise-solution")
    starter = next(
        b for b in blocks if b.attributes.get("title") == "model.py" and "exec" not in b.attributes
    )
    sources = [cell.source for cell in book.cells]
    at = sources.index(solution.source.rstrip("\n"))
    assert sources.index(starter.source.rstrip("\n")) < at - 1
    cell, before = book.cells[at], book.cells[at - 1]
    assert cell.metadata["jupyter"] == {"source_hidden": True}
    assert cell.metadata["cellView"] == "form"
    assert before.cell_type == "markdown"
    assert before.source.endswith(load_strings(language)["downloads"]["solution_note"])
    folded = [c for c in book.cells if c.metadata.get("jupyter", {}).get("source_hidden")]
    assert folded == [cell]


def outline(book: nbformat.NotebookNode) -> list[int]:
    """The notebook as a list: a heading's level, 0 for anything else (outside code fences)."""
    items = []
    for cell in book.cells:
        if cell.cell_type != "markdown":
            items.append(0)
            continue
        fenced = False
        for line in cell.source.splitlines():
            if line.startswith(("```", "~~~")):
                fenced = not fenced
            heading = None if fenced else _HEADING.match(line)
            if heading or line.strip():
                items.append(len(heading[1]) if heading else 0)
    return items


def empty_sections(book: nbformat.NotebookNode) -> list[int]:
    """Where a heading is followed by one of its level or above, or by nothing."""
    items = [*outline(book), 1]  # the end closes every section
    return [k for k, level in enumerate(items[:-1]) if level and 0 < items[k + 1] <= level]


@pytest.mark.parametrize(("language", "page"), LESSONS)
def test_no_section_is_empty(site, language, page):
    book = read_notebook(site, language, page)
    assert empty_sections(book) == []
    # The last section of quiz questions, which the notebook leaves out, and its heading.
    text = page.read_text(encoding="utf-8")
    before_quiz = text[: text.rindex("```quiz")].rstrip().splitlines()
    assert before_quiz[-1].startswith("## ")
    assert not any(before_quiz[-1] in cell.source for cell in book.cells)


@pytest.mark.parametrize(("language", "page"), LESSONS)
def test_no_cell_speaks_of_a_form_the_notebook_does_not_have(site, language, page):
    book = read_notebook(site, language, page)
    lead = load_strings(language)["quiz"]["complete_lead"]
    invitation = lead.split("?")[0]  # "Prefer to fill in only the lines that matter"
    assert not [cell.source for cell in book.cells if invitation in cell.source]
    page_html = (site / folder_of(language, page) / "index.html").read_text(encoding="utf-8")
    assert html.escape(lead, quote=False) in page_html  # the page has the form and its line
    # Nor of an explorable figure: the paragraph before its marker tells the reader what to move.
    source = page.read_text(encoding="utf-8")
    for marker in WIDGET_MARKER.finditer(source):
        lead_line = source[: marker.start()].rstrip().split("\n\n")[-1].split("\n")[0]
        assert lead_line
        assert not [cell for cell in book.cells if lead_line in cell.source]
    assert not [cell for cell in book.cells if "pe-widget" in cell.source]  # nor its HTML


def test_empty_sections_are_found():
    md = nbformat.v4.new_markdown_cell
    book = nbformat.v4.new_notebook(cells=[md("# A\n\n## B"), md("## C\n\ntext"), md("## D")])
    assert empty_sections(book) == [1, 4]


@pytest.mark.parametrize(("language", "page"), LESSONS)
def test_links_lead_to_pages_and_anchors_of_the_site(site, language, page):
    book = read_notebook(site, language, page)
    links = [
        match["target"] or match["url"]
        for cell in book.cells
        if cell.cell_type == "markdown"
        for match in _LINK.finditer(cell.source)
    ]
    assert len(links) >= 4  # the downloads and the next lesson, at least
    for link in links:
        assert urlsplit(link).scheme in ("http", "https"), link
        if not link.startswith(SITE_URL):
            continue
        assert not urlsplit(link).path.endswith(".md"), link
        path, _, anchor = link.removeprefix(SITE_URL).partition("#")
        target = site / path / "index.html" if path.endswith("/") or not path else site / path
        assert target.is_file(), link
        if anchor:
            assert f'id="{anchor}"' in target.read_text(encoding="utf-8"), link


def test_there_is_no_colab_link_without_a_repository(site):
    for language, page in (p.values for p in LESSONS):
        page_html = (site / folder_of(language, page) / "index.html").read_text(encoding="utf-8")
        assert "colab.research.google.com" not in page_html


COLAB_LESSON = """# {title}

{title}: code that prints.

```python exec="on" source="above" result="text"
print(6 * 7)
```

## {exercise}

```python title="model.py"
# write here
```

!!! example "{solution}"

    ```python exec="on" id="exercise-solution" source="above" result="text" title="model.py"
    print(42)
    ```

## {downloads}

- <a href="model.py" download>`model.py`</a>
- <a href="lesson.py" download>`lesson.py`</a>
- <a href="lesson.ipynb" download>`lesson.ipynb`</a>
"""
COLAB_WORDS = {
    "en": {"title": "Lesson", "exercise": "Exercise", "solution": "Solution", "downloads": "Get"},
    "tr": {"title": "Ders", "exercise": "Alıştırma", "solution": "Çözüm", "downloads": "İndir"},
}
REPOSITORY = "https://github.com/example/posenc"


def build_colab_project(root: Path, repo_url: str | None) -> Path:
    """A two-page site whose lesson has downloads, built with POSENC_REPO_URL=``repo_url``."""
    config = project_config("colab", ["en", "tr"], theme=THEME)
    config += "repo_url: !ENV [POSENC_REPO_URL, null]\n"  # as mkdocs.yml reads it
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    docs = root / "docs"
    docs.mkdir()
    for language in SITE.all:
        words = COLAB_WORDS[language.code]
        (docs / f"index{language.page_suffix}").write_text(
            f"# {words['title']}\n\n{words['title']}.\n", encoding="utf-8"
        )
        lesson = COLAB_LESSON.format(**words)
        (docs / f"lesson{language.page_suffix}").write_text(lesson, encoding="utf-8")
    for name in ("index", "lesson"):
        translations.mark_reviewed(SITE.twin(docs / f"{name}.md", TURKISH), SITE)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "POSENC_SITE_URL": SITE_URL}
    env.pop("POSENC_REPO_URL", None)
    if repo_url is not None:
        env["POSENC_REPO_URL"] = repo_url
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", "site"]
    result = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return root / "site"


def test_each_lesson_opens_its_notebook_in_colab_from_the_notebooks_branch(tmp_path):
    site = build_colab_project(tmp_path, REPOSITORY)
    for language in SITE.all:
        page_html = (site / language.url_prefix / "lesson/index.html").read_text(encoding="utf-8")
        words = load_strings(language.code)["downloads"]
        [(href, text)] = re.findall(
            r'<a href="(https://colab\.research\.google\.com/[^"]+)">([^<]*)</a>', page_html
        )
        assert text == html.escape(words["colab"], quote=False)
        prefix = "https://colab.research.google.com/github/example/posenc/blob/notebooks/"
        assert colab.BRANCH == "notebooks"
        assert href.startswith(prefix)
        path = href.removeprefix(prefix)
        assert path == f"{language.url_prefix}lesson/lesson.ipynb"
        nbformat.validate(nbformat.read(site / path, as_version=4))
        # In the Downloads list, after the notebook's own item.
        notebook_item = page_html.index('<a href="lesson.ipynb" download>')
        assert notebook_item < page_html.index(href) < page_html.index("</ul>", notebook_item)


def test_a_site_without_a_github_repository_has_no_colab_link(tmp_path):
    site = build_colab_project(tmp_path, None)
    for language in SITE.all:
        page_html = (site / language.url_prefix / "lesson/index.html").read_text(encoding="utf-8")
        assert '<a href="lesson.ipynb" download>' in page_html
        assert "colab.research.google.com" not in page_html
