"""The layout of the figures (posenc._layout): constrained layout's places, measured once."""

import numpy as np
import pytest
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.layout_engine import ConstrainedLayoutEngine

from posenc._layout import RowLayout
from posenc.plotting import (
    _style,
    dimension_curves,
    encoding_heatmap,
    line_plot,
    matrix_heatmap,
    offset_similarity,
)

LABELS = {"title": "Title", "xlabel": "horizontal", "ylabel": "vertical"}
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
}


def _places(figure, engine=None):
    """The axes' places in points, (x0, y0, width, height), after ``engine`` (or its own)."""
    with _style():
        FigureCanvasSVG(figure)
        if engine is not None:
            figure.set_layout_engine(engine)
        figure.get_layout_engine().execute(figure)
        figure.draw_without_rendering()  # applies fixed aspects, as drawing does
    size = figure.get_size_inches() * 72
    return np.array(
        [np.array(axes.get_position().bounds) * np.tile(size, 2) for axes in figure.axes]
    )


@pytest.mark.parametrize(
    "name", ["encoding_heatmap", "dimension_curves", "matrix_heatmap", "line_plot"]
)
def test_axes_and_colour_bars_are_where_constrained_layout_puts_them(name):
    ours = _places(FIGURES[name]())
    assert isinstance(FIGURES[name]().get_layout_engine(), RowLayout)
    constrained = _places(FIGURES[name](), ConstrainedLayoutEngine())
    np.testing.assert_allclose(ours, constrained, atol=1.5)  # points
    assert not np.allclose(ours, _places(FIGURES[name](), "none"), atol=5)  # it moved them


def test_a_square_matrix_keeps_its_colour_bar_beside_it():
    curves, matrix, bar = _places(FIGURES["offset_similarity"]())
    assert matrix[2] == pytest.approx(matrix[3], abs=0.01)  # square, as its data
    assert bar[0] - (matrix[0] + matrix[2]) == pytest.approx(0.05 * matrix[2], abs=0.01)
    assert bar[2] == pytest.approx(bar[3] / 20, abs=0.01)
    assert (curves[1], curves[3]) == pytest.approx((matrix[1], matrix[3]), abs=0.01)
    assert curves[2] > matrix[2]  # the curves take the width the square leaves


@pytest.mark.parametrize("name", FIGURES)
def test_everything_drawn_lies_inside_the_figure_and_nothing_overlaps(name):
    figure = FIGURES[name]()
    _places(figure)
    renderer = figure._get_renderer()
    edges = figure.bbox
    boxes = [axes.get_tightbbox(renderer, for_layout_only=True) for axes in figure.axes]
    for box in boxes:
        assert box.x0 >= edges.x0 - 0.5
        assert box.x1 <= edges.x1 + 0.5
        assert box.y0 >= edges.y0 - 0.5
        assert box.y1 <= edges.y1 + 0.5
    inner = [axes.get_window_extent(renderer) for axes in figure.axes]
    for n, box in enumerate(boxes):  # no axes' decorations reach into another axes
        for m, other in enumerate(inner):
            if n != m:
                overlap = min(box.x1, other.x1) - max(box.x0, other.x0)
                assert overlap <= 0.5, (n, m)


def test_a_figure_of_another_shape_is_left_to_constrained_layout():
    ours, constrained = FIGURES["encoding_heatmap"](), FIGURES["encoding_heatmap"]()
    for figure in (ours, constrained):
        figure.suptitle("A title over all")
    np.testing.assert_allclose(
        _places(ours), _places(constrained, ConstrainedLayoutEngine()), atol=1e-9
    )
