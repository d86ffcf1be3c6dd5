"""What every widget test measures on the page: the phone it fits, the size of its drawn text,
its sliders' height, and axe's verdict on its root."""

from playwright.sync_api import Locator

PHONE = {"width": 360, "height": 780}
SMALLEST_TEXT = 11.0  # CSS px: the smallest text a figure may draw on a phone

# The size on the screen of each text of the drawings, in CSS px (as tests/browser/
# test_browser_figures.py measures a lesson's figures); `selector` picks the drawings' texts.
TEXT_SIZES = """(root, selector = "svg text") => [...root.querySelectorAll(selector)].map(text => {
  const screen = text.getScreenCTM();
  const scale = Math.sqrt(Math.abs(screen.a * screen.d - screen.b * screen.c));
  return parseFloat(getComputedStyle(text).fontSize) * scale;
})"""
# axe's violations inside a widget's root (axe's script already on the page).
AXE = """async root => (await axe.run(root, {resultTypes: ["violations"]})).violations
  .map(rule => [rule.id, rule.nodes.slice(0, 3).map(node => node.target)])"""


def check_fits(root: Locator, setting: object, selector: str = "svg text") -> None:
    """The widget at ``root`` is no wider than its box, and draws no text below SMALLEST_TEXT
    (``setting`` names the moment in a failure)."""
    width = root.evaluate("root => [root.scrollWidth, root.clientWidth]")
    assert width[0] <= width[1], (setting, width)
    sizes = root.evaluate(TEXT_SIZES, selector)
    assert sizes, setting
    assert min(sizes) >= SMALLEST_TEXT, (setting, min(sizes))


def slider_heights(root: Locator) -> list[float]:
    """The height on the screen of each slider of the widget, in CSS px."""
    return root.locator("input[type=range]").evaluate_all(
        "inputs => inputs.map(input => input.getBoundingClientRect().height)"
    )
