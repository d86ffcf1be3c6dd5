"""The `rope-pair` figure of the lesson Rotary position embedding, in both languages.

Every number it shows and every mark it draws is compared with posenc: the frequency from
`rotary_frequencies`, the rotated pair and the score from `apply_rotary` (interleaved layout,
the lesson's, with the pair at dimensions 2i and 2i + 1 of a head), at every end of every
slider. Moving the shift s leaves the score as it was: the lesson's point.
"""

import math

import numpy as np
import pytest
from playwright.sync_api import Locator, Page

from posenc.rotary import apply_rotary, rotary_frequencies
from posenc_site.widgets import rope_pair
from support.project import SITE
from support.widget_checks import PHONE, slider_heights
from support.widgets import js_format, mismatches, open_widget, set_control, shown, values

NAME = "rope-pair"
LESSON = "lessons/rotary/"
LANGUAGES = [language.code for language in SITE.all]
DATA = rope_pair.data()
HEAD_DIM = int(DATA["head_dim"])  # type: ignore[call-overload]
LAST_PAIR = HEAD_DIM // 2 - 1
MAX_POSITION = int(DATA["max_position"])  # type: ignore[call-overload]
MAX_SHIFT = int(DATA["max_shift"])  # type: ignore[call-overload]
Q = np.array(DATA["q"], dtype=np.float64)
K = np.array(DATA["k"], dtype=np.float64)
# Each step sets these controls, on top of the step before: the first setting, then each
# slider at both ends, shifts that must change no score, and a pair in the middle.
STEPS: list[dict[str, int]] = [
    {},
    {"s": MAX_SHIFT},
    {"i": LAST_PAIR, "m": 0, "n": MAX_POSITION, "s": 0},
    {"s": MAX_SHIFT},
    {"i": 0, "m": MAX_POSITION, "n": 0, "s": 537},
    {"s": 0},
    {"i": 17, "m": 20, "n": 20, "s": 1},
    {"m": 0, "n": 0, "s": 0},
]
# The digits each shown number has (W.format); drawn marks show no text.
DIGITS = {
    "theta": 6,
    "angle.q": 4,
    "angle.k": 4,
    "offset": 0,
    "angle.diff": 4,
    "rq[0]": 4,
    "rq[1]": 4,
    "rk[0]": 4,
    "rk[1]": 4,
    "score": 4,
    "tick.score.max": 2,
    "tick.score.min": 2,
    "tick.offset.min": 0,
    "tick.offset.zero": 0,
    "tick.offset.max": 0,
}


def rotated(pair: np.ndarray, i: int, position: int) -> np.ndarray:
    """Pair ``i`` of a head holding ``pair`` at dimensions 2i, 2i + 1, rotated at ``position``."""
    head = np.zeros(HEAD_DIM)
    head[2 * i : 2 * i + 2] = pair
    out = apply_rotary(head[None], [position], layout="interleaved", base=DATA["base"])[0]
    assert not np.any(np.delete(out, [2 * i, 2 * i + 1])), "the other pairs stay zero"
    return out[2 * i : 2 * i + 2]


def expected(i: int, m: int, n: int, s: int) -> dict[str, float]:
    """What the figure must show and draw at pair ``i``, positions ``m``, ``n``, shift ``s``."""
    theta = float(rotary_frequencies(HEAD_DIM, base=DATA["base"])[i])
    angle_q, angle_k = (m + s) * theta, (n + s) * theta
    rq, rk = rotated(Q, i, m + s), rotated(K, i, n + s)
    largest = float(np.linalg.norm(Q) * np.linalg.norm(K))
    found = {
        "theta": theta,
        "angle.q": angle_q,
        "angle.k": angle_k,
        "offset": n - m,
        "angle.diff": (n - m) * theta,
        "rq[0]": rq[0],
        "rq[1]": rq[1],
        "rk[0]": rk[0],
        "rk[1]": rk[1],
        "score": float(rq @ rk),
        "tick.score.max": largest,
        "tick.score.min": -largest,
        "tick.offset.min": -MAX_POSITION,
        "tick.offset.zero": 0,
        "tick.offset.max": MAX_POSITION,
        # drawn: the circles (norms), q and k before the rotation, the arcs and arrows
        "norm.q": float(np.linalg.norm(Q)),
        "norm.k": float(np.linalg.norm(K)),
        "phase.q": math.atan2(Q[1], Q[0]),
        "phase.k": math.atan2(K[1], K[0]),
        "arc.q": float(np.mod(angle_q, 2 * np.pi)),
        "arc.k": float(np.mod(angle_k, 2 * np.pi)),
        "arrow.q": angle_q,
        "arrow.k": angle_k,
    }
    # The strip: the score with the key `offset` positions after the query, where it stands.
    for offset in range(-MAX_POSITION, MAX_POSITION + 1):
        found[f"strip[{offset}]"] = float(rotated(Q, i, m + s) @ rotated(K, i, m + s + offset))
    return {key: float(value) for key, value in found.items()}


def check(root: Locator, setting: dict[str, int]) -> float:
    """Compare the figure at ``setting`` with posenc; return the score it shows."""
    want = expected(**setting)
    found = values(root)
    assert not mismatches(found, want), (setting, mismatches(found, want))
    assert shown(root) == {key: js_format(want[key], digits) for key, digits in DIGITS.items()}
    live = root.locator("[aria-live]").text_content() or ""
    assert js_format(want["score"], 4) in live, live
    assert js_format(want["offset"], 0) in live, live
    return found["score"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_value_is_posenc_s(tab: Page, site_url: str, language: str) -> None:
    root = open_widget(tab, site_url + SITE.get(language).url_prefix + LESSON, NAME)
    setting = dict(DATA["start"])  # type: ignore[call-overload]
    scores: dict[tuple[int, int, int], set[str]] = {}
    for step in STEPS:
        for control, value in step.items():
            set_control(root, control, value)
        setting.update(step)
        score = check(root, setting)
        scores.setdefault((setting["i"], setting["m"], setting["n"]), set()).add(
            js_format(score, 4)
        )
    # The same pair and positions, shifted: the same score shown.
    assert all(len(shown_scores) == 1 for shown_scores in scores.values()), scores
    assert len(scores) < len(STEPS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_fits_a_phone(tab: Page, site_url: str, language: str) -> None:
    tab.set_viewport_size(PHONE)
    root = open_widget(tab, site_url + SITE.get(language).url_prefix + LESSON, NAME)
    for control, value in {"i": 0, "m": MAX_POSITION, "n": 0, "s": MAX_SHIFT}.items():
        set_control(root, control, value)  # the longest numbers: angles over 1000
    width = root.evaluate("root => [root.scrollWidth, root.clientWidth]")
    assert width[0] <= width[1], width
    heights = slider_heights(root)
    assert len(heights) == 4
    assert min(heights) >= 24, heights
