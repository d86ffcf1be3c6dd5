"""The sinusoidal table explored: one position's row of ``posenc.sinusoidal_encoding``.

The reader picks ``d_model`` and a position; the widget draws that row, interleaved sines and
cosines as in the lesson, as bars with their values.
"""

import inspect

from posenc import sinusoidal_encoding

NAME = "sinusoidal-table"
POSITIONS = 64  # the rows of the lesson's heatmap just above
D_MODEL = {"min": 4, "max": 128, "step": 2, "value": 16}  # even sizes only: sin/cos pairs
POSITION = 10  # the row shown first


def data() -> dict[str, object]:
    """The widget's constants: posenc's default ``base``, the sliders' ranges and values.

    Returns
    -------
    dict of str to object
        ``base``, ``positions`` (the position slider runs to ``positions - 1``),
        ``d_model`` (``min``, ``max``, ``step``, ``value``) and ``position``.
    """
    base = inspect.signature(sinusoidal_encoding).parameters["base"].default
    return {"base": base, "positions": POSITIONS, "d_model": D_MODEL, "position": POSITION}
