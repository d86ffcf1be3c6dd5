"""The card image of link previews: one per language, the same bytes on every build."""

import io

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from posenc_site.publish import social_card
from support.project import SITE


@pytest.mark.parametrize("language", SITE.all, ids=lambda language: language.code)
def test_a_card_is_a_png_of_the_open_graph_size_drawn_the_same_twice(language):
    first, second = social_card.draw(language), social_card.draw(language)
    assert first == second
    image = Image.open(io.BytesIO(first))
    assert image.format == "PNG"
    assert image.size == (social_card.WIDTH, social_card.HEIGHT) == (1200, 630)
    assert len(first) < 60_000
    # The band of the encoding: its first column (position 0) is sin(0) = 0 in every row,
    # the colour halfway between the band's two ends.
    ends = zip(social_card.BAND_LOW, social_card.BAND_HIGH, strict=True)
    middle = tuple(round((low + high) / 2) for low, high in ends)
    pixel = image.getpixel((0, social_card.HEIGHT - 1))
    assert all(abs(a - b) <= 1 for a, b in zip(pixel, middle, strict=True)), (pixel, middle)


def test_the_cards_of_the_two_languages_differ():
    english, turkish = (social_card.draw(language) for language in SITE.all)
    assert english != turkish


def test_the_font_has_every_letter_of_the_cards():
    for bold in (True, False):
        font = TTFont(social_card._font(bold, 10).path)
        letters = set(font.getBestCmap())
        for language in SITE.all:
            strings = language.strings["social"]
            text = strings["card_title"] + strings["card_text"] + "posenc"
            missing = {char for char in text if ord(char) not in letters}
            assert not missing, (language.code, missing)
