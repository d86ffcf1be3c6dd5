"""Search in Chromium: Turkish pages fold letters as Turkish does, English pages do not.

The words of the issue that the site's pages lack ("ışık" in three spellings, "sınır" beside
"sinir") are searched on the small project with a Turkish lesson written for them
(``WORDS_LESSON`` in conftest); the others on the site itself. What a search finds is also
what it highlights: in its results, and on the page that a result opens.
"""

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from support.pages import type_until
from support.project import TURKISH

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
    type_until(page, query, page.locator(".md-search-result__article", has_text=expected))
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


def fold(word: str) -> str:
    """``word`` as the Turkish search compares it: in Turkish lower case (I is ı, İ is i), then
    in ASCII (ı as i; ç ğ ö ş ü â î û without their marks)."""
    lowered = word.replace("I", "ı").replace("İ", "i").lower().replace("ı", "i")
    return "".join(c for c in unicodedata.normalize("NFD", lowered) if not unicodedata.combining(c))


def letters(text: str) -> list[str]:
    """The runs of letters in ``text``."""
    return re.findall(r"[^\W\d_]+", text)


def begins(word: str, query: str) -> bool:
    """Whether the Turkish search matches ``query`` at the start of ``word``.

    It does when the word, folded, begins with the query, folded; or a run of letters in it
    does that has a letter outside ASCII (the search folds those: "(ızgara" is found by
    "izgara", "(Izgara" is not).
    """
    start = fold(query)
    return fold(word).startswith(start) or any(
        fold(run).startswith(start) for run in letters(word) if not run.isascii()
    )


# The text of the results (without Material's "Missing" line) or of the page's content where
# Material highlights (``visible``: in an element with a height, what the reader can see), one
# string for each text node, and the text of each highlight.
_HIGHLIGHTED = """(root, visible) => {
    const texts = []
    const nodes = document.createNodeIterator(root, NodeFilter.SHOW_TEXT)
    for (let node = nodes.nextNode(); node; node = nodes.nextNode())
        if (!node.parentElement.closest(".md-search-result__terms")
            && (!visible || node.parentElement.offsetHeight))
            texts.push(node.textContent)
    const marks = root.querySelectorAll(visible ? "mark[data-md-highlight]" : "mark")
    return [texts, [...marks].map(mark => mark.textContent)]
}"""


def result_highlights(page: Page, query: str) -> tuple[list[str], list[str]]:
    """The words of the search results that ``query`` matches, and the highlighted ones.

    A word of the results runs from one separator (space, hyphen) to the next, punctuation
    included, and Material highlights all of it; it matches when it begins with the query.
    """
    texts, marks = page.eval_on_selector(".md-search-result", _HIGHLIGHTED, False)
    matches = [w for text in texts for w in re.split(r"[\s-]+", text) if begins(w, query)]
    return matches, marks


def page_highlights(page: Page, query: str) -> tuple[list[str], list[str]]:
    """The words of the page's content that ``query`` matches, and the highlighted ones.

    A word of the page is a run of letters; Material highlights its beginning, as long as the
    query, and joins highlights that only spaces separate. Both lists hold the matched
    beginnings, folded, in the page's order.
    """
    texts, marks = page.eval_on_selector("[data-md-component=content]", _HIGHLIGHTED, True)
    size = len(fold(query))
    words = [w for text in texts for w in letters(text)]
    matches = [fold(w)[:size] for w in words if begins(w, query)]
    marked = [fold(w) for mark in marks for w in letters(mark)]
    return matches, marked


def open_result(tab: Page, results: list[Result], path: str) -> None:
    """Open the first result on the page at ``path`` that highlights words; wait for them."""
    href = next(r.href for r in results if urlsplit(r.href).path.endswith(path) and r.highlight)
    tab.goto(href)
    expect(tab.locator("[data-md-component=content] mark").first).to_be_attached()


@pytest.mark.parametrize(
    ("query", "word", "path"),
    [
        ("izgara", "ızgara", "lessons/images-and-video/"),  # typed in ASCII: "ızgara", "Izgara"
        ("ızgara", "ızgara", "lessons/images-and-video/"),  # and its capital, "Izgara"
        ("IZGARA", "ızgara", "lessons/images-and-video/"),  # Turkish capitals: I is ı
        ("ingilizce", "İngilizce", "contributing/"),  # İ is the capital of i
        ("ışık", "Işık", "contributing/"),  # and "IŞIK", "Işık": I among Turkish letters
        ("dondurme", "döndürme", "lessons/rotary/"),  # ö and ü typed in ASCII
    ],
)
def test_turkish_search_highlights_every_word_it_matches(
    turkish_lesson: Page, tab: Page, query, word, path
):
    results = search(turkish_lesson, query, word)
    matches, marked = result_highlights(turkish_lesson, query)
    assert marked == matches
    assert any(word in w for w in marked)
    open_result(tab, results, path)
    matches, marked = page_highlights(tab, query)
    assert marked == matches


def test_the_classroom_copy_highlights_every_word_it_matches(tab: Page, classroom: Path):
    # From disk, Material's search worker runs in a frame (the iframe-worker shim).
    tab.goto((classroom / "tr/lessons/positional-encoding.html").as_uri())
    results = search(tab, "izgara", "ızgara")
    matches, marked = result_highlights(tab, "izgara")
    assert marked == matches
    assert any("ızgara" in w for w in marked)
    open_result(tab, results, "lessons/images-and-video.html")
    matches, marked = page_highlights(tab, "izgara")
    assert marked == matches


# The search results as Material's worker sends them, before the Turkish pages' script marks
# them again, and as Material then renders them.
_WORKER_RESULTS = """
window.workerResults = []
const fields = items => items.flat().map(({ location, title, text }) => ({ location, title, text }))
window.Worker = class extends window.Worker {
    constructor(...options) {
        super(...options)
        this.addEventListener("message", ({ data }) => {
            const items = data?.data?.items
            if (items) window.workerResults.push([fields(items), () => fields(items)])
        })
    }
}"""


def test_turkish_results_are_marked_as_materials_worker_marks_them(
    worker_context: BrowserContext, site_url: str
):
    # The Turkish pages mark the results again, as Material's worker does (see the theme's
    # partials/turkish-search.html). Where folding finds no other word, the marks are the
    # worker's own: if this fails, Material marks otherwise, and that script must follow it.
    page = worker_context.new_page()
    page.add_init_script(_WORKER_RESULTS)
    try:
        page.goto(site_url + TR + "lessons/positional-encoding/")
        search(page, "numpy", "NumPy")
        worker, rendered = page.evaluate(
            "() => { const [sent, now] = window.workerResults.at(-1); return [sent, now()] }"
        )
    finally:
        page.close()
    assert rendered == worker
    assert any("<mark>" in result["text"] for result in worker)


def test_english_search_highlights_as_material_does(tab: Page, site_url: str):
    # Material's own highlighting, case-insensitive as JavaScript is: in the results every word
    # that begins with the query, on the page every occurrence of the query.
    tab.goto(site_url + "lessons/positional-encoding/")
    results = search(tab, "rotary", "rotary")
    texts, marks = tab.eval_on_selector(".md-search-result", _HIGHLIGHTED, False)
    words = [w for text in texts for w in re.split(r"[\s-]+", text)]
    assert marks == [w for w in words if w.lower().startswith("rotary")]
    open_result(tab, results, "lessons/rotary/")
    texts, marks = tab.eval_on_selector("[data-md-component=content]", _HIGHLIGHTED, True)
    occurrences = [m for text in texts for m in re.findall("rotary", text, re.IGNORECASE)]
    assert marks == occurrences
