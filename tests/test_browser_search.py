"""Search in Chromium: Turkish pages fold letters as Turkish does, English pages do not.

The words of the issue that the site's pages lack ("ışık" in three spellings, "sınır" beside
"sinir") are searched on the small project with a Turkish lesson written for them
(``WORDS_LESSON`` in conftest); the others on the site itself.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from conftest import TURKISH

TR = TURKISH.url_prefix
_RESULTS = """articles => articles.map(article => ({
    href: article.closest("a").href,
    score: Number(article.dataset.mdScore),
    title: article.querySelector("h1, h2").textContent,
    text: article.textContent,
    missing: article.querySelector(".md-search-result__terms")?.textContent ?? "",
}))"""


@dataclass(frozen=True)
class Result:
    """One article or section of the search results."""

    href: str
    score: float
    title: str
    text: str
    missing: str  # Material's "Missing: ..." line, empty when every query word matched

    @property
    def highlight(self) -> str:
        """What the page that the result opens will highlight (its ``h`` parameter)."""
        return parse_qs(urlsplit(self.href).query).get("h", [""])[0]


def search(page: Page, query: str, expected: str) -> list[Result]:
    """Type ``query``, wait until a result's title or text holds ``expected``; return all.

    The box is emptied first, and the results of an earlier search with it.
    """
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("")
    box.press("Backspace")  # a key on the empty box: Material runs the empty query
    expect(page.locator(".md-search-result__article")).to_have_count(0)
    hit = page.locator(".md-search-result__article", has_text=expected)
    # A query typed before the search worker has its index is not run again once the index
    # is ready: type it again until the results come, for up to 10 s.
    for _ in range(5):
        box.fill("")
        box.press_sequentially(query)
        try:
            expect(hit.first).to_be_attached(timeout=2_000)
            break
        except AssertionError:
            continue
    expect(hit.first).to_be_attached()
    page.wait_for_timeout(300)  # let the result list settle, then read it in one go
    return [Result(**r) for r in page.eval_on_selector_all(".md-search-result__article", _RESULTS)]


def score_of(results: list[Result], title: str) -> float:
    """The score of the section titled ``title``; 0 when it is not among the results."""
    return next((r.score for r in results if r.title == title), 0.0)


def opened(context: BrowserContext, url: str) -> Iterator[Page]:
    """``url`` in a tab of its own, for the searches of a module: they change only the box."""
    page = context.new_page()
    page.goto(url)
    yield page
    page.close()


@pytest.fixture(scope="module")
def words_lesson(worker_context: BrowserContext, words_site_url: str) -> Iterator[Page]:
    """The Turkish lesson of the small project with the words (``WORDS_LESSON``)."""
    yield from opened(worker_context, words_site_url + TR + "lesson/")


@pytest.fixture(scope="module")
def turkish_lesson(worker_context: BrowserContext, site_url: str) -> Iterator[Page]:
    """The site's first lesson in Turkish."""
    yield from opened(worker_context, site_url + TR + "lessons/positional-encoding/")


@pytest.mark.parametrize("query", ["ışık", "IŞIK", "Işık", "isik", "Isik"])
def test_turkish_search_finds_a_word_in_any_case_and_in_ascii(words_lesson: Page, query):
    results = search(words_lesson, query, "Işık, boşlukta")
    # Both spellings of the word: "Işık" (capital dotless I) and "ışık".
    assert score_of(results, "Birinci bölüm") > 0, results
    assert score_of(results, "İkinci bölüm") > 0, results
    assert score_of(results, "Üçüncü bölüm") == 0  # nothing else
    assert score_of(results, "Dördüncü bölüm") == 0
    # No form of the query is listed as missing ("Isik": not "ısik", which no word begins).
    assert [r.missing for r in results] == [""] * len(results)


@pytest.mark.parametrize(
    ("query", "exact", "folded"),
    [
        ("sınır", "Üçüncü bölüm", "Dördüncü bölüm"),  # "sınırı" first, then "sinir"
        ("sinir", "Dördüncü bölüm", "Üçüncü bölüm"),  # "sinir" first, then "sınırı"
        ("SINIR", "Üçüncü bölüm", "Dördüncü bölüm"),  # Turkish upper case of "sınır"
    ],
)
def test_the_word_as_typed_ranks_above_its_ascii_twin(words_lesson: Page, query, exact, folded):
    results = search(words_lesson, query, "sinir hücresi")
    assert score_of(results, exact) > score_of(results, folded) > 0, results


@pytest.mark.parametrize(
    ("query", "expected", "path"),
    [
        ("salinim", "salınım", "glossary/"),
        ("dogru", "doğrusal", "lessons/alibi-t5/"),
        ("İNGİLİZCE", "İngilizce", "contributing/"),
        ("Ingilizce", "İngilizce", "contributing/"),
    ],
)
def test_turkish_search_on_the_site_folds_letters(
    turkish_lesson: Page, site_url: str, query, expected, path
):
    results = search(turkish_lesson, query, expected)
    assert any(r.href.startswith(site_url + TR + path) and expected in r.text for r in results)
    assert all(r.href.startswith(site_url + TR) for r in results)


def test_a_letter_typed_without_a_key_is_searched(turkish_lesson: Page):
    # Playwright types the dotless ı of a US keyboard's layout as inserted text, without a
    # key event, as an accent menu or an on-screen keyboard does: Material alone searched
    # "kodlamas" and highlighted that on the page it opened.
    results = search(turkish_lesson, "kodlaması", "Konum kodlaması")
    assert all(r.highlight.split()[:1] == ["kodlaması"] for r in results if r.highlight), results


def test_english_search_does_not_fold(tab: Page, site_url: str):
    tab.goto(site_url + "glossary/")
    found = search(tab, "salınım", "salınım")  # the glossary's Turkish column
    assert any(r.href.startswith(site_url + "glossary/") for r in found)
    tab.locator("input.md-search__input").fill("")
    tab.locator("input.md-search__input").press_sequentially("salinim")
    expect(tab.locator(".md-search-result__meta")).to_have_text("No matching documents")
