"""axe-core on every page of the site, Material's parts included, in both palettes.

Each page is loaded once and read twice: in the light palette on a desktop screen (sidebars
shown), then, switched to the dark palette with the header's toggle as a reader would, on a
phone's screen (Lighthouse's phone: 412 × 823 CSS pixels), where targets are smaller and closer
together. The 404 pages are read too, as a reader following a broken link sees them.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from support.pages import ALL_PAGES
from support.project import TURKISH
from support.tools import npm_file

NOT_FOUND_PAGES = ["404.html", TURKISH.url_prefix + "404.html"]
# Palette -> Material's scheme, and the screen it is read on. mkdocs.yml picks the palette from
# the reader's setting when the page loads; the toggle switches it afterwards (Material does not
# follow a change of the setting while the page is open).
PALETTES = {"light": "default", "dark": "slate"}
SCREENS = {"light": {"width": 1280, "height": 800}, "dark": {"width": 412, "height": 823}}
# The theme's style skips the rendering of what lies far below the screen until the reader
# nears it (content-visibility, see theme/partials/theme-style.html); axe cannot read colours
# and sizes the browser has not rendered yet. Rendered all at once, every element is checked,
# as the reader sees it on reaching it.
RENDER_ALL = "* { content-visibility: visible !important; }"
SETTLED = "() => !document.getAnimations().some(animation => animation instanceof CSSTransition)"


@pytest.fixture(scope="session")
def axe() -> Axe:
    """axe-core as pinned in tests/npm (axe-playwright-python runs it in the page).

    axe-playwright-python bundles an older axe-core (4.12), whose colour-contrast rule takes
    three times as long on these pages as 4.14's, with the same findings.
    """
    return Axe.from_file(npm_file("axe-core/axe.min.js"))


def violations(axe: Axe, page: Page) -> dict[str, list]:
    """axe's rule id -> the first few elements that break it."""
    found = axe.run(page).response["violations"]
    return {rule["id"]: [node["target"] for node in rule["nodes"][:5]] for rule in found}


@pytest.mark.parametrize("path", ALL_PAGES + NOT_FOUND_PAGES)
def test_page_has_no_accessibility_violation(axe: Axe, tab: Page, site_url: str, path):
    tab.emulate_media(color_scheme="light")
    tab.set_viewport_size(SCREENS["light"])
    tab.goto(site_url + path)
    body = tab.locator("body")
    expect(body).to_have_attribute("data-md-color-scheme", PALETTES["light"])
    tab.add_style_tag(content=RENDER_ALL)
    found = {"light": violations(axe, tab)}
    tab.locator('label[for="__palette_1"]').click()  # the toggle: "Switch to dark mode"
    expect(body).to_have_attribute("data-md-color-scheme", PALETTES["dark"])
    tab.set_viewport_size(SCREENS["dark"])
    # The phone's layout changes colours of the navigation with a transition: read them once
    # they have ended.
    tab.wait_for_function(SETTLED)
    found["dark"] = violations(axe, tab)
    assert found == {"light": {}, "dark": {}}
