"""A page's formulas become MathML; a bad formula stops the build, naming the page.

Why on the whole page's HTML rather than in a Markdown extension: display formulas are numbered
in page order, and the API page's formulas come from docstrings that mkdocstrings converts
with Markdown instances of its own, so only the finished page has them all in order.
"""

import re

from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

from posenc_site.transforms.formulas import FormulaError, render_math

_EQUATION_ID = re.compile(r'<div class="pe-equation" id="([^"]+)"')


def render(html: str, page: Page) -> str:
    """``html`` with MathML formulas; their anchors (``#eq-...``) join the page's anchors."""
    try:
        html = render_math(html)
    except FormulaError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from error
    # MkDocs collected the page's anchors before; tell it about these, so that links to them
    # are checked like any other.
    if page.present_anchor_ids is not None:
        page.present_anchor_ids |= set(_EQUATION_ID.findall(html))
    return html
