"""A figure as the site shows it: an inline, accessible SVG inside a ``<figure>``."""

from __future__ import annotations

import hashlib
import re
from html import escape
from typing import TYPE_CHECKING

from posenc.plotting import INK
from posenc_site.figures import svg

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def to_html(figure: Figure, *, alt: str, caption: str | None = None) -> str:
    """The figure as an inline, accessible SVG inside a `<figure>`, the same bytes every time.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A figure of `posenc.plotting` (any Figure drawn in its style works).
    alt : str
        Text alternative for screen readers, in the reader's language; it becomes the SVG's
        `<title>` and accessible name. Must not be empty.
    caption : str, optional
        Visible caption under the figure.

    Returns
    -------
    str
        HTML: `<figure class="pe-figure" data-search-exclude>` holding the SVG (no XML
        prologue, no date) and the caption. The text and axes drawn in `posenc.plotting.INK`
        are in ``currentColor``, the page's text colour. Its ids are prefixed with a hash of
        `alt`, so several figures can share a page. `data-search-exclude` keeps the figure
        out of Material's search index: tick labels and legends are not words a reader
        searches for.

    Raises
    ------
    ValueError
        If `alt` is empty.

    Examples
    --------
    >>> from posenc.plotting import encoding_heatmap
    >>> from posenc_site.figures import to_html
    >>> html = to_html(encoding_heatmap(8, 8), alt="A small table")
    >>> html.startswith('<figure class="pe-figure" data-search-exclude><svg')
    True
    >>> ">A small table</title>" in html
    True
    """
    if not alt.strip():
        raise ValueError("alt must be a non-empty text alternative for the figure")
    prefix = "f" + hashlib.sha1(alt.encode("utf-8")).hexdigest()[:8]
    with svg.style():
        drawn = svg.svg(figure, id_prefix=f"{prefix}-", ink=INK)
    title_id = f"{prefix}-title"
    drawn = drawn.replace(
        "<svg ",
        f'<svg role="img" aria-labelledby="{title_id}" ',
        1,
    )
    drawn = re.sub(
        r"(<svg[^>]*>)",
        lambda m: f'{m.group(1)}<title id="{title_id}">{escape(alt)}</title>',
        drawn,
        count=1,
    )
    figcaption = f"<figcaption>{escape(caption)}</figcaption>" if caption else ""
    return f'<figure class="pe-figure" data-search-exclude>{drawn}{figcaption}</figure>'


_FIGURE = re.compile(
    r'(<figure class="pe-figure"[^>]*>)(<svg )(.*?)(<figcaption>|</figure>)', re.DOTALL
)
# Four corners, 24 × 24: the icon of the button (posenc.js draws the same for its close).
_ENLARGE_ICON = (
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M3 3h7v2H5v5H3z'
    'm11 0h7v7h-2V5h-5zM3 14h2v5h5v2H3zm16 0h2v7h-7v-2h5z"/></svg>'
)


def with_enlarge_buttons(html: str, label: str) -> str:
    """``html`` with an "Enlarge figure" button in each figure of `to_html`, before its caption.

    Parameters
    ----------
    html : str
        A page, or part of one, holding figures made by `to_html`.
    label : str
        The button's words, in the page's language.

    Returns
    -------
    str
        The same HTML; each figure's drawing also carries the class ``pe-figure__zoomable``
        (a click on it opens the figure too). ``assets/posenc.js`` opens the figure: written
        here, the buttons are laid out with the page, not added by the script after it.

    Examples
    --------
    >>> page = '<figure class="pe-figure"><svg role="img"></svg></figure>'
    >>> html = with_enlarge_buttons(page, "Enlarge figure")
    >>> html.startswith('<figure class="pe-figure"><svg class="pe-figure__zoomable" role=')
    True
    >>> html.endswith('<span>Enlarge figure</span></button></figure>')
    True
    """
    button = (
        '<button type="button" class="pe-figure__enlarge" aria-haspopup="dialog">'
        f"{_ENLARGE_ICON}<span>{escape(label)}</span></button>"
    )
    return _FIGURE.sub(
        lambda m: f'{m[1]}{m[2]}class="pe-figure__zoomable" {m[3]}{button}{m[4]}', html
    )
