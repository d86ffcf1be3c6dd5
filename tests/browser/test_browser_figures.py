"""The figures of every lesson on a phone (360 px wide), in both languages: text a reader can
read, nothing drawn outside the figure, and a numbered caption under each one.

One load per page serves the three checks; every figure of the page is read in one call. The
numbering itself (posenc_site.transforms.figure_numbers) is checked on HTML, without a browser,
in tests/site/test_figure_numbers.py.
"""

import re

import pytest
from playwright.sync_api import Page

from support.pages import FIGURE_PAGES
from support.project import SITE

PHONE = {"width": 360, "height": 780}
SMALLEST_TEXT = 11.0  # CSS px: the smallest text a figure may draw on a phone

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
