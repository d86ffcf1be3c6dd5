"""Figures of the sinusoidal encoding, drawn with matplotlib (imported only when called).

Every function returns a `matplotlib.figure.Figure` built without pyplot, so no global state
is touched. Its text and axes are drawn in a placeholder colour that `to_html` turns into the
page's own text colour (`currentColor`), so an inline SVG reads well on light and dark pages.
Labels are arguments, so a page in any language can pass its own; `to_html` draws a figure
once for all of them, and writes each page's labels into the same SVG.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from contextlib import contextmanager
from html import escape
from typing import TYPE_CHECKING

import numpy as np

from posenc import _svg
from posenc._validation import check_integer
from posenc.sinusoidal import sinusoidal_encoding

if TYPE_CHECKING:
    from collections.abc import Iterator

    from matplotlib.axes import Axes
    from matplotlib.cm import ScalarMappable
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

    from posenc._layout import RowLayout

    # Margins measured from the tick labels, not fixed ones, which left the figures visibly
    # emptier or clipped long titles; and not constrained layout, which measured each axis
    # four times or more, for the same places (see posenc._layout).
    figure = Figure(figsize=(width, height), layout=RowLayout())
    axes = figure.subplots(1, ncols, squeeze=False)[0]
    return figure, list(axes)


def _colorbar(figure: Figure, image: ScalarMappable, axes: Axes, label: str = "") -> None:
    """A colour bar right of ``axes``, placed by the figure's layout."""
    from posenc._layout import RowLayout

    colorbar = figure.colorbar(image, ax=axes, label=label)
    engine = figure.get_layout_engine()
    if isinstance(engine, RowLayout):
        engine.add_colorbar(axes, colorbar.ax)


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
        _colorbar(figure, image, axes, colorbar_label)
        return _svg.record(figure, "encoding_heatmap", table)


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
        return _svg.record(figure, "dimension_curves", table[:, columns])


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
        _colorbar(figure, image, matrix)
        return _svg.record(figure, "offset_similarity", similarity, offsets, points)


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
        _colorbar(figure, image, axes, colorbar_label)
        return _svg.record(figure, "matrix_heatmap", values, symmetric)


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
        return _svg.record(figure, "heatmap_panels", *values, marker)


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
    curves = []
    with _style():
        figure, (axes,) = _new_figure(7.0, 3.2)
        for n, (label, ys) in enumerate(series.items()):
            values = np.asarray(ys, dtype=np.float64)
            if values.shape != xs.shape:
                raise ValueError(f"curve {label!r} has shape {values.shape}, x has {xs.shape}")
            curves.append(values)
            axes.plot(
                xs,
                values,
                label=label,
                linewidth=max(3.0 - 0.7 * n, 1.0),
                linestyle=("-", "--", ":", "-.")[n % 4],
            )
        axes.set(title=title, xlabel=xlabel, ylabel=ylabel)
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
        return _svg.record(figure, "line_plot", xs, *curves)


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
        A figure of this module drawn before with other titles and axis labels (the same
        figure on the page in another language) is not drawn again: its SVG gets these
        labels written in, the same bytes as drawing it.

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
    if not alt.strip():
        raise ValueError("alt must be a non-empty text alternative for the figure")
    prefix = "f" + hashlib.sha1(alt.encode("utf-8")).hexdigest()[:8]
    with _style():
        svg = _svg.svg(figure, id_prefix=f"{prefix}-", ink=_INK)
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
    return f'<figure class="pe-figure" data-search-exclude>{svg}{figcaption}</figure>'
