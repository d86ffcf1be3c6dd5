"""The fixed sine/cosine positional encoding of the original transformer."""

import numpy as np

from posenc._validation import check_integer, check_positive_real


def sinusoidal_encoding(n_positions: int, d_model: int, *, base: float = 10000.0) -> np.ndarray:
    r"""Sinusoidal positional encoding table, in the paper's interleaved layout.

    Column $2i$ holds a sine and column $2i + 1$ a cosine of the same angle:

    $$
    PE_{(pos,\, 2i)} = \sin\left(\frac{pos}{base^{2i / d_{\text{model}}}}\right), \qquad
    PE_{(pos,\, 2i+1)} = \cos\left(\frac{pos}{base^{2i / d_{\text{model}}}}\right)
    $$

    Low columns turn fast (wavelength $2\pi$), high columns slowly (wavelength up to
    $2\pi \cdot base$), so every position gets its own pattern of values. The table is
    added to the token embeddings: `x = embeddings + sinusoidal_encoding(n, d_model)`.

    Parameters
    ----------
    n_positions : int
        Number of positions (rows), `>= 0`. Positions are `0, 1, ..., n_positions - 1`.
    d_model : int
        Size of each encoding vector (columns), `>= 1`. An odd `d_model` is allowed: the
        formula is applied column by column, so its last column is a sine.
    base : float, default 10000.0
        The base of the geometric progression of wavelengths, a finite number `> 0`.

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
        If `n_positions < 0`, `d_model < 1`, or `base` is not finite and `> 0`.

    References
    ----------
    - A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017, section 3.5
      ("Positional Encoding"), the two unnumbered equations for PE.

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
    >>> sinusoidal_encoding(0, 6).shape
    (0, 6)
    """
    n_positions = check_integer("n_positions", n_positions, minimum=0)
    d_model = check_integer("d_model", d_model, minimum=1)
    base = check_positive_real("base", base)

    positions = np.arange(n_positions, dtype=np.float64)[:, None]
    columns = np.arange(d_model)
    # Columns 2i and 2i + 1 share the frequency 1 / base ** (2i / d_model).
    exponents = (columns - columns % 2) / d_model
    angles = positions / base**exponents
    table = np.empty((n_positions, d_model), dtype=np.float64)
    table[:, 0::2] = np.sin(angles[:, 0::2])
    table[:, 1::2] = np.cos(angles[:, 1::2])
    return table
