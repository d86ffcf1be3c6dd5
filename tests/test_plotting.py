import subprocess
import sys

import numpy as np
import pytest

from posenc import sinusoidal_encoding
from posenc.plotting import (
    dimension_curves,
    encoding_heatmap,
    heatmap_panels,
    offset_similarity,
    to_html,
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
        (lambda: to_html(encoding_heatmap(4, 4), alt="  "), "alt must be a non-empty text"),
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


def test_svg_is_reproducible_accessible_and_themeable():
    first = to_html(
        offset_similarity(16, 8, starts=(0, 5)), alt="Benzerlik <matrisi>", caption="Şekil 1"
    )
    second = to_html(
        offset_similarity(16, 8, starts=(0, 5)), alt="Benzerlik <matrisi>", caption="Şekil 1"
    )
    assert first == second
    assert first.startswith(
        '<figure class="pe-figure" data-search-exclude><svg role="img" aria-labelledby="f'
    )
    assert "<title id=" in first
    assert ">Benzerlik &lt;matrisi&gt;</title>" in first
    assert first.endswith("<figcaption>Şekil 1</figcaption></figure>")
    assert "<?xml" not in first
    assert "<metadata>" not in first
    assert "currentColor" in first
    assert "#010203" not in first


def test_two_figures_on_a_page_share_no_id():
    import re

    a = to_html(encoding_heatmap(8, 8), alt="one")
    b = to_html(encoding_heatmap(8, 8), alt="two")
    ids_a, ids_b = set(re.findall(r'id="([^"]+)"', a)), set(re.findall(r'id="([^"]+)"', b))
    assert ids_a
    assert not ids_a & ids_b
    for reference in re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"', a):
        assert (reference[0] or reference[1]) in ids_a


def _embedded_images(html):
    import base64
    import io
    import re

    from PIL import Image

    return [
        Image.open(io.BytesIO(base64.b64decode(data)))
        for data in re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", html)
    ]


def test_heatmap_embeds_the_table_itself_one_pixel_per_entry():
    from matplotlib import colormaps

    table = sinusoidal_encoding(64, 128)
    image, _colorbar = _embedded_images(to_html(encoding_heatmap(64, 128), alt="table"))
    assert image.size == (128, 64)
    assert image.mode == "P"  # a palette: 1 byte a pixel, not RGBA's 4
    expected = colormaps["viridis"]((table + 1) / 2, bytes=True)
    np.testing.assert_array_equal(np.asarray(image.convert("RGBA")), expected)


def test_curves_are_lines_without_markers():
    figure = dimension_curves(64, 128)
    assert all(line.get_marker() in (None, "None", "") for line in figure.axes[0].get_lines())


def test_svg_is_lean():
    import re

    html = to_html(dimension_curves(64, 128), alt="curves")
    decimals = re.findall(r"\d\.(\d+)", re.sub(r"base64,[^\"]*", "", html))
    assert decimals
    assert max(map(len, decimals)) <= 4  # matplotlib writes 6
    assert 'transform="rotate(-0' not in html
    assert html.count("font-family") == 1  # stated once, on the root
    assert "\n" not in html
    assert len(html.encode()) < 12_000  # 63 KB with markers and matplotlib's own SVG
    assert len(to_html(encoding_heatmap(64, 128), alt="table").encode()) < 16_000  # 45 KB


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


def test_panels_stay_light():
    grid = np.add.outer(np.arange(8.0), np.arange(8.0))
    html = to_html(_panels([grid, grid.T, -grid], marker=(3, 3)), alt="panels")
    images = _embedded_images(html)
    assert [image.size for image in images[:3]] == [(8, 8)] * 3  # one pixel per entry
    assert len(html.encode()) < 18_000


def test_panel_labels_stay_inside_the_figure_and_apart():
    figure = _panels([np.eye(8)] * 3, marker=(3, 3))
    figure.suptitle("A title as long as a Turkish one: (3, 3) konumundaki yamanın benzerliği")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure.set_dpi(72)  # the SVG's resolution, at which to_html lays the figure out
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


def _labels_en():
    return {"title": "Encoding", "xlabel": "dimension", "ylabel": "position"}


def _labels_tr():
    return {"title": "Kodlama tablosu, uzun bir başlık", "xlabel": "boyut", "ylabel": "konum"}


def test_the_same_figure_in_another_language_is_not_drawn_again(monkeypatch):
    from posenc import _svg

    monkeypatch.setattr(_svg, "_kept", {})
    draws = []
    draw = _svg._draw
    monkeypatch.setattr(_svg, "_draw", lambda figure: draws.append(figure) or draw(figure))
    english = to_html(encoding_heatmap(12, 20, **_labels_en()), alt="English")
    turkish = to_html(encoding_heatmap(12, 20, **_labels_tr()), alt="Türkçe")
    assert len(draws) == 1  # the Turkish figure took the English one's SVG
    assert ">Kodlama tablosu, uzun bir başlık</text>" in turkish
    assert ">boyut</text>" in turkish
    assert ">dimension</text>" not in turkish
    assert ">Encoding</text>" in english

    _svg._kept.clear()  # drawn on its own, the Turkish figure is the same bytes
    assert to_html(encoding_heatmap(12, 20, **_labels_tr()), alt="Türkçe") == turkish
    assert len(draws) == 2


def test_panels_in_another_language_are_not_drawn_again(monkeypatch):
    # The figure's title (a suptitle), the panels' titles and the colour bar's label are
    # written into the SVG drawn for the first language.
    from posenc import _svg

    monkeypatch.setattr(_svg, "_kept", {})
    draws = []
    draw = _svg._draw
    monkeypatch.setattr(_svg, "_draw", lambda figure: draws.append(figure) or draw(figure))
    grid = np.add.outer(np.arange(6.0), np.arange(6.0))

    def panels(titles, title, colorbar_label):
        figure = heatmap_panels(
            [grid, grid.T],
            panel_titles=titles,
            title=title,
            xlabel="x",
            ylabel="y",
            colorbar_label=colorbar_label,
            marker=(2, 3),
        )
        return to_html(figure, alt="panels")

    english = panels(["left", "right"], "Similarity to the patch", "similarity")
    turkish = panels(["sol", "sağ panel"], "Yamanın benzerliği", "benzerlik")
    assert len(draws) == 1
    for label in ("sol", "sağ panel", "Yamanın benzerliği", "benzerlik"):
        assert f">{label}</text>" in turkish
    assert ">Similarity to the patch</text>" in english
    assert ">left</text>" not in turkish
    _svg._kept.clear()  # drawn on its own, the Turkish figure is the same bytes
    assert panels(["sol", "sağ panel"], "Yamanın benzerliği", "benzerlik") == turkish
    assert panels(["sol", "sağ panel"], "Yamanın benzerliği", "benzerlik") == turkish
    assert len(draws) == 2
    grid[0, 0] = 100.0  # other data: drawn anew
    assert panels(["sol", "sağ panel"], "Yamanın benzerliği", "benzerlik") != turkish
    assert len(draws) == 3


def test_other_data_is_drawn_anew(monkeypatch):
    from posenc import _svg

    monkeypatch.setattr(_svg, "_kept", {})
    first = to_html(encoding_heatmap(12, 20), alt="figure")
    assert to_html(encoding_heatmap(12, 20, base=100.0), alt="figure") != first
    assert to_html(encoding_heatmap(12, 22), alt="figure") != first
    legend = to_html(dimension_curves(12, 20, dims=(1, 2), legend_label="boyut {dim}"), alt="f")
    assert ">boyut 1</text>" in legend  # a legend entry is no placeholder: it sets the width
    assert legend != to_html(dimension_curves(12, 20, dims=(1, 2)), alt="f")
    assert len(_svg._kept) == 5


def test_a_figure_changed_after_it_was_made_is_drawn_anew(monkeypatch):
    from posenc import _svg

    monkeypatch.setattr(_svg, "_kept", {})
    plain = to_html(encoding_heatmap(12, 20, **_labels_en()), alt="figure")
    changed = encoding_heatmap(12, 20, **_labels_tr())
    changed.axes[0].axvline(5.0, color="red")
    html = to_html(changed, alt="figure")
    assert html != plain.replace(">Encoding<", ">Kodlama tablosu, uzun bir başlık<")
    _svg._kept.clear()
    assert to_html(changed, alt="figure") == html  # what drawing it without kept SVGs gives
    assert "stroke:#ff0000" in html or "stroke:red" in html


def test_labels_are_escaped_and_other_labels_stay_as_matplotlib_draws_them():
    import re
    import xml.etree.ElementTree as ElementTree

    html = to_html(
        encoding_heatmap(8, 8, title="a < b & c", xlabel="two\nlines", ylabel="$x^2$"), alt="x"
    )
    ElementTree.fromstring(html[html.index("<svg") : html.index("</svg>") + 6])
    assert ">a &lt; b &amp; c</text>" in html
    assert ">two</text>" in html
    assert ">lines</text>" in html
    assert ">x</tspan>" in html
    assert ">2</tspan>" in html
    assert not re.search(r">l\d+l<", html)  # no placeholder left


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


def _lines(html):
    """The titles' lines of an SVG: (x, text), x where each is anchored at its middle."""
    import re

    texts = re.findall(r'<text style="([^"]*)" x="([\d.]+)" y="[\d.]+">([^<]*)<', html)
    titles = [(style, x, text) for style, x, text in texts if "font-size:12px" in style]
    assert all("text-anchor:middle" in style for style, _, _ in titles)
    return [(x, text) for _, x, text in titles]


def test_a_long_title_breaks_into_lines_centred_on_the_figure(monkeypatch):
    from posenc import _svg

    monkeypatch.setattr(_svg, "_kept", {})
    draws = []
    draw = _svg._draw
    monkeypatch.setattr(_svg, "_draw", lambda figure: draws.append(figure) or draw(figure))
    english = "Sinusoidal positional encoding, 64 positions × 128 dimensions"
    turkish = "Henüz eğitilmemiş, öğrenilebilir bir konum tablosu: P · Pᵀ"
    html = {
        title: to_html(encoding_heatmap(12, 20, title=title), alt="figure")
        for title in (english, turkish)
    }
    assert len(draws) == 1  # two lines each: the Turkish figure took the English one's SVG
    for title, page in html.items():
        lines = _lines(page)
        assert len(lines) == 2
        assert " ".join(text for _, text in lines) == title
        assert all(float(x) == pytest.approx(144.0, abs=0.01) for x, _ in lines)  # 4 in / 2
    _svg._kept.clear()  # drawn on its own, the Turkish figure is the same bytes
    assert to_html(encoding_heatmap(12, 20, title=turkish), alt="figure") == html[turkish]
    to_html(encoding_heatmap(12, 20, title="Short"), alt="figure")  # one line: drawn anew
    assert len(draws) == 3
