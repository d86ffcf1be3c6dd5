"""The SVG matplotlib writes of a figure, made small: what the browser draws, and no more.

matplotlib writes an SVG for editors (metadata, an id on every group, six decimals, a font
list on every text). It uses a handful of elements and path commands, so a few passes over the
text do what is needed:

- drop the XML prologue, the doctype, the metadata, ids nothing refers to, and the groups
  left without attributes (their children stay);
- give the ids that remain short names behind a prefix (each figure its own, so that several
  share a page);
- write paths with relative commands (``h``, ``v``, ``l``) and positions rounded to 0.01 pt,
  far below a pixel, and round the positions of texts and marks the same way; transforms keep
  4 decimals, since they scale images;
- store opaque images as palette PNGs where that keeps every pixel;
- state the font list once, on the root, and write the ink colour as ``currentColor``;
- draw what matplotlib writes as many elements as few (`_merged`): every mark placed with
  ``<use>`` (a tick, a marker) becomes part of one path per mark and style, the consecutive
  strokes of one style (the four spines of an axes) one path, and the paths that draw nothing
  (a figure's or an axes' background with ``fill:none`` and no stroke) go. A browser lays out,
  styles and keeps in memory each element of a page; a figure was most of them in ``<use>``.

Why our own: scour, the optimiser used before, parsed the SVG into a DOM and walked it a dozen
times, a fifth of the drawing of a figure, and is no longer maintained (last release 2020).
svgo 4.1.0, the maintained one, was measured against this module on the 22 figures of the
site's lessons in both languages (`benchmarks/figures.py`; svgo's ``preset-default`` with
``prefixIds``, as several figures share a page; the two in turn, best of 5 each):

- matplotlib's SVG: 546 kB, 125 kB gzipped, 4,162 elements;
- svgo: 440 kB, 95 kB gzipped, 2,323 elements, in 0.68 s (and 0.2 to 0.7 s to start Node.js
  and import svgo);
- this module: 165 kB, 54 kB gzipped, 974 elements, in 0.22 s: svgo took 2.4 to 3.1 times as
  long over four runs on a shared machine.

svgo keeps each tick a ``<use>``, most groups, and each heatmap an RGBA PNG (without its
palette PNGs this module's SVGs are still 202 kB, 83 kB gzipped); and it would make the build
need Node.js, which the site's install (pip only, see the README) does not have. So this module
stays.
"""

from __future__ import annotations

import base64
import io
import re

import numpy as np

_START = re.compile(r"<svg\b")
_METADATA = re.compile(r"<metadata>.*?</metadata>", re.DOTALL)
_ID = re.compile(r' id="([^"]+)"')
_REFERENCE = re.compile(r'(?<=xlink:href="#)[^"]+|(?<=url\(#)[^)]+')
_GROUP = re.compile(r"<(/?)g\b([^>]*)>")
_PATH = re.compile(r'(?<= d=")[^"]*')
_PATH_TOKEN = re.compile(r"[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_POSITION = re.compile(r'(?<= )(x|y|width|height)="(-?[\d.]+)"')
_TRANSFORM = re.compile(r'(?<= transform=")[^"]*')
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_NO_ROTATION = re.compile(r' transform="rotate\(-?0 [^"]*\)"')
_STYLE = re.compile(r'(?<= style=")[^"]*|(?<=<style type="text/css">)[^<]*')
_STYLE_SPACE = re.compile(r"\s*([:;,{}])\s*")
_BETWEEN_TAGS = re.compile(r">\s+<")
_PNG = re.compile(r"(?<=data:image/png;base64,)[A-Za-z0-9+/=\s]+")
# Every text repeats the same list of fonts; the root states it once and the texts inherit.
_FONT_FAMILY = re.compile(r"font-family:([^;\"]*);?")


def _number(value: float, decimals: int = 2) -> str:
    """``value`` rounded, without trailing zeros nor a leading zero: -0.50 is -.5."""
    text = f"{round(value, decimals):.{decimals}f}".rstrip("0").rstrip(".")
    if text in ("", "-", "-0"):
        return "0"
    return text.replace("0.", ".", 1) if text.lstrip("-").startswith("0.") else text


def _join(numbers: list[str]) -> str:
    """Numbers of a path command: separated by a space, or by their own minus sign."""
    out = numbers[0]
    for number in numbers[1:]:
        out += number if number.startswith("-") else f" {number}"
    return out


def _path(data: str) -> str:
    """Path data with relative commands and positions rounded to 0.01, the same shape.

    Paths with other commands than M, L and Z (matplotlib writes curves as C or Q) keep their
    absolute commands, only rounded.
    """
    tokens = _PATH_TOKEN.findall(data)
    if not tokens or any(t.isalpha() and t not in "MLZz" for t in tokens):
        return _NUMBER.sub(lambda m: _number(float(m.group(0))), " ".join(tokens))
    out: list[str] = []
    x = y = start_x = start_y = 0.0
    command = ""
    numbers: list[float] = []
    last = ""  # the command letter last written, which a following one may leave out

    def write(letter: str, *values: float) -> None:
        nonlocal last
        text = _join([_number(v) for v in values])
        if letter == last and letter in "hvl":  # the letter may be left out when repeated
            out.append(text if text.startswith("-") else f" {text}")
        else:
            out.append(letter + text)
        last = letter

    def flush() -> None:
        nonlocal x, y, start_x, start_y
        for n in range(0, len(numbers) - 1, 2):
            to_x, to_y = round(numbers[n], 2), round(numbers[n + 1], 2)
            if command == "M" and n == 0:
                if out:
                    write("m", to_x - x, to_y - y)
                else:
                    write("M", to_x, to_y)
                start_x, start_y = to_x, to_y
            elif to_x == x:
                write("v", to_y - y)
            elif to_y == y:
                write("h", to_x - x)
            else:
                write("l", to_x - x, to_y - y)
            x, y = to_x, to_y

    for token in tokens:
        if token.isalpha():
            flush()
            numbers = []
            command = token.upper()
            if command == "Z":
                out.append("z")
                last = "z"
                x, y = start_x, start_y
        else:
            numbers.append(float(token))
    flush()
    return "".join(out)


def _without_bare_groups(svg: str) -> str:
    """The SVG without the ``<g>`` elements that have no attribute left; children stay."""
    out: list[str] = []
    kept: list[bool] = []
    position = 0
    for match in _GROUP.finditer(svg):
        out.append(svg[position : match.start()])
        position = match.end()
        if match.group(1):  # </g>
            if kept.pop():
                out.append(match.group(0))
        else:
            keep = bool(match.group(2).strip().rstrip("/"))
            if match.group(2).rstrip().endswith("/"):  # <g/>: nothing to keep
                continue
            kept.append(keep)
            if keep:
                out.append(match.group(0))
    out.append(svg[position:])
    return "".join(out)


_TOKEN = re.compile(r"<[^>]*>|[^<]+")
_DEF_PATH = re.compile(r'<path id="([^"]+)" d="([^"]*)" style="([^"]*)"/>')
_USE = re.compile(r'<use xlink:href="#([^"]+)" x="([^"]+)" y="([^"]+)" style="([^"]*)"/>')
# A path that neither fills nor strokes draws nothing; inside a clip path its shape counts.
_INVISIBLE = re.compile(r'<clipPath\b.*?</clipPath>|<path d="[^"]*" style="fill:none"/>')
_PLAIN_PATH = re.compile(r'<path d="([^"]*)"((?: (?:clip-path|style)="[^"]*")*)/>')
# Moved from one element to one path, a mark draws the same only where its copies never
# cover one another translucently, and a stroke only where no dash runs across its parts.
_NOT_MERGED = re.compile(r"opacity|dasharray")
# The tags between which marks may be gathered into one path: the marks and the texts of
# axes' ticks, which do not overlap (matplotlib pads tick labels away from their ticks).
_RUN = re.compile(r"</?(?:defs|text|tspan)\b|<path id=")
# Where the translated copy of a mark's path starts: an absolute move, then relative steps.
_RELATIVE_MARK = re.compile(r"M(-?[\d.]+)(?: (?=[\d.])|(?=-))(-?[\d.]+)([mhvlz\d .-]*)")


def _style_of(*styles: str) -> str:
    """One style of several, a later one's properties over an earlier one's.

    A referenced path's own style takes precedence over its ``<use>``'s (SVG 1.1, 5.6).
    """
    properties: dict[str, str] = {}
    for style in styles:
        for item in filter(None, style.split(";")):
            name, _, value = item.partition(":")
            properties[name] = value
    return ";".join(f"{name}:{value}" for name, value in properties.items())


def _merged(svg: str) -> str:
    """The same picture in fewer elements (see the module's description)."""
    if re.search(r"<(?:svg|g)\b[^>]*style=\"[^\"]*stroke", svg):
        return svg  # a stroke inherited from a group: leave the paths as they are
    marks: dict[str, tuple[str, ...]] = {}  # id -> start x, start y, steps, style
    for name, data, style in _DEF_PATH.findall(svg):
        mark = _RELATIVE_MARK.fullmatch(data)
        if mark and not _NOT_MERGED.search(style):
            marks[name] = (*mark.groups(), style)
    out: list[str] = []
    paths: dict[tuple[str, str], tuple[int, list[str]]] = {}  # (mark, style) -> place, data
    in_text = False
    for token in _TOKEN.findall(svg):
        use = _USE.fullmatch(token)
        if use and use.group(1) in marks and not _NOT_MERGED.search(use.group(4)):
            name, x, y, style = use.groups()
            start_x, start_y, steps, own_style = marks[name]
            at = [_number(float(x) + float(start_x)), _number(float(y) + float(start_y))]
            if (name, style) not in paths:
                paths[name, style] = (len(out), [])
                out.append(_style_of(style, own_style))
            paths[name, style][1].append(f"M{_join(at)}{steps}")
            continue
        if token.startswith("<text"):
            in_text = True
        elif token == "</text>":
            in_text = False
        elif not in_text and not _RUN.match(token):
            for place, data in paths.values():  # anything else drawn ends the run
                out[place] = f'<path d="{"".join(data)}" style="{out[place]}"/>'
            paths = {}
        out.append(token)
    svg = "".join(out)
    used = set(_REFERENCE.findall(svg))
    svg = _DEF_PATH.sub(lambda m: m.group(0) if m.group(1) in used else "", svg)
    svg = svg.replace("<defs></defs>", "")
    svg = _INVISIBLE.sub(lambda m: m.group(0) if m.group(0).startswith("<clipPath") else "", svg)
    return _joined_strokes(svg)


def _joined_strokes(svg: str) -> str:
    """Consecutive stroked, unfilled paths of the same attributes as one path."""
    out: list[str] = []
    joined, attributes = "", ""  # the data and attributes of the path that may take more
    for token in _TOKEN.findall(svg):
        path = _PLAIN_PATH.fullmatch(token)
        if path and _joinable(path.group(2)):
            if joined and path.group(2) == attributes:
                joined += path.group(1)
                out[-1] = f'<path d="{joined}"{attributes}/>'
                continue
            joined, attributes = path.groups()
        else:
            joined = attributes = ""
        out.append(token)
    return "".join(out)


def _joinable(attributes: str) -> bool:
    """Whether a path of these attributes draws the same as part of a longer one."""
    return (
        "fill:none" in attributes and "stroke:" in attributes and not _NOT_MERGED.search(attributes)
    )


def _palette_png(match: re.Match[str]) -> str:
    """An embedded PNG again, as a palette image where that keeps every pixel.

    matplotlib embeds RGBA images, 4 bytes a pixel; a colour map has 256 colours, so an
    opaque heatmap fits a palette of 1 byte a pixel, about a third of the size. Pillow
    (matplotlib's own dependency) converts it; any loss, or transparency, keeps the original.
    """
    from PIL import Image

    data = base64.b64decode("".join(match.group(0).split()))
    image = Image.open(io.BytesIO(data))
    pixels = np.asarray(image.convert("RGBA"))
    if (pixels[..., 3] == 255).all():
        rgb = image.convert("RGB")
        palette = rgb.convert("P", palette=Image.Palette.ADAPTIVE, colors=256)
        if np.array_equal(np.asarray(palette.convert("RGB")), pixels[..., :3]):
            buffer = io.BytesIO()
            palette.save(buffer, format="png", optimize=True)
            data = min(data, buffer.getvalue(), key=len)
    return base64.b64encode(data).decode("ascii")


def clean(svg: str, *, ink: str, id_prefix: str) -> str:
    """The SVG matplotlib wrote, made small (see the module's description), the same picture.

    Parameters
    ----------
    svg : str
        What ``Figure.savefig(format="svg")`` wrote, with ``svg.fonttype`` ``"none"``.
    ink : str
        The colour that stands for the page's text colour, written as ``currentColor``.
    id_prefix : str
        Put before every id that remains.

    Returns
    -------
    str
        The ``<svg>`` element on one line.
    """
    svg = svg[_START.search(svg).start() :]  # type: ignore[union-attr]
    svg = _METADATA.sub("", svg)
    referenced = set(_REFERENCE.findall(svg))
    svg = _ID.sub(lambda m: m.group(0) if m.group(1) in referenced else "", svg)
    svg = _without_bare_groups(svg)
    svg = _PATH.sub(lambda m: _path(m.group(0)), svg)
    svg = _POSITION.sub(lambda m: f'{m.group(1)}="{_number(float(m.group(2)))}"', svg)
    svg = _NO_ROTATION.sub("", svg)
    svg = _TRANSFORM.sub(lambda m: _NUMBER.sub(lambda n: _number(float(n[0]), 4), m[0]), svg)
    svg = _STYLE.sub(lambda m: _STYLE_SPACE.sub(r"\1", m.group(0)).strip(), svg)
    svg = _PNG.sub(_palette_png, svg)
    svg = _BETWEEN_TAGS.sub("><", svg).replace(ink, "currentColor").strip()
    svg = _merged(svg)
    names: dict[str, str] = {}
    for name in _ID.findall(svg):
        names[name] = f"{id_prefix}{len(names)}"
    svg = _ID.sub(lambda m: f' id="{names[m.group(1)]}"', svg)
    svg = _REFERENCE.sub(lambda m: names[m.group(0)], svg)
    families = set(_FONT_FAMILY.findall(svg))
    if len(families) == 1:
        root_font = f'<svg style="font-family:{families.pop()}" '
        svg = _FONT_FAMILY.sub("", svg).replace("<svg ", root_font, 1)
    return svg
