"""A page's figures are numbered in page order, and a figure without a caption stops the build.

The figures are those of `posenc.plotting.to_html`:
``<figure class="pe-figure" data-search-exclude><svg …>…</svg><figcaption>…</figcaption></figure>``.
Each gets the id ``fig-<number>``, so that text can link to it (``[Figure 2](#fig-2)``), and
its caption opens with its number in the page's language: ``Figure 2.``, ``Şekil 2.`` (the
strings' ``figure.label``).

Why on the whole page's HTML, as `posenc_site.transforms.math_pages` numbers equations: the
figures are
the output of the page's code blocks, which markdown-exec runs one by one; only the finished
page has them all, in order.
"""

import re
from html import escape

from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

from posenc_site import context

_FIGURE = re.compile(r'<figure class="pe-figure"(?P<attributes>[^>]*)>(?P<body>.*?)</figure>', re.S)
_CAPTION = re.compile(r"<figcaption>(?!\s*</figcaption>)")


def number(html: str, page: Page) -> str:
    """``html`` (a page's content) with its figures numbered; their ids join the page's anchors.

    Raises
    ------
    PluginError
        If a figure has no caption, naming the page and the figure.
    """
    label = context.current.page_language.strings["figure"]["label"]
    count = 0

    def numbered(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        body = match.group("body")
        if not _CAPTION.search(body):
            raise PluginError(
                f"{page.file.src_uri}: figure {count} has no caption: give its to_html call"
                " caption=..., a sentence that says what the figure shows"
            )
        prefix = f'<span class="pe-figure__number">{escape(label.format(number=count))}</span> '
        body = _CAPTION.sub(lambda _: f"<figcaption>{prefix}", body, count=1)
        attributes = f'{match.group("attributes")} id="fig-{count}"'
        return f'<figure class="pe-figure"{attributes}>{body}</figure>'

    html = _FIGURE.sub(numbered, html)
    # MkDocs collected the page's anchors before; tell it about these, so that links to them
    # are checked like any other.
    if count and page.present_anchor_ids is not None:
        page.present_anchor_ids |= {f"fig-{n}" for n in range(1, count + 1)}
    return html
