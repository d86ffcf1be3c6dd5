"""What a reader downloads on a first visit: requests and gzipped bytes, by kind.

The heaviest lesson is held to a budget in every language (that no page loads a stylesheet,
script or font that it does not use is checked with every page's load in test_browser_site.py).
The search index is not part of a first visit: it comes
when the reader first shows an intent to search (the theme's
``partials/search-on-demand.html``), and is held to a budget of its own.
``benchmarks/page_weight.py`` prints the same numbers for every lesson.
"""

import gzip
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect

from support import page_weight
from support.project import SITE

KB = 1000
LONGEST_LESSON = "lessons/positional-encoding/"
# Language -> (requests, KB gzipped) of the heaviest lesson's first load, fonts included, by a
# reader who has not searched: the target of 9 requests and 160 KB. Measured with seven
# lessons: 8 requests, 123.0 KB in English and 126.3 KB in Turkish, of which Material's own CSS
# and JavaScript are 75 KB, the HTML 31 and 35 KB, the math font 17 KB. Turkish search needs no
# lunr-languages script (posenc_site.publish.search_split); its folding script is written into the
# page. With eight lessons, each opening with its goals and ending with a summary, linked
# references and glossary terms, the language switch's section ids and a printed answer key:
# 9 requests, 136.6 KB (longer-contexts, English) and 143.2 KB (Turkish), its HTML 38.3 and
# 45.0 KB. With the explorable figures (their scripts come after the load, not counted here),
# a complete-the-code form per lesson and the reader's progress in the site's one script:
# 8 requests, 145.9 KB and 152.6 KB, the HTML 41.4 and 48.1 KB.
BUDGET = {"en": (9, 160), "tr": (9, 160)}
HTML_BUDGET = 52 * KB
# Language -> KB gzipped of the search index, which every lesson makes larger: fetched on the
# first intent to search, it is what a reader waits for before the first results. Measured
# with seven lessons: 63.4 KB in English, 72.2 KB in Turkish (without code, formulas and
# quizzes: posenc_site.transforms.search_exclude); with eight lessons, their references and
# the API reference's 58 entries: 95.1 KB and 107.0 KB, of which the API reference is a third;
# with the lessons' goals and summaries and the glossary's entry per term: 105.2 and 117.8 KB.
INDEX_BUDGET = {"en": 110, "tr": 124}
# A word of the longest lesson's prose, in each language.
QUERY = {"en": "oscillate", "tr": "salınır"}
# Resolves once the page has run every task it has queued (the browser's idle period): what the
# scroll and the key press set off, a request for the index included, has happened by then.
IDLE = "() => new Promise(resolve => requestIdleCallback(() => resolve(), {timeout: 5000}))"


def test_budgets_cover_every_language():
    codes = {language.code for language in SITE.all}
    assert set(BUDGET) == set(INDEX_BUDGET) == set(QUERY) == codes


def heaviest_lesson(site: Path, language: str) -> str:
    """The path of the lesson of ``language`` whose HTML weighs most gzipped."""
    folder = site / SITE.get(language).url_prefix / "lessons"
    pages = folder.glob("*/index.html")
    heaviest = max(pages, key=lambda page: len(gzip.compress(page.read_bytes(), 6)))
    return heaviest.parent.relative_to(site).as_posix() + "/"


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_heaviest_lesson_loads_within_its_budget(
    page: Page, site: Path, compressed_site_url: str, language
):
    url = compressed_site_url + heaviest_lesson(site, language)
    load = page_weight.first_load(page, url)
    assert {response.status for response in load.responses} == {200}
    assert load.count_of("HTML") == 1
    assert load.size_of("HTML") <= HTML_BUDGET
    assert load.count_of("fonts") == 1  # the math font, which its formulas need
    assert load.size_of("fonts") <= 20 * KB
    assert load.count_of("search index") == 0  # on the first intent to search only
    requests, size = BUDGET[language]
    summary = {kind: (load.count_of(kind), load.size_of(kind)) for kind in page_weight.KINDS}
    assert load.requests <= requests, summary
    assert load.size <= size * KB, summary


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_search_index_comes_when_the_search_box_is_first_focused(
    page: Page, compressed_site_url: str, language
):
    root = compressed_site_url + SITE.get(language).url_prefix
    index = root + "search/search_index.json"
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page_weight.first_load(page, root + LONGEST_LESSON)
    # Reading is no intent to search: scrolling, a key that is no shortcut of Material's.
    page.mouse.wheel(0, 3000)
    page.wait_for_function("() => scrollY > 0")  # the wheel scrolls after it returns
    page.keyboard.press("x")
    page.evaluate(IDLE)
    assert index not in requested
    search = page_weight.first_search(page)
    assert [(r.url, r.status) for r in search.responses] == [(index, 200)]
    assert search.size_of("search index") <= INDEX_BUDGET[language] * KB
    page.locator(page_weight.SEARCH_BOX).press_sequentially(QUERY[language])
    article = page.locator(".md-search-result__article", has_text=QUERY[language])
    expect(article.first).to_be_attached()
    assert requested.count(index) == 1


def test_a_query_typed_while_the_index_comes_is_run_when_it_has_come(
    page: Page, compressed_site_url: str
):
    held: list[Route] = []
    page.route("**/search/search_index.json", lambda route: held.append(route))
    page.goto(compressed_site_url + LONGEST_LESSON)
    box = page.locator(page_weight.SEARCH_BOX)
    box.click()
    box.press_sequentially(QUERY["en"])
    expect(page.locator(".md-search-result__meta")).to_have_text("Initializing search")
    assert len(held) == 1
    held[0].continue_()  # the query is not typed again
    article = page.locator(".md-search-result__article", has_text=QUERY["en"])
    expect(article.first).to_be_attached()


def _press(key: str) -> Callable[[Page], None]:
    return lambda page: page.keyboard.press(key)


def _tap_search_icon(page: Page) -> None:
    page.locator("label.md-header__button[for=__search]").click()


@pytest.mark.parametrize(
    ("width", "intent"),
    [
        (1400, _press("/")),
        (1400, _press("s")),
        (1400, _press("f")),
        (400, _tap_search_icon),  # a phone: the header shows the icon, not the box
    ],
    ids=["/", "s", "f", "search icon"],
)
def test_material_ways_of_opening_search_bring_the_index(
    uncached_tab: Page, compressed_site_url: str, width: int, intent: Callable[[Page], None]
):
    page = uncached_tab
    page.set_viewport_size({"width": width, "height": 800})
    page_weight.first_load(page, compressed_site_url + LONGEST_LESSON)
    with page.expect_response(compressed_site_url + "search/search_index.json") as response:
        intent(page)
    assert response.value.status == 200
    expect(page.locator(page_weight.SEARCH_BOX)).to_be_focused()


def test_a_page_opened_from_a_search_result_highlights_the_query(
    tab: Page, compressed_site_url: str
):
    # Material highlights the h parameter's words with the index's settings: the index comes
    # at once on such a page.
    tab.goto(compressed_site_url + LONGEST_LESSON + "?h=oscillate")
    mark = tab.locator("article mark[data-md-highlight]").first
    expect(mark).to_have_text("oscillate", ignore_case=True)
