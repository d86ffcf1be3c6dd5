"""The `sinusoidal-table` figure of the lesson Positional encoding, in both languages.

Every number it shows and every bar it draws is compared with posenc: the row of
`sinusoidal_encoding` (interleaved layout, the lesson's) at the chosen position, for the
chosen `d_model`, at both ends of both sliders and in between.
"""

import pytest
import yaml
from playwright.sync_api import Locator, Page

from posenc import sinusoidal_encoding
from posenc_site import widgets
from posenc_site.widgets import sinusoidal_table
from support.project import SITE
from support.widget_checks import PHONE, check_fits
from support.widgets import js_format, mismatches, open_widget, set_control, shown, values

NAME = "sinusoidal-table"
LESSON = "lessons/positional-encoding/"
LANGUAGES = [language.code for language in SITE.all]
DATA = sinusoidal_table.data()
D_MODEL = sinusoidal_table.D_MODEL
LAST_POSITION = sinusoidal_table.POSITIONS - 1
STRINGS = yaml.safe_load((widgets.HERE / f"{NAME}.yml").read_text(encoding="utf-8"))
# Each step sets these controls, on top of the step before: the first setting, then each
# slider at both ends and in between.
STEPS: list[dict[str, int]] = [
    {},
    {"position": 0},
    {"d_model": D_MODEL["min"]},
    {"position": LAST_POSITION},
    {"d_model": D_MODEL["max"]},
    {"position": 1},
    {"d_model": 6, "position": 37},
    {"d_model": 64},
]
DIGITS = 3  # of each value of the row


def expected(d_model: int, position: int) -> dict[str, float]:
    """Every key the figure must show or draw for ``d_model`` and ``position``, with its value."""
    row = sinusoidal_encoding(LAST_POSITION + 1, d_model, base=DATA["base"])[position]
    found = {f"pe[{position}][{j}]": float(value) for j, value in enumerate(row)}
    found |= {f"dim[{j}]": float(j) for j in range(d_model)}
    found |= {"tick.value.max": 1.0, "tick.value.zero": 0.0, "tick.value.min": -1.0}
    found |= {"tick.dim.first": 0.0, "tick.dim.last": float(d_model - 1)}
    return found


def digits(key: str) -> int:
    return DIGITS if key.startswith("pe[") else 0


def check(root: Locator, d_model: int, position: int) -> None:
    want = expected(d_model, position)
    assert mismatches(values(root), want) == [], (d_model, position)
    texts = shown(root)
    assert texts == {key: js_format(want[key], digits(key)) for key in want}
    bars = root.locator("svg rect[data-key]")
    assert bars.count() == d_model


def sentence(template: str, d_model: int, position: int) -> str:
    """A sentence of the strings file filled in as the figure fills it."""
    row = sinusoidal_encoding(position + 1, d_model, base=DATA["base"])[position]
    return template.format(
        pos=position,
        d=d_model,
        first=js_format(float(row[0]), DIGITS),
        last=d_model - 1,
        lastValue=js_format(float(row[-1]), DIGITS),
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_value_is_posencs_at_every_setting(tab: Page, site_url: str, language: str):
    prefix = SITE.get(language).url_prefix
    root = open_widget(tab, f"{site_url}{prefix}{LESSON}", NAME)
    d_model, position = D_MODEL["value"], int(DATA["position"])  # type: ignore[call-overload]
    for step in STEPS:
        for control, value in step.items():
            set_control(root, control, value)
        d_model, position = step.get("d_model", d_model), step.get("position", position)
        check(root, d_model, position)


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_speaks_the_pages_language(tab: Page, site_url: str, language: str):
    prefix = SITE.get(language).url_prefix
    root = open_widget(tab, f"{site_url}{prefix}{LESSON}", NAME)
    words = STRINGS[language]
    d_model, position = D_MODEL["value"], int(DATA["position"])  # type: ignore[call-overload]
    assert root.locator(".pe-widget__title").text_content() == words["title"]
    assert root.locator("label").all_text_contents() == [words["d_model"], words["position"]]
    figure = root.locator("svg[role=img]")
    assert figure.get_attribute("aria-label") == sentence(words["figure"], d_model, position)
    live = root.locator("[aria-live=polite]")
    assert live.text_content() == ""  # nothing said before the reader moves a slider
    set_control(root, "position", 5)
    assert live.text_content() == sentence(words["summary"], d_model, 5)
    set_control(root, "d_model", 4)
    assert live.text_content() == sentence(words["summary"], 4, 5)
    assert figure.get_attribute("aria-label") == sentence(words["figure"], 4, 5)
    assert root.locator(".pe-widget__waiting").count() == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_fits_a_phone_with_readable_text(tab: Page, site_url: str, language: str):
    tab.set_viewport_size(PHONE)
    prefix = SITE.get(language).url_prefix
    root = open_widget(tab, f"{site_url}{prefix}{LESSON}", NAME)
    for d_model in (D_MODEL["min"], D_MODEL["max"]):
        set_control(root, "d_model", d_model)
        check_fits(root, d_model)
