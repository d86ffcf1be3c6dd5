"""The fixed sine/cosine positional encoding of the original transformer."""

from collections.abc import Iterator
from typing import Literal

import numpy as np

from posenc._validation import check_choice, check_integer, check_positive_real

Layout = Literal["interleaved", "concatenated"]
LAYOUTS = ("interleaved", "concatenated")


def sinusoidal_encoding(
    n_positions: int,
    d_model: int,
    *,
    base: float = 10000.0,
    layout: Layout = "interleaved",
    start: int = 0,
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
        Number of positions (rows), `>= 0`. Positions are `start, ..., start + n_positions
        - 1`.
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
    start : int, default 0
        Position of the first row, `>= 0`. When decoding with a key/value cache, the rows
        of the new tokens start at the number of tokens already in the cache:
        `sinusoidal_encoding(n, d_model, start=s)` equals rows `s .. s + n - 1` of
        `sinusoidal_encoding(s + n, d_model)`.

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
        If `n_positions < 0`, `d_model < 1`, `start < 0`, `base` is not finite and `> 0`, or
        `layout` is unknown.

    Notes
    -----
    The table is built by blocks of rows with the angle-addition formulas, so that `np.sin`
    and `np.cos` see only a small part of the angles. Write $\omega$ for the frequency of a
    pair of columns, $\omega = 1 / base^{2i / d_{\text{model}}}$, and a position as
    $p = b + q$, where $b$ is the first row of its block and $0 \le q < B$:

    $$
    \sin((b + q)\,\omega) = \sin(q\omega)\cos(b\omega) + \cos(q\omega)\sin(b\omega), \qquad
    \cos((b + q)\,\omega) = \cos(q\omega)\cos(b\omega) - \sin(q\omega)\sin(b\omega).
    $$

    The sines and cosines of $q\omega$ are computed once, for the first block, and those of
    $b\omega$ once per block from $b\omega$ itself, not from the previous block, so errors do
    not pile up from block to block. The rest is products and sums over whole blocks (in the
    code one complex product, since $\sin x + i \cos x = i e^{-ix}$), written into the
    preallocated table: the only memory used besides the table is a few blocks. A block holds
    about 32768 angles ($B = 64$ rows for $d_{\text{model}} = 1024$), so `np.sin` and `np.cos`
    see one angle in $B$; `benchmarks/sinusoidal_table.py` compares the speed with the direct
    formula. The concatenated layout uses the same method with its own frequencies.

    The values are those of the formula evaluated directly in float64, the sine and cosine of
    the angle `pos / base ** (2 * i / d_model)` rounded to float64 (`pos * omega` in the
    concatenated layout), up to a few ulps. The differences come from float64 rounding: of
    `np.sin` and `np.cos` of the base angles, of the products and sums of the angle addition,
    and of two corrections that keep the method exact up to those roundings. $b\omega$ and
    $q\omega$ are not exact in float64: each is used as its rounded value plus its rounding
    error, found exactly by splitting $\omega$ into two halves of 26 bits (Dekker). And the
    direct formula rounds its angle, by up to half an ulp of the angle ($3.6 \cdot 10^{-12}$
    near position 65535): that rounding $\delta$ is applied to first order,
    $\sin(x + \delta) \approx \sin x + \delta \cos x$. Without it the table would differ from
    the direct formula by up to $7 \cdot 10^{-12}$ at 65536 positions; with it the largest
    difference measured over all 65536 × 1024 entries is $3.4 \cdot 10^{-16}$, a few ulps,
    and the tests hold it below $10^{-15}$. Tables whose angles reach $2^{26}$ (over 67
    million positions, or a tiny `base`) are computed directly instead.

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
    >>> bool(np.array_equal(sinusoidal_encoding(1, 6, start=3), sinusoidal_encoding(4, 6)[3:]))
    True
    """
    n_positions = check_integer("n_positions", n_positions, minimum=0)
    d_model = check_integer("d_model", d_model, minimum=1)
    base = check_positive_real("base", base)
    start = check_integer("start", start, minimum=0)
    check_choice("layout", layout, LAYOUTS)

    table = np.empty((n_positions, d_model), dtype=np.float64)
    if layout == "concatenated":
        half = d_model // 2
        frequencies = base ** (-np.arange(half, dtype=np.float64) / max(half - 1, 1))
        table[:, 2 * half :] = 0.0
        # Clipped to [-1, 1]: the fast method's rounding could put a value an ulp beyond.
        for row, block in _sin_cos_blocks(n_positions, frequencies, divide=False, start=start):
            values = block.view(np.float64)  # sin, cos, sin, cos, ...
            rows = slice(row, row + len(block))
            np.clip(values[:, 0::2], -1.0, 1.0, out=table[rows, :half])
            np.clip(values[:, 1::2], -1.0, 1.0, out=table[rows, half : 2 * half])
        return table
    # Columns 2i and 2i + 1 share the angle pos / base ** (2i / d_model); the block's float
    # view is already in the paper's order (sin, cos, sin, cos, ...), and an odd d_model
    # drops the last cosine. Clipped as above.
    divisors = base ** (np.arange(0, d_model, 2) / d_model)
    for row, block in _sin_cos_blocks(n_positions, divisors, divide=True, start=start):
        values = block.view(np.float64)[:, :d_model]
        np.clip(values, -1.0, 1.0, out=table[row : row + len(block)])
    return table


# About this many angles (sine-cosine pairs) per block of rows: large enough that the fixed
# cost of each NumPy call is small, small enough that the block's few work arrays stay in
# the processor's caches (measured with benchmarks/sinusoidal_table.py).
_ANGLES_PER_BLOCK = 32768
# The fast method needs positions and angles below 2**26: then position * head and
# position * tail are exact products (at most 26 + 26 significant bits), and the
# first-order corrections below leave out terms of about 1e-16 at most.
_FAST_LIMIT = 2.0**26


def _split(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Split float64 values into ``head + tail`` exactly, each with at most 26 significant bits.

    Dekker's splitting (T. J. Dekker, "A floating-point technique for extending the available
    precision", Numerische Mathematik 18, 1971): the product of the head or the tail with an
    integer below ``2**26`` is then exact in float64.
    """
    scaled = values * 134217729.0  # 2**27 + 1
    head = scaled - (scaled - values)
    return head, values - head


def _sin_cos_of_multiples(
    multiples: np.ndarray | np.float64, head: np.ndarray, tail: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Sine and cosine of the exact real products ``multiples * (head + tail)``, to an ulp.

    ``multiples`` are integers below ``2**26`` (as float64). ``big + small`` is the exact
    product; it is rounded to ``angle`` and the rounding error ``rest`` is recovered exactly
    (Fast2Sum), then taken into account to first order: ``sin(angle + rest) = sin(angle) +
    cos(angle) * rest`` up to ``rest**2 / 2 < 1e-16``.
    """
    big = multiples * head
    small = multiples * tail
    angle = big + small
    rest = (big - angle) + small
    sin, cos = np.sin(angle), np.cos(angle)
    return sin + cos * rest, cos - sin * rest


def _sin_cos_blocks(
    n_positions: int, scales: np.ndarray, *, divide: bool, start: int = 0
) -> Iterator[tuple[int, np.ndarray]]:
    """Yield ``(row, block)`` with ``block[q, i] = sin(a) + 1j * cos(a)`` for every row.

    ``a`` is the float64 angle of position ``p = start + row + q`` exactly as the direct
    formula rounds it: ``p / scales[i]`` if ``divide``, else ``p * scales[i]``. ``block`` is a
    buffer that the next block overwrites. See the Notes of `sinusoidal_encoding` for the
    method.
    """
    n_angles = scales.size
    if n_positions == 0 or n_angles == 0:
        return
    rows = min(n_positions, max(1, _ANGLES_PER_BLOCK // n_angles))
    offsets = np.arange(rows, dtype=np.float64)[:, None]
    buffer = np.empty((rows, n_angles), dtype=np.complex128)
    angles = np.empty((rows, n_angles), dtype=np.float64)
    omega = 1.0 / scales if divide else scales
    # A table that fits in one block gains nothing from angle addition: sin and cos directly.
    last = start + n_positions - 1
    fast = rows < n_positions and last < _FAST_LIMIT and omega.max() * max(last, 1) < _FAST_LIMIT
    if fast:
        head, tail = _split(omega)
        sin, cos = _sin_cos_of_multiples(offsets, head, tail)
        first = sin + 1j * cos  # the first block: sin(q w) + i cos(q w) = i exp(-i q w)
        # Multiplied by 1 - i delta, it moves an angle by delta: exp(-i delta) to first order.
        nudge = np.ones((rows, n_angles), dtype=np.complex128)
        minus_delta = nudge.imag
        scratch = np.empty((rows, n_angles), dtype=np.float64)
    # A loop over blocks of rows (n_positions / rows iterations, 1024 for 65536 x 1024),
    # never over single positions or angles: each step is a few NumPy calls on a whole block.
    for row in range(0, n_positions, rows):
        count = min(rows, n_positions - row)
        position = start + row  # of the block's first row
        positions = offsets[:count] + position
        block = buffer[:count]
        angle = angles[:count]
        if divide:
            np.divide(positions, scales, out=angle)
        else:
            np.multiply(positions, scales, out=angle)
        if not fast:
            np.sin(angle, out=block.real)
            np.cos(angle, out=block.imag)
            yield row, block
            continue
        # minus_delta = p * head + p * tail - angle, the gap between the exact angle p * w
        # and the rounded one: p * head and p * tail are exact, and the subtraction of the
        # nearly equal p * head and angle is exact too (Sterbenz).
        part = scratch[:count]
        np.multiply(positions, head, out=part)
        np.subtract(part, angle, out=minus_delta[:count])
        np.multiply(positions, tail, out=part)
        np.add(minus_delta[:count], part, out=minus_delta[:count])
        # The shift by position * w, computed from the exact product, not chained from the
        # previous block, so the error does not grow with the number of blocks.
        sin, cos = _sin_cos_of_multiples(np.float64(position), head, tail)
        shift = cos - 1j * sin  # exp(-i position w)
        np.multiply(nudge[:count], shift, out=block)
        np.multiply(block, first[:count], out=block)
        yield row, block
