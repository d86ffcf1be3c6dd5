"""Every page of the built site in Chromium: nothing from other hosts, no console error."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conftest import SITE, TURKISH

PAGES = [
    "",
    "lessons/positional-encoding/",
    "lessons/learned-embeddings/",
    "lessons/rotary/",
    "lessons/longer-contexts/",
    "lessons/alibi-t5/",
    "lessons/comparison/",
    "lessons/images-and-video/",
    "reference/api/",
    "contributing/",
    "glossary/",
    "translation-status/",
]
ALL_PAGES = PAGES + [TURKISH.url_prefix + page for page in PAGES]


def test_the_page_list_covers_the_site(site: Path):
    built = {str(p.parent.relative_to(site)) for p in site.rglob("index.html")}
    listed = {page.rstrip("/") or "." for page in ALL_PAGES}
    assert built == listed


@pytest.mark.parametrize("path", ALL_PAGES)
def test_page_loads_only_from_the_site_without_console_errors(page: Page, site_url: str, path):
    foreign, errors = [], []
    page.on("request", lambda r: None if r.url.startswith(site_url) else foreign.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site_url + path, wait_until="networkidle")
    assert foreign == []
    assert errors == []


@pytest.mark.parametrize("path", ["lessons/positional-encoding/", "tr/reference/api/"])
def test_formulas_render_with_a_size(page: Page, site_url: str, path):
    page.goto(site_url + path)
    visible = [formula for formula in page.locator("math").all() if formula.is_visible()]
    assert len(visible) > 3
    for formula in visible:
        box = formula.bounding_box()
        assert box is not None
        assert box["width"] > 1
        assert box["height"] > 1


@pytest.mark.parametrize(
    ("path", "other"),
    [
        ("lessons/positional-encoding/", "tr/lessons/positional-encoding/"),
        ("tr/reference/api/", "reference/api/"),
    ],
)
def test_language_switcher_stays_on_the_same_page(page: Page, site_url: str, path, other):
    page.goto(site_url + path)
    page.locator(".md-header__option .md-select").hover()
    target_language = SITE.of_url(other).code
    page.locator(f'a.md-select__link[hreflang="{target_language}"]').click()
    expect(page).to_have_url(site_url + other)
