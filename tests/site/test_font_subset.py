from pathlib import Path

from fontTools.ttLib import TTFont

from posenc_site.publish import font_subset

ROOT = Path(__file__).resolve().parents[2]


def test_the_math_font_is_a_small_subset_with_its_math_table():
    font = TTFont(ROOT / font_subset.OUTPUT)
    assert len(font.getBestCmap()) < 300  # the full font maps 3033 characters
    variants = font["MATH"].table.MathVariants.VertGlyphCoverage.glyphs
    assert {"parenleft", "parenright", "radical"} <= set(variants)  # stretchy sizes kept
    assert font["name"].getDebugName(14) == "https://openfontlicense.org"  # the licence stays


def test_formula_characters_are_read_from_math_elements_only():
    page = (
        "<p>x y z</p><math><mi>x</mi><mi mathvariant='normal'>d</mi><mi>sin</mi>"
        "<mo>&#x02212;</mo><msqrt><mn>2</mn></msqrt><mi>h</mi><mi>&#x003B8;</mi></math>"
    )
    assert font_subset.math_characters([page]) == set("xdsin\u2212√2hθ ") | {
        "\U0001d465",  # a one-letter <mi> is drawn in mathematical italic: x
        "\u210e",  # h, whose italic is the Planck constant
        "\U0001d703",  # θ
    }


def test_the_italic_forms_follow_unicode_names():
    assert font_subset.italic("a") == "\U0001d44e"
    assert font_subset.italic("Z") == "\U0001d44d"
    assert font_subset.italic("ω") == "\U0001d714"
    assert font_subset.italic("1") is None
