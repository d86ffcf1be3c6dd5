"""Every page's description, in its language: its front matter's, else its first paragraph.

Material writes ``page.meta.description`` into the page's ``<meta name="description">`` and
falls back to the site's ``site_description``, one sentence for every page. Here a page without
``description:`` in its front matter gets the text of its first paragraph instead, so search
results and link previews (``posenc_site.publish.social``) describe the page itself. A description
that is not text, or too long, stops the build, naming the page; so does a page with neither.

The description is stored HTML-escaped: Material's template prints it as it is, inside an
attribute.
"""

import html
import re

from markupsafe import Markup, escape
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

MAX_LENGTH = 200  # longer ones are cut by search engines and link previews anyway
FALLBACK_LENGTH = 160  # a first paragraph is cut at a word before this many characters

_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)  # not admonition titles: they have a class
_FORMULA = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def first_paragraph(content: str) -> str | None:
    """The plain text of the first paragraph of a page's HTML, cut to a length.

    Formulas (still LaTeX when the hooks see the page) keep their source without delimiters.
    """
    for match in _PARAGRAPH.finditer(content):
        text = _TAG.sub("", _FORMULA.sub(r"\1", match.group(1)))
        text = " ".join(html.unescape(text).split())
        if text:
            return _shorten(text)
    return None


def _shorten(text: str) -> str:
    if len(text) <= FALLBACK_LENGTH:
        return text
    cut = text[: FALLBACK_LENGTH - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def describe(page: Page, content: str) -> Markup:
    """Set and return ``page.meta["description"]``: the front matter's, or the first paragraph.

    Raises
    ------
    PluginError
        When the front matter's description is not one line of text of at most ``MAX_LENGTH``
        characters, or when a page without one has no paragraph to take it from; the message
        names the page.
    """
    where = page.file.src_uri
    given = page.meta.get("description")
    if given is None:
        text = first_paragraph(content)
        if text is None:
            raise PluginError(
                f"{where}: no description: add 'description:' to its front matter "
                "(the page has no paragraph to take one from)"
            )
    else:
        if not isinstance(given, str) or not given.strip():
            raise PluginError(
                f"{where}: the front matter's 'description' must be text, got {given!r}"
            )
        text = " ".join(given.split())
        if len(text) > MAX_LENGTH:
            raise PluginError(
                f"{where}: the front matter's 'description' has {len(text)} characters; "
                f"keep it to {MAX_LENGTH} at most"
            )
    description = escape(text)
    page.meta["description"] = description
    return description
