import subprocess
import sys

import numpy as np
import pytest

from posenc import sinusoidal_encoding
from posenc.plotting import dimension_curves, encoding_heatmap, offset_similarity, to_html


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
