"""The language menu's link to a page's twin carries the twin's section ids.

Twin pages have the same headings in the same order (tests/docs/test_docs_parity.py), but
their ids are slugs of their own language's words. The menu's script (the theme's
``partials/alternate.html``) takes the reader to the same section of the twin: it finds the
section being read among this page's headings and needs the twin's id of the heading at the
same place. This writes them into the link, in order, as ``data-ids``: the ids of the h2 and h3
of the twin's article, space-separated, an empty entry where the twin's id is this page's own
(the API reference's ids are the same in both languages). A page without headings, or whose
twin is not a page of the site, keeps its link as it was.

Run once every language is built: a page's twin may be built after it.
"""

import html
import posixpath
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

# A link of the menu to another language: the current one is marked aria-current and left.
_OTHER_LANGUAGE = re.compile(r'(<a href="([^"]*)" hreflang="[^"]*" class="md-select__link")>')
_ARTICLE = re.compile(r"<article\b[^>]*>(.*)</article>", re.DOTALL)
_HEADING = re.compile(r"<h[23]\b([^>]*)>")
_ID = re.compile(r'\sid="([^"]*)"')
_TERM = re.compile(r'\sdata-term="([^"]*)"')


def section_ids(page_html: str) -> list[str]:
    """The ids of the h2 and h3 headings of a page's article, in order.

    Parameters
    ----------
    page_html
        A built page.

    Returns
    -------
    list of str
        The ids, unescaped; empty for a page without an article.
    """
    return [name for name, _ in sections(page_html)]


def sections(page_html: str) -> list[tuple[str, str | None]]:
    """The ids of the h2 and h3 headings of a page's article, in order, each with its key.

    A heading's key (``data-term``, as the glossary's entries have) names the same section on
    every twin page, whatever its place there; None for a heading without one.
    """
    article = _ARTICLE.search(page_html)
    if article is None:
        return []
    found = []
    for attributes in _HEADING.findall(article.group(1)):
        name = _ID.search(attributes)
        if name is None:
            continue
        key = _TERM.search(attributes)
        found.append((html.unescape(name[1]), html.unescape(key[1]) if key else None))
    return found


def twin_ids(
    own: list[str] | list[tuple[str, str | None]], twin: list[str] | list[tuple[str, str | None]]
) -> str:
    """The value of ``data-ids``: the twin's ids, empty where one is the same as this page's.

    Headings with keys (``sections``) are paired by key: the value then has one entry per
    heading of this page, the twin's id of the heading with the same key (empty where there is
    none, or where it is this page's own). Others are paired by their place.
    """
    own_pairs = [item if isinstance(item, tuple) else (item, None) for item in own]
    twin_pairs = [item if isinstance(item, tuple) else (item, None) for item in twin]
    if any(key for _, key in own_pairs):
        by_key = {key: name for name, key in twin_pairs if key}
        paired = [by_key.get(key, name) if key else name for name, key in own_pairs]
        return " ".join(
            "" if new == name else html.escape(new)
            for new, (name, _) in zip(paired, own_pairs, strict=True)
        )
    own_names = [name for name, _ in own_pairs]
    return " ".join(
        "" if k < len(own_names) and own_names[k] == name else html.escape(name)
        for k, (name, _) in enumerate(twin_pairs)
    )


def add(site_dir: Path, site_path: str) -> int:
    """Write into every page's links to its twins the twins' section ids (``data-ids``).

    Parameters
    ----------
    site_dir
        The built site, every language.
    site_path
        The path of the site on its host (that of ``site_url``), which absolute links begin
        with, as the home pages' links do.

    Returns
    -------
    int
        The number of pages changed.
    """
    cache: dict[Path, list[tuple[str, str | None]]] = {}

    def ids_of(page: Path) -> list[tuple[str, str | None]]:
        if page not in cache:
            cache[page] = sections(page.read_text(encoding="utf-8"))
        return cache[page]

    changed = 0
    for page in sorted(site_dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        own = cache.setdefault(page, sections(text))
        if not own or not _OTHER_LANGUAGE.search(text):
            continue

        def with_ids(
            link: re.Match[str], page: Path = page, own: list[tuple[str, str | None]] = own
        ) -> str:
            twin = _target(page, link.group(2), site_dir, site_path)
            if twin is None or not ids_of(twin):
                return link.group(0)
            return f'{link.group(1)} data-ids="{twin_ids(own, ids_of(twin))}">'

        new = _OTHER_LANGUAGE.sub(with_ids, text)
        if new != text:
            page.write_text(new, encoding="utf-8")
            changed += 1
    return changed


def _target(page: Path, href: str, site_dir: Path, site_path: str) -> Path | None:
    """The file of the site that ``href``, a link of ``page``, leads to; None if none."""
    path = unquote(urlsplit(href).path)
    if path.startswith("/"):
        if not path.startswith(site_path):
            return None
        relative = path.removeprefix(site_path)
    else:
        folder = page.parent.relative_to(site_dir).as_posix()
        relative = posixpath.join(folder, path)
    relative = posixpath.normpath(relative)
    if relative.startswith("..") or relative.startswith("/"):
        return None
    target = site_dir / relative
    if path.endswith("/") or path in ("", "."):
        target = target / "index.html"
    return target if target.is_file() else None
