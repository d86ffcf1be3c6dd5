"""The `mrope-ids` figure of the lesson on images and video, in both languages.

Every id it shows is compared with `mrope_position_ids` for the same text and image: the
(time, height, width) ids of every token, where the image starts, its largest id, the first
text token after it (also when no text follows: posenc's id of one more text token), the
tokens before that one and `rope_deltas`. Every slider at both ends, grids that are not
square, and every image size from 1 x 1 to 8 x 8.
"""

from typing import cast

import pytest
from playwright.sync_api import Locator, Page, expect

from posenc import mrope_position_ids
from posenc_site import widgets
from posenc_site.widgets import mrope_ids
from support import axe
from support.project import SITE
from support.widget_checks import AXE, PHONE, check_fits, slider_heights
from support.widgets import js_format, mismatches, open_widget, set_control, shown, values

NAME = "mrope-ids"
LESSON = "lessons/images-and-video/"
LANGUAGES = [language.code for language in SITE.all]
DATA = mrope_ids.data()
CONTROLS = ("before", "height", "width", "after")
RANGE = {name: cast(dict[str, int], DATA[name]) for name in CONTROLS}
START = {name: RANGE[name]["value"] for name in CONTROLS}
LOW = {name: RANGE[name]["min"] for name in CONTROLS}
HIGH = {name: RANGE[name]["max"] for name in CONTROLS}
# Each step sets these controls on top of the step before: the first setting (the lesson's
# worked example), each slider at both ends, no text at all, grids taller than wide and wider
# than tall, and the largest setting.
STEPS: list[dict[str, int]] = [
    {},
    {"before": LOW["before"]},
    {"after": LOW["after"]},
    {"height": LOW["height"], "width": LOW["width"]},
    {"height": HIGH["height"]},
    {"width": HIGH["width"], "height": 2},
    {"before": HIGH["before"], "after": 1},
    {"height": 7, "width": 3, "after": HIGH["after"]},
    HIGH,
    {"before": 1, "height": 1, "width": 5, "after": LOW["after"]},
]


def expected(before: int, height: int, width: int, after: int) -> dict[str, int]:
    """Every value the figure must hold for this text and image, by key, from posenc.

    A text token is added after the image when none follows, for posenc's id of it.
    """
    segments = ([before] if before else []) + [(1, height, width), max(after, 1)]
    ids = mrope_position_ids(segments)
    image = before + height * width
    n = image + after
    found = {
        f"id.{axis}[{k}]": int(ids[row, k]) for row, axis in enumerate("thw") for k in range(n)
    }
    return found | {
        "start": int(ids[0, before]),
        "max": int(ids[:, :image].max()),
        "next": int(ids[0, image]),
        "tokens": image,
        "rope_delta": int(ids[:, :n].max()) + 1 - n,
    }


def fill(template: str, values: dict[str, int]) -> str:
    """A string of the widget with its ``{name}`` replaced by ``values``."""
    for name, value in values.items():
        template = template.replace("{" + name + "}", str(value))
    return template


def check(root: Locator, setting: dict[str, int], language: str) -> None:
    """Compare the figure at ``setting`` with posenc: values, texts, summary, description."""
    want = expected(*(setting[name] for name in CONTROLS))
    found = values(root)
    assert not mismatches(found, want), (setting, mismatches(found, want)[:10])
    assert shown(root) == {key: js_format(value, 0) for key, value in want.items()}, setting
    words = widgets.strings(NAME, language, LESSON)
    live = root.locator("[aria-live]").text_content()
    assert live == " ".join(fill(words["live"], want).split()), (setting, live)
    label = root.locator("svg[role=img]").get_attribute("aria-label")
    assert label == " ".join(fill(words["figure"], setting).split()), (setting, label)
    # The first text token after the image, and only it, is framed.
    frames = root.locator('svg rect[style*="accent"]')
    expect(frames).to_have_count(1 if setting["after"] else 0)


def move(root: Locator, setting: dict[str, int], step: dict[str, int]) -> None:
    for control, value in step.items():
        set_control(root, control, value)
        setting[control] = value


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_id_is_posenc_s(tab: Page, site_url: str, language: str) -> None:
    root = open_widget(tab, site_url + SITE.get(language).url_prefix + LESSON, NAME)
    setting = dict(START)
    for step in STEPS:
        move(root, setting, step)
        check(root, setting, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_image_size(tab: Page, site_url: str, language: str) -> None:
    root = open_widget(tab, site_url + SITE.get(language).url_prefix + LESSON, NAME)
    setting = dict(START)
    for height in range(LOW["height"], HIGH["height"] + 1):
        for width in range(LOW["width"], HIGH["width"] + 1):
            # The text around the image changes too, through every length of each side.
            before = (height + width) % (HIGH["before"] + 1)
            after = (height * width) % (HIGH["after"] + 1)
            move(root, setting, {"height": height, "width": width})
            move(root, setting, {"before": before, "after": after})
            want = expected(before, height, width, after)
            assert not mismatches(values(root), want), (setting, mismatches(values(root), want))


def test_the_script_checks_itself_against_posenc(tab: Page, site_url: str) -> None:
    """With posenc's ids of the lesson's example changed, the figure refuses to draw."""
    tab.goto(site_url + LESSON)
    root = tab.locator(f'.pe-widget[data-widget="{NAME}"]')
    root.evaluate(
        """root => {
          const data = root.querySelector("script.pe-widget__data");
          const json = JSON.parse(data.textContent);
          json.data.example.ids[2][5] += 1;
          data.textContent = JSON.stringify(json);
        }"""
    )
    root.scroll_into_view_if_needed()
    expect(root).to_have_attribute("data-error", "true")
    expect(root.locator("[data-key]")).to_have_count(0)


@pytest.mark.parametrize("language", LANGUAGES)
def test_fits_a_phone_and_is_accessible(tab: Page, site_url: str, language: str) -> None:
    tab.set_viewport_size(PHONE)
    root = open_widget(tab, site_url + SITE.get(language).url_prefix + LESSON, NAME)
    for setting in [START, LOW, HIGH]:
        move(root, dict(START), setting)
        check_fits(root, setting)
    heights = slider_heights(root)
    assert len(heights) == len(CONTROLS)
    assert min(heights) >= 24, heights
    if not tab.evaluate("() => typeof axe !== 'undefined'"):
        tab.evaluate(axe.script())
    assert root.evaluate(AXE) == []
