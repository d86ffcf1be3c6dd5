"""A lesson's prose as a notebook's Markdown: plain Markdown, its links to the site absolute.

A notebook is read apart from the site (in Jupyter, in Colab), where the page's relative links
lead nowhere: each becomes the address of what it links on the published site, its anchor
kept. A Markdown link is relative to the page's source file (``rotary.md#x``, as MkDocs reads
it), an HTML one to the page's address (``href="model.py"``, as a browser reads it).
"""

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from mkdocs.structure.pages import Page

from posenc_site.i18n.languages import Language
from posenc_site.widgets import MARKER

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
# An explorable figure's marker with the paragraph before it, which tells the reader what to
# move (docs/contributing.md): a notebook has no such figure.
_WIDGET = re.compile(r"(?:^.+\n)+\n*" + MARKER.pattern, re.MULTILINE)
_ADMONITION = re.compile(r'^(?P<indent> *)(?:!!!|\?\?\?\+?) *[a-z]+(?: +"(?P<title>[^"]*)")?\s*$')
_TAB = re.compile(r'^ *=== +"(?P<title>[^"]*)"\s*$')
# An inline code span (left as it is), a Markdown link's or image's target, an HTML link.
_LINK = re.compile(
    r"(?P<code>(?P<ticks>`+).+?(?P=ticks))"
    r"|(?P<open>\]\()(?P<target>[^)\s]+)\)"
    r'|(?P<attribute>\b(?:href|src)=")(?P<url>[^"]*)"',
    re.DOTALL,
)


def plain(chunk: str) -> str:
    r"""Prose as plain Markdown: no comments, no explorable figure nor its lead paragraph.

    Admonitions and tabs become a bold title and their text.

    Examples
    --------
    >>> plain('!!! note "Why"\n\n    Because.<!-- x -->')
    '**Why**\n\nBecause.'
    >>> plain('=== "NumPy"\n')
    '**NumPy**'
    >>> plain('Text.\n\nMove the\nslider.\n\n<!-- posenc: widget alibi -->\n\nMore.')
    'Text.\n\n\n\nMore.'
    """
    chunk = _WIDGET.sub("", chunk)
    chunk = _COMMENT.sub("", chunk)
    out = []
    for line in chunk.split("\n"):
        title = _ADMONITION.match(line) or _TAB.match(line)
        if title:
            out.append(f"**{title.group('title')}**" if title.group("title") else "")
            continue
        out.append(line[4:] if line.startswith("    ") else line)
    return "\n".join(out).strip()


def directory_url(url: str) -> str:
    """A page's address in the site as published, with directory URLs.

    The classroom copy's ``lessons/rotary.html`` is ``lessons/rotary/`` on the site.

    Examples
    --------
    >>> [directory_url(u) for u in ("lessons/rotary/", "lessons/rotary.html", "tr/index.html")]
    ['lessons/rotary/', 'lessons/rotary/', 'tr/']
    """
    if not url.endswith(".html"):
        return url
    stem = url.removesuffix(".html")
    if stem == "index" or stem.endswith("/index"):
        return stem.removesuffix("index")
    return f"{stem}/"


@dataclass(frozen=True)
class Addresses:
    """Where the links of one page lead on the published site.

    Parameters
    ----------
    site_url
        The site's address, ``site_url`` of mkdocs.yml, ending with ``/``.
    page_url
        The page's address in the site (``directory_url``): ``tr/lessons/rotary/``.
    source_dir
        The folder of the page's source file in the docs folder: ``lessons``.
    language
        The page's language: its pages' prefix (``tr/``) and file ending (``.tr.md``).
    """

    site_url: str
    page_url: str
    source_dir: str
    language: Language

    @classmethod
    def of_page(cls, page: Page, site_url: str, language: Language) -> "Addresses":
        """The addresses of ``page``'s links, on the site at ``site_url``."""
        base = site_url if site_url.endswith("/") else f"{site_url}/"
        source_dir = posixpath.dirname(page.file.src_uri)
        return cls(base, directory_url(page.url), source_dir, language)

    def of_markdown_link(self, target: str) -> str:
        """The address of a Markdown link's target: a page (``x.md#a``), an anchor, a file."""
        if _is_absolute(target):
            return target
        path, hash_, anchor = target.partition("#")
        if not path:
            return f"{self.site_url}{self.page_url}{hash_}{anchor}"
        path = posixpath.normpath(posixpath.join(self.source_dir, path))
        if not path.endswith(".md"):  # a file, which the language builds share
            return f"{self.site_url}{path}{hash_}{anchor}"
        stem = path.removesuffix(self.language.page_suffix).removesuffix(".md")
        folder = stem.removesuffix("index") if posixpath.basename(stem) == "index" else f"{stem}/"
        return f"{self.site_url}{self.language.url_prefix}{folder}{hash_}{anchor}"

    def of_html_link(self, target: str) -> str:
        """The address of an HTML link's target, relative to the page's address."""
        return target if _is_absolute(target) else urljoin(self.site_url + self.page_url, target)


def _is_absolute(target: str) -> bool:
    return bool(urlsplit(target).scheme) or target.startswith("//")


def with_addresses(markdown: str, addresses: Addresses) -> str:
    r"""``markdown`` with every link outside code spans leading to its address on the site.

    Examples
    --------
    >>> from posenc_site.i18n.languages import from_file
    >>> from pathlib import Path
    >>> turkish = from_file(Path("mkdocs.yml")).get("tr")
    >>> here = Addresses("https://x.org/", "tr/lessons/rotary/", "lessons", turkish)
    >>> print(with_addresses("[a](alibi-t5.md#b), [c](#d),\n`[e](f.md)`", here))
    [a](https://x.org/tr/lessons/alibi-t5/#b), [c](https://x.org/tr/lessons/rotary/#d),
    `[e](f.md)`
    >>> with_addresses('<a href="model.py" download>', here)
    '<a href="https://x.org/tr/lessons/rotary/model.py" download>'
    """

    def replace(match: re.Match[str]) -> str:
        if match.group("code"):
            return match.group(0)
        if match.group("open"):
            return f"]({addresses.of_markdown_link(match.group('target'))})"
        return f'{match.group("attribute")}{addresses.of_html_link(match.group("url"))}"'

    return _LINK.sub(replace, markdown)
