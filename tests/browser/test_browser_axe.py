"""axe-core on every page of the site, Material's parts included, in both palettes; and whether
every page fits a phone's screen and a desktop's (support.screen_fit).

Each page is loaded once and read twice by axe: in the light palette on a desktop screen
(sidebars shown), then, switched to the dark palette with the header's toggle as a reader would,
on a phone's screen (Lighthouse's phone: 412 × 823 CSS pixels), where targets are smaller and
closer together. Between the two, the same load is laid out at each size of
``support.screen_fit.SIZES`` in both colour schemes and measured: each page is loaded and
rendered whole once for both checks, not once for each (that load and render took 0.2 s on
the glossary, 0.3 s on a lesson, 1.8 s on the API reference). The 404 pages are read too, as
a reader following a broken link sees them.

axe-core runs as its own documentation shows (``axe.run`` in the page), not through
axe-playwright-python: that package's ``run`` injects the whole script (some 550 KB) again on
every call and carries axe's whole result back (the passed, incomplete and inapplicable rules
too), where this test reads only the violations. Here the script is injected once per page and
serves both palettes; axe details only violations (``resultTypes``, as that package asked too:
the other result types keep one element each, and no violation is left out) and hands back
only each rule's id and first elements.
Measured with ``pytest -n 0`` on the 26 pages, on a 2-core machine shared with other work (load
average 4 to 5): 81 s of test time through axe-playwright-python, 70 s this way; with the
screen checks of the same pages, 103 s as two tests, each loading the page, and 99 s as one.
"""

import pytest
from playwright.sync_api import Page, expect

from support import axe, screen_fit
from support.pages import ALL_PAGES
from support.project import TURKISH

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
def axe_script() -> str:
    return axe.script()


@pytest.mark.parametrize("path", ALL_PAGES + NOT_FOUND_PAGES)
def test_page_has_no_accessibility_violation_and_fits_every_screen(
    axe_script: str, tab: Page, site_url: str, path
):
    tab.emulate_media(color_scheme="light")
    tab.set_viewport_size(SCREENS["light"])
    tab.goto(site_url + path)
    body = tab.locator("body")
    expect(body).to_have_attribute("data-md-color-scheme", PALETTES["light"])
    tab.add_style_tag(content=RENDER_ALL)
    tab.evaluate(axe_script)  # once: the palette changes in place, the document stays
    found = {"light": tab.evaluate(axe.VIOLATIONS)}
    unfit = screen_fit.problems(tab)
    tab.emulate_media(color_scheme="light")
    tab.set_viewport_size(SCREENS["light"])
    expect(body).to_have_attribute("data-md-color-scheme", PALETTES["light"])
    tab.locator('label[for="__palette_1"]').click()  # the toggle: "Switch to dark mode"
    expect(body).to_have_attribute("data-md-color-scheme", PALETTES["dark"])
    tab.set_viewport_size(SCREENS["dark"])
    # The phone's layout changes colours of the navigation with a transition: read them once
    # they have ended.
    tab.wait_for_function(SETTLED)
    found["dark"] = tab.evaluate(axe.VIOLATIONS)
    assert (found, unfit) == ({"light": {}, "dark": {}}, [])
