"""Figures of the sinusoidal encoding, drawn with matplotlib (imported only when called).

Every function returns a `matplotlib.figure.Figure` built without pyplot, so no global state
is touched. Its text and axes are drawn in a placeholder colour that `to_html` turns into the
page's own text colour (`currentColor`), so an inline SVG reads well on light and dark pages.
Labels are arguments, so a page in any language can pass its own.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
from collections.abc import Sequence
from contextlib import contextmanager
from html import escape
from typing import TYPE_CHECKING

import numpy as np

from posenc._validation import check_integer
from posenc.sinusoidal import sinusoidal_encoding

if TYPE_CHECKING:
    from collections.abc import Iterator

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

_INK = "#010203"  # placeholder colour, replaced by currentColor in to_html
_STYLE = {
    "text.color": _INK,
    "axes.edgecolor": _INK,
    "axes.labelcolor": _INK,
    "xtick.color": _INK,
    "ytick.color": _INK,
    "axes.facecolor": "none",
    "figure.facecolor": "none",
    "savefig.facecolor": "none",
    "legend.frameon": False,
    "font.family": "sans-serif",
    "font.size": 10.0,
    "svg.fonttype": "none",  # real text: smaller files, selectable, uses the page's font
    "svg.hashsalt": "posenc",  # fixed ids: two builds give the same bytes
    "image.cmap": "viridis",
}


@contextmanager
def _style() -> Iterator[None]:
    import matplotlib as mpl

    with mpl.rc_context(_STYLE):
        yield


def _new_figure(width: float, height: float, ncols: int = 1) -> tuple[Figure, list[Axes]]:
    from matplotlib.figure import Figure

    # Constrained layout, not fixed margins: it costs about a second draw of each figure, but
    # fits labels of any length in either language and keeps colour bars next to square
    # matrices; fixed margins left the figures visibly emptier or clipped long titles.
    figure = Figure(figsize=(width, height), layout="constrained")
    axes = figure.subplots(1, ncols, squeeze=False)[0]
    return figure, list(axes)


def encoding_heatmap(
    n_positions: int = 64,
    d_model: int = 128,
    *,
    base: float = 10000.0,
    title: str = "Sinusoidal positional encoding",
    xlabel: str = "dimension",
    ylabel: str = "position",
    colorbar_label: str = "value",
) -> Figure:
    """Heatmap of the encoding table: one row per position, one column per dimension.

    Parameters
    ----------
    n_positions : int, default 64
        Rows of the table, `>= 1`.
    d_model : int, default 128
        Columns of the table, `>= 1`.
    base : float, default 10000.0
        Passed to `sinusoidal_encoding`.
    title : str
        Title of the figure, in the reader's language; so are the labels below.
    xlabel : str
        Label of the horizontal axis (dimensions).
    ylabel : str
        Label of the vertical axis (positions).
    colorbar_label : str
        Label of the colour bar.

    Returns
    -------
    matplotlib.figure.Figure
        One axes with the table drawn as an image, values in `[-1, 1]`, and a colour bar.

    Raises
    ------
    TypeError, ValueError
        As `sinusoidal_encoding`, and if `n_positions < 1`.

    Examples
    --------
    >>> from posenc.plotting import encoding_heatmap
    >>> figure = encoding_heatmap(16, 32, title="PE")
    >>> figure.axes[0].get_title()
    'PE'
    """
    check_integer("n_positions", n_positions, minimum=1)
    table = sinusoidal_encoding(n_positions, d_model, base=base)
    with _style():
        figure, (axes,) = _new_figure(7.0, 3.6)
        # interpolation="none": the SVG holds the table itself, one pixel per entry, and the
        # browser scales it up sharply; "nearest" would embed an image the size of the axes.
        image = axes.imshow(table, aspect="auto", interpolation="none", vmin=-1, vmax=1)
        axes.set(title=title, xlabel=xlabel, ylabel=ylabel)
        figure.colorbar(image, ax=axes, label=colorbar_label)
    return figure


def dimension_curves(
    n_positions: int = 64,
    d_model: int = 128,
    dims: Sequence[int] = (4, 5, 6, 7, 100),
    *,
    base: float = 10000.0,
    title: str = "Each dimension is a wave over positions",
    xlabel: str = "position",
    ylabel: str = "value",
    legend_label: str = "dimension {dim}",
) -> Figure:
    """Curves of a few columns of the encoding over position: low ones fast, high ones slow.

    Parameters
    ----------
    n_positions : int, default 64
        Positions on the horizontal axis, `>= 2`.
    d_model : int, default 128
        Columns of the table, `>= 1`.
    dims : sequence of int
        Columns to draw, each in `[0, d_model - 1]`; at least one.
    base : float, default 10000.0
        Passed to `sinusoidal_encoding`.
    title : str
        Title of the figure, in the reader's language; so are the labels below.
    xlabel : str
        Label of the horizontal axis (positions).
    ylabel : str
        Label of the vertical axis (values).
    legend_label : str
        Legend entry of each curve; `{dim}` is replaced by the column number.

    Returns
    -------
    matplotlib.figure.Figure
        One axes with one curve per entry of `dims`.

    Raises
    ------
    TypeError, ValueError
        As `sinusoidal_encoding`; if `n_positions < 2`, `dims` is empty, or a column is out
        of range.

    Examples
    --------
    >>> from posenc.plotting import dimension_curves
    >>> figure = dimension_curves(50, 16, dims=(0, 15))
    >>> [line.get_label() for line in figure.axes[0].get_lines()]
    ['dimension 0', 'dimension 15']
    """
    check_integer("n_positions", n_positions, minimum=2)
    d_model = check_integer("d_model", d_model, minimum=1)
    columns = [check_integer("dims[]", dim, minimum=0, maximum=d_model - 1) for dim in dims]
    if not columns:
        raise ValueError("dims must name at least one column")
    table = sinusoidal_encoding(n_positions, d_model, base=base)
    with _style():
        figure, (axes,) = _new_figure(7.0, 3.2)
        for dim in columns:
            axes.plot(table[:, dim], label=legend_label.format(dim=dim), linewidth=1.2)
        axes.set(title=title, xlabel=xlabel, ylabel=ylabel, ylim=(-1.1, 1.1))
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return figure


def offset_similarity(
    n_positions: int = 64,
    d_model: int = 128,
    starts: Sequence[int] = (0, 10, 20),
    *,
    base: float = 10000.0,
    title: str = "The dot product depends on the offset only",
    xlabel: str = "offset k",
    ylabel: str = "PE(p) · PE(p + k)",
    legend_label: str = "p = {start}",
    matrix_title: str = "PE · PEᵀ",
    matrix_xlabel: str = "position",
    matrix_ylabel: str = "position",
) -> Figure:
    r"""The dot product of two encodings as a function of their offset, and the full matrix.

    Left, $PE(p) \cdot PE(p + k)$ against `k` for several starts `p`: the curves lie on
    top of each other, because each pair of columns turns by an angle that depends only on
    `k`. Right, the matrix of all dot products, constant along every diagonal.

    Parameters
    ----------
    n_positions : int, default 64
        Rows of the table, `>= 2`.
    d_model : int, default 128
        Columns of the table, `>= 1`.
    starts : sequence of int
        Start positions `p`, each in `[0, n_positions - 2]`; at least one. Offsets run from 0
        to `n_positions - 1 - max(starts)`.
    base : float, default 10000.0
        Passed to `sinusoidal_encoding`.
    title : str
        Title of the left panel, in the reader's language; so are the labels below.
    xlabel : str
        Label of the left panel's horizontal axis (offsets).
    ylabel : str
        Label of the left panel's vertical axis (dot products).
    legend_label : str
        Legend entry of each curve; `{start}` is replaced by the start position.
    matrix_title : str
        Title of the right panel.
    matrix_xlabel : str
        Label of the right panel's horizontal axis (positions).
    matrix_ylabel : str
        Label of the right panel's vertical axis (positions).

    Returns
    -------
    matplotlib.figure.Figure
        Two axes: the curves, and the matrix with a colour bar.

    Raises
    ------
    TypeError, ValueError
        As `sinusoidal_encoding`; if `n_positions < 2`, `starts` is empty, or a start is out
        of range.

    Examples
    --------
    >>> from posenc.plotting import offset_similarity
    >>> figure = offset_similarity(32, 16, starts=(0, 5))
    >>> len(figure.axes[0].get_lines())
    2
    """
    n_positions = check_integer("n_positions", n_positions, minimum=2)
    points = [check_integer("starts[]", p, minimum=0, maximum=n_positions - 2) for p in starts]
    if not points:
        raise ValueError("starts must name at least one position")
    table = sinusoidal_encoding(n_positions, d_model, base=base)
    similarity = table @ table.T
    offsets = np.arange(n_positions - max(points))
    with _style():
        figure, (curves, matrix) = _new_figure(8.0, 3.4, ncols=2)
        for n, start in enumerate(points):
            curves.plot(
                offsets,
                similarity[start, start + offsets],
                label=legend_label.format(start=start),
                linewidth=3.0 - 0.9 * n,  # thinner on top, so every curve stays visible
                linestyle=("-", "--", ":")[n % 3],
            )
        curves.set(title=title, xlabel=xlabel, ylabel=ylabel)
        curves.legend()
        image = matrix.imshow(similarity, interpolation="none")
        matrix.set(title=matrix_title, xlabel=matrix_xlabel, ylabel=matrix_ylabel)
        figure.colorbar(image, ax=matrix)
    return figure


def matrix_heatmap(
    matrix: np.ndarray,
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    colorbar_label: str = "",
    symmetric: bool = False,
) -> Figure:
    """Any matrix as a heatmap with a colour bar, e.g. a bias or a similarity matrix.

    Parameters
    ----------
    matrix : ndarray
        2-D, finite or `-inf` (masked entries, drawn blank).
    title : str
        Title, in the reader's language; so are the labels below.
    xlabel : str
        Label of the horizontal axis (columns).
    ylabel : str
        Label of the vertical axis (rows).
    colorbar_label : str, default ""
        Label of the colour bar.
    symmetric : bool, default False
        Centre the colours on 0 (a diverging colour map), for values of both signs.

    Returns
    -------
    matplotlib.figure.Figure
        One axes with the matrix and a colour bar.

    Raises
    ------
    ValueError
        If `matrix` is not 2-D or has no finite value.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.plotting import matrix_heatmap
    >>> figure = matrix_heatmap(np.eye(3), title="I", xlabel="j", ylabel="i")
    >>> figure.axes[0].get_title()
    'I'
    """
    values = np.asarray(matrix, dtype=np.float64)
    finite = values[np.isfinite(values)]
    if values.ndim != 2 or finite.size == 0:
        raise ValueError(f"matrix must be 2-D with finite values, got shape {values.shape}")
    masked = np.ma.masked_invalid(values)
    with _style():
        figure, (axes,) = _new_figure(5.2, 4.0)
        if symmetric:
            limit = float(np.abs(finite).max()) or 1.0
            image = axes.imshow(
                masked,
                cmap="RdBu_r",
                vmin=-limit,
                vmax=limit,
                interpolation="none",
                aspect="auto",  # fill the axes: the colour bar then matches its height
            )
        else:
            image = axes.imshow(masked, interpolation="none", aspect="auto")
        axes.set(title=title, xlabel=xlabel, ylabel=ylabel)
        figure.colorbar(image, ax=axes, label=colorbar_label)
    return figure


def heatmap_panels(
    matrices: Sequence[np.ndarray],
    *,
    panel_titles: Sequence[str],
    title: str,
    xlabel: str,
    ylabel: str,
    colorbar_label: str = "",
    marker: tuple[int, int] | None = None,
) -> Figure:
    """Several matrices side by side on one colour scale, e.g. one patch's similarity to a grid.

    One figure with one square panel per matrix rather than several figures: a page then
    carries one SVG, one colour bar and one set of labels.

    Parameters
    ----------
    matrices : sequence of ndarray
        Two-dimensional arrays, finite, at least one; they may differ in shape. All share
        one colour scale, from the smallest to the largest value of any of them.
    panel_titles : sequence of str
        One title per matrix, in the reader's language; so are the labels below.
    title : str
        Title of the whole figure.
    xlabel : str
        Label of the horizontal axes (columns).
    ylabel : str
        Label of the vertical axis of the first panel (rows).
    colorbar_label : str, default ""
        Label of the shared colour bar.
    marker : tuple of int, optional
        `(row, column)` of an entry to mark with a small cross on every panel, such as the
        patch the similarities are measured from.

    Returns
    -------
    matplotlib.figure.Figure
        One axes per matrix, each holding its matrix as an image (row 0 at the top), and a
        colour bar.

    Raises
    ------
    ValueError
        If `matrices` is empty, a matrix is not 2-D and finite, `panel_titles` does not have
        one title per matrix, or `marker` lies outside a matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.plotting import heatmap_panels
    >>> figure = heatmap_panels(
    ...     [np.eye(3), np.ones((3, 3))], panel_titles=["I", "J"], title="t", xlabel="x", ylabel="y"
    ... )
    >>> [axes.get_title() for axes in figure.axes[:2]]
    ['I', 'J']
    """
    values = [np.asarray(matrix, dtype=np.float64) for matrix in matrices]
    if not values:
        raise ValueError("matrices must hold at least one matrix")
    for n, matrix in enumerate(values):
        if matrix.ndim != 2 or matrix.size == 0 or not np.all(np.isfinite(matrix)):
            raise ValueError(f"matrices[{n}] must be 2-D and finite, got shape {matrix.shape}")
    titles = list(panel_titles)
    if len(titles) != len(values):
        raise ValueError(
            f"panel_titles must have one title per matrix ({len(values)}), got {len(titles)}"
        )
    if marker is not None:
        row, column = marker
        for n, matrix in enumerate(values):
            if not (0 <= row < matrix.shape[0] and 0 <= column < matrix.shape[1]):
                raise ValueError(
                    f"marker {marker} lies outside matrices[{n}] of shape {matrix.shape}"
                )
    low = min(float(matrix.min()) for matrix in values)
    high = max(float(matrix.max()) for matrix in values)
    with _style():
        from matplotlib.figure import Figure

        # "compressed", matplotlib's constrained layout for axes of fixed aspect: with square
        # images the plain constrained layout of _new_figure lets the titles overlap the panels.
        figure = Figure(figsize=(2.6 * len(values) + 0.9, 3.2), layout="compressed")
        panels = list(figure.subplots(1, len(values), squeeze=False)[0])
        for n, (axes, matrix, panel_title) in enumerate(zip(panels, values, titles, strict=True)):
            image = axes.imshow(matrix, vmin=low, vmax=high, interpolation="none")
            axes.set_title(panel_title)
            axes.set_xlabel(xlabel)
            if n == 0:
                axes.set_ylabel(ylabel)
            if marker is not None:
                axes.plot(marker[1], marker[0], marker="x", color="white", markersize=6)
        figure.suptitle(title)
        figure.colorbar(image, ax=panels, label=colorbar_label, shrink=0.8)
    return figure


def line_plot(
    x: np.ndarray,
    series: dict[str, np.ndarray],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
) -> Figure:
    """Several curves over the same horizontal axis, one per entry of `series`.

    Parameters
    ----------
    x : ndarray
        Shape `(n,)`.
    series : dict of str to ndarray
        Legend label, in the reader's language, to values of shape `(n,)`; at least one.
    title : str
        Title, in the reader's language; so are the labels below.
    xlabel : str
        Label of the horizontal axis.
    ylabel : str
        Label of the vertical axis.

    Returns
    -------
    matplotlib.figure.Figure
        One axes with one curve per series, later curves thinner so overlaps stay visible.

    Raises
    ------
    ValueError
        If `series` is empty or a curve's length differs from `x`.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.plotting import line_plot
    >>> figure = line_plot(np.arange(3), {"a": np.zeros(3)}, title="t", xlabel="x", ylabel="y")
    >>> [line.get_label() for line in figure.axes[0].get_lines()]
    ['a']
    """
    xs = np.asarray(x, dtype=np.float64)
    if not series:
        raise ValueError("series must hold at least one curve")
    with _style():
        figure, (axes,) = _new_figure(7.0, 3.2)
        for n, (label, ys) in enumerate(series.items()):
            values = np.asarray(ys, dtype=np.float64)
            if values.shape != xs.shape:
                raise ValueError(f"curve {label!r} has shape {values.shape}, x has {xs.shape}")
            axes.plot(
                xs,
                values,
                label=label,
                linewidth=max(3.0 - 0.7 * n, 1.0),
                linestyle=("-", "--", ":", "-.")[n % 4],
            )
        axes.set(title=title, xlabel=xlabel, ylabel=ylabel)
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return figure


_XML_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.DOTALL)
_PNG = re.compile(r"(?<=data:image/png;base64,)[A-Za-z0-9+/=\s]+")
# scour rounds path data but not the positions of ticks and texts, nor does it drop the
# rotation by 0 degrees that matplotlib gives every text; 0.01 pt is far below a pixel.
_POSITION = re.compile(r'(?<= [xy]=")-?\d+\.\d{3,}(?=")')
_NO_ROTATION = re.compile(r' transform="rotate\(-?0 [^"]*\)"')
# Every text repeats the same list of fonts; the root states it once and the texts inherit.
_FONT_FAMILY = re.compile(r"font-family:([^;\"]*);?")


def _palette_png(match: re.Match[str]) -> str:
    """An embedded PNG again, as a palette image where that keeps every pixel.

    matplotlib embeds RGBA images, 4 bytes a pixel; a colour map has 256 colours, so an
    opaque heatmap fits a palette of 1 byte a pixel, about a third of the size. Pillow
    (matplotlib's own dependency) converts it; any loss, or transparency, keeps the original.
    """
    from PIL import Image

    data = base64.b64decode("".join(match.group(0).split()))
    image = Image.open(io.BytesIO(data))
    pixels = np.asarray(image.convert("RGBA"))
    if (pixels[..., 3] == 255).all():
        rgb = image.convert("RGB")
        palette = rgb.convert("P", palette=Image.Palette.ADAPTIVE, colors=256)
        if np.array_equal(np.asarray(palette.convert("RGB")), pixels[..., :3]):
            buffer = io.BytesIO()
            palette.save(buffer, format="png", optimize=True)
            data = min(data, buffer.getvalue(), key=len)
    return base64.b64encode(data).decode("ascii")


def _scour_options(id_prefix: str) -> object:
    """Options of scour, the SVG optimiser that shrinks the figures.

    It drops what matplotlib writes for editors and the browser does not need (ids nothing
    refers to, metadata, comments, line breaks), writes path data with 4 significant digits
    (0.1 pt on a figure 500 pt wide, well under a pixel), and shortens the ids that remain,
    each behind ``id_prefix`` so that several figures can share a page. Styles stay styles:
    matplotlib's ``image-rendering`` style names two values for different browsers.
    """
    from scour import scour

    return scour.parse_args(
        [
            "--set-precision=4",
            "--set-c-precision=4",
            "--enable-id-stripping",
            "--shorten-ids",
            f"--shorten-ids-prefix={id_prefix}",
            "--remove-metadata",
            "--enable-comment-stripping",
            "--disable-style-to-xml",
            "--strip-xml-prolog",
            "--no-line-breaks",
            "--indent=none",
        ]
    )


def to_html(figure: Figure, *, alt: str, caption: str | None = None) -> str:
    """The figure as an inline, accessible SVG inside a `<figure>`, the same bytes every time.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A figure from this module.
    alt : str
        Text alternative for screen readers, in the reader's language; it becomes the SVG's
        `<title>` and accessible name. Must not be empty.
    caption : str, optional
        Visible caption under the figure.

    Returns
    -------
    str
        HTML: `<figure class="pe-figure" data-search-exclude>` holding the SVG (no XML
        prologue, no date) and the caption. Its ids are prefixed with a hash of `alt`, so
        several figures can share a page. `data-search-exclude` keeps the figure out of
        Material's search index: tick labels and legends are not words a reader searches for.

    Raises
    ------
    ValueError
        If `alt` is empty.

    Examples
    --------
    >>> from posenc.plotting import encoding_heatmap, to_html
    >>> html = to_html(encoding_heatmap(8, 8), alt="A small table")
    >>> html.startswith('<figure class="pe-figure" data-search-exclude><svg')
    True
    >>> ">A small table</title>" in html
    True
    """
    from scour import scour

    if not alt.strip():
        raise ValueError("alt must be a non-empty text alternative for the figure")
    buffer = io.StringIO()
    with _style():
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    prefix = "f" + hashlib.sha1(alt.encode("utf-8")).hexdigest()[:8]
    svg = _PNG.sub(_palette_png, buffer.getvalue())
    svg = scour.scourString(svg, _scour_options(f"{prefix}-"))
    svg = _XML_PROLOGUE.sub("", svg, count=1).replace(_INK, "currentColor")
    svg = _NO_ROTATION.sub("", _POSITION.sub(lambda m: f"{round(float(m.group(0)), 2):g}", svg))
    families = set(_FONT_FAMILY.findall(svg))
    if len(families) == 1:
        root_font = f'<svg style="font-family:{families.pop()}" '
        svg = _FONT_FAMILY.sub("", svg).replace("<svg ", root_font, 1)
    title_id = f"{prefix}-title"
    svg = svg.replace(
        "<svg ",
        f'<svg role="img" aria-labelledby="{title_id}" ',
        1,
    )
    svg = re.sub(
        r"(<svg[^>]*>)",
        lambda m: f'{m.group(1)}<title id="{title_id}">{escape(alt)}</title>',
        svg,
        count=1,
    )
    figcaption = f"<figcaption>{escape(caption)}</figcaption>" if caption else ""
    return f'<figure class="pe-figure" data-search-exclude>{svg.strip()}{figcaption}</figure>'
