"""A page's figures are numbered in page order, and a figure without a caption stops the build.

The figures are those of the site's figure markup (``posenc_site.figures``):
``<figure class="pe-figure" data-search-exclude><svg …>…</svg><figcaption>…</figcaption></figure>``.
Each gets the id ``fig-<number>``, so that text can link to it (``[Figure 2](#fig-2)``), and
its caption opens with its number in the page's language: ``Figure 2.``, ``Şekil 2.`` (the
strings' ``figure.label``).

`FigureNumbersExtension` (``posenc_site.transforms.figure_numbers`` in mkdocs.yml's
``markdown_extensions``, with the page's ``language``) does this on each page's finished HTML,
as `posenc_site.transforms.formulas` numbers equations: the figures are the output of the
page's code blocks, which markdown-exec runs one by one and stashes; only the whole page has
them all, in order (see `posenc_site.transforms.page_html`).
"""

import re
from html import escape

from markdown import Markdown
from markdown.extensions import Extension

from posenc_site.i18n.languages import load_strings
from posenc_site.transforms.page_html import (
    FIGURE_NUMBERS,
    PageTransform,
    TransformError,
    add_anchors,
)

_FIGURE = re.compile(r'<figure class="pe-figure"(?P<attributes>[^>]*)>(?P<body>.*?)</figure>', re.S)
_CAPTION = re.compile(r"<figcaption>(?!\s*</figcaption>)")


class FigureError(ValueError):
    """A figure without a caption; the message gives its number on the page."""


def number(html: str, label: str) -> tuple[str, int]:
    """Number the figures of a page's HTML, in page order.

    Parameters
    ----------
    html : str
        A page's HTML, its figures as ``<figure class="pe-figure" …>`` with a ``<figcaption>``.
    label : str
        The caption's opening, with ``{number}``: ``"Figure {number}."``.

    Returns
    -------
    tuple of (str, int)
        ``html`` with each figure's id ``fig-<n>`` and its caption opened by its label, and
        the number of figures.

    Raises
    ------
    FigureError
        If a figure has no caption (or an empty one), naming the figure by its number.

    Examples
    --------
    >>> html, count = number(
    ...     '<figure class="pe-figure"><figcaption>A.</figcaption></figure>', "Şekil {number}."
    ... )
    >>> count, html.split("<figcaption>")[0]
    (1, '<figure class="pe-figure" id="fig-1">')
    >>> html.split("<figcaption>")[1]
    '<span class="pe-figure__number">Şekil 1.</span> A.</figcaption></figure>'
    """
    count = 0

    def numbered(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        body = match.group("body")
        if not _CAPTION.search(body):
            raise FigureError(
                f"figure {count} has no caption: give its to_html call caption=..., a sentence"
                " that says what the figure shows"
            )
        prefix = f'<span class="pe-figure__number">{escape(label.format(number=count))}</span> '
        body = _CAPTION.sub(lambda _: f"<figcaption>{prefix}", body, count=1)
        attributes = f'{match.group("attributes")} id="fig-{count}"'
        return f'<figure class="pe-figure"{attributes}>{body}</figure>'

    return _FIGURE.sub(numbered, html), count


class _FigureNumbers(PageTransform):
    name = "posenc_figure_numbers"
    priority = FIGURE_NUMBERS

    def __init__(self, md: Markdown, language: str) -> None:
        super().__init__(md)
        self.language = language

    def transform(self, html: str) -> str:
        # Read here, not when the extension loads: markdown-exec builds a Markdown instance
        # for every code block's output, and those conversions skip this transform.
        label: str = load_strings(self.language)["figure"]["label"]
        try:
            html, count = number(html, label)
        except FigureError as error:
            raise TransformError(str(error)) from error
        # MkDocs collected the page's anchors before; tell it about these, so that links to
        # them are checked like any other.
        add_anchors(self.md, (f"fig-{n}" for n in range(1, count + 1)))
        return html


class FigureNumbersExtension(Extension):  # type: ignore[misc]
    """Python-Markdown extension: the page's figures numbered, captions in its language.

    Parameters
    ----------
    language : str
        The code of the page's language (a strings file of ``posenc_site.i18n``); set per
        page by ``posenc_site.i18n.page_language.configure_markdown``.

    Raises
    ------
    TransformError
        While a page converts, if one of its figures has no caption; MkDocs names the page
        before the message.
    posenc_site.i18n.languages.LanguageError
        While a page converts, if ``language`` has no strings file.

    Examples
    --------
    >>> import markdown
    >>> html = markdown.markdown(
    ...     '<figure class="pe-figure"><figcaption>A.</figcaption></figure>',
    ...     extensions=["posenc_site.transforms.figure_numbers"],
    ...     extension_configs={"posenc_site.transforms.figure_numbers": {"language": "tr"}},
    ... )
    >>> html.removeprefix('<figure class="pe-figure" id="fig-1"><figcaption>')
    '<span class="pe-figure__number">Şekil 1.</span> A.</figcaption></figure>'
    """

    def __init__(self, **kwargs: object) -> None:
        self.config = {"language": ["en", "The code of the page's language."]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Register the postprocessor (see `posenc_site.transforms.page_html`)."""
        _FigureNumbers(md, str(self.getConfig("language"))).register()


def makeExtension(**kwargs: object) -> FigureNumbersExtension:  # noqa: N802 (Python-Markdown's name)
    """The extension, for ``posenc_site.transforms.figure_numbers`` in a list of extensions."""
    return FigureNumbersExtension(**kwargs)
