"""The figures of every lesson on a phone (360 px wide), in both languages: text a reader can
read, nothing drawn outside the figure, and a numbered caption under each one.

One load per page serves the three checks; every figure of the page is read in one call. The
numbering itself (posenc_site.transforms.figure_numbers) is checked at the end, on HTML, without a
browser.
"""

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError
from playwright.sync_api import Page

from conftest import ROOT, SITE
from posenc_site import context
from posenc_site.transforms import figure_numbers as figures
from test_browser_site import ALL_PAGES

PHONE = {"width": 360, "height": 780}
SMALLEST_TEXT = 11.0  # CSS px: the smallest text a figure may draw on a phone
FIGURE_PAGES = [path for path in ALL_PAGES if "lessons/" in path]

# Lay out everything now: the theme defers the layout of what is off-screen
# (content-visibility), and a figure far down the page would report an empty box.
_LAY_OUT_ALL = "*{content-visibility: visible !important}"

# For each figure, in page order: its id, its caption's text and, for each text element of its
# SVG, the text, its size on the screen and its box in the SVG's own units beside the viewBox.
#
# Size: a text's font size (getComputedStyle) is in the units of its own coordinate system;
# getScreenCTM() maps that system to CSS px of the page: the viewBox's scaling to the size the
# SVG is shown at, and the text's own transform (a rotated axis label). The square root of the
# matrix's determinant is that map's scale whatever the rotation, so font size × scale is the
# height of the text's em on the screen in CSS px, the measure CSS's font-size is given in.
# A box's height would be larger (it holds the line's ascent and descent) and a rotated
# label's box would give its length, not its size. A <tspan> (a superscript) may set a smaller
# size of its own: each text's smallest size is kept.
#
# Inside: getBBox() is the text's box in its own coordinate system; its four corners are
# mapped to the SVG's user units (the viewBox's) through the text's matrix relative to the
# SVG's, so a rotated or moved text is placed where it is drawn.
_FIGURES = """figures => figures.map(figure => {
  const svg = figure.querySelector('svg[role="img"]');  // not a button's icon
  const view = svg.viewBox.baseVal;
  const toSvg = svg.getScreenCTM().inverse();
  const texts = [...svg.querySelectorAll("text")]
    .filter(text => text.textContent.trim())
    .map(text => {
      const screen = text.getScreenCTM();
      const scale = Math.sqrt(Math.abs(screen.a * screen.d - screen.b * screen.c));
      const sizes = [text, ...text.querySelectorAll("tspan")]
        .map(part => parseFloat(getComputedStyle(part).fontSize) * scale);
      const box = text.getBBox();
      const matrix = toSvg.multiply(screen);
      const corners = [[box.x, box.y], [box.x + box.width, box.y],
                       [box.x, box.y + box.height], [box.x + box.width, box.y + box.height]]
        .map(([x, y]) => new DOMPoint(x, y).matrixTransform(matrix));
      return {
        text: text.textContent,
        size: Math.min(...sizes),
        left: Math.min(...corners.map(p => p.x)) - view.x,
        right: view.x + view.width - Math.max(...corners.map(p => p.x)),
        top: Math.min(...corners.map(p => p.y)) - view.y,
        bottom: view.y + view.height - Math.max(...corners.map(p => p.y)),
      };
    });
  const caption = figure.querySelector("figcaption");
  return {id: figure.id, caption: caption ? caption.textContent : null, texts};
})"""


def test_the_figure_pages_are_every_page_with_figures(site: Path):
    with_figures = {
        str(page.parent.relative_to(site)) + "/"
        for page in site.rglob("index.html")
        if '<figure class="pe-figure"' in page.read_text(encoding="utf-8")
    }
    assert with_figures == set(FIGURE_PAGES)


@pytest.mark.parametrize("path", FIGURE_PAGES)
def test_figures_are_readable_inside_their_box_and_numbered(tab: Page, site_url: str, path):
    tab.set_viewport_size(PHONE)
    tab.goto(site_url + path)
    tab.add_style_tag(content=_LAY_OUT_ALL)
    figures = tab.eval_on_selector_all("figure.pe-figure", _FIGURES)
    assert figures
    label = SITE.of_url(path).strings["figure"]["label"]
    problems = []
    for number, figure in enumerate(figures, start=1):
        expected = label.format(number=number)
        where = f"figure {number} ({figure['id'] or 'no id'})"
        caption = figure["caption"]
        if caption is None or not re.match(rf"{re.escape(expected)}\s+\S", caption):
            problems.append(f"{where}: caption {caption!r} does not start {expected!r}")
        if figure["id"] != f"fig-{number}":
            problems.append(f"{where}: id is not fig-{number}")
        for text in figure["texts"]:
            if text["size"] < SMALLEST_TEXT:
                problems.append(f"{where}: {text['text']!r} is {text['size']:.1f} px")
            outside = [side for side in ("left", "right", "top", "bottom") if text[side] < -0.5]
            for side in outside:
                problems.append(
                    f"{where}: {text['text']!r} reaches {-text[side]:.1f} past the {side} edge"
                )
    assert not problems, f"{path}:\n" + "\n".join(problems)


# The numbering itself (posenc_site.transforms.figure_numbers), on a page's HTML, without a build.

_CAPTIONED = (
    '<figure class="pe-figure" data-search-exclude><svg></svg><figcaption>{}</figcaption></figure>'
)


def _page(uri="lessons/x.md"):
    return SimpleNamespace(file=SimpleNamespace(src_uri=uri), present_anchor_ids={"intro"})


@pytest.mark.parametrize(("code", "label"), [("en", "Figure"), ("tr", "Şekil")])
def test_figures_are_numbered_in_page_order_in_the_page_language(code, label):
    page = _page()
    html = "<p>a</p>" + _CAPTIONED.format("First.") + "<p>b</p>" + _CAPTIONED.format("Second.")
    with context.building(ROOT / "docs", SITE, code):
        numbered = figures.number(html, page)
    assert numbered == (
        "<p>a</p>"
        '<figure class="pe-figure" data-search-exclude id="fig-1"><svg></svg><figcaption>'
        f'<span class="pe-figure__number">{label} 1.</span> First.</figcaption></figure>'
        "<p>b</p>"
        '<figure class="pe-figure" data-search-exclude id="fig-2"><svg></svg><figcaption>'
        f'<span class="pe-figure__number">{label} 2.</span> Second.</figcaption></figure>'
    )
    assert page.present_anchor_ids == {"intro", "fig-1", "fig-2"}  # links to them are checked


@pytest.mark.parametrize(
    "figcaption", ["", "<figcaption></figcaption>", "<figcaption> </figcaption>"]
)
def test_a_figure_without_a_caption_stops_the_build_naming_the_page(figcaption):
    html = _CAPTIONED.format("First.") + (
        f'<figure class="pe-figure" data-search-exclude><svg></svg>{figcaption}</figure>'
    )
    with (
        context.building(ROOT / "docs", SITE, "en"),
        pytest.raises(PluginError, match=r"lessons/x\.md: figure 2 has no caption"),
    ):
        figures.number(html, _page())


def test_a_page_without_figures_is_left_as_it_is():
    page = _page()
    html = '<p>See <code>&lt;figure class="pe-figure"&gt;</code>.</p>'
    with context.building(ROOT / "docs", SITE, "en"):
        assert figures.number(html, page) == html
    assert page.present_anchor_ids == {"intro"}
