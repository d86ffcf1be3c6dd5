"""The classroom copy: the whole site in a zip that works opened from disk, in both languages."""

import re
from urllib.parse import unquote, urlsplit

from support.pages import ALL_PAGES
from support.project import TURKISH


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
