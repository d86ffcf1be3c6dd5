"""The classroom copy opened from disk in Chromium: a link, the language switcher and search
work without a server and without the network."""

from pathlib import Path

from playwright.sync_api import Page, expect

from support.pages import search


def test_the_copy_from_disk_follows_a_link_switches_language_and_searches(
    page: Page, classroom: Path
):
    foreign, errors = [], []
    page.on("request", lambda r: None if r.url.startswith("file://") else foreign.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_viewport_size({"width": 1400, "height": 900})
    home = (classroom / "index.html").as_uri()
    page.goto(home)
    page.locator(".md-nav--primary a.md-nav__link", has_text="Rotary position embedding").click()
    expect(page).to_have_url((classroom / "lessons" / "rotary.html").as_uri())
    expect(page.locator("h1")).to_contain_text("Rotary position embedding")
    page.locator(".md-header__option .md-select").hover()
    page.locator('a.md-select__link[hreflang="tr"]').click()
    turkish_lesson = (classroom / "tr" / "lessons" / "rotary.html").as_uri()
    expect(page).to_have_url(turkish_lesson)
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    # Search, from disk, in the Turkish index only.
    lesson = (classroom / "tr/lessons/positional-encoding.html").as_uri()
    hrefs = search(page, "salınır", lesson)  # in the prose (its "salınım": in a quiz, unindexed)
    turkish_root = (classroom / "tr").as_uri() + "/"
    assert hrefs
    assert all(href.startswith(turkish_root) for href in hrefs), hrefs
    page.locator(f'.md-search-result__item a[href^="{lesson}"]').first.click()
    expect(page.locator("h1")).to_contain_text("Konum kodlaması")
    assert foreign == []
    assert errors == []
