"""Every page of the built site in Chromium: nothing from other hosts, no console error, no
stylesheet, script or font that the page does not use; formulas and the language switcher."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conftest import SITE, TURKISH
from posenc_site import page_weight

PAGES = [
    "",
    "lessons/positional-encoding/",
    "lessons/learned-embeddings/",
    "lessons/rotary/",
    "lessons/longer-contexts/",
    "lessons/alibi-t5/",
    "lessons/comparison/",
    "lessons/images-and-video/",
    "reference/api/",
    "contributing/",
    "glossary/",
    "translation-status/",
]
ALL_PAGES = PAGES + [TURKISH.url_prefix + page for page in PAGES]


def test_the_page_list_covers_the_site(site: Path):
    built = {str(p.parent.relative_to(site)) for p in site.rglob("index.html")}
    listed = {page.rstrip("/") or "." for page in ALL_PAGES}
    assert built == listed


# Scripts and the markup each one serves; None: every page (Material's bundle and search).
SCRIPTS = {
    "assets/javascripts/bundle.": None,
    "assets/javascripts/workers/search.": None,
    "assets/quiz.js": ".pe-quiz",
}
_UNUSED_STYLESHEETS = """origin => [...document.styleSheets]
    .filter(sheet => sheet.href && sheet.href.startsWith(origin))
    .filter(sheet => {
        const selectors = [];
        const walk = rules => { for (const rule of rules) {
            // A rule that only sets custom properties (--x) does nothing by itself.
            const styles = rule.style ? [...rule.style] : [];
            if (rule.selectorText && !styles.every(name => name.startsWith("--"))) {
                selectors.push(rule.selectorText);
            }
            if (rule.cssRules) walk(rule.cssRules);
        } };
        walk(sheet.cssRules);
        return !selectors.some(selector => {
            // [data-md-copying]: set by Material while the copy button reads a block
            const atRest = selector.replaceAll("[data-md-copying]", "");
            try { return document.querySelector(atRest) !== null; } catch { return false; }
        });
    })
    .map(sheet => sheet.href)"""


@pytest.mark.parametrize("path", ALL_PAGES)
def test_page_loads_only_what_it_uses_from_the_site_without_console_errors(
    page: Page, site_url: str, path
):
    # One first load of the page (posenc_site.page_weight: an empty cache, until the network
    # is idle) serves every check.
    foreign, errors = [], []
    page.on("request", lambda r: None if r.url.startswith(site_url) else foreign.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    load = page_weight.first_load(page, site_url + path)
    assert foreign == []
    assert errors == []
    assert load.count_of("other") == 0, [r.url for r in load.responses if r.kind == "other"]
    assert page.evaluate(_UNUSED_STYLESHEETS, site_url) == []
    for response in load.responses:
        if response.kind == "JS":
            name = response.url.removeprefix(site_url)
            served = [markup for prefix, markup in SCRIPTS.items() if name.startswith(prefix)]
            assert served, f"{name} is not a script the site knows"
            assert served[0] is None or page.locator(served[0]).count() > 0, name
    # The math font: never on a page without formulas. On a page with formulas, the browser
    # fetches it once it draws one, on the first screen or later (the theme leaves the middle
    # of a long page undrawn until the reader nears it).
    has_math = page.locator("math").count() > 0
    assert load.count_of("fonts") <= has_math


@pytest.mark.parametrize("path", ["lessons/positional-encoding/", "tr/reference/api/"])
def test_formulas_render_with_a_size(page: Page, site_url: str, path):
    page.goto(site_url + path)
    visible = [formula for formula in page.locator("math").all() if formula.is_visible()]
    assert len(visible) > 3
    for formula in visible:
        box = formula.bounding_box()
        assert box is not None
        assert box["width"] > 1
        assert box["height"] > 1


@pytest.mark.parametrize(
    ("path", "other"),
    [
        ("lessons/positional-encoding/", "tr/lessons/positional-encoding/"),
        ("tr/reference/api/", "reference/api/"),
    ],
)
def test_language_switcher_stays_on_the_same_page(page: Page, site_url: str, path, other):
    page.goto(site_url + path)
    page.locator(".md-header__option .md-select").hover()
    target_language = SITE.of_url(other).code
    page.locator(f'a.md-select__link[hreflang="{target_language}"]').click()
    expect(page).to_have_url(site_url + other)
