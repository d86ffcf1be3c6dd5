"""Rotary position embedding (RoPE): rotate queries and keys by angles set by their positions."""

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import (
    as_real_array,
    check_choice,
    check_head_dim,
    check_positive_real,
    check_rotary_dim,
)

Layout = Literal["half", "interleaved"]
LAYOUTS = ("half", "interleaved")
DEFAULT_BASE = 10000.0


def rotary_frequencies(
    head_dim: int, *, base: float = 10000.0, rotary_dim: int | None = None
) -> np.ndarray:
    r"""The rotation frequency of each pair: $\theta_i = base^{-2i/d}$, with $d$ the rotated size.

    $d$ is `rotary_dim`: `head_dim` when every dimension rotates, fewer with partial rotary.
    Hugging Face Transformers calls these values `inv_freq`, and `base` `rope_theta`.

    Parameters
    ----------
    head_dim : int
        Size of each query and key vector, `>= 2`; even unless `rotary_dim` is given.
    base : float, default 10000.0
        Base of the geometric progression, finite and `> 0`: `rope_theta` in model
        configurations (500000.0 in Llama 3).
    rotary_dim : int, optional
        How many leading dimensions of each head rotate, even and in `[2, head_dim]`; the
        frequencies then use $d$ = `rotary_dim`, as in GPT-J (`rotary_dim`), GPT-NeoX
        (`rotary_pct`) and Phi (`partial_rotary_factor`). Default `head_dim`.

    Returns
    -------
    ndarray
        Shape `(rotary_dim // 2,)`, float64, in radians per position; `theta[0] == 1`.

    Raises
    ------
    TypeError
        If `head_dim` or `rotary_dim` is not an integer or `base` not a real number.
    ValueError
        If `head_dim < 2`, the rotated size is odd or larger than `head_dim`, or `base` is
        not finite and `> 0`.

    References
    ----------
    - J. Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding", 2021,
      section 3.2.2, equation (15).
    - Hugging Face Transformers, `src/transformers/models/gpt_neox/modeling_gpt_neox.py`
      (`compute_default_rope_parameters`: `dim = int(head_dim * partial_rotary_factor)`).

    Examples
    --------
    >>> from posenc.rotary import rotary_frequencies
    >>> print(rotary_frequencies(8))
    [1.    0.1   0.01  0.001]
    >>> print(rotary_frequencies(8, rotary_dim=4))  # exponents 2i / 4, not 2i / 8
    [1.   0.01]
    """
    head_dim = check_head_dim(head_dim, even=False)
    rotary_dim = check_rotary_dim(rotary_dim, head_dim)
    base = check_positive_real("base", base)
    return base ** (-np.arange(0, rotary_dim, 2, dtype=np.float64) / rotary_dim)


def _positions(positions: ArrayLike | None, shape: tuple[int, ...]) -> np.ndarray:
    """The positions of the rows of an array of `shape` `(..., n, head_dim)`, as float64.

    The result broadcasts against `shape[:-1]`: shape `(n,)`, or `(batch, 1, ..., 1, n)` for
    batched positions of shape `(batch, n)`.
    """
    n = shape[-2]
    if positions is None:
        return np.arange(n, dtype=np.float64)
    where = as_real_array("positions", positions).astype(np.float64)
    if not np.all(np.isfinite(where)):
        raise ValueError("positions must be finite")
    if where.shape == (n,):
        return where
    batch = shape[0] if len(shape) >= 3 else None
    if (
        where.ndim == 2
        and where.shape[1] == n
        and batch is not None
        and where.shape[0] in (1, batch)
    ):
        return where.reshape(where.shape[0], *([1] * (len(shape) - 3)), n)
    batched = f" or (batch, n) with batch {batch} or 1" if batch is not None else ""
    raise ValueError(
        f"positions must have shape (n,){batched} to match x of shape {shape} (n = {n}), "
        f"got shape {where.shape}"
    )


def apply_rotary(
    x: ArrayLike,
    positions: ArrayLike | None = None,
    *,
    base: float | None = None,
    layout: Layout = "half",
    rotary_dim: int | None = None,
    inv_freq: ArrayLike | None = None,
    attention_factor: float = 1.0,
) -> np.ndarray:
    r"""Rotate each pair of dimensions of `x` by the angle $m\,\theta_i$ of its position $m$.

    For queries $q$ at position $m$ and keys $k$ at position $n$, the rotated vectors satisfy
    $\langle R(m) q, R(n) k \rangle = \langle q, R(n - m) k \rangle$: the attention score
    depends on the positions only through their offset.

    Parameters
    ----------
    x : array_like
        Queries or keys, shape `(..., n, head_dim)`. float32 and float64 keep their dtype;
        integers become float64.
    positions : array_like, optional
        The position of each row: shape `(n,)`, or `(batch, n)` for `x` of shape
        `(batch, ..., n, head_dim)` (Hugging Face's `position_ids`; a batch of 1 is shared
        by every row of `x`). Integers or real numbers: a position interpolated by
        Chen et al. (2023) is `m / factor`. Default `0, 1, ..., n - 1`. With a key/value
        cache the new rows start at the cache's length: `start + arange(n)`.
    base : float, optional
        Base of the frequencies (`rope_theta`), as in `rotary_frequencies`. Default 10000.0.
        Not with `inv_freq`, which already holds the frequencies.
    layout : {"half", "interleaved"}, default "half"
        Which dimensions form a pair. `"half"`: `(i, i + d / 2)`, GPT-NeoX style
        (`rotate_half`), the layout of most checkpoints people load: GPT-NeoX, and Llama 1-3,
        Mistral 7B (`modeling_mistral.py`) and Qwen in Hugging Face Transformers;
        flash-attn's `interleaved=False`, vLLM's `is_neox_style=True`. `"interleaved"`:
        `(2i, 2i + 1)`, GPT-J style (`rotate_every_two`), as in the RoFormer paper, GPT-J,
        Meta's reference LLaMA code and Hugging Face's Llama 4 (complex numbers,
        `view_as_complex`). DeepSeek-V3's and Mistral 4's configurations choose with
        `rope_interleave` (Transformers' `DeepseekV3Config`, `Mistral4Config`).
        Weights trained with one layout give wrong results, silently, with the other; see
        `interleaved_to_half`.
    rotary_dim : int, optional
        Partial rotary: only the first `rotary_dim` dimensions of each head rotate (pairs
        formed among them with `layout`); the others pass through unchanged. Even, in
        `[2, head_dim]`. GPT-J's `rotary_dim`, GPT-NeoX's `rotary_pct * head_dim`, Phi's
        `partial_rotary_factor * head_dim`. Default: `head_dim`, or `2 * len(inv_freq)`.
    inv_freq : array_like, optional
        The frequencies $\theta_i$ to use instead of `rotary_frequencies(...)`, shape
        `(rotary_dim // 2,)`: for example those of a scaling method of
        `posenc.rope_scaling` (Hugging Face's name for them).
    attention_factor : float, default 1.0
        Multiplies the rotated dimensions, as Hugging Face Transformers multiplies `cos` and
        `sin` by `attention_scaling`. Applied to both queries and keys it multiplies their
        scores by its square: YaRN's $1/t$ (see `yarn_attention_factor`). Finite, `> 0`.

    Returns
    -------
    ndarray
        Same shape as `x`, float32 for float32 input, otherwise float64. With
        `attention_factor=1`, norms are unchanged.

    Raises
    ------
    TypeError
        If `x` or `positions` does not hold real numbers, or a parameter has the wrong type.
    ValueError
        If `x` has fewer than 2 dimensions, `positions` has another shape than `(n,)` or
        `(batch, n)` or is not finite, `rotary_dim` is odd, `< 2` or `> head_dim` (or
        `head_dim` odd without it), `inv_freq` does not have shape `(rotary_dim // 2,)`, both
        `base` and `inv_freq` are given, or `layout` is unknown.

    References
    ----------
    - J. Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding", 2021,
      section 3.4.2, equation (34).
    - Hugging Face Transformers, `src/transformers/models/llama/modeling_llama.py`
      (`rotate_half`, `apply_rotary_pos_emb`, `LlamaRotaryEmbedding`) and
      `src/transformers/models/gpt_neox/modeling_gpt_neox.py` (partial rotary).
    - vLLM, `vllm/model_executor/layers/rotary_embedding/common.py` (`is_neox_style`);
      flash-attn, `flash_attn/layers/rotary.py` (`apply_rotary_emb`, `interleaved`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.rotary import apply_rotary
    >>> q = np.array([[1.0, 0.0, 0.0, 0.0]] * 3)  # the same query at positions 0, 1, 2
    >>> print(np.round(apply_rotary(q), 3))  # "half": dimension 0 pairs with dimension 2
    [[ 1.     0.     0.     0.   ]
     [ 0.54   0.     0.841  0.   ]
     [-0.416  0.     0.909  0.   ]]
    >>> print(np.round(apply_rotary(q, layout="interleaved"), 3))  # 0 pairs with 1
    [[ 1.     0.     0.     0.   ]
     [ 0.54   0.841  0.     0.   ]
     [-0.416  0.909  0.     0.   ]]
    >>> x = np.array([[1.0, 0.0, 5.0, 7.0]])
    >>> print(np.round(apply_rotary(x, [1], rotary_dim=2), 3))  # dimensions 2, 3 pass through
    [[0.54  0.841 5.    7.   ]]
    """
    values = as_real_array("x", x)
    if values.ndim < 2:
        raise ValueError(f"x must have shape (..., n, head_dim), got shape {values.shape}")
    head_dim = values.shape[-1]
    layout = check_choice("layout", layout, LAYOUTS)  # type: ignore[assignment]
    if inv_freq is None:
        theta = rotary_frequencies(
            head_dim, base=DEFAULT_BASE if base is None else base, rotary_dim=rotary_dim
        )
    else:
        if base is not None:
            raise ValueError("pass base or inv_freq, not both: inv_freq holds the frequencies")
        theta = as_real_array("inv_freq", inv_freq).astype(np.float64)
        if theta.ndim != 1 or theta.size == 0 or not np.all(np.isfinite(theta)):
            raise ValueError(
                f"inv_freq must be a finite array of shape (rotary_dim // 2,), got shape "
                f"{theta.shape}"
            )
        rotated = check_rotary_dim(2 * theta.size if rotary_dim is None else rotary_dim, head_dim)
        if rotated != 2 * theta.size:
            raise ValueError(
                f"inv_freq must have shape (rotary_dim // 2,) = ({rotated // 2},), got "
                f"{theta.shape}"
            )
    scale = check_positive_real("attention_factor", attention_factor)
    rotated_dims = 2 * theta.size
    where = _positions(positions, values.shape)
    angles = where[..., None] * theta  # (..., n, rotated_dims // 2), float64 for accuracy
    cos = (np.cos(angles) * scale).astype(values.dtype)
    sin = (np.sin(angles) * scale).astype(values.dtype)
    rotating = values[..., :rotated_dims]
    if layout == "interleaved":
        first, second = rotating[..., 0::2], rotating[..., 1::2]
    else:
        first, second = rotating[..., : rotated_dims // 2], rotating[..., rotated_dims // 2 :]
    rotated_first = first * cos - second * sin
    rotated_second = first * sin + second * cos
    shape = (*np.broadcast_shapes(values.shape[:-1], angles.shape[:-1]), head_dim)
    out = np.empty(shape, dtype=values.dtype)
    if layout == "interleaved":
        out[..., 0:rotated_dims:2], out[..., 1:rotated_dims:2] = rotated_first, rotated_second
    else:
        out[..., : rotated_dims // 2] = rotated_first
        out[..., rotated_dims // 2 : rotated_dims] = rotated_second
    out[..., rotated_dims:] = values[..., rotated_dims:]
    return out


def _head_order(x: ArrayLike, head_dim: object) -> tuple[np.ndarray, int]:
    """Check `x` and `head_dim` for the layout conversions; return the array and `head_dim`."""
    values = np.asarray(x)
    head_dim = check_head_dim(head_dim)
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
