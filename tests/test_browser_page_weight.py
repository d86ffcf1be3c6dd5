"""What a reader downloads on a first visit: requests and gzipped bytes, by kind.

The longest lesson is held to a budget in every language, and no page loads a stylesheet,
script or font that it does not use. ``benchmarks/page_weight.py`` prints the same numbers
for every lesson.
"""

import pytest
from playwright.sync_api import Page

from conftest import SITE
from posenc_site import page_weight
from test_browser_site import ALL_PAGES

KB = 1000
LONGEST_LESSON = "lessons/positional-encoding/"
# Language -> (requests, KB gzipped) of the longest lesson's first load, search index and
# fonts included. The search index (70 KB in English, 79 KB in Turkish: it holds the API
# reference's docstrings, 7 KB of it those of the image and video encodings, and 10 to 11 KB
# comes from the lesson on images and video) and Material's own CSS and JavaScript (72 KB) are
# most of it; Turkish search also loads lunr's stemmer support and Turkish stemmer, two more
# requests. Measured: 191 KB in English, 207 KB in Turkish.
BUDGET = {"en": (9, 195), "tr": (11, 211)}
HTML_BUDGET = 40 * KB

# Scripts and the markup each one serves; None: every page (Material's bundle and search).
SCRIPTS = {
    "assets/javascripts/bundle.": None,
    "assets/javascripts/workers/search.": None,
    "assets/javascripts/lunr/": None,
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


def test_budget_covers_every_language():
    assert set(BUDGET) == {language.code for language in SITE.all}


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_longest_lesson_loads_within_its_budget(page: Page, compressed_site_url: str, language):
    url = compressed_site_url + SITE.get(language).url_prefix + LONGEST_LESSON
    load = page_weight.first_load(page, url)
    assert {response.status for response in load.responses} == {200}
    assert load.count_of("HTML") == 1
    assert load.size_of("HTML") <= HTML_BUDGET
    assert load.count_of("fonts") == 1  # the math font, which its formulas need
    assert load.size_of("fonts") <= 20 * KB
    assert load.count_of("search index") == 1
    requests, size = BUDGET[language]
    summary = {kind: (load.count_of(kind), load.size_of(kind)) for kind in page_weight.KINDS}
    assert load.requests <= requests, summary
    assert load.size <= size * KB, summary


@pytest.mark.parametrize("path", ALL_PAGES)
def test_page_loads_no_asset_it_does_not_use(page: Page, compressed_site_url: str, path):
    load = page_weight.first_load(page, compressed_site_url + path)
    assert load.count_of("other") == 0, [r.url for r in load.responses if r.kind == "other"]
    assert page.evaluate(_UNUSED_STYLESHEETS, compressed_site_url) == []
    for response in load.responses:
        if response.kind == "JS":
            name = response.url.removeprefix(compressed_site_url)
            served = [markup for prefix, markup in SCRIPTS.items() if name.startswith(prefix)]
            assert served, f"{name} is not a script the site knows"
            assert served[0] is None or page.locator(served[0]).count() > 0, name
    has_math = page.locator("math").count() > 0
    assert load.count_of("fonts") == has_math
