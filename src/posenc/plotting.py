"""Figures of the sinusoidal encoding, drawn with matplotlib (imported only when called).

They need matplotlib, the `plot` extra: `python -m pip install "posenc[plot]"`.

Every function returns a `matplotlib.figure.Figure` built without pyplot and keeps nothing:
no global state is touched (the rcParams of `style` hold for the call only, through
`matplotlib.rc_context`), and the figure is the caller's to show, save
(``figure.savefig("table.png")``) or change. Labels are arguments, so a page in any language
can pass its own.

Text and axes are drawn in `INK`, a near black that neither colour map of the figures
(viridis, RdBu_r) holds, so that a page can write its own text colour in its place (an inline
SVG then reads on light and dark pages). matplotlib makes an axis' tick labels when it draws,
from the rcParams in force: draw or save a figure inside `style` to keep its look.

Every figure is 4 inches wide (288 pt) with text of 10 pt and more, so that it reads on a
phone: a page 360 CSS px wide shows it 328 px wide, its smallest text 11.4 px tall; a wider
screen shows it at its own size (384 px), never larger. Panels stand in rows of at most two,
legends under their axes, and a title or label too long for the width is broken into lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np

from posenc._validation import check_integer
from posenc.sinusoidal import sinusoidal_encoding

if TYPE_CHECKING:
    from collections.abc import Iterator

    from matplotlib.axes import Axes
    from matplotlib.cm import ScalarMappable
    from matplotlib.figure import Figure

INK = "#010203"
"""The colour of the figures' text and axes: near black, in neither of their colour maps."""

_STYLE = {
    "text.color": INK,
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "axes.facecolor": "none",
    "figure.facecolor": "none",
    "savefig.facecolor": "none",
    "legend.frameon": False,
    "font.family": "sans-serif",
    "font.size": 10.0,
    "image.cmap": "viridis",
}


@contextmanager
def style() -> Iterator[None]:
    """The rcParams the figures of this module are made with, in force inside the block.

    Every function of this module makes its figure inside it; draw or save the figure inside
    it too, since matplotlib makes tick labels (their colour, their font) when it draws.
    matplotlib's own `matplotlib.rc_context` sets and restores them.

    Yields
    ------
    None
        Inside the block: ``INK`` for text and axes, no background, no legend frame,
        sans-serif text of 10 pt, the viridis colour map.

    Examples
    --------
    >>> import io
    >>> from posenc.plotting import encoding_heatmap, style
    >>> figure = encoding_heatmap(8, 8)
    >>> with style():
    ...     figure.savefig(io.BytesIO(), format="png")
    """
    import matplotlib as mpl

    with mpl.rc_context(_STYLE):
        yield


_WIDTH = 4.0  # inches, every figure: see the module's description
_PAD = 3.0  # points between the figure's edge and its texts (posenc._layout's w_pad)
# Of the width a text may take, what is left for the browser's font, which may set a line a
# little wider than matplotlib measures it (DejaVu Sans, among the widest sans-serif fonts).
_FONT_MARGIN = 0.96
# Points a horizontal axis' label may take under an axes with a colour bar, its width less a
# margin; a label wider is broken into lines.
_AXES_WIDTH = _WIDTH * 72 - 90
# Points a panel's title may take when two panels share a row.
_PANEL_WIDTH = (_WIDTH * 72 - 56) / 2


def _new_figure(
    height: float, nrows: int = 1, ncols: int = 1, height_ratios: Sequence[float] | None = None
) -> tuple[Figure, list[Axes]]:
    from matplotlib.figure import Figure

    from posenc._layout import RowLayout

    # Margins measured from the tick labels, not fixed ones, which left the figures visibly
    # emptier or clipped long titles; and not constrained layout, which measured each axis
    # four times or more, for the same places (see posenc._layout).
    figure = Figure(figsize=(_WIDTH, height), layout=RowLayout())
    grid = figure.subplots(nrows, ncols, squeeze=False, height_ratios=height_ratios)
    return figure, list(grid.flat)


def _points(size: str | float) -> float:
    """A font size of the rcParams ("large", 10.0) in points."""
    from matplotlib.font_manager import FontProperties

    points: float = FontProperties(size=size).get_size_in_points()
    return points


def _wrapped(text: str, size: str | float, width: float) -> str:
    """``text`` in lines no wider than ``width`` points, less the font's margin."""
    from posenc._layout import wrap

    return wrap(text, _points(size), width * _FONT_MARGIN)


def _full_width() -> float:
    """Points a text centred on the figure may take: the width less its paddings."""
    return _WIDTH * 72 - 2 * _PAD


def _label(axes: Axes, *, title: str, xlabel: str, ylabel: str, width: float) -> None:
    """Set the title and axis labels of ``axes``, broken into lines that fit.

    The title of an axes alone in its row is centred on the figure (posenc._layout), and may be
    as wide as the figure; the horizontal axis' label is centred on its axes, ``width`` points
    wide, and may reach a little beyond it.
    """
    import matplotlib as mpl

    axes.set_title(_wrapped(title, mpl.rcParams["axes.titlesize"], _full_width()))
    axes.set_xlabel(_wrapped(xlabel, mpl.rcParams["axes.labelsize"], width))
    axes.set_ylabel(ylabel)


def _colorbar(figure: Figure, image: ScalarMappable, axes: Axes, label: str = "") -> None:
    """A colour bar right of ``axes``, placed by the figure's layout."""
    from posenc._layout import RowLayout

    colorbar = figure.colorbar(image, ax=axes, label=label)
    engine = figure.get_layout_engine()
    if isinstance(engine, RowLayout):
        engine.add_colorbar(axes, colorbar.ax)


def _legend_below(figure: Figure, axes: Axes) -> None:
    """The legend of ``axes`` under its row, in as many columns as the figure's width holds.

    Entries fill the columns as matplotlib fills them (`numpy.array_split`: the first columns
    take one more); each column is as wide as its widest entry.
    """
    import matplotlib as mpl

    from posenc._layout import RowLayout, text_width

    size = _points(mpl.rcParams["legend.fontsize"])
    em = {name: mpl.rcParams[f"legend.{name}"] * size for name in ("handlelength", "handletextpad")}
    labels = [line.get_label() for line in axes.get_lines()]
    entries = [em["handlelength"] + em["handletextpad"] + text_width(x, size) for x in labels]
    spacing = mpl.rcParams["legend.columnspacing"] * size
    border = 2 * mpl.rcParams["legend.borderpad"] * size
    columns = 1
    for n in range(len(entries), 1, -1):
        split = np.array_split(np.array(entries), n)
        if sum(column.max() for column in split) + spacing * (n - 1) + border <= (
            _full_width() * _FONT_MARGIN
        ):
            columns = n
            break
    legend = axes.legend(loc="upper center", ncols=columns, borderaxespad=0.0)
    engine = figure.get_layout_engine()
    if isinstance(engine, RowLayout):
        engine.add_legend_below(axes, legend)


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
    with style():
        figure, (axes,) = _new_figure(3.4)
        # interpolation="none": the SVG holds the table itself, one pixel per entry, and the
        # browser scales it up sharply; "nearest" would embed an image the size of the axes.
        image = axes.imshow(table, aspect="auto", interpolation="none", vmin=-1, vmax=1)
        _label(axes, title=title, xlabel=xlabel, ylabel=ylabel, width=_AXES_WIDTH)
        _colorbar(figure, image, axes, colorbar_label)
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
    with style():
        figure, (axes,) = _new_figure(3.8)
        for dim in columns:
            axes.plot(table[:, dim], label=legend_label.format(dim=dim), linewidth=1.2)
        _label(axes, title=title, xlabel=xlabel, ylabel=ylabel, width=_AXES_WIDTH)
        axes.set_ylim(-1.1, 1.1)
        _legend_below(figure, axes)
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

    Above, $PE(p) \cdot PE(p + k)$ against `k` for several starts `p`: the curves lie on
    top of each other, because each pair of columns turns by an angle that depends only on
    `k`. Below, the matrix of all dot products, constant along every diagonal.

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
        Title of the upper panel, in the reader's language; so are the labels below.
    xlabel : str
        Label of the upper panel's horizontal axis (offsets).
    ylabel : str
        Label of the upper panel's vertical axis (dot products).
    legend_label : str
        Legend entry of each curve; `{start}` is replaced by the start position.
    matrix_title : str
        Title of the lower panel.
    matrix_xlabel : str
        Label of the lower panel's horizontal axis (positions).
    matrix_ylabel : str
        Label of the lower panel's vertical axis (positions).

    Returns
    -------
    matplotlib.figure.Figure
        Two axes, one above the other: the curves, and the matrix with a colour bar.

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
    with style():
        # Stacked: the curves above, the matrix (square, with its colour bar) below.
        figure, (curves, matrix) = _new_figure(6.6, nrows=2, height_ratios=(1.0, 1.3))
        for n, start in enumerate(points):
            curves.plot(
                offsets,
                similarity[start, start + offsets],
                label=legend_label.format(start=start),
                linewidth=3.0 - 0.9 * n,  # thinner on top, so every curve stays visible
                linestyle=("-", "--", ":")[n % 3],
            )
        _label(curves, title=title, xlabel=xlabel, ylabel=ylabel, width=_AXES_WIDTH)
        curves.legend()
        image = matrix.imshow(similarity, interpolation="none")
        _label(
            matrix,
            title=matrix_title,
            xlabel=matrix_xlabel,
            ylabel=matrix_ylabel,
            width=_AXES_WIDTH,
        )
        _colorbar(figure, image, matrix)
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
    with style():
        figure, (axes,) = _new_figure(3.6)
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
        _label(axes, title=title, xlabel=xlabel, ylabel=ylabel, width=_AXES_WIDTH)
        _colorbar(figure, image, axes, colorbar_label)
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
    """Several matrices on one colour scale, two a row, e.g. one patch's similarity to a grid.

    One figure with one square panel per matrix rather than several figures: a page then
    carries one SVG, one colour bar and one set of labels. The panels stand two a row, so that
    a phone shows their labels at a readable size; a last panel alone in its row is centred.

    Parameters
    ----------
    matrices : sequence of ndarray
        Two-dimensional arrays, at least one; they may differ in shape. An entry that is not
        finite (`-inf` for a masked one, or NaN) is drawn blank. All share one colour scale,
        from the smallest to the largest finite value of any of them.
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
        colour bar under them all.

    Raises
    ------
    ValueError
        If `matrices` is empty, a matrix is not 2-D or has no finite value, `panel_titles`
        does not have one title per matrix, or `marker` lies outside a matrix.

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
        if matrix.ndim != 2 or not np.isfinite(matrix).any():
            raise ValueError(
                f"matrices[{n}] must be 2-D with finite values, got shape {matrix.shape}"
            )
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
    low = min(float(matrix[np.isfinite(matrix)].min()) for matrix in values)
    high = max(float(matrix[np.isfinite(matrix)].max()) for matrix in values)
    with style():
        import matplotlib as mpl
        from matplotlib.patheffects import withStroke

        from posenc._layout import RowLayout

        # Two panels a row at most: three side by side would leave a phone too little width
        # for their tick labels and titles. The last row's lone panel is centred.
        ncols = min(len(values), 2)
        nrows = -(-len(values) // ncols)
        figure, cells = _new_figure(3.2 * nrows + 1.0, nrows, ncols)
        for unused in cells[len(values) :]:
            figure.delaxes(unused)
        panels = cells[: len(values)]
        width = _full_width() if ncols == 1 else _PANEL_WIDTH
        for n, (axes, matrix, panel_title) in enumerate(zip(panels, values, titles, strict=True)):
            masked = np.ma.masked_invalid(matrix)
            image = axes.imshow(masked, vmin=low, vmax=high, interpolation="none")
            axes.set_title(_wrapped(panel_title, "medium", width), fontsize="medium")
            axes.set_xlabel(_wrapped(xlabel, mpl.rcParams["axes.labelsize"], width))
            if n % ncols == 0:
                axes.set_ylabel(ylabel)
            if marker is not None:
                axes.plot(
                    marker[1],
                    marker[0],
                    marker="x",
                    color="black",
                    markersize=7,
                    markeredgewidth=2,
                    path_effects=[withStroke(linewidth=4, foreground="white")],
                )
        figure.suptitle(_wrapped(title, mpl.rcParams["figure.titlesize"], _full_width()))
        colorbar = figure.colorbar(
            image,
            ax=panels,
            orientation="horizontal",
            label=_wrapped(colorbar_label, mpl.rcParams["axes.labelsize"], _full_width()),
        )
        engine = figure.get_layout_engine()
        if isinstance(engine, RowLayout):
            engine.add_shared_colorbar(colorbar.ax)
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
    curves = []
    with style():
        figure, (axes,) = _new_figure(3.8)
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
        _label(axes, title=title, xlabel=xlabel, ylabel=ylabel, width=_AXES_WIDTH)
        _legend_below(figure, axes)
        return figure
