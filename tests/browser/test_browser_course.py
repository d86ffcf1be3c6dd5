"""The course's signposts as a reader on a phone sees them, in both languages.

At 360 × 780 px: the home page's button that starts the course is on the first screen and
leads to the first lesson; each lesson's first screen shows its number ("Lesson 3 of 8"),
its goals' heading and the start of their list, within the screen's width; the last lesson's
footer offers no next page.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from support.project import SITE

PHONE = {"width": 360, "height": 780}
LANGUAGES = [language.code for language in SITE.all]
LESSONS = ["lessons/positional-encoding/", "lessons/rotary/", "lessons/images-and-video/"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_start_button_is_on_the_home_pages_first_screen_and_opens_lesson_1(
    tab: Page, site_url: str, language
):
    prefix = SITE.get(language).url_prefix
    tab.set_viewport_size(PHONE)
    tab.goto(site_url + prefix)
    button = tab.locator("article .md-button--primary")
    expect(button).to_be_in_viewport()
    box = button.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    button.click()
    expect(tab).to_have_url(re.compile(re.escape(prefix + "lessons/positional-encoding/") + "$"))


@pytest.mark.parametrize("path", LESSONS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_lesson_shows_its_number_and_goals_on_the_first_screen(
    tab: Page, site_url: str, language, path
):
    words = SITE.get(language).strings["signposts"]
    tab.set_viewport_size(PHONE)
    tab.goto(site_url + SITE.get(language).url_prefix + path)
    meta = tab.locator(".pe-signpost__meta")
    expect(meta).to_be_in_viewport()
    number = (
        re.escape(words["lesson_of"]).replace(r"\{number\}", r"\d").replace(r"\{total\}", r"\d")
    )
    expect(meta).to_have_text(re.compile(number))
    expect(tab.locator(".pe-signpost li").first).to_be_in_viewport()
    box = tab.locator(".pe-signpost").bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= PHONE["width"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_last_lessons_footer_goes_back_but_not_on(tab: Page, site_url: str, language):
    tab.goto(site_url + SITE.get(language).url_prefix + LESSONS[-1])
    expect(tab.locator(".md-footer__link--prev")).to_have_count(1)
    expect(tab.locator(".md-footer__link--next")).to_have_count(0)
