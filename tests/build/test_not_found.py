"""A 404 page per language: English at the root, Turkish under tr/, each with its navigation."""

import json
import re

import pytest

from support.hosting import PREFIX
from support.project import SITE, SITE_URL, TURKISH


def page(site, language: str) -> str:
    return (site / SITE.get(language).url_prefix / "404.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("language", "title", "nav", "other_link"),
    [
        ("en", "Page not found", "Lessons", f'<a href="{PREFIX}tr/" hreflang="tr">'),
        ("tr", "Sayfa bulunamadı", "Dersler", f'<a href="{PREFIX}" hreflang="en">'),
    ],
)
def test_each_language_has_its_404_page_with_its_navigation(site, language, title, nav, other_link):
    html = page(site, language)
    assert f'<html lang="{language}"' in html
    assert f"<h1>{title}</h1>" in html
    assert f"<title>{title} - posenc</title>" in html
    assert re.search(rf'class="md-nav__link[^"]*"[^>]*>\s*<span class="md-ellipsis">\s*{nav}', html)
    assert other_link in html  # the home page of the other language, in its language
    assert '<meta name="robots" content="noindex">' in html


def test_the_root_404_page_links_both_languages(site):
    # GitHub Pages serves the root page for every missing address, Turkish ones included.
    html = page(site, "en")
    assert f'<a href="{PREFIX}">Go to the home page</a>' in html
    assert '<p lang="tr">' in html
    assert "Türkçe ana sayfaya git" in html


@pytest.mark.parametrize("language", ["en", "tr"])
def test_404_links_are_absolute_under_the_sub_path(site, language):
    html = page(site, language)
    links = re.findall(r'\b(?:href|src)="([^"#][^"]*)"', html)
    assert links
    for link in links:
        assert link.startswith((PREFIX, "data:", "https://")), link
    # The switcher leads to each language's home page, not to the last page built.
    switcher = re.findall(r'<a href="([^"]*)" hreflang="([a-z]+)" class="md-select__link"', html)
    assert switcher == [(PREFIX, "en"), (f"{PREFIX}tr/", "tr")]
    assert '<link rel="alternate"' not in html


@pytest.mark.parametrize("language", ["en", "tr"])
def test_404_search_uses_its_language_index(site, language):
    html = page(site, language)
    config = json.loads(re.search(r'<script id="__config"[^>]*>(.*?)</script>', html).group(1))
    assert config["base"] == PREFIX + SITE.get(language).url_prefix


def test_404_pages_link_no_stylesheet_they_do_not_use(site):
    for language in ("en", "tr"):
        html = page(site, language)
        for unused in ("_mkdocstrings.css", "posenc.css"):
            assert unused not in html, (language, unused)


def test_no_other_404_page(site):
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("404.html")) == [
        "404.html",
        f"{TURKISH.url_prefix}404.html",
    ]
    assert SITE_URL.endswith(PREFIX)
