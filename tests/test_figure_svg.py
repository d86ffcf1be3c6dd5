"""The SVG of the figures: one drawing for every language, and what the cleaning keeps."""

import base64
import io
import re
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest
from matplotlib.text import Text
from PIL import Image

from posenc import _svg, _svg_clean
from posenc._layout import text_width
from posenc.plotting import (
    _INK,
    _style,
    dimension_curves,
    encoding_heatmap,
    heatmap_panels,
    line_plot,
    matrix_heatmap,
    offset_similarity,
    to_html,
)

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
    with _style():
        return _svg._draw(figure)


# A line of a text of several lines: matplotlib writes it at its left end.
_LINE = re.compile(
    r'font-size: ([\d.]+)px[^"]*" transform="translate\(([-\d.e]+) ([-\d.e]+)\)">([^<]*)<'
)


def _centred(svg):
    """``svg`` with each line of a text of several lines at its centre, not its left end.

    posenc._svg anchors these lines at their centres, which is where they must lie whatever
    their text; matplotlib writes their left ends, which depend on the text.
    """

    def centre(match):
        size, x, y, text = match.groups()
        with _style():
            middle = float(x) + text_width(text, float(size)) / 2
        return f'font-size: {size}px" transform="translate({middle:f} {y})">{text}<'

    return _LINE.sub(centre, svg)


@pytest.mark.parametrize("lines", [1, 2])
@pytest.mark.parametrize("name", FIGURES)
def test_titles_and_axis_labels_move_nothing_else(name, lines):
    # posenc._svg writes any label into a drawing made with another of as many lines: this
    # holds only because the layout counts a label by its height and the SVG anchors each line
    # at its centre. If this fails after a matplotlib upgrade, the kept SVGs of posenc._svg
    # would misplace labels.
    short_labels, long_labels = (SHORT, LONG) if lines == 1 else (SHORT_LINES, LONG_LINES)
    short = _centred(_drawn(FIGURES[name](short_labels)))
    long = _centred(_drawn(FIGURES[name](long_labels)))
    for line in long_labels["xlabel"].split("\n"):
        assert f">{line}</text>" in long
    # A colour bar of many colours is drawn as an image at the figure's resolution: moved by
    # float rounding, its pixels may differ by a level of 255. posenc._svg always draws with
    # placeholders, so a page's bytes never depend on it.
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
    raw = _drawn(FIGURES[name](SHORT))
    clean = _svg_clean.clean(raw, ink=_INK, id_prefix="p-")
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
    raw = _drawn(FIGURES[name](SHORT))
    clean = _svg_clean.clean(raw, ink=_INK, id_prefix="p-")
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
    assert _INK not in clean
    assert "currentColor" in clean
    assert clean.count("font-family") == 1
    texts = re.compile(r">([^<>]+)</text>")
    assert texts.findall(clean) == texts.findall(raw)  # every text kept, in order
    assert len(clean) < len(raw) / 2


def test_paths_with_curves_keep_their_commands():
    data = "M 0 0 \nC 1.123456 2 3 4 5.5 6 \nL 10 10 \nz"
    assert _svg_clean._path(data) == "M 0 0 C 1.12 2 3 4 5.5 6 L 10 10 z"
    assert _svg_clean._path("M 1 2 \nL 1 5 \nL 4 5 \nL 6.004 7 \nz") == "M1 2v3h3l2 2z"


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
