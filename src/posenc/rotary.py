"""Rotary position embedding (RoPE): rotate queries and keys by angles set by their positions."""

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_real_array, check_integer, check_positive_real

Layout = Literal["interleaved", "half"]
LAYOUTS = ("interleaved", "half")


def rotary_frequencies(head_dim: int, *, base: float = 10000.0) -> np.ndarray:
    r"""The rotation frequency of each pair of dimensions: $\theta_i = base^{-2i/head\_dim}$.

    Parameters
    ----------
    head_dim : int
        Size of each query and key vector, even and `>= 2`.
    base : float, default 10000.0
        Base of the geometric progression, finite and `> 0`.

    Returns
    -------
    ndarray
        Shape `(head_dim // 2,)`, float64, in radians per position; `theta[0] == 1`.

    Raises
    ------
    TypeError
        If `head_dim` is not an integer or `base` not a real number.
    ValueError
        If `head_dim` is odd or `< 2`, or `base` is not finite and `> 0`.

    References
    ----------
    - J. Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding", 2021,
      section 3.2.2, equation (15).

    Examples
    --------
    >>> from posenc.rotary import rotary_frequencies
    >>> print(rotary_frequencies(8))
    [1.    0.1   0.01  0.001]
    """
    head_dim = check_integer("head_dim", head_dim, minimum=2)
    if head_dim % 2:
        raise ValueError(f"head_dim must be even (pairs of dimensions rotate), got {head_dim}")
    base = check_positive_real("base", base)
    return base ** (-np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)


def apply_rotary(
    x: ArrayLike,
    positions: ArrayLike | None = None,
    *,
    base: float = 10000.0,
    layout: Layout = "interleaved",
) -> np.ndarray:
    r"""Rotate each pair of dimensions of `x` by the angle $m\,\theta_i$ of its position $m$.

    For queries $q$ at position $m$ and keys $k$ at position $n$, the rotated vectors satisfy
    $\langle R(m) q, R(n) k \rangle = \langle q, R(n - m) k \rangle$: the attention score
    depends on the positions only through their offset.

    Parameters
    ----------
    x : array_like
        Queries or keys, shape `(..., n, head_dim)` with `head_dim` even. float32 and float64
        keep their dtype; integers become float64.
    positions : array_like of int, optional
        Shape `(n,)`: the position of each of the `n` rows. Default `0, 1, ..., n - 1`.
    base : float, default 10000.0
        Base of the frequencies, as in `rotary_frequencies`.
    layout : {"interleaved", "half"}, default "interleaved"
        Which dimensions form a pair. `"interleaved"`: `(2i, 2i + 1)`, as in the RoFormer
        paper and GPT-J. `"half"`: `(i, i + head_dim / 2)`, as in GPT-NeoX and the LLaMA
        family in Hugging Face Transformers (`rotate_half`). Weights trained with one layout
        give wrong results, silently, with the other; see `interleaved_to_half`.

    Returns
    -------
    ndarray
        Same shape as `x`, float32 for float32 input, otherwise float64. Norms are unchanged.

    Raises
    ------
    TypeError
        If `x` is not real, `positions` is not integer, or `base` not a real number.
    ValueError
        If `x` has fewer than 2 dimensions or an odd last dimension, `positions` does not
        have shape `(n,)`, or `layout` is unknown.

    References
    ----------
    - J. Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding", 2021,
      section 3.4.2, equations (34) and (35).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.rotary import apply_rotary
    >>> q = np.array([[1.0, 0.0, 1.0, 0.0]] * 3)
    >>> print(np.round(apply_rotary(q), 3))
    [[ 1.     0.     1.     0.   ]
     [ 0.54   0.841  1.     0.01 ]
     [-0.416  0.909  1.     0.02 ]]
    """
    values = as_real_array("x", x)
    if values.ndim < 2:
        raise ValueError(f"x must have shape (..., n, head_dim), got shape {values.shape}")
    n, head_dim = values.shape[-2:]
    theta = rotary_frequencies(head_dim, base=base)
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
    if positions is None:
        where = np.arange(n, dtype=np.float64)
    else:
        where = np.asarray(positions)
        if not np.issubdtype(where.dtype, np.integer):
            raise TypeError(f"positions must hold integers, got an array of dtype {where.dtype}")
        if where.shape != (n,):
            raise ValueError(f"positions must have shape ({n},) to match x, got {where.shape}")
        where = where.astype(np.float64)
    angles = where[:, None] * theta[None, :]  # (n, head_dim // 2), float64 for accuracy
    cos, sin = np.cos(angles).astype(values.dtype), np.sin(angles).astype(values.dtype)
    if layout == "interleaved":
        first, second = values[..., 0::2], values[..., 1::2]
    else:
        first, second = values[..., : head_dim // 2], values[..., head_dim // 2 :]
    rotated_first = first * cos - second * sin
    rotated_second = first * sin + second * cos
    if layout == "interleaved":
        out = np.empty_like(values)
        out[..., 0::2], out[..., 1::2] = rotated_first, rotated_second
        return out
    return np.concatenate([rotated_first, rotated_second], axis=-1)


def interleaved_to_half(x: ArrayLike) -> np.ndarray:
    """Reorder the last axis from the interleaved pair layout to the half layout.

    `apply_rotary(x, layout="interleaved")` reordered this way equals
    `apply_rotary(interleaved_to_half(x), layout="half")`. Applied to the rows of the query
    and key projection weights, it converts a checkpoint from one layout to the other.

    Parameters
    ----------
    x : array_like
        Shape `(..., head_dim)` with `head_dim` even.

    Returns
    -------
    ndarray
        Same shape and dtype: dimensions `0, 2, 4, ...` first, then `1, 3, 5, ...`.

    Raises
    ------
    ValueError
        If `x` is a scalar or its last dimension is odd.

    Examples
    --------
    >>> from posenc.rotary import interleaved_to_half
    >>> print(interleaved_to_half([0, 1, 2, 3, 4, 5]))
    [0 2 4 1 3 5]
    """
    values = np.asarray(x)
    if values.ndim == 0 or values.shape[-1] % 2:
        raise ValueError(f"x must have an even last dimension, got shape {values.shape}")
    return np.concatenate([values[..., 0::2], values[..., 1::2]], axis=-1)
