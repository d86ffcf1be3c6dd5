r"""The `rope-pair` figure: one pair of a query and a key, rotated by RoPE at their positions.

The lesson Rotary position embedding rotates pair $i$ of a query at position $m$ by
$m\,\theta_i$ and of a key at position $n$ by $n\,\theta_i$, with $\theta_i = base^{-2i/d}$,
and shows that their score depends only on the offset $n - m$. The figure lets the reader move
$i$, $m$, $n$ and a shift $s$ added to both positions. Its script computes what
`posenc.rotary.rotary_frequencies` and `posenc.rotary.apply_rotary` compute, from the constants
below and posenc's default base.
"""

from posenc.rotary import DEFAULT_BASE

NAME = "rope-pair"

# The head size of the lesson's figure (64 dimensions, 32 pairs).
HEAD_DIM = 64
# One pair of a query and a key: the query is the lesson's first example, (1, 0) in every
# pair; the key is shorter and turned by 45 degrees, so that the two arrows stand apart.
QUERY = (1.0, 0.0)
KEY = (0.5, 0.5)
# The sliders: positions as in the lesson's figure (0 to 63), shifts up to the lesson's 1000;
# the first setting is the lesson's example, a query at 7 and a key at 3.
MAX_POSITION = 63
MAX_SHIFT = 1000
START = {"i": 0, "m": 7, "n": 3, "s": 0}


def data() -> dict[str, object]:
    """The constants the figure's script needs, with posenc's default base read from posenc.

    Returns
    -------
    dict
        `head_dim`, `base` (the default `rope_theta` of `posenc.rotary`), the pair's `q` and
        `k`, the sliders' `max_position` and `max_shift`, and their `start` values.
    """
    return {
        "head_dim": HEAD_DIM,
        "base": DEFAULT_BASE,
        "q": list(QUERY),
        "k": list(KEY),
        "max_position": MAX_POSITION,
        "max_shift": MAX_SHIFT,
        "start": dict(START),
    }
