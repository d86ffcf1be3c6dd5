"""The layout of the figures (posenc._layout): rows of axes, measured once, a phone's width."""

import functools

import numpy as np
import pytest
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.text import Text

from posenc import alibi_bias
from posenc._layout import RowLayout, _tick_labels, text_width, wrap
from posenc.plotting import (
    dimension_curves,
    encoding_heatmap,
    heatmap_panels,
    line_plot,
    matrix_heatmap,
    offset_similarity,
    style,
)

LABELS = {"title": "Title", "xlabel": "horizontal", "ylabel": "vertical"}
# The longest labels of the lessons' figures, in Turkish, where they are longest.
TURKISH = {
    "title": "Henüz eğitilmemiş, öğrenilebilir bir konum tablosu: P · Pᵀ",
    "xlabel": "anahtar konumu j (iki dikkat başlığı yan yana)",
    "ylabel": "sorgu konumu i",
}
GRID = np.add.outer(np.arange(8.0), np.arange(8.0))
FIGURES = {
    "encoding_heatmap": lambda: encoding_heatmap(64, 128, colorbar_label="value", **LABELS),
    "dimension_curves": lambda: dimension_curves(64, 128, legend_label="dimension {dim}"),
    "matrix_heatmap": lambda: matrix_heatmap(
        np.linspace(-12345.0, 12345.0, 64 * 48).reshape(64, 48), colorbar_label="c", **LABELS
    ),
    "line_plot": lambda: line_plot(
        np.arange(60.0),
        {"a long legend entry, with its formula": np.sin(np.arange(60) / 5), "b": np.ones(60)},
        **LABELS,
    ),
    "offset_similarity": lambda: offset_similarity(64, 128),
    "three_panels": lambda: heatmap_panels(
        [GRID, GRID.T, -GRID],
        panel_titles=["1 boyutlu sinüs tabanlı, tarama numarası", "MAE", "eksenel RoPE"],
        colorbar_label="kosinüs benzerliği",
        marker=(3, 3),
        **TURKISH,
    ),
    "two_masked_panels": lambda: heatmap_panels(
        [alibi_bias(8, 16)[0], alibi_bias(8, 16)[3]],
        panel_titles=["head 0", "head 3"],
        colorbar_label="bias",
        **LABELS,
    ),
    "long_labels": lambda: matrix_heatmap(GRID, colorbar_label="iç çarpım", **TURKISH),
}


def _laid_out(figure, engine=None):
    """``figure`` after ``engine`` (or its own) laid it out, as drawing it would."""
    with style():
        FigureCanvasSVG(figure)
        if engine is not None:
            figure.set_layout_engine(engine)
        figure.get_layout_engine().execute(figure)
        figure.draw_without_rendering()  # applies fixed aspects, as drawing does
    return figure


@functools.cache
def _shared(name):
    """``FIGURES[name]()`` laid out by its own engine, made once per worker for the tests that
    only read it (the others make their own)."""
    return _laid_out(FIGURES[name]())


def _places(figure, engine=None):
    """The axes' places in points, (x0, y0, width, height), after ``engine`` (or its own)."""
    _laid_out(figure, engine)
    size = figure.get_size_inches() * 72
    return np.array(
        [np.array(axes.get_position().bounds) * np.tile(size, 2) for axes in figure.axes]
    )


@pytest.mark.parametrize("name", ["encoding_heatmap", "matrix_heatmap"])
def test_axes_and_colour_bars_are_where_constrained_layout_puts_them(name):
    ours = _places(_shared(name))
    assert isinstance(_shared(name).get_layout_engine(), RowLayout)
    constrained = _places(FIGURES[name](), ConstrainedLayoutEngine())
    # Heights, bottoms and left edges as constrained layout's, to the point.
    np.testing.assert_allclose(ours[:, [0, 1, 3]], constrained[:, [0, 1, 3]], atol=1.5)
    # The colour bar is 5% of its axes' width away, as Figure.colorbar's pad says; constrained
    # layout takes 5% of the width of its first round's cell, up to 6 pt more on a 4 in figure.
    (axes, bar), (their_axes, their_bar) = ours, constrained
    assert bar[0] - (axes[0] + axes[2]) == pytest.approx(0.05 * axes[2], abs=0.01)
    assert axes[2] == pytest.approx(their_axes[2], rel=0.04)
    assert bar[2] == pytest.approx(their_bar[2], abs=0.01)
    assert not np.allclose(ours, _places(FIGURES[name](), "none"), atol=5)  # it moved them


def test_stacked_curves_and_square_matrix_with_its_colour_bar_beside_it():
    curves, matrix, bar = _places(_shared("offset_similarity"))
    assert matrix[2] == pytest.approx(matrix[3], abs=0.01)  # square, as its data
    assert bar[0] - (matrix[0] + matrix[2]) == pytest.approx(0.05 * matrix[2], abs=0.01)
    assert bar[2] == pytest.approx(bar[3] / 20, abs=0.01)
    assert (bar[1], bar[3]) == pytest.approx((matrix[1], matrix[3]), abs=0.01)
    assert curves[1] > matrix[1] + matrix[3]  # the curves above the matrix
    assert curves[2] > matrix[2]  # and as wide as the figure lets them


def test_panels_stand_two_a_row_the_last_one_centred_the_figure_as_tall_as_they_are():
    figure = _shared("three_panels")
    width, height = figure.get_size_inches() * 72
    *panels, bar = _places(figure)
    first, second, third = panels
    for panel in panels:
        assert panel[2] == pytest.approx(panel[3], abs=0.01)  # square
        assert panel[2] == pytest.approx(first[2], abs=0.01)  # all one size
    assert first[1] == pytest.approx(second[1], abs=0.01)  # one row
    assert third[1] + third[3] < first[1]  # the next row
    assert third[0] + third[2] / 2 == pytest.approx(width / 2, abs=0.5)  # centred
    assert bar[1] + bar[3] < third[1]  # the shared colour bar under every row
    assert bar[0] + bar[2] / 2 == pytest.approx(width / 2, abs=0.5)
    # As tall as its rows: from the title at the top to the colour bar's label at the bottom,
    # a padding of 3 pt from each edge.
    renderer = figure._get_renderer()
    scale = 72 / figure.dpi
    assert figure._suptitle.get_window_extent(renderer).y1 * scale == pytest.approx(
        height - 3, abs=0.5
    )
    label = figure.axes[-1].xaxis.label.get_window_extent(renderer)
    assert label.y0 * scale == pytest.approx(3, abs=0.5)
    assert height < (3.2 * 2 + 1.0) * 72  # shorter than heatmap_panels asked


@pytest.mark.parametrize("name", ["dimension_curves", "line_plot"])
def test_a_legend_stands_under_its_axes_label_inside_the_figure(name):
    figure = _shared(name)
    renderer = figure._get_renderer()
    [axes] = figure.axes
    legend = axes.get_legend().get_window_extent(renderer)
    label = axes.xaxis.label.get_window_extent(renderer)
    assert legend.y1 <= label.y0  # under the axis' label
    assert legend.y0 >= figure.bbox.y0  # inside the figure
    assert legend.x0 >= figure.bbox.x0
    assert legend.x1 <= figure.bbox.x1
    assert (legend.x0 + legend.x1) / 2 == pytest.approx(figure.bbox.width / 2, abs=1)
    assert axes.get_window_extent(renderer).width > 0.6 * figure.bbox.width  # no legend beside


def test_the_legend_takes_as_many_columns_as_the_width_holds():
    short = line_plot(np.arange(3.0), {f"s{n}": np.ones(3) for n in range(4)}, **LABELS)
    long = line_plot(
        np.arange(3.0),
        {"a rather long legend entry": np.ones(3)}
        | {f"another long legend entry {n}": np.zeros(3) for n in range(3)},
        **LABELS,
    )
    assert short.axes[0].get_legend()._ncols == 4
    assert long.axes[0].get_legend()._ncols == 1


def _texts(figure):
    """Every text ``figure`` draws: tick labels in view, labels, titles, legend entries."""
    every_axis = [axis for axes in figure.axes for axis in (axes.xaxis, axes.yaxis)]
    ticks = {id(label) for axis in every_axis for label in axis.get_ticklabels(which="both")}
    drawn_ticks = [label for axis in every_axis for label in _tick_labels(axis)]
    others = [
        text
        for text in figure.findobj(Text)
        if text.get_visible() and text.get_text() and id(text) not in ticks
    ]
    return drawn_ticks + others


@pytest.mark.parametrize("name", FIGURES)
def test_everything_drawn_lies_inside_the_figure_and_nothing_overlaps(name):
    figure = _shared(name)
    renderer = figure._get_renderer()
    edges = figure.bbox
    boxes = [axes.get_tightbbox(renderer, for_layout_only=True) for axes in figure.axes]
    boxes += [text.get_window_extent(renderer) for text in _texts(figure)]
    for box in boxes:
        assert box.x0 >= edges.x0 - 0.5
        assert box.x1 <= edges.x1 + 0.5
        assert box.y0 >= edges.y0 - 0.5
        assert box.y1 <= edges.y1 + 0.5
    inner = [axes.get_window_extent(renderer) for axes in figure.axes]
    decorations = [axes.get_tightbbox(renderer, for_layout_only=True) for axes in figure.axes]
    for n, box in enumerate(decorations):  # no axes' decorations reach into another axes
        for m, other in enumerate(inner):
            if n != m:
                across = min(box.x1, other.x1) - max(box.x0, other.x0)
                down = min(box.y1, other.y1) - max(box.y0, other.y0)
                assert min(across, down) <= 0.5, (n, m)


@pytest.mark.parametrize("name", FIGURES)
def test_a_phone_shows_every_text_at_11_px_or_more(name):
    # 4 in is 288 pt; a phone 360 CSS px wide shows the figure 328 px wide (the page's
    # margins), so 1 pt of the figure is 328 / 288 px; 11 px takes 9.66 pt.
    figure = _shared(name)
    assert figure.get_size_inches()[0] == 4.0
    sizes = [text.get_fontsize() for text in _texts(figure)]
    tick_sizes = [
        label.get_fontsize()
        for axes in figure.axes
        for axis in (axes.xaxis, axes.yaxis)
        for label in axis.get_ticklabels()
    ]
    assert min(sizes + tick_sizes) * 328 / 288 >= 11


def test_titles_of_an_axes_alone_in_its_row_are_centred_on_the_figure():
    figure = _shared("encoding_heatmap")
    renderer = figure._get_renderer()
    title = figure.axes[0].title.get_window_extent(renderer)
    assert (title.x0 + title.x1) / 2 == pytest.approx(figure.bbox.width / 2, abs=0.5)


def test_a_figure_of_another_shape_is_left_to_constrained_layout():
    ours, constrained = FIGURES["encoding_heatmap"](), FIGURES["encoding_heatmap"]()
    for figure in (ours, constrained):
        figure.text(0.5, 0.5, "a text of the figure")
    np.testing.assert_allclose(
        _places(ours), _places(constrained, ConstrainedLayoutEngine()), atol=1e-9
    )


def test_wrap_breaks_at_spaces_into_lines_that_fit():
    with style():
        title = TURKISH["title"]
        assert wrap(title, 12.0, 1000.0) == title  # it fits
        wrapped = wrap(title, 12.0, 200.0)
        lines = wrapped.split("\n")
        assert len(lines) == 2
        assert " ".join(lines) == title
        assert all(text_width(line, 12.0) <= 200.0 for line in lines)
        # Lines of even lengths, not a full line over a last word alone.
        assert wrap("key position j (two heads side by side)", 10.0, 190.0) == (
            "key position j (two\nheads side by side)"
        )
        assert wrap("a verylongwordindeed b", 10.0, 30.0) == "a\nverylongwordindeed\nb"
        assert wrap("two\nlines", 10.0, 5.0) == "two\nlines"  # as it is: lines of its own
        assert wrap("$x^2$ is math", 10.0, 5.0) == "$x^2$ is math"
        assert text_width("ab", 20.0) == pytest.approx(2 * text_width("ab", 10.0))
