"""The SVG of a figure of `posenc.plotting`, its titles and axis labels written in as text.

A page and its twin in another language draw the same figures with other titles and axis
labels, and those labels move nothing else: the layout (`posenc._layout`, as matplotlib's
constrained layout) counts a title or an axis label by its height only, one line of its font
per line, never by its length, and the SVG anchors each line at its centre
(``text-anchor: middle``). So a figure is drawn with a placeholder in place of each line of
such a label, cleaned (`posenc_site.figures.svg_clean`), and each line's text is written in.
The two languages' SVGs of a figure then differ in those texts alone: a label never moves a
tick or a colour bar by a rounding of its width, and what a page shows never depends on the
other language's labels.

matplotlib writes the lines of a text of several lines (a title broken to fit the figure)
without an anchor, each at its left end, which it computes from the line's width: a
placeholder's lines are moved to their centre and anchored there, so that any text written in
is centred as the label is.

Why our own: nothing in matplotlib draws a figure with its labels as placeholders.

Each figure is drawn for its page. A cache in memory that drew a figure once for both
languages, and wrote the other language's labels into the SVG it kept, was dropped: the
execution cache (`posenc_site.execute.cache`) keeps every block's output from one build to the
next. What it saved, measured where it did (with the execution cache off): the 11 Turkish
figures took 0.43 s written into the English SVGs and 0.89 s drawn (best of 5), and a whole
build took 0.3 to 2.1 s more processor time without it (the medians of three sets of three
builds each, in turn, on a shared machine: 8.6 s to 8.8 s, 9.6 s to 11.2 s, 8.1 s to 10.2 s).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape
from typing import TYPE_CHECKING

import matplotlib as mpl

from posenc.plotting import style as figure_style
from posenc_site.figures import svg_clean

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.text import Text

# Added to the figures' own rcParams while the SVG is written.
_SVG_PARAMS = {
    "svg.fonttype": "none",  # real text: smaller files, selectable, uses the page's font
    "svg.hashsalt": "posenc",  # fixed ids: two builds give the same bytes
}


@contextmanager
def style() -> Iterator[None]:
    """The rcParams a figure is written as SVG in: its own style, text as text, fixed ids.

    `posenc.plotting.style`, in force while matplotlib draws (the tick labels it makes then
    take their colour and font from it), with ``svg.fonttype`` "none" and a fixed
    ``svg.hashsalt``.

    Yields
    ------
    None
        Inside the block, those rcParams are in force; matplotlib's `matplotlib.rc_context`
        restores the others after it.

    Examples
    --------
    >>> import matplotlib as mpl
    >>> from posenc_site.figures import svg
    >>> with svg.style():
    ...     mpl.rcParams["svg.fonttype"], mpl.rcParams["text.color"]
    ('none', '#010203')
    """
    with figure_style(), mpl.rc_context(_SVG_PARAMS):
        yield


# matplotlib gives a line of text at least the font's ascent and descent; an ascending letter
# such as "l" reaches a thousandth of a point above, digits stay within. So the placeholder is
# as tall as a label with an ascending letter, as most are, and the others differ by 0.001 pt.
_PLACEHOLDER = "l{}l"
_PLACEHOLDERS = re.compile(r">l(\d+)l</text>")


def _swappable(text: Text) -> bool:
    """Whether a title or axis label can be drawn as placeholders: plain lines, centred.

    A label of several lines only if it is not turned (its lines are centred in the SVG by
    `_centred`, which moves them along the horizontal).
    """
    from matplotlib import cbook

    label = text.get_text()
    lines = label.split("\n")
    return bool(
        text.get_visible()
        and label
        and all(line and line == " ".join(line.split()) for line in lines)
        and not cbook.is_math_text(label)
        and not text.get_usetex()
        and not text.get_wrap()
        and text.get_horizontalalignment() == "center"
        and (text.get_rotation() == 0.0 or text.get_rotation_mode() == "anchor")
        and (
            len(lines) == 1
            or (text.get_rotation() == 0.0 and text._get_multialignment() == "center")
        )
    )


def _placeholders(labels: list[Text]) -> list[str]:
    """The placeholder text of each label: one numbered placeholder a line, numbered in turn."""
    out, count = [], 0
    for text in labels:
        lines = text.get_text().count("\n") + 1
        out.append("\n".join(_PLACEHOLDER.format(count + n) for n in range(lines)))
        count += lines
    return out


def _labels(figure: Figure) -> list[Text]:
    """The titles and axis labels of ``figure`` that are drawn as placeholders."""
    suptitle: Text | None = getattr(figure, "_suptitle", None)  # Figure.suptitle's text
    candidates = [
        text
        for text in [
            *([suptitle] if suptitle is not None else []),
            *(t for axes in figure.axes for t in (axes.title, axes.xaxis.label, axes.yaxis.label)),
        ]
        if _swappable(text)
    ]
    placeholder = re.compile(_PLACEHOLDER.format(r"\d+"))
    others = {id(text) for text in candidates}
    if any(
        placeholder.search(text.get_text()) for text in _texts(figure) if id(text) not in others
    ):
        return []  # a text that looks like a placeholder: draw every label as it is
    return candidates


def _texts(figure: Figure) -> list[Text]:
    """The texts of ``figure`` but its tick labels, which its data and formatters make.

    Not ``figure.findobj``: listing an axis' ticks makes them, which takes longer than all
    the rest.
    """
    from matplotlib.axis import Axis
    from matplotlib.text import Text

    texts, artists = [], [figure]
    while artists:
        artist = artists.pop()
        if isinstance(artist, Text):
            texts.append(artist)
        if isinstance(artist, Axis):
            texts.append(artist.label)
        else:
            artists.extend(reversed(artist.get_children()))
    return texts


def _draw(figure: Figure) -> str:
    """The SVG matplotlib writes of ``figure``, laid out once."""
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    FigureCanvasSVG(figure)
    engine = figure.get_layout_engine()
    buffer = io.StringIO()
    try:
        if engine is not None:
            # savefig would first draw the whole figure without output to lay it out, then
            # draw it again: the layout alone, then one drawing, give the same SVG.
            engine.execute(figure)
            figure.set_layout_engine(None)
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    finally:
        if engine is not None:
            figure.set_layout_engine(engine)
    return buffer.getvalue()


# A line of a text of several lines as matplotlib writes it: moved to its left end.
_LINE = re.compile(
    r'<text style="([^"]*)" transform="translate\((-?[\d.e+-]+) (-?[\d.e+-]+)\)">l(\d+)l</text>'
)


def _centred(svg: str, widths: dict[int, float]) -> str:
    """``svg`` with each placeholder line of ``widths`` anchored at its centre.

    ``widths`` maps the number of a placeholder that is a line of a text of several lines to
    the width matplotlib gave it, in the SVG's units (points).
    """

    def centre(match: re.Match[str]) -> str:
        style, x, y, number = match.groups()
        if int(number) not in widths:
            return match.group(0)
        middle = float(x) + widths[int(number)] / 2
        return (
            f'<text style="{style}; text-anchor: middle" x="{middle:f}" y="{y}">'
            f"{_PLACEHOLDER.format(number)}</text>"
        )

    return _LINE.sub(centre, svg)


def _with_placeholders(figure: Figure, labels: list[Text], ink: str, id_prefix: str) -> str:
    """The cleaned SVG of ``figure`` with placeholders for the lines of each of ``labels``."""
    from matplotlib.textpath import text_to_path

    originals = [text.get_text() for text in labels]
    widths = {}
    try:
        for text, placeholder in zip(labels, _placeholders(labels), strict=True):
            text.set_text(placeholder)
            lines = placeholder.split("\n")
            if len(lines) > 1:
                font = text.get_fontproperties()
                for line in lines:
                    wide = text_to_path.get_text_width_height_descent(line, font, ismath=False)[0]
                    widths[int(line[1:-1])] = wide
        drawn = _draw(figure)
    finally:
        for text, label in zip(labels, originals, strict=True):
            text.set_text(label)
    return svg_clean.clean(_centred(drawn, widths), ink=ink, id_prefix=id_prefix)


def svg(figure: Figure, *, id_prefix: str, ink: str) -> str:
    """The cleaned SVG of ``figure``, its titles and axis labels written in as text.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        A figure of `posenc.plotting`. Its texts are set back, and its layout engine, after
        the drawing.
    id_prefix : str
        Put before every id of the SVG, so that several figures share a page.
    ink : str
        The colour of the figure's text and axes, written as ``currentColor``.

    Returns
    -------
    str
        The ``<svg>`` element on one line (see `posenc_site.figures.svg_clean.clean`).

    Notes
    -----
    Call it inside :func:`style`, as the figure's tick labels are made when it is drawn.
    """
    labels = _labels(figure)
    drawn = _with_placeholders(figure, labels, ink, id_prefix)
    if not labels:
        return drawn
    texts = [escape(line, quote=False) for text in labels for line in text.get_text().split("\n")]

    def fill(match: re.Match[str]) -> str:
        return f">{texts[int(match.group(1))]}</text>"

    return _PLACEHOLDERS.sub(fill, drawn)
