"""The fixed sine/cosine positional encoding of the original transformer."""

from typing import Literal

import numpy as np

from posenc._validation import check_integer, check_positive_real

Layout = Literal["interleaved", "concatenated"]
LAYOUTS = ("interleaved", "concatenated")


def sinusoidal_encoding(
    n_positions: int,
    d_model: int,
    *,
    base: float = 10000.0,
    layout: Layout = "interleaved",
) -> np.ndarray:
    r"""Sinusoidal positional encoding table, in the paper's layout or tensor2tensor's.

    `layout="interleaved"` is the formula of the paper: column $2i$ holds a sine and column
    $2i + 1$ a cosine of the same angle,

    $$
    PE_{(pos,\, 2i)} = \sin\left(\frac{pos}{base^{2i / d_{\text{model}}}}\right), \qquad
    PE_{(pos,\, 2i+1)} = \cos\left(\frac{pos}{base^{2i / d_{\text{model}}}}\right).
    $$

    Low columns turn fast (wavelength $2\pi$), high columns slowly (wavelength up to
    $2\pi \cdot base$), so every position gets its own pattern of values. The table is
    added to the token embeddings: `x = embeddings + sinusoidal_encoding(n, d_model)`.

    `layout="concatenated"` is the table of the reference code of the paper's authors,
    tensor2tensor (`get_timing_signal_1d`), and of fairseq (`SinusoidalPositionalEmbedding`):
    all the sines first, then all the cosines, $[\sin(pos\,\omega_i) \mid
    \cos(pos\,\omega_i)]$ for $i = 0, \dots, h - 1$ with $h = \lfloor d_{\text{model}}/2
    \rfloor$, and frequencies spaced so that the last one is exactly $1/base$:
    $\omega_i = base^{-i / (h - 1)}$ (for $h = 1$, $\omega_0 = 1$). An odd `d_model` gets a
    last column of zeros, as in both codes. Models converted from these code bases (for
    example fairseq's translation models, and FSMT in Hugging Face Transformers) need this
    table, not the interleaved one.

    Parameters
    ----------
    n_positions : int
        Number of positions (rows), `>= 0`. Positions are `0, 1, ..., n_positions - 1`.
    d_model : int
        Size of each encoding vector (columns), `>= 1`. An odd `d_model` is allowed: in the
        interleaved layout the formula is applied column by column, so its last column is a
        sine; in the concatenated layout the last column is zero.
    base : float, default 10000.0
        The base of the geometric progression of wavelengths, a finite number `> 0`
        (tensor2tensor's `max_timescale`).
    layout : {"interleaved", "concatenated"}, default "interleaved"
        The paper's interleaved sines and cosines, or tensor2tensor's and fairseq's
        concatenated halves with their frequency spacing.

    Returns
    -------
    ndarray
        Shape `(n_positions, d_model)`, dtype float64. Values in `[-1, 1]`, without units
        (angles are in radians). `n_positions=0` gives an empty `(0, d_model)` array.

    Raises
    ------
    TypeError
        If `n_positions` or `d_model` is not an integer (for example `4.0` or `True`), or
        `base` is not a real number.
    ValueError
        If `n_positions < 0`, `d_model < 1`, `base` is not finite and `> 0`, or `layout` is
        unknown.

    References
    ----------
    - A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017, section 3.5
      ("Positional Encoding"), the two unnumbered equations for PE.
    - tensor2tensor, `tensor2tensor/layers/common_attention.py`, `get_timing_signal_1d`.
    - fairseq, `fairseq/modules/sinusoidal_positional_embedding.py`, `get_embedding`.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import sinusoidal_encoding
    >>> pe = sinusoidal_encoding(4, 6)
    >>> pe.shape
    (4, 6)
    >>> print(pe[0])
    [0. 1. 0. 1. 0. 1.]
    >>> print(np.round(pe[1], 3))
    [0.841 0.54  0.046 0.999 0.002 1.   ]
    >>> print(np.round(sinusoidal_encoding(2, 6, layout="concatenated")[1], 3))
    [0.841 0.01  0.    0.54  1.    1.   ]
    >>> sinusoidal_encoding(0, 6).shape
    (0, 6)
    """
    n_positions = check_integer("n_positions", n_positions, minimum=0)
    d_model = check_integer("d_model", d_model, minimum=1)
    base = check_positive_real("base", base)
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")

    positions = np.arange(n_positions, dtype=np.float64)[:, None]
    table = np.empty((n_positions, d_model), dtype=np.float64)
    if layout == "concatenated":
        half = d_model // 2
        frequencies = base ** (-np.arange(half, dtype=np.float64) / max(half - 1, 1))
        angles = positions * frequencies
        table[:, :half] = np.sin(angles)
        table[:, half : 2 * half] = np.cos(angles)
        table[:, 2 * half :] = 0.0
        return table
    columns = np.arange(d_model)
    # Columns 2i and 2i + 1 share the frequency 1 / base ** (2i / d_model).
    exponents = (columns - columns % 2) / d_model
    angles = positions / base**exponents
    table[:, 0::2] = np.sin(angles[:, 0::2])
    table[:, 1::2] = np.cos(angles[:, 1::2])
    return table
