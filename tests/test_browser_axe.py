"""axe-core on every page of the site, Material's parts included, in both palettes.

Each page is read once in the light palette on a desktop screen (sidebars shown) and once in
the dark palette on a phone's (Lighthouse's phone: 412 × 823 CSS pixels), where targets are
smaller and closer together.
"""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, expect

from test_browser_site import ALL_PAGES

# Browser colour scheme -> Material's palette: mkdocs.yml picks it from the reader's setting.
PALETTES = {"light": "default", "dark": "slate"}
SCREENS = {"light": {"width": 1280, "height": 800}, "dark": {"width": 412, "height": 823}}
# The theme's style skips the rendering of what lies far below the screen until the reader
# nears it (content-visibility, see theme/partials/theme-style.html); axe cannot read colours
# and sizes the browser has not rendered yet. Rendered all at once, every element is checked,
# as the reader sees it on reaching it.
RENDER_ALL = "* { content-visibility: visible !important; }"


@pytest.fixture(scope="module")
def axe() -> Axe:
    return Axe()


@pytest.mark.parametrize("scheme", PALETTES)
@pytest.mark.parametrize("path", ALL_PAGES)
def test_page_has_no_accessibility_violation(
    browser: Browser, site_url: str, axe: Axe, path: str, scheme: str
):
    context = browser.new_context(color_scheme=scheme, viewport=SCREENS[scheme])
    page = context.new_page()
    page.goto(site_url + path)
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", PALETTES[scheme])
    page.add_style_tag(content=RENDER_ALL)
    violations = axe.run(page).response["violations"]
    context.close()
    found = {
        violation["id"]: [node["target"] for node in violation["nodes"][:5]]
        for violation in violations
    }
    assert found == {}
