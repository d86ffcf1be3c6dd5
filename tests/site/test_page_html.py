"""The page transforms as Python-Markdown extensions inside MkDocs' own rendering of a page, in
this process: what MkDocs reads from the conversion besides the HTML (anchors, table of
contents, title) and the description's first paragraph (posenc_site.transforms.page_html)."""

from pathlib import Path

import markdown
import markdown_exec
import pytest
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocstrings import MkdocstringsInnerExtension

from posenc_site.i18n import page_language
from posenc_site.publish import descriptions
from support.project import SITE
from support.site_markdown import config

TEXT = """# Heading $x$

See $a-b$ & [the sum](#eq-sum) or [the figure](#fig-1).

$$
a + b
\\label{sum}
$$

<figure class="pe-figure"><svg></svg><figcaption>A.</figcaption></figure>
"""


def rendered(tmp_path: Path, text: str = TEXT, language: str = "tr") -> Page:
    """A page rendered by MkDocs (``Page.render``) with mkdocs.yml's extensions."""
    page_language.configure_markdown(config(), SITE.get(language))
    file = File("lesson.md", str(tmp_path), str(tmp_path / "site"), use_directory_urls=True)
    page = Page(None, file, config())
    page.markdown = text
    page.render(config(), Files([file]))
    return page


def test_mkdocs_checks_links_to_the_ids_the_transforms_write(tmp_path):
    # MkDocs collects anchors before the postprocessors run; without them, a link to an
    # equation or a figure would warn, which fails a strict build.
    assert rendered(tmp_path).present_anchor_ids == {"heading-x", "eq-sum", "fig-1"}, (
        "MkDocs no longer collects anchors in its mkdocs_extract_anchors treeprocessor's set: "
        "change posenc_site.transforms.page_html.add_anchors"
    )


@pytest.mark.parametrize(
    "nested",
    [
        lambda: MkdocstringsInnerExtension([]),  # mkdocstrings' docstrings
        lambda: _MarkdownExecIds(),  # markdown-exec's outputs
    ],
    ids=["mkdocstrings", "markdown-exec"],
)
def test_a_nested_conversion_leaves_its_formulas_to_the_pages_own(nested):
    md = markdown.Markdown(
        extensions=["toc", "pymdownx.arithmatex", "posenc_site.transforms.formulas", nested()],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    assert md.convert("$x$") == '<p><span class="arithmatex">\\(x\\)</span></p>'


class _MarkdownExecIds(markdown.Extension):
    """The treeprocessor markdown-exec adds to the instance that converts a block's output."""

    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's name)
        processor = markdown_exec.IdPrependingTreeprocessor(md, "")
        md.treeprocessors.register(processor, markdown_exec.IdPrependingTreeprocessor.name, 4)


def test_the_table_of_contents_and_title_are_as_before_the_transforms(tmp_path):
    page = rendered(tmp_path)
    assert "<math" in page.content
    # toc and MkDocs run the postprocessors on a heading's HTML too: the transforms leave those
    # runs alone, so the heading's formula stays LaTeX there and no note gets in.
    assert page.toc.items[0].title == "Heading \\(x\\)"
    assert page.title == "Heading \\(x\\)"


@pytest.mark.parametrize("language", ["en", "tr"])
def test_the_description_reads_the_first_paragraph_with_its_formulas_as_latex(tmp_path, language):
    page = rendered(tmp_path, language=language)
    page.meta = {}  # no description in the front matter
    assert descriptions.describe(page, page.content) == "See a-b &amp; the sum or the figure."
    html = descriptions.without_first_paragraph_note(page.content)
    assert html.startswith('<h1 id="heading-x">Heading <math ')
    assert "first paragraph" not in html


def test_a_page_without_a_paragraph_has_no_description_to_take(tmp_path):
    page = rendered(tmp_path, "# Only a title\n")
    page.meta = {}
    assert page.content.startswith("<!-- first paragraph:  --><h1")
    with pytest.raises(PluginError, match=r"lesson\.md: no description"):
        descriptions.describe(page, page.content)
