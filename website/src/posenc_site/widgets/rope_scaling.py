r"""The `rope-scaling` figure: the per-pair scale of PI, NTK-aware, YaRN and Llama 3 against s.

The lesson Longer contexts plots $\theta_i / \theta'_i$ for each of the 64 pairs of Llama 2
(`head_dim` 128, base 10,000, trained on 4,096 positions) read 8 times longer; the figure lets
the reader move the scale factor $s$. Its script computes the four methods as
`posenc.rope_scaling` does, from the constants below and the functions' own defaults.
"""

import inspect
from collections.abc import Callable

from posenc.rope_scaling import yarn_frequencies
from posenc.rotary import DEFAULT_BASE

NAME = "rope-scaling"

# The lesson's example (its figure's arguments): Llama 2, with Llama 3.1's released band.
HEAD_DIM = 128
TRAINED_LENGTH = 4096
LOW_FREQ_FACTOR = 1.0
HIGH_FREQ_FACTOR = 4.0
# The slider: from no scaling to 32 times the trained length, by halves (2.5 and 8 included).
FACTOR_RANGE = {"min": 1.0, "max": 32.0, "step": 0.5, "value": 8.0}


def _default(function: Callable[..., object], parameter: str) -> object:
    return inspect.signature(function).parameters[parameter].default


def data() -> dict[str, object]:
    """The constants the figure's script needs, with posenc's defaults read from posenc.

    Returns
    -------
    dict
        `head_dim`, `base` (posenc's default `rope_theta`, `DEFAULT_BASE`), `length` (the
        trained length $L$), YaRN's `beta_fast`, `beta_slow` and `truncate` (the defaults of
        `yarn_frequencies`), Llama 3's `low_freq_factor` and `high_freq_factor`, the slider's
        `factor` range and the `pairs` whose scale the table shows.
    """
    pairs = HEAD_DIM // 2
    return {
        "head_dim": HEAD_DIM,
        "base": DEFAULT_BASE,
        "length": TRAINED_LENGTH,
        "beta_fast": _default(yarn_frequencies, "beta_fast"),
        "beta_slow": _default(yarn_frequencies, "beta_slow"),
        "truncate": _default(yarn_frequencies, "truncate"),
        "low_freq_factor": LOW_FREQ_FACTOR,
        "high_freq_factor": HIGH_FREQ_FACTOR,
        "factor": FACTOR_RANGE,
        # 32 and 40 lie on YaRN's ramp at s > 1, 40 also in the Llama 3 rule's band.
        "pairs": [0, pairs // 2, 5 * pairs // 8, pairs - 1],
    }
