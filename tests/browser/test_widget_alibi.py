"""The `alibi` figure of the lesson on ALiBi and relative position biases, in both languages.

Every number it shows and every mark it draws is compared with posenc: the slopes of all heads
with `alibi_slopes`, the bias of the head shown with `alibi_bias(n_heads, n)` (the lesson's
arguments: causal, as many queries as keys), masked cells included (-inf). Head counts that
are not powers of two, the ends of every slider, and the head kept in range when the number of
heads falls below it.
"""

from typing import cast

import numpy as np
import pytest
from playwright.sync_api import Locator, Page

from posenc import alibi_bias, alibi_slopes
from posenc_site.widgets import alibi
from support import axe
from support.project import SITE
from support.widget_checks import AXE, PHONE, check_fits, slider_heights
from support.widgets import js_format, mismatches, open_widget, set_control, shown, values

NAME = "alibi"
LESSON = "lessons/alibi-t5/"
LANGUAGES = [language.code for language in SITE.all]
DATA = alibi.data()
HEADS = cast(dict[str, int], DATA["heads"])
LENGTH = cast(dict[str, int], DATA["length"])
START = {"heads": HEADS["value"], "head": cast(int, DATA["head"]), "length": LENGTH["value"]}
# Each step sets these controls, in this order, on top of the step before: the first setting,
# each slider at both ends, counts that are not powers of two, and the head pulled back into
# range when the number of heads falls below it (63 -> 11, 62 -> 2).
STEPS: list[dict[str, int]] = [
    {},
    {"length": LENGTH["min"]},
    {"heads": HEADS["min"]},
    {"heads": HEADS["max"], "head": HEADS["max"] - 1, "length": LENGTH["max"]},
    {"heads": 12},
    {"head": 9, "length": 7},
    {"heads": 33, "head": 32},
    {"heads": 63, "head": 62, "length": 5},
    {"heads": 3},
    {"head": 0, "length": LENGTH["max"]},
]
DIGITS = {"slope": 4, "bias": 3}  # the digits of each shown number, by its key's name


def expected(heads: int, head: int, length: int) -> dict[str, float]:
    """Every value the figure must hold at this setting, by key."""
    found = {f"slope[{k}]": float(slope) for k, slope in enumerate(alibi_slopes(heads))}
    bias = alibi_bias(heads, length)[head]
    found |= {f"bias[{i}][{j}]": float(bias[i, j]) for i, j in np.ndindex(bias.shape)}
    return found


def check(root: Locator, setting: dict[str, int]) -> None:
    """Compare the figure at ``setting`` with posenc: values, shown texts, head control, summary."""
    heads, head, length = setting["heads"], setting["head"], setting["length"]
    want = expected(heads, head, length)
    found = values(root)
    assert not mismatches(found, want), (setting, mismatches(found, want)[:10])
    texts = shown(root)
    assert texts == {key: js_format(want[key], DIGITS[key.split("[")[0]]) for key in texts}
    # Always written out: the slope of the head shown and its bias by distance (the last row).
    assert f"slope[{head}]" in texts
    assert {f"bias[{length - 1}][{j}]" for j in range(length)} <= texts.keys()
    control = root.locator('[data-control="head"]')
    assert control.evaluate("input => [input.max, input.value]") == [str(heads - 1), str(head)]
    assert control.get_attribute("aria-valuetext") == str(head)
    live = root.locator("[aria-live]").text_content() or ""
    slope, farthest = want[f"slope[{head}]"], want[f"bias[{length - 1}][0]"]
    assert js_format(slope, 4) in live, live
    assert js_format(farthest, 3) in live, live


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_value_is_posenc_s(tab: Page, site_url: str, language: str) -> None:
    root = open_widget(tab, site_url + SITE.get(language).url_prefix + LESSON, NAME)
    # The first setting writes every number out: all slopes, and the bias in every cell.
    count = START["length"] * (START["length"] + 1) // 2
    assert root.locator('svg text[data-key^="slope["]').count() == START["heads"]
    assert root.locator('svg text[data-key^="bias["]').count() == count
    setting = dict(START)
    for step in STEPS:
        for control, value in step.items():
            set_control(root, control, value)
            setting[control] = value
            setting["head"] = min(setting["head"], setting["heads"] - 1)
        check(root, setting)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_number_of_heads(tab: Page, site_url: str, language: str) -> None:
    root = open_widget(tab, site_url + SITE.get(language).url_prefix + LESSON, NAME)
    set_control(root, "length", 3)
    for heads in range(HEADS["min"], HEADS["max"] + 1):
        set_control(root, "heads", heads)
        set_control(root, "head", heads - 1)  # the gentlest of the powers of two, or an extra
        want = expected(heads, heads - 1, 3)
        assert not mismatches(values(root), want), (heads, mismatches(values(root), want)[:10])


@pytest.mark.parametrize("language", LANGUAGES)
def test_fits_a_phone_and_is_accessible(tab: Page, site_url: str, language: str) -> None:
    tab.set_viewport_size(PHONE)
    root = open_widget(tab, site_url + SITE.get(language).url_prefix + LESSON, NAME)
    settings = [START, {"heads": 20, "head": 19, "length": 16}, {"heads": 64, "length": 9}]
    for setting in settings:
        for control, value in setting.items():
            set_control(root, control, value)
        check_fits(root, setting)
    heights = slider_heights(root)
    assert len(heights) == 3
    assert min(heights) >= 24, heights
    labels = root.locator("svg[role=img]").evaluate_all(
        "figures => figures.map(figure => figure.getAttribute('aria-label'))"
    )
    assert len(labels) == 2, labels
    assert all(labels), labels
    if not tab.evaluate("() => typeof axe !== 'undefined'"):
        tab.evaluate(axe.script())
    assert root.evaluate(AXE) == []
