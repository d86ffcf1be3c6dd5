"""The classroom copy: the whole site in a zip that works opened from disk, in both languages."""

import re
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Page, expect

from conftest import TURKISH
from posenc_site.publish import classroom as classroom_copy
from test_browser_site import ALL_PAGES
from test_browser_turkish import search


def test_two_zips_of_the_same_files_are_the_same_bytes(tmp_path):
    site = tmp_path / "site"
    (site / "tr").mkdir(parents=True)
    (site / "index.html").write_text("<p>home</p>", encoding="utf-8")
    (site / "tr" / "index.html").write_text("<p>ana sayfa</p>", encoding="utf-8")
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    assert classroom_copy.pack(site, first) == 2
    (site / "index.html").touch()  # a newer date on disk changes nothing
    classroom_copy.pack(site, second)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        assert archive.namelist() == ["posenc/index.html", "posenc/tr/index.html"]


def test_the_command_names_a_missing_config(tmp_path, capsys):
    with pytest.raises(SystemExit):
        classroom_copy.main(["--config", str(tmp_path / "mkdocs.yml")])
    assert "mkdocs.yml not found" in capsys.readouterr().err


def test_every_page_of_both_languages_is_in_the_copy(classroom):
    homes = {"", TURKISH.url_prefix}
    for path in ALL_PAGES:  # without directory URLs: lessons/rotary/ is lessons/rotary.html
        name = f"{path}index.html" if path in homes else path.rstrip("/") + ".html"
        assert (classroom / name).is_file(), path
    for language_root in ("", TURKISH.url_prefix):
        assert (classroom / language_root / "search" / "search_index.js").is_file()


def test_every_link_of_the_copy_leads_to_a_file(classroom):
    pages = list(classroom.rglob("*.html"))
    assert len(pages) >= len(ALL_PAGES)
    for html_file in pages:
        if html_file.name == "404.html":
            continue  # for servers only; its links are absolute
        html = html_file.read_text(encoding="utf-8")
        for link in re.findall(r'\b(?:href|src)="([^"]*)"', html):
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("#", "//")) or not parts.path:
                continue
            target = (html_file.parent / unquote(parts.path)).resolve()
            assert target.is_file(), f"{html_file.relative_to(classroom)}: {link}"
        assert "unpkg.com" not in html, html_file


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
