"""The explorable figures in a browser: open one, move its controls, read what it shows.

A widget (``posenc_site.widgets``, docs/assets/widgets) marks every number it shows and every
drawn mark that encodes one with ``data-key`` and ``data-value`` (full precision); its controls
carry ``data-control``. These helpers read them, and format numbers as its ``W.format`` does.
"""

import math
from decimal import ROUND_HALF_UP, Decimal

from playwright.sync_api import Locator, Page, expect

READY_TIMEOUT = 10_000  # ms: the scripts load once the widget comes near the screen

# Sets a slider or select as a user would: the value, then the events its element fires.
_SET = """(control, value) => {
  control.value = String(value);
  if (control.value !== String(value) && Number(control.value) !== Number(value))
    throw new Error(`${control.dataset.control} does not take ${value}: ${control.value}`);
  control.dispatchEvent(new Event("input", {bubbles: true}));
  control.dispatchEvent(new Event("change", {bubbles: true}));
}"""

_VALUES = """root => Array.from(root.querySelectorAll("[data-key]"), node =>
  [node.dataset.key, node.dataset.value, node.textContent, node.children.length])"""


def open_widget(page: Page, url: str, name: str) -> Locator:
    """Go to ``url``, scroll widget ``name`` into view, wait until it is mounted; its root."""
    page.goto(url)
    root = page.locator(f'.pe-widget[data-widget="{name}"]')
    expect(root).to_have_count(1)
    root.scroll_into_view_if_needed()
    expect(root).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    return root


def set_control(root: Locator, control_name: str, value: float | str) -> None:
    """Set the control ``data-control=control_name`` of ``root`` to ``value``, firing its events.

    Fails if the control rounds or refuses ``value`` (outside its range, off its step).
    """
    control = root.locator(f'[data-control="{control_name}"]')
    expect(control).to_have_count(1)
    control.evaluate(_SET, value)


def _entries(root: Locator) -> list[list]:
    entries: list[list] = root.evaluate(_VALUES)
    keys = [entry[0] for entry in entries]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    assert not duplicates or all(
        len({entry[1] for entry in entries if entry[0] == key}) == 1 for key in duplicates
    ), f"keys shown twice with different values: {duplicates}"
    return entries


def values(root: Locator) -> dict[str, float]:
    """Every ``[data-key]`` of ``root`` -> ``float(data-value)``.

    A key may mark two elements (a bar and its number) only with the same value.
    """
    found = {}
    for key, value, _, _ in _entries(root):
        assert value is not None, f"{key} has no data-value"
        found[key] = float(value)
    return found


def shown(root: Locator) -> dict[str, str]:
    """Every ``[data-key]`` of ``root`` that shows text (no child elements) -> that text."""
    return {key: text for key, _, text, children in _entries(root) if text and not children}


def js_format(value: float, digits: int) -> str:
    """``value`` as the widgets' ``W.format(value, digits)`` shows it.

    JavaScript's ``toFixed`` rounds the exact binary value, a tie away from zero (Python's
    format rounds a tie to even); a negative zero after rounding is shown without its sign.
    """
    if not math.isfinite(value):
        return {math.inf: "Infinity", -math.inf: "-Infinity"}.get(value, "NaN")
    exact = Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    text = f"{exact:f}"
    return text[1:] if text.startswith("-") and not exact else text


def close(found: float, expected: float, rel: float = 1e-9, abs_: float = 1e-12) -> bool:
    """Whether a widget's ``found`` value matches posenc's ``expected`` (the contract's bound)."""
    return math.isclose(found, expected, rel_tol=rel, abs_tol=abs_)


def mismatches(found: dict[str, float], expected: dict[str, float]) -> list[str]:
    """What differs between a widget's ``values`` and posenc's, key by key, as text.

    Keys missing from ``found``, keys ``found`` has beyond ``expected``, and values that are
    not ``close``.
    """
    problems = [f"missing {key}" for key in sorted(expected.keys() - found.keys())]
    problems += [f"extra {key}" for key in sorted(found.keys() - expected.keys())]
    problems += [
        f"{key}: shown {found[key]!r}, posenc {expected[key]!r}"
        for key in sorted(found.keys() & expected.keys())
        if not close(found[key], expected[key])
    ]
    return problems
