"""The card image a link to the site shows (Open Graph ``og:image``), one per language.

Why our own: Material's ``social`` plugin draws a card per page, but it needs cairosvg and the
system's Cairo library, and it downloads its fonts from Google Fonts on the first build, which
a build without network (and the site's no-CDN rule) rules out. This card is drawn with Pillow
(already installed with matplotlib) from DejaVu Sans, the font matplotlib ships, which has
every Turkish letter: nothing is downloaded. It shows the language's title and line from the
strings files (``social.card_title``, ``social.card_text``) above a band of the sinusoidal
encoding itself, computed by ``posenc``. Text is laid out by Pillow's basic engine (FreeType
only, no system shaping library), so two builds with the same Pillow write the same bytes.
"""

import importlib.util
import io
from functools import cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from posenc import sinusoidal_encoding
from posenc_site.i18n.languages import Language

WIDTH, HEIGHT = 1200, 630  # the size Open Graph and Twitter's large card expect (1.91:1)
MARGIN = 72
BAND_HEIGHT = 190  # the encoding's band along the bottom
BACKGROUND = (40, 53, 147)  # Material's indigo 800: the site's header colour, darker
TITLE_COLOUR = (255, 255, 255)
TEXT_COLOUR = (197, 202, 233)  # indigo 100
BAND_LOW, BAND_HIGH = np.array(BACKGROUND), np.array([232, 234, 246])  # -1 and +1 (indigo 50)
N_POSITIONS, D_MODEL = 100, 40  # a column of the band per position, a row per sine (even) dimension


def path(language: Language) -> str:
    """Where the card of ``language`` is in the built site, relative to its root."""
    return f"assets/cards/{language.code}.png"


@cache
def _font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the card's font comes with matplotlib: pip install 'posenc[plot]'")
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    font_file = Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf" / name
    return ImageFont.truetype(str(font_file), size, layout_engine=ImageFont.Layout.BASIC)


def _lines(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` pixels."""
    lines: list[str] = []
    for word in text.split():
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and font.getlength(candidate) <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def _band() -> Image.Image:
    """The sinusoidal encoding as a band: positions left to right, sines from fast to slow."""
    table = sinusoidal_encoding(N_POSITIONS, D_MODEL)[:, 0::2].T  # (d_model / 2, n_positions)
    weight = ((table + 1) / 2)[..., np.newaxis]
    pixels = np.round(BAND_LOW + weight * (BAND_HIGH - BAND_LOW)).astype(np.uint8)
    return Image.fromarray(pixels, "RGB").resize((WIDTH, BAND_HEIGHT), Image.Resampling.NEAREST)


def draw(language: Language) -> bytes:
    """The card of ``language`` as PNG bytes, ``WIDTH`` × ``HEIGHT`` pixels."""
    strings = language.strings["social"]
    card = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    pen = ImageDraw.Draw(card)
    pen.text((MARGIN, 56), "posenc", font=_font(True, 34), fill=TEXT_COLOUR)
    title_font, text_font = _font(True, 64), _font(False, 34)
    y = 130
    for line in _lines(strings["card_title"], title_font, WIDTH - 2 * MARGIN):
        pen.text((MARGIN, y), line, font=title_font, fill=TITLE_COLOUR)
        y += 80
    y += 16
    for line in _lines(strings["card_text"], text_font, WIDTH - 2 * MARGIN):
        pen.text((MARGIN, y), line, font=text_font, fill=TEXT_COLOUR)
        y += 46
    card.paste(_band(), (0, HEIGHT - BAND_HEIGHT))
    out = io.BytesIO()
    card.save(out, format="PNG", optimize=True)
    return out.getvalue()


def write(site_dir: Path, language: Language) -> None:
    """Write the card of ``language`` into the built site (at ``path``)."""
    target = site_dir / path(language)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(draw(language))
