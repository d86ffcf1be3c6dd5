"""The layout of the figures of `posenc.plotting`: rows of axes, stacked, each with its colour bar.

The figures are drawn narrow (see `posenc.plotting`), so that a phone shows their text at a
readable size: panels that would stand side by side on a wide figure are stacked in rows.
:class:`RowLayout` places them:

- each row of axes, left to right, with an optional colour bar right of each axes, as
  matplotlib's constrained layout would: ``w_pad`` and ``h_pad`` of 3 pt, a colour bar 1/20 as
  wide as it is tall, 5% of its axes' width away;
- the rows top to bottom, under the figure's title (a suptitle), 2 ``h_pad`` apart; an axes
  of fixed aspect (an image) takes the height its row's width allows, an axes of automatic
  aspect the height left, shared by the rows' height ratios. A row of images only is centred,
  and rows of images share one height, so panels of a grid are the same size; a figure of such
  rows only is made as tall as they are;
- a legend registered with :meth:`RowLayout.add_legend_below` under its row, centred on the
  figure; one shared colour bar registered with :meth:`RowLayout.add_shared_colorbar`,
  horizontal, under every row;
- the title of an axes alone in its row centred on the figure, so that it may be as wide as
  the figure (`wrap` breaks the longer ones into lines).

This layout measures each axis' tick labels once at the axes' current places, adds the
height of the axis labels and the titles, and sets the axes; a second round runs when the axes'
new sizes change a tick label or a legend is placed. Like constrained layout, it counts a label
or a title by its height only, never its length, so that a figure's labels in another language
move nothing else (the site draws the labels as placeholders and writes each page's in).

Why our own, and not matplotlib's ``layout="constrained"``: measured on the 22 figures of the
site's lessons in both languages (`benchmarks/figures.py`, the two in turn, best of 5 each),
constrained layout took 1.6 to 1.9 times as long to lay them out and write them as SVG
(four runs on a shared machine; 2.94 s against 1.84 s in the last): it measures every axis'
ticks and labels four times or more (two rounds, each axis again for its neighbours). And it
gets these narrow, stacked figures wrong (drawn to PNG and looked at):

- it places no legend under a row: ``loc="upper center"`` left the legend over the curves,
  on 8% to 23% of the axes' area;
- it centres a title on its axes, not over the figure's width: 3 to 32 pt off the figure's
  centre beside a colour bar or wide tick labels, and the longest title ran 8.5 pt past the
  figure's edge, cut;
- it neither centres a lone panel of a grid nor shortens a figure to its rows of images:
  74 and 100 pt of the two figures of panels were left empty.

So it stays, in the library: it is part of how these Figures look, wherever they are shown.

A figure of any other shape (a text or a legend of the figure, an axes over several cells, two
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
    from matplotlib.legend import Legend
    from matplotlib.text import Text

_PAD = 3.0  # points: constrained layout's w_pad and h_pad (figure.constrained_layout.w_pad)
_COLORBAR_PAD = 0.05  # of its axes' width, as Figure.colorbar's default pad
_COLORBAR_ASPECT = 20.0  # height / width, as Figure.colorbar's default aspect
_SHARED_COLORBAR = 0.8  # length of a shared colour bar, of the figure's width
_SIDES = ("left", "bottom", "right", "top")


def text_width(text: str, size: float) -> float:
    """Width in points of one line of ``text`` at ``size`` points, as the SVG measures it.

    In the font of the rcParams in force (call it inside the figures' style).
    """
    import matplotlib as mpl
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    font = FontProperties(family=list(mpl.rcParams["font.family"]), size=size)
    width: float = text_to_path.get_text_width_height_descent(text, font, ismath=False)[0]
    return width


def wrap(text: str, size: float, width: float) -> str:
    """``text`` broken at spaces into lines no wider than ``width`` points, joined by newlines.

    As few lines as fit, of lengths as even as they can be (not a long line over a last word
    alone). A word wider than ``width`` stands on a line of its own. A text that fits, or
    that is not one plain line (it has a newline, or is math between dollars), is returned as
    it is.
    """
    if "\n" in text or text.count("$") >= 2 or text_width(text, size) <= width:
        return text
    words = [(word, text_width(word, size)) for word in text.split()]
    space = text_width(" ", size)
    lines = _greedy(words, space, width)
    # The narrowest width that keeps as many lines: halve the interval a dozen times.
    low, high = max(wide for _, wide in words), width
    for _ in range(12):
        middle = (low + high) / 2
        if len(_greedy(words, space, middle)) == len(lines):
            high = middle
        else:
            low = middle
    return "\n".join(_greedy(words, space, high))


def _greedy(words: list[tuple[str, float]], space: float, width: float) -> list[str]:
    """The lines of ``words`` (each with its width), each filled while it fits ``width``."""
    lines: list[str] = []
    line, used = "", 0.0
    for word, wide in words:
        if line and used + space + wide > width:
            lines.append(line)
            line, used = "", 0.0
        line, used = (f"{line} {word}", used + space + wide) if line else (word, wide)
    return [*lines, line]


class RowLayout(LayoutEngine):
    """Place rows of axes, their colour bars and legends; see the module's description.

    Register each colour bar with :meth:`add_colorbar` (or :meth:`add_shared_colorbar`)
    after `Figure.colorbar` made it, and each legend to go under its row with
    :meth:`add_legend_below`.
    """

    _adjust_compatible = False
    _colorbar_gridspec = False  # colour bars made by make_axes, as with constrained layout

    def __init__(self) -> None:
        super().__init__()
        self._colorbars: dict[Axes, Axes] = {}
        self._shared: Axes | None = None
        self._below: dict[Axes, Legend] = {}

    def set(self, **kwargs: Any) -> None:
        """No parameters to set: the paddings are constrained layout's defaults."""
        if kwargs:
            raise TypeError(f"RowLayout takes no parameters, got {sorted(kwargs)}")

    def add_colorbar(self, axes: Axes, colorbar: Axes) -> None:
        """Record that ``colorbar`` (the axes of a colour bar) belongs right of ``axes``."""
        self._colorbars[axes] = colorbar

    def add_shared_colorbar(self, colorbar: Axes) -> None:
        """Record that ``colorbar``, a horizontal colour bar, goes under every row."""
        self._shared = colorbar

    def add_legend_below(self, axes: Axes, legend: Legend) -> None:
        """Record that ``legend`` (``loc="upper center"``) goes under the row of ``axes``."""
        self._below[axes] = legend

    def execute(self, fig: Figure) -> None:
        """Lay ``fig`` out in rows, or leave it to constrained layout if it has another shape."""
        rows = self._rows(fig)
        if rows is None or not _Placement(fig, rows, self).place():
            ConstrainedLayoutEngine().execute(fig)

    def _rows(self, fig: Figure) -> list[list[Axes]] | None:
        """The axes of ``fig`` row by row, each left to right, if this engine knows its shape."""
        bars = set(self._colorbars.values()) | ({self._shared} if self._shared else set())
        cells = [axes for axes in fig.axes if axes not in bars]
        specs = [axes.get_subplotspec() for axes in cells]
        suptitle = getattr(fig, "_suptitle", None)  # Figure.suptitle's text, among fig.texts
        if (
            any(text is not suptitle for text in fig.texts)
            or fig.legends
            or fig.subfigs
            or not cells
            or any(spec is None for spec in specs)
            or len({spec.get_gridspec() for spec in specs if spec is not None}) != 1
            or len(fig.axes) != len(cells) + len(bars & set(fig.axes))
            or any(axes not in cells for axes in [*self._colorbars, *self._below])
        ):
            return None
        places = [(spec.rowspan, spec.colspan) for spec in specs if spec is not None]
        if any(len(rows) != 1 or len(columns) != 1 for rows, columns in places):
            return None
        rows: dict[int, list[Axes]] = {}
        for axes, (row, _) in sorted(
            zip(cells, places, strict=True), key=lambda item: (item[1][0].start, item[1][1].start)
        ):
            rows.setdefault(row.start, []).append(axes)
        return [rows[row] for row in sorted(rows)]


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


class _NotARowError(Exception):
    """The figure has something this layout does not place."""


def _decorations(
    axes: Axes, renderer: RendererBase, below: Legend | None = None
) -> dict[str, float]:
    """How far ``axes``' decorations reach beyond its box on each side, in display units.

    ``below``, a legend placed under the row, is not counted: the row makes room for it.
    """
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
    if legend is not None and legend is not below and legend.get_in_layout():
        extend(legend.get_window_extent(renderer))
    return reach


def _tick_texts(axes_list: list[Axes]) -> list[tuple[str, ...]]:
    """The tick labels every axis would draw now, from its locator and formatter alone."""
    texts = []
    for axes in axes_list:
        for axis in (axes.xaxis, axes.yaxis):
            locations = [loc for loc in axis.get_majorticklocs() if _in_view(axis, loc)]
            texts.append(tuple(axis.major.formatter.format_ticks(locations)))
    return texts


class _Placement:
    """One layout of a figure by a :class:`RowLayout`: measure, then set the places."""

    def __init__(self, fig: Figure, rows: list[list[Axes]], engine: RowLayout) -> None:
        self.fig, self.rows = fig, rows
        self.colorbars, self.shared, self.below = engine._colorbars, engine._shared, engine._below
        self.renderer = fig._get_renderer()  # as constrained layout measures
        self.pad = _PAD * fig.dpi / 72

    def place(self) -> bool:
        """Set every place; False if the figure does not fit this layout.

        The places depend on the tick labels, which depend on the axes' lengths: a second round
        runs when the first one's places change a tick label, or when a legend (whose
        distance to its axes grows with their width) may sit outside.
        """
        every = [axes for row in self.rows for axes in row]
        bars = [self.colorbars[axes] for axes in every if axes in self.colorbars]
        measured_axes = [*every, *bars, *([self.shared] if self.shared else [])]
        for _ in range(2):
            try:
                reaches = [
                    [_decorations(axes, self.renderer, self.below.get(axes)) for axes in row]
                    for row in self.rows
                ]
                bar_reaches = {
                    axes: _decorations(self.colorbars[axes], self.renderer)
                    for axes in every
                    if axes in self.colorbars
                }
                shared = _decorations(self.shared, self.renderer) if self.shared else None
            except _NotARowError:
                return False
            measured = _tick_texts(measured_axes)
            if not self._set(reaches, bar_reaches, shared):
                return False
            if measured == _tick_texts(measured_axes) and not any(
                axes.get_legend() for axes in every
            ):
                break
        return True

    def _row_width(
        self, row: list[Axes], reaches: list[dict[str, float]], bars: dict[Axes, dict[str, float]]
    ) -> tuple[float, float, float]:
        """The row's width as ``fixed + per_height * height + stretch * free``: the three."""
        fixed, per_height, stretch = 2 * self.pad * len(row), 0.0, 0.0
        for axes, reach in zip(row, reaches, strict=True):
            fixed += reach["left"] + reach["right"]
            bar = bars.get(axes)
            if bar is not None:
                fixed += bar["right"]
                per_height += 1 / _COLORBAR_ASPECT
            grow = 1 + (_COLORBAR_PAD if bar is not None else 0)
            aspect = axes.get_aspect()
            if aspect == "auto":
                stretch += grow
            else:
                per_height += grow / (float(aspect) * axes.get_data_ratio())
        return fixed, per_height, stretch

    def _set(
        self,
        reaches: list[list[dict[str, float]]],
        bars: dict[Axes, dict[str, float]],
        shared: dict[str, float] | None,
    ) -> bool:
        """Compute and set the places of everything; False if nothing is left for the axes."""
        fig, pad = self.fig, self.pad
        width, height = fig.bbox.width, fig.bbox.height
        suptitle: Text | None = getattr(fig, "_suptitle", None)
        title = 0.0
        if suptitle is not None and suptitle.get_visible() and suptitle.get_text():
            title = suptitle.get_window_extent(self.renderer).height + 2 * pad
        shared_height = 0.0
        if self.shared is not None and shared is not None:
            thickness = _SHARED_COLORBAR * (width - 2 * pad) / _COLORBAR_ASPECT
            shared_height = 2 * pad + thickness + shared["bottom"] + shared["top"]
        around = []  # per row: the height of its decorations above and below its axes
        for row, row_reaches in zip(self.rows, reaches, strict=True):
            with_bars = [*row_reaches, *(bars[axes] for axes in row if axes in bars)]
            top = max(reach["top"] for reach in with_bars)
            bottom = max(reach["bottom"] for reach in with_bars)
            legends = [self.below[axes] for axes in row if axes in self.below]
            if legends:
                bottom += pad + max(x.get_window_extent(self.renderer).height for x in legends)
            around.append((top, bottom))
        free_height = (
            height
            - 2 * pad
            - title
            - shared_height
            - sum(top + bottom for top, bottom in around)
            - 2 * pad * (len(self.rows) - 1)
        )
        widths = [self._row_width(row, r, bars) for row, r in zip(self.rows, reaches, strict=True)]
        talls = self._heights(free_height, widths)
        if talls is None:
            return False
        used = sum(talls)
        if used < free_height - 1e-6 and all(stretch == 0 for *_, stretch in widths):
            height -= free_height - used  # rows of images only: as tall as they are
            fig.set_size_inches(width / fig.dpi, height / fig.dpi, forward=False)
        to_figure = fig.transFigure.inverted()
        top_edge = height - pad - title
        if title:
            suptitle.set_y((height - pad) / height)  # type: ignore[union-attr]
            suptitle.set_verticalalignment("top")  # type: ignore[union-attr]
        for row, row_reaches, (top, bottom), tall, row_width in zip(
            self.rows, reaches, around, talls, widths, strict=True
        ):
            y = top_edge - top - tall
            if not self._set_row(row, row_reaches, bars, y, tall, row_width):
                return False
            legends = [self.below[axes] for axes in row if axes in self.below]
            for legend in legends:
                under = y - max(r["bottom"] for r in row_reaches) - pad
                legend.set_bbox_to_anchor((0.5, under / height), transform=fig.transFigure)
            top_edge = y - bottom - 2 * pad
        if self.shared is not None and shared is not None:
            length = _SHARED_COLORBAR * (width - 2 * pad)
            thickness = length / _COLORBAR_ASPECT
            place = Bbox.from_bounds(
                (width - length) / 2, pad + shared["bottom"], length, thickness
            )
            self.shared.set_position(place.transformed(to_figure))
        return True

    def _heights(self, free: float, widths: list[tuple[float, float, float]]) -> list[float] | None:
        """The height of each row's axes, from the height left for them all and the widths.

        A row of images only takes the height its width allows, at most its share; rows of
        images take one height, the smallest. The rows that stretch share what is left.
        """
        if free <= 0:
            return None
        figure_width = self.fig.bbox.width
        ratios = self.rows[0][0].get_subplotspec().get_gridspec().get_height_ratios()
        shares = [
            (ratios[axes[0].get_subplotspec().rowspan.start] if ratios else 1.0)
            for axes in self.rows
        ]
        fits = [
            (figure_width - fixed) / per_height
            for fixed, per_height, stretch in widths
            if stretch == 0 and per_height > 0
        ]
        if any(fit <= 0 for fit in fits):
            return None
        image_height = min(fits) if fits else 0.0
        images = [stretch == 0 and per_height > 0 for _, per_height, stretch in widths]
        if not any(not image for image in images):  # images only: as tall as the width allows
            image_height = min(image_height, free / len(self.rows))
            return [image_height] * len(self.rows)
        total = sum(shares)
        talls = [
            min(image_height, free * share / total) if image else 0.0
            for image, share in zip(images, shares, strict=True)
        ]
        left = free - sum(talls)
        stretching = sum(share for image, share in zip(images, shares, strict=True) if not image)
        talls = [
            tall if image else left * share / stretching
            for tall, image, share in zip(talls, images, shares, strict=True)
        ]
        return talls if all(tall > 0 for tall in talls) else None

    def _set_row(
        self,
        row: list[Axes],
        reaches: list[dict[str, float]],
        bars: dict[Axes, dict[str, float]],
        bottom: float,
        tall: float,
        row_width: tuple[float, float, float],
    ) -> bool:
        """Set the axes of one row and their colour bars; False if they do not fit."""
        fig, pad = self.fig, self.pad
        width = fig.bbox.width
        fixed, per_height, stretch = row_width
        left = width - fixed - per_height * tall
        if left < -1e-6 or (stretch and left <= 0):
            return False
        free = left / stretch if stretch else 0.0
        bar_width = tall / _COLORBAR_ASPECT
        x = pad
        if not stretch:  # a row of images: its images (and colour bars) centred, if they fit
            start = reaches[0]["left"]
            end = (
                width
                - left
                - 2 * pad
                - reaches[-1]["right"]
                - bars.get(row[-1], {}).get("right", 0.0)
            )
            x += min(max(width / 2 - pad - (start + end) / 2, 0.0), left)
        to_figure = fig.transFigure.inverted()
        for axes, reach in zip(row, reaches, strict=True):
            aspect = axes.get_aspect()
            wide = free if aspect == "auto" else tall / (float(aspect) * axes.get_data_ratio())
            x += reach["left"]
            axes.set_position(Bbox.from_bounds(x, bottom, wide, tall).transformed(to_figure))
            if len(row) == 1 and axes.title.get_horizontalalignment() == "center":
                axes.title.set_x((width / 2 - x) / wide)  # centred on the figure
            x += wide + reach["right"]
            bar = bars.get(axes)
            if bar is not None:
                x += _COLORBAR_PAD * wide
                place = Bbox.from_bounds(x, bottom, bar_width, tall)
                self.colorbars[axes].set_position(place.transformed(to_figure))
                x += bar_width + bar["right"]
            x += 2 * pad
        return True
