r"""Attention temperature that grows with the position: Llama 4's tuning for its NoPE layers.

Without a position encoding, a query far into a long input spreads its attention over ever
more keys, and the softmax flattens. Llama 4 counters this in its NoPE layers (every fourth
layer, which uses no RoPE and attends over the whole input) by multiplying each query by a
factor that grows slowly with the query's position: a lower temperature for later tokens.
"""

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_integer_array, check_positive_real, check_real


def llama4_attention_scale(
    position_ids: ArrayLike, *, floor_scale: float = 8192.0, attn_scale: float = 0.1
) -> np.ndarray:
    r"""The factor Llama 4 multiplies the queries of its NoPE layers by, per query position.

    For a query at position $p$ (counted from 0),

    $$\text{scale}(p) = 1 + \text{attn\_scale} \cdot
      \ln\!\left(1 + \left\lfloor \frac{p + 1}{\text{floor\_scale}} \right\rfloor\right).$$

    It is exactly 1 while $p + 1 <$ `floor_scale` (the first 8191 positions with the default),
    so short inputs are not changed; it first rises at $p$ = `floor_scale - 1`, to
    $1 + 0.1 \ln 2 \approx 1.0693$, and then steps up every `floor_scale` positions, by ever
    smaller steps (a logarithm of the number of blocks). Only the queries are multiplied, so
    the scores of the query, and the inverse temperature of its softmax, are multiplied by
    it; the keys in the cache stay as they are. It follows Scalable-Softmax, which multiplies
    the query by $s \ln n$ with $n$ the number of keys ($p + 1$ for a causal query at $p$),
    made piecewise constant here and equal to 1 on short inputs.

    Hugging Face Transformers and Meta's code compute $p$ as the cache length plus
    `0 .. n - 1`, not from the model's `position_ids`: with left padding or packed sequences
    the two differ. Pass the positions the reference code would use.

    Parameters
    ----------
    position_ids : array_like of int
        Positions of the queries, integers `>= 0`, any shape (for example `(n,)` or
        `(batch, n)`). For a chunk of `n` queries after `past` cached tokens,
        `past + np.arange(n)`.
    floor_scale : float, default 8192.0
        Length of the blocks within which the factor is constant, finite and `> 0`
        (`floor_scale` in `Llama4TextConfig`, 8192 for Llama 4 Scout and Maverick).
    attn_scale : float, default 0.1
        Coefficient of the logarithm, finite and `>= 0` (`attn_scale` in
        `Llama4TextConfig`); 0 turns the tuning off.

    Returns
    -------
    ndarray
        Same shape as `position_ids`, float64, every value `>= 1`.

    Raises
    ------
    TypeError
        If `position_ids` does not hold integers, or `floor_scale` or `attn_scale` is not a
        real number.
    ValueError
        If a position is negative, `floor_scale` is not finite and `> 0`, or `attn_scale`
        is not finite and `>= 0`.

    References
    ----------
    - Hugging Face Transformers 5.24, `src/transformers/models/llama4/modeling_llama4.py`,
      `Llama4TextAttention.forward` (`attn_temperature_tuning`, applied when the layer does
      not use RoPE), and `configuration_llama4.py` (`Llama4TextConfig`: `floor_scale`,
      `attn_scale`, `no_rope_layers`).
    - `meta-llama/llama-models`, `models/llama4/model.py`, `Attention.forward` (the same
      formula, with `start_pos`).
    - K. M. Nakanishi, "Scalable-Softmax Is Superior for Attention", 2025, arXiv:2501.19399
      (the query multiplied by $s \log n$), which both codes cite.
    - Meta AI, "The Llama 4 herd", blog post, 2025-04-05 (iRoPE: interleaved NoPE layers
      and inference-time temperature scaling of attention).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import llama4_attention_scale
    >>> print(np.round(llama4_attention_scale([0, 8190, 8191, 65536, 1_000_000]), 4))
    [1.     1.     1.0693 1.2197 1.4812]
    """
    positions = as_integer_array("position_ids", position_ids)
    if positions.size and positions.min() < 0:
        raise ValueError(
            f"position_ids must be integers >= 0, got a minimum of {int(positions.min())}"
        )
    floor_scale = check_positive_real("floor_scale", floor_scale)
    attn_scale = check_real("attn_scale", attn_scale, minimum=0.0)
    blocks = np.floor((positions.astype(np.float64) + 1.0) / floor_scale)
    scale: np.ndarray = 1.0 + attn_scale * np.log1p(blocks)
    return scale
