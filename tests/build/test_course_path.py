"""The course's path in the built site: lesson numbers from the nav, in both languages.

Every lesson opens with "Lesson k of 8" / "Ders k / 8", its reading time, goals, what to read
first and its group of the API reference; every link whose words give a lesson's number has
the number of the lesson it leads to; the last lesson closes the course; the home page lists
the lessons in the nav's order; the contributors' pages are not in the reader's nav.
"""

import posixpath
import re
from html import unescape
from html.parser import HTMLParser

import pytest
import yaml

from support.project import ROOT, SITE

LANGUAGES = [language.code for language in SITE.all]
# Words that give a lesson's number: "lesson 4", "Lesson 4", "4. ders", "4. derste", "Ders 4".
NUMBER_WORDS = re.compile(r"\b[Ll]esson (\d+)\b|\b(\d+)\. ders|\bDers (\d+)\b")


class _Tolerant(yaml.SafeLoader):
    """mkdocs.yml's tags (!ENV, !!python/name) read as plain values."""


_Tolerant.add_multi_constructor("", lambda loader, suffix, node: None)
_Tolerant.add_multi_constructor("!", lambda loader, suffix, node: None)


def nav_lessons() -> list[str]:
    """The lessons' sources in the nav's order (mkdocs.yml), as ``lessons/x.md``."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Tolerant)
    (lessons,) = [entry["Lessons"] for entry in config["nav"] if "Lessons" in entry]
    return [next(iter(item.values())) for item in lessons]


LESSONS = nav_lessons()


def url_of(source: str, language: str) -> str:
    """``lessons/rotary.md`` -> ``lessons/rotary/`` (``tr/lessons/rotary/`` in Turkish)."""
    return SITE.get(language).url_prefix + source.removesuffix(".md") + "/"


class Links(HTMLParser):
    """The links of the page's main content: their targets and their words."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self._open: list[list[str]] = []
        self._href: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href.append(dict(attrs).get("href") or "")
            self._open.append([])

    def handle_data(self, data: str) -> None:
        for words in self._open:
            words.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open:
            self.links.append((self._href.pop(), "".join(self._open.pop())))


def links_of(html: str) -> list[tuple[str, str]]:
    parser = Links()
    parser.feed(html)
    return parser.links


def content_of(html: str) -> str:
    """The article of a page, without Material's header, nav and footer."""
    match = re.search(r'<article class="md-content__inner[^"]*">(.*?)</article>', html, re.S)
    assert match, "no article"
    return match.group(1)


def lesson_number(page_url: str, href: str) -> int | None:
    """The number of the lesson ``href`` (relative to ``page_url``) leads to, if it does."""
    if href.startswith(("http:", "https:", "#", "mailto:")):
        return None
    target = posixpath.normpath(posixpath.join(page_url, href.split("#")[0])) + "/"
    target = target.lstrip("./")
    for language in LANGUAGES:
        for number, source in enumerate(LESSONS, start=1):
            if target == url_of(source, language):
                return number
    return None


def wrong_numbers(page_url: str, html: str) -> list[str]:
    """The links of ``html`` whose words give another number than their lesson's."""
    wrong = []
    for href, words in links_of(html):
        found = NUMBER_WORDS.search(unescape(words))
        number = lesson_number(page_url, href)
        if found and number is not None and int(next(filter(None, found.groups()))) != number:
            wrong.append(f"{words!r} -> {href} (lesson {number})")
    return wrong


def test_the_number_check_finds_a_link_that_says_lesson_4_for_lesson_5():
    html = (
        '<p>See <a href="../todays-models/">lesson 4</a> and <a href="../rotary/">3. ders</a>.</p>'
    )
    assert wrong_numbers("lessons/positional-encoding/", html) == [
        "'lesson 4' -> ../todays-models/ (lesson 5)"
    ]


def all_pages(site) -> list[str]:
    pages = [path.parent.relative_to(site).as_posix() + "/" for path in site.rglob("index.html")]
    return sorted(page.removeprefix("./") for page in pages)


def test_every_link_that_gives_a_lesson_number_gives_the_right_one(site):
    wrong = []
    for url in all_pages(site):
        html = (site / url / "index.html").read_text(encoding="utf-8")
        if '<article class="md-content__inner' not in html:
            continue
        wrong += [f"{url}: {link}" for link in wrong_numbers(url, content_of(html))]
    assert wrong == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("number", range(1, len(LESSONS) + 1))
def test_a_lesson_opens_with_its_number_reading_time_goals_and_what_to_read_first(
    site, language, number
):
    url = url_of(LESSONS[number - 1], language)
    article = content_of((site / url / "index.html").read_text(encoding="utf-8"))
    words = SITE.get(language).strings["signposts"]
    signpost = re.search(r'<div class="pe-signpost">(.*?)</div>', article, re.S)
    assert signpost, url
    # Right after the title (and the banner of a translation that is out of date).
    after_title = (
        r'</h1>\s*(?:<div class="admonition warning">.*?</div>\s*)?<div class="pe-signpost">'
    )
    assert re.search(after_title, article, re.S), url
    text = unescape(re.sub(r"<[^>]+>", "", signpost.group(1)))
    assert words["lesson_of"].format(number=number, total=len(LESSONS)) in text
    minutes = re.search(words["minutes"].replace("{minutes}", r"(\d+)"), text)
    assert minutes, text
    assert 1 <= int(minutes.group(1)) <= 60, text
    assert 1 <= signpost.group(1).count("<li>") <= 6
    for href, _ in links_of(signpost.group(1)):
        if "reference/api/" in href:
            stem = LESSONS[number - 1].removeprefix("lessons/").removesuffix(".md")
            assert href.endswith(f"#{stem}")
            api = (site / SITE.get(language).url_prefix / "reference/api/index.html").read_text(
                encoding="utf-8"
            )
            assert f'id="{stem}"' in api
        elif (earlier := lesson_number(url, href)) is not None:
            assert earlier < number, href


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_last_lesson_closes_the_course_and_its_footer_has_no_next_page(site, language):
    url = url_of(LESSONS[-1], language)
    html = (site / url / "index.html").read_text(encoding="utf-8")
    assert "md-footer__link--prev" in html
    assert "md-footer__link--next" not in html
    end = SITE.get(language).strings["signposts"]["course_end"].split("[")[0].strip()
    assert end in unescape(re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_lists_the_lessons_in_the_nav_order_and_starts_the_course(site, language):
    prefix = SITE.get(language).url_prefix
    html = content_of((site / prefix / "index.html").read_text(encoding="utf-8"))
    listed = [
        href
        for href, _ in links_of(re.search(r"<ol>(.*?)</ol>", html, re.S).group(1))
        if lesson_number(prefix, href)
    ]
    assert [lesson_number(prefix, href) for href in listed] == list(range(1, len(LESSONS) + 1))
    start = re.search(r'<a class="md-button md-button--primary" href="([^"]+)"', html)
    assert start
    assert lesson_number(prefix, start.group(1)) == 1
    assert 'id="before-you-start"' in html
    assert 'id="who-it-is-for"' in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_contributors_pages_are_linked_from_home_but_not_in_the_readers_nav(site, language):
    prefix = SITE.get(language).url_prefix
    page = (site / prefix / "lessons/rotary/index.html").read_text(encoding="utf-8")
    nav = re.search(r'<nav class="md-nav md-nav--primary".*?</nav>\s*</div>', page, re.S)
    assert nav
    assert "contributing/" not in nav.group(0)
    assert "translation-status/" not in nav.group(0)
    home = content_of((site / prefix / "index.html").read_text(encoding="utf-8"))
    assert 'href="contributing/"' in home
    assert 'href="translation-status/"' in home
