"""The SVG of the figures (posenc_site.figures): labels that move nothing, what the cleaning
keeps, and the page's markup around it."""

import base64
import functools
import io
import re
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest
from matplotlib.text import Text
from PIL import Image

from posenc import alibi_bias, sinusoidal_encoding
from posenc._layout import text_width
from posenc.plotting import (
    INK,
    dimension_curves,
    encoding_heatmap,
    heatmap_panels,
    line_plot,
    matrix_heatmap,
    offset_similarity,
)
from posenc_site.figures import svg as figure_svg
from posenc_site.figures import svg_clean, to_html

# Labels as tall as one another (each line has an ascending letter, none a letter that reaches
# further, such as "İ" or "ğ", whose line is taller): only their lengths differ. Each fits on
# one line of the figure, even over a panel (posenc.plotting breaks a longer one into lines).
SHORT = {"title": "l", "xlabel": "l", "ylabel": "l", "panel": "l"}
LONG = {
    "title": "A long title with ascending letters",
    "xlabel": "horizontal, 12 (34)",
    "ylabel": "a rather long label of the vertical axis",
    "panel": "a panel's title",
}
# Titles and horizontal labels of two lines, as a title too long for the figure becomes.
SHORT_LINES = {**SHORT, "title": "l\nl", "xlabel": "l\nl", "panel": "l\nl"}
LONG_LINES = {
    **LONG,
    "title": "A long title with ascending\nletters, as most labels have",
    "xlabel": "the horizontal axis,\nlabelled 12 (34)",
    "panel": "a panel's title\nin two lines",
}


def _labels(labels):
    """The title and axis labels of ``labels``, as the figures take them."""
    return {key: labels[key] for key in ("title", "xlabel", "ylabel")}


FIGURES = {
    "encoding_heatmap": lambda labels: encoding_heatmap(
        16, 24, colorbar_label="c", **_labels(labels)
    ),
    "dimension_curves": lambda labels: dimension_curves(16, 24, dims=(1, 5), **_labels(labels)),
    "offset_similarity": lambda labels: offset_similarity(
        32, 24, starts=(0, 5), matrix_title=labels["title"], **_labels(labels)
    ),
    "matrix_heatmap": lambda labels: matrix_heatmap(
        np.arange(12.0).reshape(3, 4), colorbar_label="c", symmetric=True, **_labels(labels)
    ),
    "line_plot": lambda labels: line_plot(
        np.arange(5.0), {"a": np.arange(5.0) ** 2, "b": np.ones(5)}, **_labels(labels)
    ),
    "heatmap_panels": lambda labels: heatmap_panels(
        [np.eye(4), np.arange(16.0).reshape(4, 4)],
        panel_titles=[labels["panel"], labels["panel"]],
        colorbar_label=labels["ylabel"],
        marker=(1, 2),
        **_labels(labels),
    ),
}


def _drawn(figure):
    with figure_svg.style():
        return figure_svg._draw(figure)


LABEL_SETS = {"short": SHORT, "long": LONG, "short_lines": SHORT_LINES, "long_lines": LONG_LINES}


@functools.cache
def _raw(name, labels):
    """The SVG matplotlib draws of ``FIGURES[name]`` with ``LABEL_SETS[labels]``, drawn once per
    worker: several tests read it, and a string cannot be changed by one of them."""
    return _drawn(FIGURES[name](LABEL_SETS[labels]))


# A line of a text of several lines: matplotlib writes it at its left end.
_LINE = re.compile(
    r'font-size: ([\d.]+)px[^"]*" transform="translate\(([-\d.e]+) ([-\d.e]+)\)">([^<]*)<'
)


def _centred(svg):
    """``svg`` with each line of a text of several lines at its centre, not its left end.

    posenc_site.figures.svg anchors these lines at their centres, which is where they must lie
    whatever their text; matplotlib writes their left ends, which depend on the text.
    """

    def centre(match):
        size, x, y, text = match.groups()
        with figure_svg.style():
            middle = float(x) + text_width(text, float(size)) / 2
        return f'font-size: {size}px" transform="translate({middle:f} {y})">{text}<'

    return _LINE.sub(centre, svg)


@pytest.mark.parametrize("lines", [1, 2])
@pytest.mark.parametrize("name", FIGURES)
def test_titles_and_axis_labels_move_nothing_else(name, lines):
    # posenc_site.figures.svg writes each label into a drawing made with placeholders of as
    # many lines: this holds only because the layout counts a label by its height and the SVG
    # anchors each line at its centre. If this fails after a matplotlib upgrade, the labels
    # written in would be misplaced.
    short_labels, long_labels = ("short", "long") if lines == 1 else ("short_lines", "long_lines")
    short = _centred(_raw(name, short_labels))
    long = _centred(_raw(name, long_labels))
    for line in LABEL_SETS[long_labels]["xlabel"].split("\n"):
        assert f">{line}</text>" in long
    # A colour bar of many colours is drawn as an image at the figure's resolution: moved by
    # float rounding, its pixels may differ by a level of 255. posenc_site.figures.svg always
    # draws with placeholders, so a page's bytes never depend on it.
    images = [_pixels(svg) for svg in (short, long)]
    for one, other in zip(*images, strict=True):
        np.testing.assert_allclose(one, other, atol=1)
    without_texts = re.compile(r">[^<>]*</text>|(?<=base64,)[^\"]*")
    ids = re.compile(r'(?<=id=")[^"]+|(?<=#)[^")]+')  # clip path ids hash their paths
    number = re.compile(r"-?\d+\.?\d*(?:e-?\d+)?")
    short, long = (ids.sub("", without_texts.sub("><", svg)) for svg in (short, long))
    assert number.sub("#", short) == number.sub("#", long)
    numbers = [np.array([float(n) for n in number.findall(svg)]) for svg in (short, long)]
    np.testing.assert_allclose(*numbers, atol=1e-5)  # the same places, to float rounding


def _pixels(svg):
    """The embedded images of ``svg``, as arrays of RGBA values."""
    return [
        np.asarray(
            Image.open(io.BytesIO(base64.b64decode("".join(data.split())))).convert("RGBA")
        ).astype(int)
        for data in re.findall(r"base64,([^\"]+)", svg)
    ]


def _points(data):
    """The absolute points of path data with M, L, H, V, Z commands, either case."""
    tokens = re.findall(r"[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?", data)
    points, x, y, start, command, numbers = [], 0.0, 0.0, (0.0, 0.0), "", []

    def flush():
        nonlocal x, y, start
        values = [float(n) for n in numbers]
        step = 1 if command.upper() in "HV" else 2
        for n in range(0, len(values), step):
            relative = command.islower()
            if command.upper() == "H":
                x = x + values[n] if relative else values[n]
            elif command.upper() == "V":
                y = y + values[n] if relative else values[n]
            else:
                dx, dy = values[n], values[n + 1]
                x, y = (x + dx, y + dy) if relative else (dx, dy)
                if command.upper() == "M" and n == 0:
                    start = (x, y)
            points.append((x, y))

    for token in tokens:
        if token.isalpha():
            flush()
            command, numbers = token, []
            if token in "Zz":
                x, y = start
                points.append(start)
        else:
            numbers.append(token)
    flush()
    return np.array(points)


def _drawn_points(svg):
    """Every point of every path drawn, a ``<use>`` as its path moved.

    Paths of ``fill: none`` and nothing else draw nothing and are left out.
    """
    marks = dict(re.findall(r'<path id="([^"]+)" d="([^"]*)"', svg))
    shapes = []
    for name, x, y in re.findall(r'<use xlink:href="#([^"]+)" x="([^"]+)" y="([^"]+)"', svg):
        shapes.append(_points(marks[name]) + np.array([float(x), float(y)]))
    for data, attributes in re.findall(r'<path d="([^"]*)"([^>]*)/>', svg):
        if re.sub(r"\s", "", attributes) != 'style="fill:none"':
            shapes.append(_points(data))
    return np.concatenate(shapes)


@pytest.mark.parametrize("name", FIGURES)
def test_cleaning_keeps_every_point_of_every_path(name):
    raw = _raw(name, "short")
    clean = svg_clean.clean(raw, ink=INK, id_prefix="p-")
    assert "<use" in raw
    assert "<use" not in clean  # every tick is part of one path per kind of tick
    old, new = _drawn_points(raw), _drawn_points(clean)
    assert old.shape == new.shape
    distances = np.linalg.norm(old[:, None] - new[None], axis=-1)
    # Each point where it was, to the rounding of a position and of a step (0.01 each way).
    assert distances.min(axis=0).max() <= 0.011
    assert distances.min(axis=1).max() <= 0.011
    before = re.findall(r' d="([^"]*)"|(<use [^>]*>)', raw)
    after = re.findall(r' d="([^"]*)"', clean)
    assert sum(map(len, after)) < sum(len(a + b) for a, b in before) / 2


@pytest.mark.parametrize("name", FIGURES)
def test_cleaning_keeps_a_valid_svg_with_only_what_is_drawn(name):
    raw = _raw(name, "short")
    clean = svg_clean.clean(raw, ink=INK, id_prefix="p-")
    root = ElementTree.fromstring(clean)  # well-formed, one element
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    ids = re.findall(r' id="([^"]+)"', clean)
    references = re.findall(r'xlink:href="#([^"]+)"|url\(#([^)]+)\)', clean)
    assert {a or b for a, b in references} == set(ids)  # every id used, every use defined
    assert all(i.startswith("p-") for i in ids)
    assert len(ids) == len(set(ids))
    assert "<metadata" not in clean
    assert "<g>" not in clean
    assert "\n" not in clean
    assert INK not in clean
    assert "currentColor" in clean
    assert clean.count("font-family") == 1
    texts = re.compile(r">([^<>]+)</text>")
    assert texts.findall(clean) == texts.findall(raw)  # every text kept, in order
    assert len(clean) < len(raw) / 2


def test_paths_with_curves_keep_their_commands():
    data = "M 0 0 \nC 1.123456 2 3 4 5.5 6 \nL 10 10 \nz"
    assert svg_clean._path(data) == "M 0 0 C 1.12 2 3 4 5.5 6 L 10 10 z"
    assert svg_clean._path("M 1 2 \nL 1 5 \nL 4 5 \nL 6.004 7 \nz") == "M1 2v3h3l2 2z"


@pytest.mark.parametrize("name", FIGURES)
def test_a_figure_is_a_few_elements_per_axes_and_curve_not_one_per_tick(name):
    # A browser styles, lays out and keeps each element of a page. matplotlib writes each tick
    # as a <use> of its mark; cleaned, each kind of tick of an axis is one path (and the
    # four spines one path): some seven elements an axes (ticks, spines, clip path, content),
    # two a curve (its line and its legend entry), and the texts.
    figure = FIGURES[name](SHORT)
    html = to_html(figure, alt="a figure")
    elements = re.findall(r"<([a-zA-Z]+)", html)
    drawn = [tag for tag in elements if tag not in ("figure", "title", "text", "tspan")]
    curves = sum(len(axes.get_lines()) for axes in figure.axes)
    assert len(drawn) <= 4 + 7 * len(figure.axes) + 2 * curves
    texts = [text for text in figure.findobj(Text) if text.get_visible() and text.get_text()]
    assert elements.count("text") <= len(texts)


def test_an_empty_alt_is_refused():
    with pytest.raises(ValueError, match="alt must be a non-empty text"):
        to_html(encoding_heatmap(4, 4), alt="  ")


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
    assert INK not in first


def test_writing_the_svg_leaves_the_figure_and_the_rcparams_as_they_were():
    import matplotlib as mpl

    rc_params = dict(mpl.rcParams)
    figure = encoding_heatmap(12, 20, title="Encoding", xlabel="dimension", ylabel="position")
    engine = figure.get_layout_engine()
    html = to_html(figure, alt="figure")
    assert dict(mpl.rcParams) == rc_params
    assert figure.get_layout_engine() is engine
    axes = figure.axes[0]
    assert (axes.get_title(), axes.get_xlabel(), axes.get_ylabel()) == (
        "Encoding",
        "dimension",
        "position",
    )
    assert to_html(figure, alt="figure") == html


def test_two_figures_on_a_page_share_no_id():
    a = to_html(encoding_heatmap(8, 8), alt="one")
    b = to_html(encoding_heatmap(8, 8), alt="two")
    ids_a, ids_b = set(re.findall(r'id="([^"]+)"', a)), set(re.findall(r'id="([^"]+)"', b))
    assert ids_a
    assert not ids_a & ids_b
    for reference in re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"', a):
        assert (reference[0] or reference[1]) in ids_a


def _embedded_images(html):
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


def test_svg_is_lean():
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


def test_panels_stay_light():
    grid = np.add.outer(np.arange(8.0), np.arange(8.0))
    html = to_html(_panels([grid, grid.T, -grid], marker=(3, 3)), alt="panels")
    images = _embedded_images(html)
    assert [image.size for image in images[:3]] == [(8, 8)] * 3  # one pixel per entry
    assert len(html.encode()) < 18_000


def _labels_en():
    return {"title": "Encoding", "xlabel": "dimension", "ylabel": "position"}


def _labels_tr():
    return {"title": "Kodlama tablosu, uzun bir başlık", "xlabel": "boyut", "ylabel": "konum"}


def _with_labels(html, labels, others):
    """``html`` with each text of ``labels`` replaced by the same key's text of ``others``."""
    for key, label in labels.items():
        html = html.replace(f">{label}</text>", f">{others[key]}</text>")
    return html


def test_a_figure_in_another_language_differs_in_its_labels_alone():
    english = to_html(encoding_heatmap(12, 20, **_labels_en()), alt="figure")
    turkish = to_html(encoding_heatmap(12, 20, **_labels_tr()), alt="figure")
    assert ">Kodlama tablosu, uzun bir başlık</text>" in turkish
    assert ">boyut</text>" in turkish
    assert ">dimension</text>" not in turkish
    assert ">Encoding</text>" in english
    assert turkish != english
    assert _with_labels(turkish, _labels_tr(), _labels_en()) == english


def test_panels_in_another_language_differ_in_their_labels_alone():
    # The figure's title (a suptitle), the panels' titles and the colour bar's label.
    grid = np.add.outer(np.arange(6.0), np.arange(6.0))

    def panels(labels):
        figure = heatmap_panels(
            [grid, grid.T],
            panel_titles=[labels["left"], labels["right"]],
            title=labels["title"],
            xlabel="x",
            ylabel="y",
            colorbar_label=labels["colorbar"],
            marker=(2, 3),
        )
        return to_html(figure, alt="panels")

    english = {
        "left": "left",
        "right": "right",
        "title": "Similarity to the patch",
        "colorbar": "similarity",
    }
    turkish = {
        "left": "sol",
        "right": "sağ panel",
        "title": "Yamanın benzerliği",
        "colorbar": "benzerlik",
    }
    html = panels(turkish)
    for label in turkish.values():
        assert f">{label}</text>" in html
    assert ">left</text>" not in html
    assert _with_labels(html, turkish, english) == panels(english)
    grid[0, 0] = 100.0  # other data: another picture
    assert panels(turkish) != html


def test_a_figure_changed_after_it_was_made_shows_the_change():
    plain = to_html(encoding_heatmap(12, 20, **_labels_en()), alt="figure")
    changed = encoding_heatmap(12, 20, **_labels_en())
    changed.axes[0].axvline(5.0, color="red")
    html = to_html(changed, alt="figure")
    assert html != plain
    assert "stroke:#ff0000" in html or "stroke:red" in html


def test_labels_are_escaped_and_other_texts_stay_as_matplotlib_draws_them():
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
    legend = to_html(dimension_curves(12, 20, dims=(1, 2), legend_label="boyut {dim}"), alt="f")
    assert ">boyut 1</text>" in legend  # a legend entry is no placeholder: it sets the width


def _lines(html):
    """The titles' lines of an SVG: (x, text), x where each is anchored at its middle."""
    texts = re.findall(r'<text style="([^"]*)" x="([\d.]+)" y="[\d.]+">([^<]*)<', html)
    titles = [(style, x, text) for style, x, text in texts if "font-size:12px" in style]
    assert all("text-anchor:middle" in style for style, _, _ in titles)
    return [(x, text) for _, x, text in titles]


def test_a_long_title_breaks_into_lines_centred_on_the_figure():
    english = "Sinusoidal positional encoding, 64 positions × 128 dimensions"
    turkish = "Henüz eğitilmemiş, öğrenilebilir bir konum tablosu: P · Pᵀ"
    html = {
        title: to_html(encoding_heatmap(12, 20, title=title), alt="figure")
        for title in (english, turkish)
    }
    lines = {}
    for title, page in html.items():
        lines[title] = _lines(page)
        assert len(lines[title]) == 2
        assert " ".join(text for _, text in lines[title]) == title
        assert all(float(x) == pytest.approx(144.0, abs=0.01) for x, _ in lines[title])  # 4 in / 2
    # Two lines each: the same drawing, the lines' texts apart.
    swapped = html[turkish]
    for (_, line), (_, other) in zip(lines[turkish], lines[english], strict=True):
        swapped = swapped.replace(f">{line}</text>", f">{other}</text>")
    assert swapped == html[english]


def test_masked_entries_are_drawn_blank():
    bias = alibi_bias(8, 6)
    html = to_html(
        heatmap_panels([bias[0]], panel_titles=["0"], title="T", xlabel="j", ylabel="i"),
        alt="bias",
    )
    image = np.asarray(_embedded_images(html)[0].convert("RGBA"))
    assert image.shape == (6, 6, 4)
    assert (image[np.triu_indices(6, 1)][:, 3] == 0).all()  # the upper triangle: transparent
    assert (image[np.tril_indices(6)][:, 3] == 255).all()
