"""What search engines and link previews read: descriptions, Open Graph tags, the sitemap."""

import re
import struct
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from support.pages import ALL_PAGES, PAGES, front_matter, source_of
from support.project import SITE, SITE_URL, TURKISH

SITE_DESCRIPTIONS = {"en": "Positional encoding for transformers", "tr": "Transformer'larda konum"}


class _Head(HTMLParser):
    """The ``<meta>`` and ``<link>`` tags of a page's head, and the page's language."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, list[str]] = {}
        self.links: dict[str, list[str]] = {}
        self.lang = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "html":
            self.lang = values.get("lang", "")
        elif tag == "meta" and ("property" in values or "name" in values):
            key = values.get("property") or values["name"]
            self.meta.setdefault(key, []).append(values.get("content", ""))
        elif tag == "link":
            self.links.setdefault(values.get("rel", ""), []).append(values.get("href", ""))


def head_of(site: Path, path: str) -> _Head:
    head = _Head()
    html = (site / path / "index.html").read_text(encoding="utf-8")
    head.feed(html[: html.index("</head>")])
    return head


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", header[16:24])


@pytest.mark.parametrize("path", ALL_PAGES)
def test_every_page_has_its_own_description_from_its_front_matter(site, path):
    head = head_of(site, path)
    expected = " ".join(front_matter(source_of(path))["description"].split())
    assert head.meta["description"] == [expected]
    assert head.meta["og:description"] == head.meta["twitter:description"] == [expected]
    assert not expected.startswith(SITE_DESCRIPTIONS[SITE.of_url(path).code])


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_open_graph_and_twitter_tags_of_a_lesson_in_each_language(site, language):
    path = SITE.get(language).url_prefix + "lessons/rotary/"
    head = head_of(site, path)
    other = next(lang for lang in SITE.all if lang.code != language)
    locales = {"en": "en_US", "tr": "tr_TR"}
    assert head.lang == language
    assert head.links["canonical"] == [SITE_URL + path]
    assert head.meta["og:url"] == [SITE_URL + path]
    assert head.meta["og:locale"] == [locales[language]]
    assert head.meta["og:locale:alternate"] == [locales[other.code]]
    title = {"en": "Rotary position embedding", "tr": "Döner konum gömmesi"}[language]
    assert head.meta["og:title"] == head.meta["twitter:title"] == [title]
    assert head.meta["og:site_name"] == ["posenc"]
    card = f"{SITE_URL}assets/cards/{language}.png"
    assert head.meta["og:image"] == head.meta["twitter:image"] == [card]
    assert head.meta["twitter:card"] == ["summary_large_image"]
    assert head.meta["og:image:width"] == ["1200"]
    assert head.meta["og:image:height"] == ["630"]
    assert png_size(site / card.removeprefix(SITE_URL)) == (1200, 630)
    alt = head.meta["og:image:alt"][0]
    assert ("Transformer'larda" in alt) == (language == "tr")


def test_home_pages_are_titled_by_the_site_not_by_the_nav(site):
    assert head_of(site, "").meta["og:title"] == ["Positional encoding for transformers"]
    assert head_of(site, "tr/").meta["og:title"] == ["Transformer'larda konum kodlaması"]


def test_each_language_has_its_own_card(site):
    english, turkish = (site / f"assets/cards/{code}.png" for code in ("en", "tr"))
    assert english.read_bytes() != turkish.read_bytes()


def test_the_head_tags_add_no_request(site):
    html = (site / "lessons/rotary/index.html").read_text(encoding="utf-8")
    head = html[: html.index("</head>")]
    # Open Graph and Twitter tags are <meta>: only <link> and <script> make the browser fetch.
    fetched = re.findall(r'<(?:link|script)\b[^>]*(?:href|src)="([^"]*)"', head)
    assert not any("cards/" in url for url in fetched)


NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}


def test_the_sitemap_lists_both_languages_of_every_page_as_alternates(site):
    root = ET.parse(site / "sitemap.xml").getroot()
    entries = {
        url.find("s:loc", NS).text: {
            link.get("hreflang"): link.get("href") for link in url.findall("x:link", NS)
        }
        for url in root.findall("s:url", NS)
    }
    expected_alternates = {
        page: {language.code: SITE_URL + language.url_prefix + page for language in SITE.all}
        for page in PAGES
    }
    assert set(entries) == {SITE_URL + page for page in ALL_PAGES}
    for page, alternates in expected_alternates.items():
        for language in SITE.all:
            assert entries[SITE_URL + language.url_prefix + page] == alternates, page


@pytest.mark.parametrize("path", ALL_PAGES)
def test_no_script_holds_up_the_first_paint(site, path):
    # Material's bundle and the quiz script are deferred (theme/main.html): the browser draws
    # the page while they load. The inline scripts are small and need no request.
    html = (site / path / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b[^>]*\bsrc=[^>]*>", html)
    assert scripts
    assert [script for script in scripts if " defer" not in script] == []


@pytest.mark.parametrize("path", [*ALL_PAGES, "404.html", TURKISH.url_prefix + "404.html"])
def test_the_search_dialog_is_named_in_the_pages_language(site, path):
    # theme/partials/search.html names Material's search dialog with Material's own word for
    # "Search" in the language of the page.
    page = site / path / "index.html" if path.endswith("/") or not path else site / path
    html = page.read_text(encoding="utf-8")
    name = {"en": "Search", "tr": "Ara"}[re.search(r'<html lang="(\w+)"', html).group(1)]
    assert re.findall(r'<div class="md-search"[^>]*>', html) == [
        f'<div class="md-search" data-md-component="search" role="dialog" aria-label="{name}">'
    ]


@pytest.mark.parametrize("path", ALL_PAGES)
def test_pages_with_formulas_ask_for_the_math_font_at_once(site, path):
    # Found through the stylesheet only after the first paint, the font moved the formulas'
    # lines when it arrived (theme/main.html).
    html = (site / path / "index.html").read_text(encoding="utf-8")
    preloads = re.findall(r'<link rel="preload"[^>]*>', html)
    prefix = "../" * path.count("/")
    font = (
        f'<link rel="preload" href="{prefix}assets/fonts/noto-sans-math-subset.woff2" '
        'as="font" type="font/woff2" crossorigin>'
    )
    assert preloads == ([font] if "<math" in html else [])
    assert (site / "assets/fonts/noto-sans-math-subset.woff2").is_file()
