"""The layout of the figures of `posenc.plotting`: one row of axes, each with its colour bar.

Why our own: matplotlib's constrained layout measures every axis' ticks and labels four times
or more (two rounds, each axis again for its neighbours), which took about 40% of the drawing
of these figures. Their shape is simple: one row of axes, each with an optional colour bar on
its right, a legend inside or just right of it. So :class:`RowLayout` measures each axis' tick
labels once at the axes' current places, adds the height of the axis labels and the title,
and sets the axes with constrained layout's paddings and colour bar geometry: ``w_pad`` and
``h_pad`` of 3 pt, a colour bar 1/20 as wide as it is tall, 5% of its axes' width away. Like
constrained layout, it counts a label or a title by its height only, never its length. A
second round runs when the axes' new sizes change a tick label or a legend sits outside.

A figure of any other shape (a title over all, a legend of the figure, a second row, two
colour bars on one axes) is left to constrained layout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from matplotlib.layout_engine import ConstrainedLayoutEngine, LayoutEngine
from matplotlib.transforms import Bbox

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure
    from matplotlib.text import Text

_PAD = 3.0  # points: constrained layout's w_pad and h_pad (figure.constrained_layout.w_pad)
_COLORBAR_PAD = 0.05  # of its axes' width, as Figure.colorbar's default pad
_COLORBAR_ASPECT = 20.0  # height / width, as Figure.colorbar's default aspect
_SIDES = ("left", "bottom", "right", "top")


class RowLayout(LayoutEngine):
    """Place one row of axes and their colour bars; see the module's description.

    Register each colour bar with :meth:`add_colorbar` after `Figure.colorbar` made it.
    """

    _adjust_compatible = False
    _colorbar_gridspec = False  # colour bars made by make_axes, as with constrained layout

    def __init__(self) -> None:
        super().__init__()
        self._colorbars: dict[Axes, Axes] = {}

    def set(self, **kwargs: Any) -> None:
        """No parameters to set: the paddings are constrained layout's defaults."""
        if kwargs:
            raise TypeError(f"RowLayout takes no parameters, got {sorted(kwargs)}")

    def add_colorbar(self, axes: Axes, colorbar: Axes) -> None:
        """Record that ``colorbar`` (the axes of a colour bar) belongs right of ``axes``."""
        self._colorbars[axes] = colorbar

    def execute(self, fig: Figure) -> None:
        """Lay ``fig`` out as one row, or leave it to constrained layout if it is no row."""
        row = self._row(fig)
        if row is None or not _place(fig, row, self._colorbars):
            ConstrainedLayoutEngine().execute(fig)

    def _row(self, fig: Figure) -> list[Axes] | None:
        """The axes of ``fig`` in their order, if the figure is one row this engine knows."""
        bars = set(self._colorbars.values())
        cells = [axes for axes in fig.axes if axes not in bars]
        specs = [axes.get_subplotspec() for axes in cells]
        if (
            fig.texts
            or fig.legends
            or fig.subfigs
            or getattr(fig, "_suptitle", None) is not None
            or any(spec is None for spec in specs)
            or len({spec.get_gridspec() for spec in specs if spec is not None}) != 1
            or len(fig.axes) != len(cells) + sum(axes in self._colorbars for axes in cells)
        ):
            return None
        grid = specs[0].get_gridspec() if specs and specs[0] is not None else None
        if grid is None or grid.nrows != 1:
            return None
        return sorted(cells, key=lambda axes: axes.get_subplotspec().colspan.start)


def _in_view(axis: Axis, value: float) -> bool:
    low, high = sorted(axis.get_view_interval())
    tolerance = 1e-10 * max(abs(high - low), 1.0)
    return bool(low - tolerance <= value <= high + tolerance)


def _tick_labels(axis: Axis) -> list[Text]:
    """The tick labels ``axis`` draws, brought up to date."""
    index = 0 if axis.axis_name == "x" else 1
    return [
        label
        for label in axis.get_majorticklabels()
        if label.get_text() and _in_view(axis, label.get_position()[index])
    ]


def _decorations(axes: Axes, renderer: RendererBase) -> dict[str, float]:
    """How far ``axes``' decorations reach beyond its box on each side, in display units."""
    box = axes.get_window_extent(renderer)
    reach = dict.fromkeys(_SIDES, 0.0)

    def extend(bbox: Bbox, extra: dict[str, float] | None = None) -> None:
        beyond = {
            "left": box.x0 - bbox.x0,
            "bottom": box.y0 - bbox.y0,
            "right": bbox.x1 - box.x1,
            "top": bbox.y1 - box.y1,
        }
        for side in _SIDES:
            reach[side] = max(reach[side], beyond[side] + (extra or {}).get(side, 0.0))

    for axis in (axes.xaxis, axes.yaxis):
        if not axis.get_visible():
            continue
        if axis.major.formatter.get_offset():
            raise _NotARowError  # an offset text ("1e-5") beside the ticks: constrained layout
        labels = _tick_labels(axis)
        boxes = [label.get_window_extent(renderer) for label in labels]
        for bbox in boxes:
            extend(bbox)
        label = axis.label
        if label.get_visible() and label.get_text():
            side = axis.get_label_position()
            ticks = Bbox.union(boxes) if boxes else box
            thickness = label.get_window_extent(renderer)
            size = thickness.height if axis.axis_name == "x" else thickness.width
            pad = axis.labelpad * axes.get_figure(root=True).dpi / 72
            extend(ticks, {side: pad + size})
    for text in (axes.title, *[t for t in axes.texts if t.get_in_layout()]):
        if text.get_visible() and text.get_text():
            bbox = text.get_window_extent(renderer)
            extend(Bbox.from_extents(box.x0, bbox.y0, box.x1, bbox.y1))  # height only
    legend = axes.get_legend()
    if legend is not None and legend.get_in_layout():
        extend(legend.get_window_extent(renderer))
    return reach


class _NotARowError(Exception):
    """The figure has something this layout does not place."""


def _tick_texts(row: list[Axes], colorbars: dict[Axes, Axes]) -> list[tuple[str, ...]]:
    """The tick labels every axis would draw now, from its locator and formatter alone."""
    texts = []
    for axes in [*row, *(colorbars[axes] for axes in row if axes in colorbars)]:
        for axis in (axes.xaxis, axes.yaxis):
            locations = [loc for loc in axis.get_majorticklocs() if _in_view(axis, loc)]
            texts.append(tuple(axis.major.formatter.format_ticks(locations)))
    return texts


def _place(fig: Figure, row: list[Axes], colorbars: dict[Axes, Axes]) -> bool:
    """Set the axes of ``row`` and their colour bars; False if they do not fit.

    The places depend on the tick labels, which depend on the axes' lengths: a second round
    runs when the first one's places change a tick label, or when a legend (whose distance
    to its axes grows with their width) may sit outside.
    """
    renderer = fig._get_renderer()  # as constrained layout measures
    for _ in range(2):
        try:
            reaches = [_decorations(axes, renderer) for axes in row]
            bars = [
                _decorations(colorbars[axes], renderer) if axes in colorbars else None
                for axes in row
            ]
        except _NotARowError:
            return False
        measured = _tick_texts(row, colorbars)
        if not _set(fig, row, colorbars, reaches, bars):
            return False
        if measured == _tick_texts(row, colorbars) and not any(axes.get_legend() for axes in row):
            break
    return True


def _set(
    fig: Figure,
    row: list[Axes],
    colorbars: dict[Axes, Axes],
    reaches: list[dict[str, float]],
    bars: list[dict[str, float] | None],
) -> bool:
    """Compute and set the places of the axes; False if nothing is left for them."""
    width, height = fig.bbox.width, fig.bbox.height
    pad = _PAD * fig.dpi / 72
    below = max(r["bottom"] for r in [*reaches, *(b for b in bars if b)])
    above = max(r["top"] for r in [*reaches, *(b for b in bars if b)])
    bottom = pad + below
    tall = height - bottom - pad - above
    bar_width = tall / _COLORBAR_ASPECT
    fixed = pad * 2 * len(row)  # w_pad at both ends, 2 w_pad between neighbours
    stretch = 0.0
    widths: list[float | None] = []
    for axes, reach, bar in zip(row, reaches, bars, strict=True):
        fixed += reach["left"] + reach["right"]
        if bar is not None:
            fixed += bar_width + bar["right"]
        aspect = axes.get_aspect()
        if aspect == "auto":
            widths.append(None)
            stretch += 1 + (_COLORBAR_PAD if bar is not None else 0)
        else:
            wide = tall / (float(aspect) * axes.get_data_ratio())
            widths.append(wide)
            fixed += wide * (1 + (_COLORBAR_PAD if bar is not None else 0))
    free = (width - fixed) / stretch if stretch else 0.0
    if tall <= 0 or (stretch and free <= 0) or (not stretch and fixed > width):
        return False
    x = pad
    for axes, reach, bar, wide in zip(row, reaches, bars, widths, strict=True):
        wide = free if wide is None else wide
        x += reach["left"]
        to_figure = fig.transFigure.inverted()
        axes.set_position(Bbox.from_bounds(x, bottom, wide, tall).transformed(to_figure))
        x += wide + reach["right"]
        if bar is not None:
            x += _COLORBAR_PAD * wide
            place = Bbox.from_bounds(x, bottom, bar_width, tall)
            colorbars[axes].set_position(place.transformed(to_figure))
            x += bar_width + bar["right"]
        x += 2 * pad
    return True
