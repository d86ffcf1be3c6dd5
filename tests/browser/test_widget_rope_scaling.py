"""The `rope-scaling` figure of the lesson Longer contexts, in both languages.

Every scale factor it draws and shows is compared with posenc.rope_scaling, called as the
lesson's static figure calls it (head_dim 128, the default base, 4,096 trained positions,
Llama 3's band from 1 to 4 turns, YaRN's defaults), at both ends of the slider, at the
lesson's factors and at halves between; every mark is drawn where posenc's value puts it on
the figure's own ticks, and each line passes through its marks.
"""

import math

import numpy as np
import pytest
from playwright.sync_api import Locator, Page

from posenc.rope_scaling import (
    linear_frequencies,
    llama3_frequencies,
    ntk_frequencies,
    yarn_frequencies,
)
from posenc.rotary import rotary_frequencies
from support import axe
from support.project import SITE
from support.widget_checks import AXE, PHONE, SMALLEST_TEXT, TEXT_SIZES
from support.widgets import js_format, mismatches, open_widget, set_control, shown, values

NAME = "rope-scaling"
LESSON = "lessons/longer-contexts/"
LANGUAGES = [language.code for language in SITE.all]
HEAD_DIM, LENGTH = 128, 4096  # the lesson's figure: Llama 2 read 8 times longer
METHODS = ("pi", "ntk", "yarn", "llama3")
PAIRS = (0, 32, 40, 63)  # the table's columns
SUMMARY_PAIR = 40  # the pair the screen-reader summary reads
# The first setting (the lesson's 8), both ends of the slider, the lesson's other factors
# (2 for dynamic NTK, 4 for Qwen2's YaRN), and halves between.
FACTORS = [8.0, 1.0, 2.5, 1.5, 2.0, 4.0, 13.5, 31.5, 32.0]
Y_TICKS = [1, 2, 4, 8, 16, 32]  # powers of 2 up to the largest factor
X_TICKS = [0, 16, 32, 48, 63]
DRAWN = 0.011  # viewBox units: marks and ticks are placed to 2 decimals

# Each mark's key and position, each tick's key and position, each line's points beside the
# positions of the marks drawn with it (its <g>).
_GEOMETRY = """root => {
  const svg = root.querySelector("svg[role=img]");
  const at = node => node.getAttribute("transform").match(/translate\\(([^ ]+) ([^)]+)\\)/)
    .slice(1).map(Number);
  const pairs = text => text.trim().split(/\\s+/).map(point => point.split(",").map(Number));
  return {
    marks: Array.from(svg.querySelectorAll("path[data-key]"),
      mark => [mark.dataset.key, ...at(mark)]),
    ticks: Array.from(svg.querySelectorAll("text[data-key]"), tick =>
      [tick.dataset.key, Number(tick.getAttribute("x")), Number(tick.getAttribute("y"))]),
    lines: Array.from(svg.querySelectorAll("polyline"), line => [
      pairs(line.getAttribute("points")),
      Array.from(line.parentNode.querySelectorAll("path[data-key]"), at)]),
  };
}"""


def scales(factor: float) -> dict[str, np.ndarray]:
    """theta / theta' of every pair for each method, as the lesson's figure computes them."""
    theta = rotary_frequencies(HEAD_DIM)
    scaled = {
        "pi": linear_frequencies(HEAD_DIM, factor=factor),
        "ntk": ntk_frequencies(HEAD_DIM, factor=factor),
        "yarn": yarn_frequencies(HEAD_DIM, factor=factor, original_max_position_embeddings=LENGTH),
        "llama3": llama3_frequencies(
            HEAD_DIM,
            factor=factor,
            low_freq_factor=1.0,
            high_freq_factor=4.0,
            original_max_position_embeddings=LENGTH,
        ),
    }
    return {method: theta / value for method, value in scaled.items()}


def expected(factor: float) -> tuple[dict[str, float], dict[str, str]]:
    """Every value the figure must hold at ``factor``, and every text it must show, by key."""
    want = {
        f"scale.{method}[{i}]": float(value)
        for method, ratio in scales(factor).items()
        for i, value in enumerate(ratio)
    }
    want |= {f"tick.y[{k}]": float(tick) for k, tick in enumerate(Y_TICKS)}
    want |= {f"tick.x[{k}]": float(tick) for k, tick in enumerate(X_TICKS)}
    want |= {"length.trained": float(LENGTH), "length.read": factor * LENGTH}
    digits = {f"scale.{method}[{i}]": 3 for method in METHODS for i in PAIRS}
    digits |= {key: 0 for key in want if not key.startswith("scale.")}
    return want, {key: js_format(want[key], places) for key, places in digits.items()}


def check_drawing(root: Locator, want: dict[str, float]) -> None:
    """Each mark sits where posenc's value falls between the ticks; each line joins its marks."""
    geometry = root.evaluate(_GEOMETRY)
    ticks = {key: (x, y) for key, x, y in geometry["ticks"]}
    y_one, y_top = ticks["tick.y[0]"][1], ticks[f"tick.y[{len(Y_TICKS) - 1}]"][1]
    x_first, x_last = ticks["tick.x[0]"][0], ticks[f"tick.x[{len(X_TICKS) - 1}]"][0]
    assert y_top < y_one, (y_one, y_top)
    assert len(geometry["marks"]) == len(METHODS) * HEAD_DIM // 2
    for key, x, y in geometry["marks"]:
        pair = int(key[key.index("[") + 1 : -1])
        height = math.log2(want[key]) / math.log2(Y_TICKS[-1])
        assert abs(y - (y_one + (y_top - y_one) * height)) <= DRAWN, (key, y, want[key])
        assert abs(x - (x_first + (x_last - x_first) * pair / X_TICKS[-1])) <= DRAWN, (key, x)
    assert len(geometry["lines"]) == len(METHODS)
    for points, marks in geometry["lines"]:
        assert points == marks


def check(root: Locator, factor: float) -> None:
    """Compare the figure at ``factor`` with posenc: values, texts, drawing and summaries."""
    want, texts = expected(factor)
    found = values(root)
    assert not mismatches(found, want), (factor, mismatches(found, want)[:10])
    assert shown(root) == texts, factor
    check_drawing(root, want)
    live = root.locator("[aria-live]").text_content() or ""
    assert f"s = {js_format(factor, 1)}" in live, live
    for method in METHODS:
        assert js_format(want[f"scale.{method}[{SUMMARY_PAIR}]"], 3) in live, (method, live)
    label = root.locator("svg[role=img]").get_attribute("aria-label") or ""
    assert f"s = {js_format(factor, 1)}" in label, label


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_value_is_posenc_s(tab: Page, site_url: str, language: str) -> None:
    root = open_widget(tab, site_url + SITE.get(language).url_prefix + LESSON, NAME)
    check(root, FACTORS[0])  # as the page opens
    for factor in FACTORS[1:]:
        set_control(root, "factor", factor)
        check(root, factor)
    # The methods part ways as the lesson says: at s = 32, pair 0 is kept by all but PI, the
    # slowest pair is divided by s by all, and pair 40 tells the four apart.
    found = values(root)
    first = [found[f"scale.{method}[0]"] for method in METHODS]
    assert first == pytest.approx([32.0, 1.0, 1.0, 1.0], rel=1e-12)
    slowest = [found[f"scale.{method}[63]"] for method in METHODS]
    assert slowest == pytest.approx([32.0] * len(METHODS), rel=1e-12)
    assert len({round(found[f"scale.{method}[40]"], 3) for method in METHODS}) == 4


@pytest.mark.parametrize("language", LANGUAGES)
def test_fits_a_phone_and_is_accessible(tab: Page, site_url: str, language: str) -> None:
    tab.set_viewport_size(PHONE)
    root = open_widget(tab, site_url + SITE.get(language).url_prefix + LESSON, NAME)
    for factor in (32.0, 1.0, 13.5):  # 32.000 is the widest number of the table
        set_control(root, "factor", factor)
        widths = root.evaluate(
            """root => [root, root.querySelector("table")].map(
              box => [box.scrollWidth, box.clientWidth])"""
        )
        assert all(scroll <= client for scroll, client in widths), (factor, widths)
        assert min(root.evaluate(TEXT_SIZES, "svg[role=img] text")) >= SMALLEST_TEXT, factor
    heights = root.locator("input[type=range]").evaluate_all(
        "inputs => inputs.map(input => input.getBoundingClientRect().height)"
    )
    assert len(heights) == 1
    assert heights[0] >= 24, heights
    if not tab.evaluate("() => typeof axe !== 'undefined'"):
        tab.evaluate(axe.script())
    assert root.evaluate(AXE) == []
