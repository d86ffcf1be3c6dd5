"""Every page of the built site in Chromium: nothing from other hosts, no console error, no
stylesheet, script or font that the page does not use; formulas and the language switcher."""

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import ConsoleMessage, Error, Page, Request, expect

from support import page_weight
from support.pages import ALL_PAGES
from support.project import SITE

# Scripts and the markup each one serves; None: every page (Material's bundle and search).
SCRIPTS = {
    "assets/javascripts/bundle.": None,
    "assets/javascripts/workers/search.": None,
    "assets/posenc.js": None,  # quizzes and figures where they are, progress on every page
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


@dataclass
class Watched:
    """The worker's tab with its cache off, and what it reported (see ``watched``)."""

    page: Page
    foreign: list[str] = field(default_factory=list)  # requests to other hosts
    errors: list[str] = field(default_factory=list)  # console errors, uncaught exceptions


@pytest.fixture
def watched(uncached_tab: Page, site_url: str) -> Iterator[Watched]:
    """The worker's tab, its cache off, its requests and errors recorded until the test ends."""
    tab = uncached_tab
    watched = Watched(tab)

    def request(r: Request) -> None:
        if not r.url.startswith(site_url):
            watched.foreign.append(r.url)

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            watched.errors.append(message.text)

    def page_error(error: Error) -> None:
        watched.errors.append(str(error))

    listeners = {"request": request, "console": console, "pageerror": page_error}
    for event, listener in listeners.items():
        tab.on(event, listener)
    yield watched
    for event, listener in listeners.items():
        tab.remove_listener(event, listener)


@pytest.mark.parametrize("path", ALL_PAGES)
def test_page_loads_only_what_it_uses_from_the_site_without_console_errors(
    watched: Watched, site_url: str, path
):
    # One first load of the page (posenc_site.page_weight, every file from the server)
    # serves every check.
    page = watched.page
    load = page_weight.first_load(page, site_url + path)
    assert watched.foreign == []
    assert watched.errors == []
    assert load.count_of("other") == 0, [r.url for r in load.responses if r.kind == "other"]
    assert page.evaluate(_UNUSED_STYLESHEETS, site_url) == []
    for response in load.responses:
        if response.kind == "JS":
            name = response.url.removeprefix(site_url)
            served = [markup for prefix, markup in SCRIPTS.items() if name.startswith(prefix)]
            assert served, f"{name} is not a script the site knows"
            assert served[0] is None or page.locator(served[0]).count() > 0, name
    # The math font: on a page with formulas (the theme preloads it there), never elsewhere.
    has_math = page.locator("math").count() > 0
    assert load.count_of("fonts") == has_math


# The size of every formula the page shows (not in a closed <details>, a hidden tab...), read
# in one call: the API reference has hundreds.
_SHOWN_FORMULA_SIZES = """formulas => formulas
    .filter(formula => formula.checkVisibility({visibilityProperty: true}))
    .map(formula => formula.getBoundingClientRect())
    .map(box => [box.width, box.height])"""


@pytest.mark.parametrize("path", ["lessons/positional-encoding/", "tr/reference/api/"])
def test_formulas_render_with_a_size(tab: Page, site_url: str, path):
    tab.goto(site_url + path)
    sizes = tab.eval_on_selector_all("math", _SHOWN_FORMULA_SIZES)
    assert len(sizes) > 3
    assert [size for size in sizes if not (size[0] > 1 and size[1] > 1)] == []


@pytest.mark.parametrize(
    ("path", "other"),
    [
        ("lessons/positional-encoding/", "tr/lessons/positional-encoding/"),
        ("tr/reference/api/", "reference/api/"),
    ],
)
def test_language_switcher_stays_on_the_same_page(tab: Page, site_url: str, path, other):
    tab.goto(site_url + path)
    tab.locator(".md-header__option .md-select").hover()
    target_language = SITE.of_url(other).code
    tab.locator(f'a.md-select__link[hreflang="{target_language}"]').click()
    expect(tab).to_have_url(site_url + other)


@pytest.mark.parametrize("path", ["lessons/images-and-video/", "tr/lessons/todays-models/"])
def test_a_lesson_skips_the_layout_of_its_middle_only(tab: Page, site_url: str, path):
    # theme/partials/theme-style.html: the middle sections wait to be laid out; the first
    # and the last two do not, or a block above the footer moves it while a checker reads
    # the page (Lighthouse measured a reference link against the footer's dark background).
    tab.goto(site_url + path)
    sections = tab.evaluate(
        """() => {
          const blocks = [...document.querySelector(".md-content__inner").children];
          const h2 = blocks.filter(b => b.tagName === "H2");
          const part = b => h2.filter(h => h.compareDocumentPosition(b)
            & Node.DOCUMENT_POSITION_FOLLOWING).length;
          return blocks.filter(b => !/^H[234]$/.test(b.tagName)).map(b => [part(b),
            getComputedStyle(b).contentVisibility, b.matches(".pe-quizzes")]);
        }"""
    )
    n_sections = max(part for part, _, _ in sections)
    for part, visibility, quiz in sections:
        middle = 2 <= part <= n_sections - 2 and not quiz
        assert visibility == ("auto" if middle else "visible"), (part, visibility, n_sections)
