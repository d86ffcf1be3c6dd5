"""The language menu keeps the reader's place and marks the current language.

Switching language in the middle of a lesson, reached by scrolling or by an anchor, lands on
the same section of the twin page: the twin's heading at the same place among the article's
h2 and h3, read here from the built twin's HTML. From the top of a page it lands at the top.
On a desktop screen and on a phone's (360 px: the menu is in the header). The theme's
``partials/alternate.html`` and ``posenc_site.publish.language_links``.
"""

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Page, expect

from support import axe
from support.project import SITE, TURKISH

LESSONS = ["lessons/rotary/", "lessons/todays-models/"]
SCREENS = {"desktop": {"width": 1280, "height": 720}, "phone": {"width": 360, "height": 640}}
# Language -> the other: the two directions of a switch.
OTHER = {"en": "tr", "tr": "en"}
# The bottom of Material's sticky header, in the page's coordinates of the screen.
HEADER = "() => document.querySelector('.md-header').getBoundingClientRect().bottom"


class _Headings(HTMLParser):
    """The ids of the h2 and h3 headings inside a page's <article>, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self._in_article = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self._in_article += 1
        elif self._in_article and tag in ("h2", "h3") and (name := dict(attrs).get("id")):
            self.ids.append(name)

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._in_article -= 1


def heading_ids(page: Path) -> list[str]:
    """The section ids of a built page, in order."""
    parser = _Headings()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.ids


def path_in(language: str, lesson: str) -> str:
    return SITE.get(language).url_prefix + lesson


def open_menu(tab: Page, screen: str) -> None:
    """Open the language menu as a reader does: hover it (desktop), tap its button (phone)."""
    if screen == "desktop":
        tab.locator(".md-header__option .md-select").hover()
    else:
        tab.locator(".md-header__option .md-select button").click()
    expect(tab.locator(".md-select__inner")).to_be_visible()


def switch_to(tab: Page, screen: str, language: str) -> None:
    open_menu(tab, screen)
    tab.locator(f'a.md-select__link[hreflang="{language}"]').click()
    expect(tab.locator("html")).to_have_attribute("lang", language)


# Resolves after two frames: what the page laid out meanwhile is in place.
FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
# Scroll through the whole page as a reader does, half a screen at a time: the theme lays out
# the middle of a lesson only as the reader nears it (content-visibility, partials/theme-style),
# and a block not yet laid out holds an estimated height, which changes once it is.
READ_THROUGH = """async () => {
  const frame = () => new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve)))
  for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2)
    scrollTo(0, y), await frame()
}"""


def scroll_into_a_long_section(tab: Page, ids: list[str]) -> int:
    """Scroll so that the reader is in a section near the middle: its heading just scrolled
    under the header, the next heading in the lower half of the screen. Its index."""
    height = tab.viewport_size["height"]
    tab.evaluate(READ_THROUGH)
    for k in range(len(ids) // 2, len(ids) - 1):
        tab.evaluate(
            """([id, header]) => {
              const box = document.getElementById(id).getBoundingClientRect()
              scrollBy(0, box.bottom - header + 20)
            }""",
            [ids[k], tab.evaluate(HEADER)],
        )
        tab.wait_for_timeout(100)
        below = tab.evaluate(
            "id => document.getElementById(id).getBoundingClientRect().top", ids[k + 1]
        )
        if below > height / 2:
            return k
    raise AssertionError(f"no long section in the second half of {ids}")


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("source", list(OTHER))
@pytest.mark.parametrize("lesson", LESSONS)
def test_switching_language_lands_on_the_same_section(
    tab: Page, site: Path, site_url: str, lesson, source, screen
):
    target = OTHER[source]
    ids = heading_ids(site / path_in(source, lesson) / "index.html")
    twin = heading_ids(site / path_in(target, lesson) / "index.html")
    assert len(ids) == len(twin) > 4
    assert ids != twin  # the ids are each language's own words
    tab.set_viewport_size(SCREENS[screen])
    if lesson == LESSONS[0]:  # reached by scrolling
        tab.goto(site_url + path_in(source, lesson))
        k = scroll_into_a_long_section(tab, ids)
    else:  # opened at an anchor, as a link to a section does
        k = len(ids) // 2
        tab.goto(site_url + path_in(source, lesson) + "#" + ids[k])
    switch_to(tab, screen, target)
    address = urlsplit(tab.url)
    assert address.path == urlsplit(site_url + path_in(target, lesson)).path
    assert unquote(address.fragment) == twin[k]
    heading = tab.locator(f'.md-content__inner [id="{twin[k]}"]')
    expect(heading).to_be_in_viewport()
    assert heading.evaluate("h => h.getBoundingClientRect().top") >= tab.evaluate(HEADER) - 1


@pytest.mark.parametrize("source", list(OTHER))
def test_the_classroom_copy_opened_from_disk_lands_on_the_same_section(
    tab: Page, classroom: Path, source
):
    # Its links lead to files (lessons/rotary.html), read without a server.
    target = OTHER[source]
    page = classroom / SITE.get(source).url_prefix / (LESSONS[1].rstrip("/") + ".html")
    twin_page = classroom / SITE.get(target).url_prefix / (LESSONS[1].rstrip("/") + ".html")
    ids, twin = heading_ids(page), heading_ids(twin_page)
    k = len(ids) // 2 + 1
    tab.goto(f"{page.as_uri()}#{ids[k]}")
    switch_to(tab, "desktop", target)
    assert tab.url == f"{twin_page.as_uri()}#{twin[k]}"
    expect(tab.locator(f'.md-content__inner [id="{twin[k]}"]')).to_be_in_viewport()


@pytest.mark.parametrize("source", list(OTHER))
def test_switching_language_at_the_top_lands_at_the_top(tab: Page, site_url: str, source):
    target = OTHER[source]
    tab.goto(site_url + path_in(source, LESSONS[1]))
    switch_to(tab, "desktop", target)
    expect(tab).to_have_url(site_url + path_in(target, LESSONS[1]))
    assert tab.evaluate("scrollY") == 0


def test_a_page_without_the_twins_ids_leads_to_the_twins_top(tab: Page, site_url: str):
    # The link as it is without the script's data: the twin page, no section.
    tab.goto(site_url + LESSONS[0] + "#" + "references")
    tab.evaluate("document.querySelector('[hreflang=tr]').removeAttribute('data-ids')")
    switch_to(tab, "desktop", "tr")
    expect(tab).to_have_url(site_url + TURKISH.url_prefix + LESSONS[0])


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("language", list(OTHER))
def test_the_menu_marks_the_current_language(tab: Page, site_url: str, language, screen):
    tab.set_viewport_size(SCREENS[screen])
    tab.goto(site_url + path_in(language, LESSONS[0]))
    open_menu(tab, screen)
    current = tab.locator(f'a.md-select__link[hreflang="{language}"]')
    other = tab.locator(f'a.md-select__link[hreflang="{OTHER[language]}"]')
    expect(current).to_have_attribute("aria-current", "true")
    expect(other).not_to_have_attribute("aria-current", "true")
    assert tab.locator(".md-select__link[aria-current]").count() == 1
    # Seen as well as told: bold, and a check mark in the text's colour.
    weights = [link.evaluate("a => getComputedStyle(a).fontWeight") for link in (current, other)]
    assert (int(weights[0]), int(weights[1])) == (700, 400)
    expect(current.locator("svg")).to_be_visible()
    size = current.evaluate("a => a.querySelector('svg').getBoundingClientRect().height")
    font = current.evaluate("a => parseFloat(getComputedStyle(a).fontSize)")
    assert size == pytest.approx(font, abs=1)  # the size of a letter
    assert other.locator("svg").count() == 0
    mark, text = current.evaluate(
        "a => [getComputedStyle(a.querySelector('svg')).fill, getComputedStyle(a).color]"
    )
    assert mark == text
    # axe on the open menu, in both palettes (the phone's screen in the dark one).
    tab.wait_for_timeout(600)  # the menu's transitions
    tab.evaluate(axe.script())
    menu = """async () => (await axe.run(".md-header", {resultTypes: ["violations"]}))
      .violations.map(rule => rule.id)"""
    found = {"light": tab.evaluate(menu)}
    tab.locator('label[for="__palette_1"]').click()
    expect(tab.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    open_menu(tab, screen)
    tab.wait_for_timeout(600)
    found["dark"] = tab.evaluate(menu)
    assert found == {"light": [], "dark": []}


@pytest.mark.parametrize(
    ("source", "term", "expected"), [("en", "embedding", "gomme"), ("tr", "gomme", "embedding")]
)
def test_the_glossary_switch_lands_on_the_same_term_whatever_its_place(
    tab: Page, site_url: str, source, term, expected
):
    # Each glossary is in its own alphabet's order: the entries are paired by term, not place.
    glossary = SITE.get(source).url_prefix + "glossary/"
    tab.goto(f"{site_url}{glossary}#{term}")
    # As a reader who follows a link to an entry reads it before switching: the page has
    # loaded and the entry is on the screen (the long page settles as its parts are laid out).
    tab.wait_for_load_state("load")
    expect(tab.locator(f'[id="{term}"]')).to_be_in_viewport()
    tab.evaluate(FRAMES)
    switch_to(tab, "desktop", OTHER[source])
    assert unquote(urlsplit(tab.url).fragment) == expected
    expect(tab.locator(f'.md-content__inner [id="{expected}"]')).to_be_in_viewport()
