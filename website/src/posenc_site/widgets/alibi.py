"""The explorable figure of ALiBi's slopes and causal bias (lesson alibi-t5).

The page's script, ``docs/assets/widgets/alibi.js``, computes the slopes as
`posenc.alibi.alibi_slopes` does and the bias as `posenc.alibi.alibi_bias` does with its
defaults (causal, as many queries as keys); the one constant of those formulas comes from here.
"""

import math

from posenc import alibi_slopes

NAME = "alibi"


def data() -> dict[str, object]:
    """The constants and control ranges of the ALiBi widget.

    Returns
    -------
    dict
        ``slope_exponent``: the $E$ of the first slope $2^{-E/n}$ of $n$ heads, a power of
        two, read from posenc's slope of a single head ($2^{-E}$); ``heads`` and ``length``:
        the lowest, highest and first value of the number of heads and of the sequence length;
        ``head``: the head shown first. The widget opens on the lesson's 8 heads and steepest
        head, over 6 positions, few enough for the bias to be written in the cells.
    """
    return {
        "slope_exponent": -math.log2(float(alibi_slopes(1)[0])),
        "heads": {"min": 1, "max": 64, "value": 8},
        "head": 0,
        "length": {"min": 2, "max": 16, "value": 6},
    }
