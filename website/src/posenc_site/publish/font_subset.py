"""The math font: the glyphs of Noto Sans Math that the site's formulas use, and no others.

Browsers draw the MathML of the pages with ``docs/assets/fonts/noto-sans-math-subset.woff2``
(see ``docs/assets/posenc.css``). This command makes that file from the full font of the
``@fontsource/noto-sans-math`` package and a built site (see the contributor guide, section
Formulas, for the commands)::

    python -m posenc_site.publish.font_subset SITE FONT

It keeps every character inside the ``<math>`` elements of the site's pages, in every
language, with the forms the browser asks the font for (a single letter in ``<mi>`` is drawn in
its mathematical italic form, U+1D44E and on), and fontTools keeps the stretched sizes and
pieces of brackets and radicals that the font's MATH table names for them.
"""

import argparse
import unicodedata
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path

# The subset the pages use, relative to the project (run from the folder of mkdocs.yml).
OUTPUT = Path("docs") / "assets" / "fonts" / "noto-sans-math-subset.woff2"

# Characters drawn without being written: the radical sign of a square root, the space, and
# the forms MathML Core gives an <mo> holding a hyphen or an apostrophe.
_IMPLIED = {"msqrt": "√", "mroot": "√"}
_OPERATOR_FORMS = {"-": "\u2212", "'": "\u2032"}  # minus sign, prime


def italic(character: str) -> str | None:
    """The mathematical italic form of a letter, as browsers draw a one-letter ``<mi>``.

    MathML Core's ``text-transform: math-auto``; Unicode names the forms, so the mapping is
    read from its names ("LATIN SMALL LETTER A" -> "MATHEMATICAL ITALIC SMALL A").
    """
    if character == "h":
        return "\u210e"  # PLANCK CONSTANT stands in for the italic h Unicode leaves out
    name = unicodedata.name(character, "")
    for script in ("LATIN ", "GREEK "):
        name = name.removeprefix(script)
    name = name.replace("LETTER ", "")
    try:
        return unicodedata.lookup(f"MATHEMATICAL ITALIC {name}")
    except KeyError:
        return None


class _MathText(HTMLParser):
    """Collects the characters of the ``<math>`` elements of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.characters: set[str] = set()
        self._open: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "math" or self._open:
            self._open.append((tag, dict(attrs)))
            self.characters.update(_IMPLIED.get(tag, ""))

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            while self._open and self._open.pop()[0] != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not self._open:
            return
        self.characters.update(data)
        tag, attrs = self._open[-1]
        text = data.strip()
        if tag == "mi" and len(text) == 1 and attrs.get("mathvariant") is None:
            self.characters.update(italic(text) or "")
        if tag == "mo" and text in _OPERATOR_FORMS:
            self.characters.add(_OPERATOR_FORMS[text])


def math_characters(pages: Iterable[str]) -> set[str]:
    """Every character the formulas of ``pages`` (HTML) ask the math font for."""
    parser = _MathText()
    for page in pages:
        parser.feed(page)
        parser.close()
    return parser.characters | {" "} if parser.characters else set()


def site_math_characters(site: Path) -> set[str]:
    """Every character the formulas of a built site ask the math font for."""
    return math_characters(page.read_text("utf-8") for page in sorted(site.rglob("*.html")))


def make_subset(font: Path, characters: set[str], output: Path) -> None:
    """Write the WOFF2 subset of ``font`` holding ``characters``, its MATH table and licence."""
    from fontTools import subset

    options = subset.Options()
    options.layout_features = ["*"]
    options.flavor = "woff2"
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # with the copyright and the OFL notice
    loaded = subset.load_font(str(font), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(map(ord, characters)))
    subsetter.subset(loaded)
    subset.save_font(loaded, str(output), options)


def main() -> None:
    """Make the subset from a built site and the full font."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a built site (mkdocs build --strict -d SITE)")
    parser.add_argument("font", type=Path, help="noto-sans-math-latin-400-normal.woff2")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    arguments = parser.parse_args()
    characters = site_math_characters(arguments.site)
    make_subset(arguments.font, characters, arguments.output)
    size = arguments.output.stat().st_size
    print(f"{arguments.output}: {len(characters)} characters, {size} bytes")


if __name__ == "__main__":
    main()
