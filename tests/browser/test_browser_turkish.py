"""The Turkish site in Chromium: search in Turkish finds Turkish pages; the TOC jumps."""

import pytest
from playwright.sync_api import Page, expect

from support.pages import search
from support.project import SITE, TURKISH

TR = TURKISH.url_prefix


@pytest.mark.parametrize(
    ("path", "query", "expected"),
    [
        (f"{TR}lessons/positional-encoding/", "salınır", f"{TR}lessons/positional-encoding/"),
        (TR, "eşdeğişkenliği", f"{TR}lessons/positional-encoding/"),
        (f"{TR}glossary/", "kodlaması", TR),
        ("lessons/positional-encoding/", "oscillate", "lessons/positional-encoding/"),
    ],
)
def test_search_returns_pages_of_the_same_language(tab: Page, site_url, path, query, expected):
    tab.goto(site_url + path)
    hrefs = search(tab, query, site_url + expected)
    assert hrefs
    language = SITE.of_url(path)
    assert all(SITE.of_url(href.removeprefix(site_url)) == language for href in hrefs), hrefs


def test_table_of_contents_link_jumps_to_its_turkish_heading(tab: Page, site_url):
    tab.set_viewport_size({"width": 1400, "height": 900})
    tab.goto(site_url + "tr/lessons/positional-encoding/")
    link = tab.locator('.md-sidebar--secondary a.md-nav__link[href="#sinus-tabanli-kodlama"]')
    expect(link).to_have_text("Sinüs tabanlı kodlama")
    link.click()
    expect(tab).to_have_url(site_url + "tr/lessons/positional-encoding/#sinus-tabanli-kodlama")
    heading = tab.locator("h2#sinus-tabanli-kodlama")
    expect(heading).to_be_in_viewport()
