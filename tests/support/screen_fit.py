"""Whether a page fits the screen of a phone (360 and 412 px wide) and of a desktop.

Nothing wider than the screen, every quiz control in sight once its question is, formulas and
tables that say they scroll, equation numbers in sight, names in tables whole. Read in both
colour schemes at each size, on a page that is already loaded and wholly laid out (the theme
defers the layout of what is off-screen with content-visibility, which would report the boxes
of far-away controls as empty): the viewport and the colour scheme change in place.
tests/browser/test_browser_axe.py reads every page this way in the load that axe reads.
"""

from playwright.sync_api import Page

SIZES = [(360, 780), (412, 915), (1440, 900)]

# The controls of the quizzes that a reader must reach, and where each one is cut off: by the
# screen, or by a box that scrolls sideways (a reader sees no cue that it does).
_HIDDEN_CONTROLS = """() => {
  const out = [];
  for (const control of document.querySelectorAll(
      ".pe-quiz input, .pe-quiz select, .pe-quiz button")) {
    if (!control.checkVisibility({visibilityProperty: true})) continue;
    const box = control.getBoundingClientRect();
    let right = window.innerWidth, left = 0;
    for (let up = control.parentElement; up; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") {
        const clip = up.getBoundingClientRect();
        right = Math.min(right, clip.right);
        left = Math.max(left, clip.left);
      }
    }
    if (box.right > right + 0.5 || box.left < left - 0.5)
      out.push(`${control.closest("form").id} ${control.outerHTML.slice(0, 60)}`);
  }
  return out;
}"""


# Boxes that scroll sideways (display formulas, tables) and show no cue that they do; equation
# numbers out of sight; names in table cells broken across lines.
_UNSEEN_OVERFLOW = """() => {
  const out = [];
  for (const box of document.querySelectorAll(
      ".pe-equation__body, .md-typeset__scrollwrap")) {
    if (!box.checkVisibility() || box.scrollWidth <= box.clientWidth + 1) continue;
    if (!getComputedStyle(box).backgroundImage.includes("gradient"))
      out.push(`scrolls without a cue: ${box.parentElement.id || box.className}`);
  }
  for (const number of document.querySelectorAll(".pe-equation-number")) {
    const box = number.getBoundingClientRect();
    if (box.width === 0 || box.right > window.innerWidth)
      out.push(`equation number out of sight: ${number.textContent}`);
  }
  for (const code of document.querySelectorAll("td code")) {
    if (code.checkVisibility() && code.getClientRects().length > 1)
      out.push(`broken across lines: ${code.textContent}`);
  }
  return out;
}"""


def problems(tab: Page) -> list[str]:
    """What does not fit, at each size of ``SIZES`` in both colour schemes, as ``where: what``.

    ``tab`` holds a loaded page whose style renders everything at once; it is left at the last
    size, with the colour scheme of the browser.
    """
    found = []
    for width, height in SIZES:
        tab.set_viewport_size({"width": width, "height": height})
        for scheme in ("light", "dark"):
            tab.emulate_media(color_scheme=scheme)
            where = f"{width} px, {scheme}"
            scroll_width = tab.evaluate("document.documentElement.scrollWidth")
            if scroll_width > width:
                found.append(f"{where}: the page is {scroll_width} px wide")
            found += [f"{where}: out of sight: {c}" for c in tab.evaluate(_HIDDEN_CONTROLS)]
            found += [f"{where}: {problem}" for problem in tab.evaluate(_UNSEEN_OVERFLOW)]
    tab.emulate_media(color_scheme=None)
    return found
