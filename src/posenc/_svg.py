"""The SVG of a figure of `posenc.plotting`, drawn once for all the languages of the site.

A page and its twin in another language draw the same figures with other titles and axis
labels, and those labels move nothing else: the layout (`posenc._layout`, as matplotlib's
constrained layout) counts a title or an axis label by its height only, one line of its font
per line, never by its length, and the SVG anchors each line at its centre
(``text-anchor: middle``). So a figure is drawn with a placeholder in place of each line of
such a label, and the SVG, cleaned once (`posenc._svg_clean`), is kept in memory under a key of
everything else the figure shows, the number of lines of each label among it; the same figure
with other labels of as many lines takes the kept SVG, and each line's text is written in.
Every figure goes through the placeholders, kept SVG or not, so what a page shows never
depends on which language was built first.

matplotlib writes the lines of a text of several lines (a title broken to fit the figure)
without an anchor, each at its left end, which it computes from the line's width: a
placeholder's lines are moved to their centre and anchored there, so that any text written in
is centred as the label is.

Why our own: nothing in matplotlib draws a figure once for several sets of labels, and the
figures were most of a build's time without the execution cache (whose entries keep the
languages apart, since the labels are in the output).

The key is made when a function of `posenc.plotting` returns its figure (:func:`record`): the
function's name, the data it draws and the rcParams in force. A figure changed afterwards is
stale for matplotlib (every change sets its ``stale`` flag, which pyplot reads to redraw) and
is drawn anew, with its placeholders but without the kept SVGs. The texts that stay in the SVG
(legend entries, labels that are not one plain line) and the rcParams when it is drawn join
the key.
"""

from __future__ import annotations

import hashlib
import io
import re
import weakref
from html import escape
from typing import TYPE_CHECKING

import numpy as np

from posenc import _svg_clean

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.text import Text

_KEPT = 64  # SVGs kept in memory, the oldest dropped first; a site has a dozen figures
_kept: dict[str, str] = {}
_keys: weakref.WeakKeyDictionary[Figure, str] = weakref.WeakKeyDictionary()

# matplotlib gives a line of text at least the font's ascent and descent; an ascending letter
# such as "l" reaches a thousandth of a point above, digits stay within. So the placeholder is
# as tall as a label with an ascending letter, as most are, and the others differ by 0.001 pt.
_PLACEHOLDER = "l{}l"
_PLACEHOLDERS = re.compile(r">l(\d+)l</text>")
_ID_PREFIX = "posenc-id-"  # the ids' prefix in a kept SVG; each figure gets its own
_ID_PREFIXES = re.compile(rf'(?<=id="){_ID_PREFIX}|(?<=#){_ID_PREFIX}')


def _rc_params() -> str:
    import matplotlib as mpl

    return repr(sorted(mpl.rcParams.items()))


def record(figure: Figure, name: str, *data: object) -> Figure:
    """Key ``figure`` by ``name``, ``data`` (arrays by their bytes) and the rcParams in force.

    Call it last in a function of `posenc.plotting`, inside its style: ``data`` must hold
    everything the figure draws but its texts.
    """
    digest = hashlib.sha256(f"{name}\0{_rc_params()}".encode())
    for part in data:
        if isinstance(part, np.ndarray):
            digest.update(f"\0{part.shape}{part.dtype.str}\0".encode())
            digest.update(np.ascontiguousarray(part).tobytes())
        else:
            digest.update(f"\0{part!r}".encode())
    _keys[figure] = digest.hexdigest()
    figure.stale = False  # set again by any change from here on
    return figure


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
    the rest and marks the figure stale.
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


def _key(made: str, figure: Figure, labels: list[Text]) -> str:
    """The key of the kept SVG of ``figure``, made by :func:`record` as ``made``."""
    placeholders = dict(zip(map(id, labels), _placeholders(labels), strict=True))
    texts = [placeholders.get(id(text), text.get_text()) for text in _texts(figure)]
    parts = [made, _rc_params(), *texts]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


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


def _with_placeholders(figure: Figure, labels: list[Text], ink: str) -> str:
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
    return _svg_clean.clean(_centred(drawn, widths), ink=ink, id_prefix=_ID_PREFIX)


def svg(figure: Figure, *, id_prefix: str, ink: str) -> str:
    """The cleaned SVG of ``figure``, its ids behind ``id_prefix``, ``ink`` as currentColor.

    Call it inside the style the figure was made with.
    """
    made = None if figure.stale else _keys.get(figure)  # before reading the figure
    labels = _labels(figure)
    key = _key(made, figure, labels) if made else None
    kept = _kept.get(key) if key else None
    if kept is None:
        kept = _with_placeholders(figure, labels, ink)
        if key:
            _kept[key] = kept
            while len(_kept) > _KEPT:
                del _kept[next(iter(_kept))]
    kept = _ID_PREFIXES.sub(id_prefix, kept)
    if not labels:
        return kept
    texts = [escape(line, quote=False) for text in labels for line in text.get_text().split("\n")]

    def fill(match: re.Match[str]) -> str:
        return f">{texts[int(match.group(1))]}</text>"

    return _PLACEHOLDERS.sub(fill, kept)
