"""The Turkish site in Chromium: search in Turkish finds Turkish pages; the TOC jumps."""

import pytest
from playwright.sync_api import Page, expect

from conftest import SITE, TURKISH

TR = TURKISH.url_prefix


def search(page: Page, query: str, expected_url: str) -> list[str]:
    """Type ``query``, wait until ``expected_url`` is among the results, return all links."""
    box = page.locator("input.md-search__input")
    box.click()
    hit = page.locator(f'.md-search-result__item a[href^="{expected_url}"]')
    # A query typed before the search worker has loaded its index is not run again once the
    # index is ready: type it again until the results come, for up to 10 s.
    for _ in range(5):
        box.fill("")
        box.press_sequentially(query)
        try:
            expect(hit.first).to_be_visible(timeout=2_000)
            break
        except AssertionError:
            continue
    expect(hit.first).to_be_visible()
    page.wait_for_timeout(300)  # let the result list settle, then read it in one go
    return page.eval_on_selector_all(".md-search-result a", "links => links.map(a => a.href)")


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
