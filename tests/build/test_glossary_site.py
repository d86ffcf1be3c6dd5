"""The built glossary in both languages: an entry per term, which the lessons link and search
finds on its own; lessons rank above the other pages in search (their boost)."""

import json
import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from posenc_site.i18n.glossary import entry_id, load, lower
from posenc_site.plugin import LESSON_SEARCH_BOOST
from support.docblocks import DOCS
from support.pages import PAGES
from support.project import SITE

TERMS = load(DOCS)
LANGUAGES = [language.code for language in SITE.all]
LESSONS = [path for path in PAGES if path.startswith("lessons/")]
_ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*)</article>', re.S)
# Where a glossary link must never be.
_NOT_IN_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6", "a", "code", "pre", "math", "figure", "form"}
_NOT_IN_CLASSES = {"admonition-title", "highlight"}
_VOID = {"br", "img", "hr", "input", "wbr", "source", "meta", "link", "col"}


class _Links(HTMLParser):
    """The links of an article: href, title, text, and where they are."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, set[str]]] = []  # tag and classes of each open element
        self.links: list[dict[str, object]] = []
        self.heading = ""  # the text of the last h2
        self._in_h2 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a":
            self.links.append(
                {
                    "href": values.get("href") or "",
                    "title": values.get("title"),
                    "text": "",
                    "inside": list(self.open),
                    "section": self.heading,
                }
            )
        if tag == "h2":
            self._in_h2, self.heading = True, ""
        if tag not in _VOID:
            self.open.append((tag, set((values.get("class") or "").split())))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()[0] == tag:
                break
        if tag == "h2":
            self._in_h2 = False

    def handle_data(self, data: str) -> None:
        if self._in_h2:
            self.heading += data
        if any(tag == "a" for tag, _ in self.open) and self.links:
            self.links[-1]["text"] = str(self.links[-1]["text"]) + data


def _article(site: Path, path: str) -> str:
    match = _ARTICLE.search((site / path / "index.html").read_text(encoding="utf-8"))
    assert match, path
    return match.group(1)


def _glossary_ids(site: Path, prefix: str) -> dict[str, str]:
    """Id -> text of each term heading (h3) of a language's glossary page."""
    found = re.findall(
        r'<h3 data-term="[^"]+" id="([^"]+)">(.*?)<a class="headerlink"',
        _article(site, prefix + "glossary/"),
    )
    return {anchor: unescape(text) for anchor, text in found}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_term_has_its_entry_on_the_glossary_of_each_language(site, language):
    prefix = SITE.get(language).url_prefix
    headings = _glossary_ids(site, prefix)
    assert headings == {entry_id(term, language): term.terms[language] for term in TERMS}
    article = _article(site, prefix + "glossary/")
    assert len(re.findall(r' id="', article)) == len(set(re.findall(r' id="([^"]+)"', article)))
    assert "<table" not in article


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("lesson", LESSONS)
def test_each_lesson_links_terms_to_the_glossary_of_its_language(site, language, lesson):
    prefix = SITE.get(language).url_prefix
    page_url = f"https://example.org/{prefix}{lesson}"
    glossary_url = f"https://example.org/{prefix}glossary/"
    notes = {entry_id(term, language): term.notes[language] for term in TERMS}
    parser = _Links()
    parser.feed(_article(site, prefix + lesson))
    to_glossary = [
        link
        for link in parser.links
        if "glossary/#" in str(link["href"]) and not str(link["href"]).startswith("http")
    ]
    anchors = []
    for link in to_glossary:
        target = urljoin(page_url, str(link["href"]))
        assert target.split("#")[0] == glossary_url, (lesson, link["href"])
        anchor = urlsplit(target).fragment
        assert anchor in notes, anchor
        assert link["title"] == notes[anchor].replace("`", ""), anchor
        inside = link["inside"]
        assert isinstance(inside, list)
        assert not [tag for tag, classes in inside if tag in _NOT_IN_TAGS], (anchor, inside)
        assert not [c for _, classes in inside for c in classes & _NOT_IN_CLASSES], anchor
        assert link["section"] not in ("References", "Kaynaklar"), anchor
        anchors.append(anchor)
    assert len(anchors) >= 10, (lesson, anchors)
    assert len(anchors) == len(set(anchors)), lesson  # each term's first use only


# A lesson, the entry its first use of a term links to, and the beginning of the use's text.
FIRST_USES = {
    "en": ("lessons/positional-encoding/", "positional-encoding", "positional encoding"),
    "tr": ("lessons/positional-encoding/", "konum-kodlamasi", "konum kodlama"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_first_use_links_with_the_terms_note(site, language):
    lesson, anchor, text = FIRST_USES[language]
    prefix = SITE.get(language).url_prefix
    parser = _Links()
    parser.feed(_article(site, prefix + lesson))
    (link,) = [link for link in parser.links if str(link["href"]).endswith(f"glossary/#{anchor}")]
    assert lower(str(link["text"]), language).startswith(text)
    (term,) = [term for term in TERMS if entry_id(term, language) == anchor]
    assert link["title"] == term.notes[language]


def _index(site: Path, language: str) -> list[dict[str, object]]:
    prefix = SITE.get(language).url_prefix
    index = json.loads((site / prefix / "search/search_index.json").read_text(encoding="utf-8"))
    docs: list[dict[str, object]] = index["docs"]
    return docs


@pytest.mark.parametrize("language", LANGUAGES)
def test_search_finds_each_term_as_an_entry_of_its_own(site, language):
    docs = {str(doc["location"]): doc for doc in _index(site, language)}
    for term in TERMS:
        doc = docs[f"glossary/#{entry_id(term, language)}"]
        assert unescape(str(doc["title"])) == term.terms[language]
        assert term.notes[language].split("`")[0][:30] in unescape(str(doc["text"]))
    # The page itself is its introduction, not the whole glossary; no letter has an entry.
    assert len(str(docs["glossary/"]["text"])) < 500
    assert not [location for location in docs if re.fullmatch(r"glossary/#[a-z](_\d+)?", location)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_lessons_carry_a_search_boost_the_other_pages_do_not(site, language):
    docs = _index(site, language)
    lessons = [doc for doc in docs if str(doc["location"]).startswith("lessons/")]
    others = [doc for doc in docs if not str(doc["location"]).startswith("lessons/")]
    assert len(lessons) > 50
    assert {doc.get("boost") for doc in lessons} == {LESSON_SEARCH_BOOST}
    assert {doc.get("boost") for doc in others} == {None}
    assert LESSON_SEARCH_BOOST > 1
