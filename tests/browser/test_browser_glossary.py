"""The glossary at hand, in Chromium and in both languages: a term's link in a lesson carries the
term's note as its title (the browser's tooltip) and description, and lands on its entry;
search ranks a lesson first and returns a glossary term as a result of its own, not the whole
glossary."""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from posenc_site.i18n.glossary import entry_id, load
from support.docblocks import DOCS
from support.pages import search
from support.project import SITE

TERMS = load(DOCS)
LANGUAGES = [language.code for language in SITE.all]
LESSON = "lessons/rotary/"


def _note(language: str, anchor: str) -> str:
    (term,) = [term for term in TERMS if entry_id(term, language) == anchor]
    return term.notes[language].replace("`", "")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_terms_link_carries_its_note_as_its_title_and_description(
    tab: Page, site_url: str, language
):
    # The note is the link's title: the browser shows it on hover, and a screen reader reads
    # it as the link's description. (Material's tooltips drew it too, but mounting one per
    # link doubled the longest Turkish lesson's blocking time: 102-136 ms to 254-259 ms.)
    tab.goto(site_url + SITE.get(language).url_prefix + LESSON)
    links = tab.locator('article a[href*="glossary/#"]')
    expect(links.nth(9)).to_be_attached()  # the lesson links its terms
    for index in (0, 5, 9):
        link = links.nth(index)
        note = _note(language, str(link.get_attribute("href")).split("#")[1])
        expect(link).to_have_attribute("title", note)
        expect(link).to_have_accessible_description(note)
    expect(tab.locator(".md-tooltip2")).to_have_count(0)


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_terms_link_lands_on_its_entry(tab: Page, site_url: str, language, width):
    root = site_url + SITE.get(language).url_prefix
    tab.set_viewport_size({"width": width, "height": 740})
    tab.goto(root + LESSON)
    link = tab.locator('article a[href*="glossary/#"]').nth(3)
    anchor = str(link.get_attribute("href")).split("#")[1]
    link.click()  # at 360 px a tap: it follows the link
    expect(tab).to_have_url(f"{root}glossary/#{anchor}")
    entry = tab.locator(f"h3#{anchor}")
    expect(entry).to_be_in_viewport()
    (term,) = [term for term in TERMS if entry_id(term, language) == anchor]
    expect(entry).to_have_text(term.terms[language] + "¶")  # and its permalink
    # Its other-language term and its note follow it, within the screen's width.
    note = tab.locator(f"h3#{anchor} + p + p")
    expect(note).to_have_text(term.notes[language].replace("`", ""))
    box = note.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= width


# Query, the lesson that must come first, and the glossary entry that must be a result.
SEARCHES = {
    "en": [
        ("rotary", "lessons/rotary/", "rotary-position-embedding-rope"),
        ("yarn", "lessons/longer-contexts/", "ramp-function"),
    ],
    "tr": [
        ("döner", "lessons/rotary/", "doner-konum-gommesi-rope"),
        ("yarn", "lessons/longer-contexts/", "rampa-fonksiyonu"),
    ],
}


@pytest.mark.parametrize(
    ("language", "query", "lesson", "entry"),
    [(code, *search) for code in LANGUAGES for search in SEARCHES[code]],
)
def test_search_ranks_a_lesson_first_and_returns_the_term_on_its_own(
    tab: Page, site_url: str, language, query, lesson, entry
):
    root = site_url + SITE.get(language).url_prefix
    tab.goto(root)
    results = search(tab, query, root + "glossary/")
    paths = [urlsplit(href).path for href in results]
    assert paths[0] == urlsplit(root + lesson).path, results[:3]
    glossary = urlsplit(root + "glossary/").path
    entries = [
        urlsplit(href).fragment
        for href, path in zip(results, paths, strict=True)
        if path == glossary
    ]
    assert entry in entries, entries
    ids = {entry_id(term, language) for term in TERMS}
    assert set(entries) <= ids | {""}  # the page's own result, then its terms' entries
    # The term's result shows its entry only: the term, its other-language term and its note.
    article = tab.locator(f'.md-search-result a[href$="#{entry}"] article')
    (term,) = [term for term in TERMS if entry_id(term, language) == entry]
    expect(article.locator("h1, h2")).to_have_text(term.terms[language])
    assert len(article.inner_text()) < 400
