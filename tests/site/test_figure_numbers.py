"""Figures are numbered in page order, captions in the page's language: the Markdown extension
posenc_site.transforms.figure_numbers, run in this process without MkDocs."""

import markdown
import pytest
from mkdocs.exceptions import PluginError

from posenc_site.transforms.page_html import TransformError
from support.site_markdown import convert

EXTENSION = "posenc_site.transforms.figure_numbers"
CAPTIONED = (
    '<figure class="pe-figure" data-search-exclude><svg></svg><figcaption>{}</figcaption></figure>'
)
# Two figures between paragraphs: raw HTML, which Markdown stashes as it stashes the figures
# that code blocks print.
PAGE = f"a\n\n{CAPTIONED.format('First.')}\n\nb\n\n{CAPTIONED.format('Second.')}\n"


def numbered(text: str, language: str) -> str:
    return markdown.markdown(
        text, extensions=[EXTENSION], extension_configs={EXTENSION: {"language": language}}
    )


@pytest.mark.parametrize(("code", "label"), [("en", "Figure"), ("tr", "Şekil")])
def test_figures_are_numbered_in_page_order_in_the_page_language(code, label):
    assert numbered(PAGE, code) == (
        "<p>a</p>\n"
        '<figure class="pe-figure" data-search-exclude id="fig-1"><svg></svg><figcaption>'
        f'<span class="pe-figure__number">{label} 1.</span> First.</figcaption></figure>\n\n'
        "<p>b</p>\n"
        '<figure class="pe-figure" data-search-exclude id="fig-2"><svg></svg><figcaption>'
        f'<span class="pe-figure__number">{label} 2.</span> Second.</figcaption></figure>'
    )


def test_the_sites_extensions_number_figures_in_turkish_on_a_turkish_page():
    html = convert(PAGE, "tr")
    assert '<span class="pe-figure__number">Şekil 2.</span> Second.' in html
    assert "Figure" not in html


@pytest.mark.parametrize(
    "figcaption", ["", "<figcaption></figcaption>", "<figcaption> </figcaption>"]
)
def test_a_figure_without_a_caption_stops_the_build(figcaption):
    page = PAGE.replace("<figcaption>Second.</figcaption>", figcaption)
    # MkDocs prints a PluginError after the page's name, without a traceback.
    with pytest.raises(TransformError, match=r"^figure 2 has no caption: give its to_html call"):
        numbered(page, "en")
    assert issubclass(TransformError, PluginError)


def test_a_page_without_figures_is_left_as_it_is():
    text = 'See `<figure class="pe-figure">`.'
    assert numbered(text, "en") == markdown.markdown(text)


@pytest.mark.parametrize("output", ['html="true"', ""], ids=["html", "markdown"])
def test_a_figure_printed_by_a_code_block_is_numbered_once_among_the_pages(output):
    # Without html="true" the output is Markdown, converted by an instance of markdown-exec's.
    block = "print('{}')".format(CAPTIONED.format("Printed."))
    text = PAGE + f'\n```python exec="on" {output}\n{block}\n```\n\n' + PAGE
    html = convert(text, execute=True)
    assert [html.count(f'id="fig-{n}"') for n in range(1, 7)] == [1, 1, 1, 1, 1, 0]
    assert html.count("pe-figure__number") == 5
    assert '<span class="pe-figure__number">Figure 3.</span> Printed.' in html
