"""Search in Chromium: Turkish pages fold letters as Turkish does, English pages do not.

The words of the issue that the site's pages lack ("ışık" in three spellings, "sınır" beside
"sinir") are searched on the small project with a Turkish lesson written for them
(``WORDS_LESSON`` in conftest); the others on the site itself.
"""

from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

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
    """Type ``query``, wait until a result's title or text holds ``expected``; return all."""
    box = page.locator("input.md-search__input")
    box.click()
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


@pytest.mark.parametrize("query", ["ışık", "IŞIK", "Işık", "isik", "Isik"])
def test_turkish_search_finds_a_word_in_any_case_and_in_ascii(
    page: Page, words_site_url: str, query
):
    page.goto(words_site_url + TR + "lesson/")
    results = search(page, query, "Işık, boşlukta")
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
def test_the_word_as_typed_ranks_above_its_ascii_twin(
    page: Page, words_site_url: str, query, exact, folded
):
    page.goto(words_site_url + TR + "lesson/")
    results = search(page, query, "sinir hücresi")
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
def test_turkish_search_on_the_site_folds_letters(page: Page, site_url: str, query, expected, path):
    page.goto(site_url + TR + "lessons/positional-encoding/")
    results = search(page, query, expected)
    assert any(r.href.startswith(site_url + TR + path) and expected in r.text for r in results)
    assert all(r.href.startswith(site_url + TR) for r in results)


def test_a_letter_typed_without_a_key_is_searched(page: Page, site_url: str):
    # Playwright types the dotless ı of a US keyboard's layout as inserted text, without a
    # key event, as an accent menu or an on-screen keyboard does: Material alone searched
    # "kodlamas" and highlighted that on the page it opened.
    page.goto(site_url + TR + "lessons/positional-encoding/")
    results = search(page, "kodlaması", "Konum kodlaması")
    assert all(r.highlight.split()[:1] == ["kodlaması"] for r in results if r.highlight), results


def test_english_search_does_not_fold(page: Page, site_url: str):
    page.goto(site_url + "glossary/")
    found = search(page, "salınım", "salınım")  # the glossary's Turkish column
    assert any(r.href.startswith(site_url + "glossary/") for r in found)
    page.locator("input.md-search__input").fill("")
    page.locator("input.md-search__input").press_sequentially("salinim")
    expect(page.locator(".md-search-result__meta")).to_have_text("No matching documents")
