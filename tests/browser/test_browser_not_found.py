"""The 404 pages in Chromium, served under /posenc/ as GitHub Pages and Cloudflare serve them."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from support import hosting
from support.pages import search


def watch(page: Page) -> tuple[list[str], list[str]]:
    """Console errors (the missing page's own 404 aside) and failed requests of the page."""
    errors: list[str] = []
    failed: list[str] = []
    page.on(
        "console",
        lambda m: (
            errors.append(m.text) if m.type == "error" and "status of 404" not in m.text else None
        ),
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "response",
        lambda r: (
            failed.append(r.url)
            if r.status >= 400 and r.request.resource_type != "document"
            else None
        ),
    )
    return errors, failed


def test_github_pages_serves_the_root_404_which_leads_to_turkish(page: Page, site_url: str):
    errors, failed = watch(page)
    response = page.goto(site_url + "tr/lessons/no-such-lesson/", wait_until="networkidle")
    assert response is not None
    assert response.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("Page not found")
    # The theme's stylesheet loaded from under the sub-path: the header has its colour.
    header = page.locator("header.md-header")
    assert header.evaluate("e => getComputedStyle(e).position") == "sticky"
    page.locator('p[lang="tr"] a[hreflang="tr"]').click()
    expect(page).to_have_url(site_url + "tr/")
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    assert errors == []
    assert failed == []


@pytest.fixture(scope="module")
def nearest_404_url(site: Path) -> Iterator[str]:
    """The site served as Cloudflare Pages serves it: the nearest 404.html up the path."""
    with hosting.serve(site, hosting.PREFIX, not_found="nearest") as url:
        yield url


def test_a_server_with_the_nearest_rule_shows_the_turkish_404(page: Page, nearest_404_url: str):
    errors, failed = watch(page)
    response = page.goto(nearest_404_url + "tr/lessons/no-such-lesson/", wait_until="networkidle")
    assert response is not None
    assert response.status == 404
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page.locator("h1")).to_have_text("Sayfa bulunamadı")
    page.set_viewport_size({"width": 1400, "height": 900})
    nav = page.locator(".md-nav--primary a.md-nav__link", has_text="Döner konum gömmesi")
    expect(nav.first).to_have_attribute("href", f"{hosting.PREFIX}tr/lessons/rotary/")
    # Its search reads the Turkish index.
    hrefs = search(page, "salınır", nearest_404_url + "tr/lessons/positional-encoding/")
    assert all(href.startswith(nearest_404_url + "tr/") for href in hrefs), hrefs
    assert errors == []
    assert failed == []


def test_the_english_404_under_the_nearest_rule(tab: Page, nearest_404_url: str):
    response = tab.goto(nearest_404_url + "lessons/no-such-lesson/")
    assert response is not None
    assert response.status == 404
    expect(tab.locator("html")).to_have_attribute("lang", "en")
