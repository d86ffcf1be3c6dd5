"""Every page's description, in its language: its front matter's, else its first paragraph.

Material writes ``page.meta.description`` into the page's ``<meta name="description">`` and
falls back to the site's ``site_description``, one sentence for every page. Here a page without
``description:`` in its front matter gets the text of its first paragraph instead, so search
results and link previews (``posenc_site.publish.social``) describe the page itself. A description
that is not text, or too long, stops the build, naming the page; so does a page with neither.

The description is stored HTML-escaped: Material's template prints it as it is, inside an
attribute.

A first paragraph's formulas are described by their LaTeX, but a page's formulas are MathML by
the time MkDocs hands its HTML over (``posenc_site.transforms.formulas`` is a Markdown
extension). So `FirstParagraphExtension`, listed in mkdocs.yml's ``markdown_extensions``, reads
the first paragraph just before the formulas are rendered and leaves it as a note at the start
of the page's HTML, an HTML comment that `first_paragraph` reads and
`without_first_paragraph_note` removes.
"""

import html
import re

from markdown import Markdown
from markdown.extensions import Extension
from markupsafe import Markup, escape
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

from posenc_site.transforms.page_html import FIRST_PARAGRAPH, PageTransform

MAX_LENGTH = 200  # longer ones are cut by search engines and link previews anyway
FALLBACK_LENGTH = 160  # a first paragraph is cut at a word before this many characters

_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)  # not admonition titles: they have a class
_FORMULA = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
# The first paragraph as FirstParagraphExtension leaves it: HTML-escaped, and "-" too, so that
# the text cannot end the comment.
_NOTE = re.compile(r"\A<!-- first paragraph: (?P<text>[^>]*) -->")


def first_paragraph(content: str) -> str | None:
    r"""The plain text of the first paragraph of a page's HTML, cut to a length.

    Parameters
    ----------
    content : str
        A page's HTML: formulas as arithmatex wrappers, or any HTML that starts with the note
        of `FirstParagraphExtension`.

    Returns
    -------
    str or None
        The note's text if there is one, else the first paragraph's text, formulas as their
        LaTeX source without delimiters, cut at a word before ``FALLBACK_LENGTH`` characters;
        None when no paragraph has text.

    Examples
    --------
    >>> first_paragraph('<h1>T</h1><p>Adds <span class="arithmatex">\\(PE_{pos}\\)</span>.</p>')
    'Adds PE_{pos}.'
    """
    note = _NOTE.match(content)
    if note is not None:
        return html.unescape(note.group("text")) or None
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


def without_first_paragraph_note(content: str) -> str:
    """A page's HTML without the note of `FirstParagraphExtension` (read it first).

    Parameters
    ----------
    content : str
        A page's HTML as Markdown made it.

    Returns
    -------
    str
        ``content`` as it would be without the extension.
    """
    return _NOTE.sub("", content, count=1)


class _FirstParagraph(PageTransform):
    name = "posenc_first_paragraph"
    priority = FIRST_PARAGRAPH

    def transform(self, content: str) -> str:
        text = html.escape(first_paragraph(content) or "").replace("-", "&#45;")
        # Markdown strips the HTML it returns; strip here, so that removing the note gives
        # the same HTML as without it.
        return f"<!-- first paragraph: {text} -->{content.lstrip()}"


class FirstParagraphExtension(Extension):  # type: ignore[misc]
    r"""Python-Markdown extension: the page's first paragraph, formulas as LaTeX, as a note.

    Runs before ``posenc_site.transforms.formulas`` (see `posenc_site.transforms.page_html`).

    Examples
    --------
    >>> import markdown
    >>> page = markdown.markdown(
    ...     "# T\n\nAdds $x-1$ & more.",
    ...     extensions=["pymdownx.arithmatex", "posenc_site.publish.descriptions"],
    ...     extension_configs={"pymdownx.arithmatex": {"generic": True}},
    ... )
    >>> page.split("<h1")[0]
    '<!-- first paragraph: Adds x&#45;1 &amp; more. -->'
    >>> first_paragraph(page)
    'Adds x-1 & more.'
    """

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Register the postprocessor (see `posenc_site.transforms.page_html`)."""
        _FirstParagraph(md).register()


def makeExtension(**kwargs: object) -> FirstParagraphExtension:  # noqa: N802 (Python-Markdown's name)
    """The extension, for ``posenc_site.publish.descriptions`` in a list of extensions."""
    return FirstParagraphExtension(**kwargs)
