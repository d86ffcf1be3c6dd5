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
        Meta's LLaMA reference code is interleaved (complex numbers); Hugging Face's conversion
        script reorders the weights so that its `rotate_half` (the half layout) gives the same
        model.

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
      section 3.4.2, equation (34).

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


def _head_order(x: ArrayLike, head_dim: object) -> tuple[np.ndarray, int]:
    """Check `x` and `head_dim` for the layout conversions; return the array and `head_dim`."""
    values = np.asarray(x)
    head_dim = check_integer("head_dim", head_dim, minimum=2)
    if head_dim % 2:
        raise ValueError(f"head_dim must be even (pairs of dimensions rotate), got {head_dim}")
    if values.ndim == 0 or values.shape[-1] % head_dim:
        raise ValueError(
            f"x must have a last dimension that is a multiple of head_dim={head_dim} "
            f"(n_heads * head_dim), got shape {values.shape}"
        )
    return values, head_dim


def interleaved_to_half(x: ArrayLike, *, head_dim: int) -> np.ndarray:
    """Reorder the last axis, head by head, from the interleaved layout to the half layout.

    Within each head of `head_dim` dimensions, dimensions `0, 2, 4, ...` come first, then
    `1, 3, 5, ...`. So `apply_rotary(x, layout="interleaved")` reordered this way equals
    `apply_rotary(interleaved_to_half(x, head_dim=d), layout="half")`.

    To move a checkpoint from GPT-J style (interleaved) to GPT-NeoX style (half, as in
    `rotate_half`), apply it to the output rows of the query and key projections, that is
    to `W_q.T` and `W_k.T` of shape `(d_model, n_heads * head_dim)` and to their biases
    where a model has them (Qwen does). With grouped-query attention the keys have fewer
    heads; the reordering is the same, per head. Reordering the whole projection as one
    vector, instead of head by head, mixes the heads and gives a silently wrong model.

    Parameters
    ----------
    x : array_like
        Shape `(..., n_heads * head_dim)`: one or more heads side by side on the last axis.
    head_dim : int
        Size of one head, even and `>= 2`.

    Returns
    -------
    ndarray
        Same shape and dtype as `x`.

    Raises
    ------
    TypeError
        If `head_dim` is not an integer.
    ValueError
        If `head_dim` is odd or `< 2`, or the last dimension of `x` is not a multiple of it.

    See Also
    --------
    half_to_interleaved : the inverse.

    References
    ----------
    - Hugging Face Transformers, `src/transformers/models/llama/convert_llama_weights_to_hf.py`
      (`permute`: Meta's interleaved LLaMA weights to the half layout, per head).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import interleaved_to_half
    >>> print(interleaved_to_half(np.arange(8), head_dim=4))  # 2 heads of 4
    [0 2 1 3 4 6 5 7]
    """
    values, head_dim = _head_order(x, head_dim)
    heads = values.reshape(*values.shape[:-1], values.shape[-1] // head_dim, head_dim // 2, 2)
    return np.swapaxes(heads, -1, -2).reshape(values.shape)


def half_to_interleaved(x: ArrayLike, *, head_dim: int) -> np.ndarray:
    """Reorder the last axis, head by head, from the half layout to the interleaved layout.

    The inverse of `interleaved_to_half`: within each head, dimension `i` of the first half
    and dimension `i` of the second half become the pair `(2i, 2i + 1)`.

    Parameters
    ----------
    x : array_like
        Shape `(..., n_heads * head_dim)`.
    head_dim : int
        Size of one head, even and `>= 2`.

    Returns
    -------
    ndarray
        Same shape and dtype as `x`.

    Raises
    ------
    TypeError
        If `head_dim` is not an integer.
    ValueError
        If `head_dim` is odd or `< 2`, or the last dimension of `x` is not a multiple of it.

    See Also
    --------
    interleaved_to_half : the inverse.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import half_to_interleaved, interleaved_to_half
    >>> print(half_to_interleaved(np.arange(8), head_dim=4))
    [0 2 1 3 4 6 5 7]
    >>> x = np.arange(12)
    >>> bool(np.array_equal(half_to_interleaved(interleaved_to_half(x, head_dim=6), head_dim=6), x))
    True
    """
    values, head_dim = _head_order(x, head_dim)
    heads = values.reshape(*values.shape[:-1], values.shape[-1] // head_dim, 2, head_dim // 2)
    return np.swapaxes(heads, -1, -2).reshape(values.shape)
