"""The math font of the built site holds every character its formulas draw."""

from pathlib import Path

from fontTools.ttLib import TTFont

from posenc_site.publish import font_subset
from support.project import ROOT


def _font_characters() -> set[str]:
    return set(map(chr, TTFont(ROOT / font_subset.OUTPUT).getBestCmap()))


def test_the_math_font_holds_every_character_the_pages_draw(site: Path):
    used = font_subset.site_math_characters(site)
    assert len(used) > 50
    missing = "".join(sorted(used - _font_characters()))
    assert not missing, (
        f"formulas use characters the math font lacks: {missing!r}; make the subset again "
        "with python -m posenc_site.publish.font_subset (contributor guide, Formulas)"
    )
