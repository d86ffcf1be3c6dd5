"""The Figures of posenc.plotting: what they draw, their checks, and that they are only that."""

import io
import pkgutil
import subprocess
import sys
import weakref
from pathlib import Path

import numpy as np
import pytest

import posenc
import posenc.plotting
from posenc import sinusoidal_encoding
from posenc.plotting import (
    dimension_curves,
    encoding_heatmap,
    heatmap_panels,
    line_plot,
    matrix_heatmap,
    offset_similarity,
)


def test_importing_posenc_does_not_import_matplotlib():
    code = "import sys, posenc; print('matplotlib' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_heatmap_draws_the_table_with_its_labels():
    figure = encoding_heatmap(16, 32, title="T", xlabel="X", ylabel="Y", colorbar_label="C")
    axes, colorbar = figure.axes
    np.testing.assert_array_equal(axes.images[0].get_array(), sinusoidal_encoding(16, 32))
    assert (axes.get_title(), axes.get_xlabel(), axes.get_ylabel()) == ("T", "X", "Y")
    assert colorbar.get_ylabel() == "C"


def test_dimension_curves_follow_the_columns():
    figure = dimension_curves(40, 16, dims=(2, 15), legend_label="boyut {dim}")
    lines = figure.axes[0].get_lines()
    assert [line.get_label() for line in lines] == ["boyut 2", "boyut 15"]
    np.testing.assert_allclose(lines[1].get_ydata(), sinusoidal_encoding(40, 16)[:, 15])


def test_offset_curves_coincide_for_every_start():
    figure = offset_similarity(40, 32, starts=(0, 7, 13))
    curves = [line.get_ydata() for line in figure.axes[0].get_lines()]
    assert len(curves) == 3
    assert len(curves[0]) == 40 - 13
    np.testing.assert_allclose(curves[0], curves[1], atol=1e-9)
    np.testing.assert_allclose(curves[0], curves[2], atol=1e-9)
    assert curves[0][0] == pytest.approx(32 / 2)  # PE(p)·PE(p) = d_model / 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: encoding_heatmap(0, 8), "n_positions must be an integer >= 1"),
        (lambda: encoding_heatmap(8, 0), "d_model must be an integer >= 1"),
        (lambda: dimension_curves(8, 8, dims=(8,)), r"dims\[\] must be an integer in \[0, 7\]"),
        (lambda: dimension_curves(8, 8, dims=()), "dims must name at least one column"),
        (
            lambda: offset_similarity(8, 8, starts=(7,)),
            r"starts\[\] must be an integer in \[0, 6\]",
        ),
        (lambda: offset_similarity(8, 8, starts=()), "starts must name at least one position"),
        (lambda: _panels([]), "matrices must hold at least one matrix"),
        (lambda: _panels([np.ones(3)]), r"matrices\[0\] must be 2-D with finite values"),
        (lambda: _panels([np.eye(2), [[np.nan]]]), r"matrices\[1\] must be 2-D with finite"),
        (lambda: _panels([np.eye(2), [[-np.inf]]]), r"matrices\[1\] must be 2-D with finite"),
        (lambda: _panels([np.eye(2)], titles=()), r"one title per matrix \(1\), got 0"),
        (lambda: _panels([np.eye(2)], marker=(0, 2)), r"marker \(0, 2\) lies outside"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call()


def test_curves_are_lines_without_markers():
    figure = dimension_curves(64, 128)
    assert all(line.get_marker() in (None, "None", "") for line in figure.axes[0].get_lines())


def _panels(matrices, titles=None, marker=None):
    titles = [f"p{n}" for n in range(len(matrices))] if titles is None else titles
    return heatmap_panels(
        matrices, panel_titles=titles, title="T", xlabel="X", ylabel="Y", marker=marker
    )


def test_panels_share_one_colour_scale_and_keep_their_labels():
    low, high = np.zeros((3, 4)), np.full((2, 2), 5.0)
    figure = heatmap_panels(
        [low, high],
        panel_titles=["sol", "sağ"],
        title="Başlık",
        xlabel="sütun",
        ylabel="satır",
        colorbar_label="benzerlik",
        marker=(0, 1),
    )
    left, right, colorbar = figure.axes
    np.testing.assert_array_equal(left.images[0].get_array(), low)
    np.testing.assert_array_equal(right.images[0].get_array(), high)
    for axes in (left, right):
        assert axes.images[0].get_clim() == (0.0, 5.0)
        [cross] = axes.get_lines()
        assert (list(cross.get_xdata()), list(cross.get_ydata())) == ([1], [0])  # x is the column
    assert [left.get_title(), right.get_title()] == ["sol", "sağ"]
    assert (left.get_ylabel(), right.get_ylabel(), right.get_xlabel()) == ("satır", "", "sütun")
    assert figure.get_suptitle() == "Başlık"
    assert colorbar.get_xlabel() == "benzerlik"  # one colour bar, under the panels


def test_panel_labels_stay_inside_the_figure_and_apart():
    figure = _panels([np.eye(8)] * 3, marker=(3, 3))
    figure.suptitle("A title as long as a Turkish one: (3, 3) konumundaki yamanın benzerliği")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure.set_dpi(72)  # the SVG's resolution, at which the site lays the figure out
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    whole = figure.bbox
    title = figure._suptitle.get_window_extent(renderer)
    for axes in figure.axes[:3]:
        panel_title = axes.title.get_window_extent(renderer)
        label = axes.xaxis.label.get_window_extent(renderer)
        assert label.y0 >= whole.y0  # the column label is not cut off at the bottom
        assert title.y0 >= panel_title.y1  # the figure's title above the panel titles
        assert panel_title.y0 >= axes.get_window_extent(renderer).y1  # above the image


def test_masked_entries_of_panels_are_blank_and_left_out_of_the_colour_scale():
    from posenc import alibi_bias

    bias = alibi_bias(8, 6)
    figure = heatmap_panels(
        [bias[0], bias[3]], panel_titles=["0", "3"], title="T", xlabel="j", ylabel="i"
    )
    left, _right, _colorbar = figure.axes
    finite = bias[[0, 3]][np.isfinite(bias[[0, 3]])]
    assert left.images[0].get_clim() == (finite.min(), finite.max())
    image = left.images[0].get_array()
    assert image.mask.sum() == 15  # the upper triangle of 6 by 6, drawn blank
    np.testing.assert_array_equal(image[~image.mask], bias[0][np.isfinite(bias[0])])


def _every_figure():
    grid = np.add.outer(np.arange(4.0), np.arange(4.0))
    return [
        encoding_heatmap(8, 8),
        dimension_curves(8, 8, dims=(0, 1)),
        offset_similarity(8, 8, starts=(0, 2)),
        matrix_heatmap(grid, title="t", xlabel="x", ylabel="y"),
        _panels([grid, grid.T]),
        line_plot(np.arange(3.0), {"a": np.ones(3)}, title="t", xlabel="x", ylabel="y"),
    ]


def test_the_library_holds_no_site_markup():
    # Figure -> SVG -> <figure> is the site's (posenc_site.figures): posenc returns Figures.
    package = Path(posenc.__file__).parent
    modules = {module.name for module in pkgutil.iter_modules([str(package)])}
    assert not modules & {"_svg", "_svg_clean"}
    assert not hasattr(posenc.plotting, "to_html")
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for site_word in ("pe-figure", "data-search-exclude", "<figure", "posenc_site"):
            assert site_word not in text, f"{path.name} mentions {site_word}"


def _kept_by_posenc():
    """The size of every container and function cache held by a module of posenc."""
    sizes = {}
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] != "posenc":
            continue
        for attribute, value in vars(module).items():
            if isinstance(value, (dict, list, set, weakref.WeakKeyDictionary)):
                sizes[name, attribute] = len(value)
            elif hasattr(value, "cache_info"):  # functools.cache, lru_cache
                sizes[name, attribute] = value.cache_info().currsize
    return sizes


def test_the_figures_are_plain_figures_and_keep_nothing():
    import matplotlib as mpl
    from matplotlib.figure import Figure

    _every_figure()  # every module the figures import is imported
    rc_params, kept = dict(mpl.rcParams), _kept_by_posenc()
    figures = _every_figure()
    assert all(type(figure) is Figure for figure in figures)
    assert dict(mpl.rcParams) == rc_params  # the style held for the calls only
    assert _kept_by_posenc() == kept  # no cache, no record of the figures made
    for figure in figures:  # each is drawn and saved as any Figure
        with posenc.plotting.style():
            figure.savefig(io.BytesIO(), format="png")
