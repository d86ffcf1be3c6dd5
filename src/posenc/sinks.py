r"""Attention sinks: a learned sink logit per head, and StreamingLLM's rolling cache.

Two ideas share the name. In gpt-oss (and other 2025 models) each head learns one logit that
takes part in the softmax but has no value: `attention_with_sinks`. StreamingLLM keeps the
first few tokens of a long stream in the key/value cache (the model learned to park
attention on them) beside a window of the latest tokens, and gives the kept keys the
positions they have inside the cache: `streaming_cache_indices`,
`streaming_cache_positions`, and `rerotate_keys` for keys cached after RoPE.
"""

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_real_array, check_integer
from posenc.attention import scaled_dot_product_attention
from posenc.rotary import apply_rotary


def attention_with_sinks(
    q: ArrayLike,
    k: ArrayLike,
    v: ArrayLike,
    sinks: ArrayLike,
    *,
    causal: bool = False,
    bias: ArrayLike | None = None,
    scale: float | None = None,
) -> np.ndarray:
    r"""Scaled dot-product attention where each head also attends to a learned sink logit.

    With the scaled scores $s_{ij} = \text{scale}\; q_i \cdot k_j + \text{bias}_{ij}$ and the
    sink logit $\sigma_h$ of the head, the weight of key $j$ is

    $$w_{ij} = \frac{e^{s_{ij}}}{e^{\sigma_h} + \sum_{k} e^{s_{ik}}},$$

    and the output is $\sum_j w_{ij} v_j$. The weights of a row sum to less than 1: the rest
    went to the sink, which carries no value. A head can so attend to "nothing" without
    having to pick a token to dump its attention on (the attention-sink tokens StreamingLLM
    found). gpt-oss computes it by joining the sink as an extra column of the scores,
    taking the softmax over `n_k + 1` columns and dropping that column. Equivalently, the
    sink is one more key whose score is $\sigma_h$ for every query and whose value is zero;
    this function computes it that way with `scaled_dot_product_attention`. $\sigma_h = 0$
    with zero scores elsewhere is the "softmax plus one" of Miller (2023); $\sigma_h = -\infty$
    gives plain attention.

    Parameters
    ----------
    q : array_like
        Queries, shape `(..., n_heads, n_q, d)`.
    k : array_like
        Keys, shape `(..., n_heads, n_k, d)`. With grouped-query attention, repeat each key
        head for its queries first (`np.repeat(k, n_heads // n_kv_heads, axis=-3)`, as
        Transformers' `repeat_kv`); a head axis of 1 is shared by every head.
    v : array_like
        Values, shape `(..., n_heads, n_k, d_v)`.
    sinks : array_like
        One logit per head, shape `(n_heads,)`, real; `-inf` turns a head's sink off.
        `n_heads` is the head axis (third from the end) of the scores $q k^\top$.
    causal : bool, default False
        Mask every key after its query, aligned bottom-right as in
        `scaled_dot_product_attention` (with `n_q < n_k` the queries are the last `n_q`
        positions). The sink is never masked.
    bias : array_like, optional
        Added to the scaled scores, broadcastable to `(..., n_heads, n_q, n_k)`; `-inf`
        entries mask keys out (for example a sliding window). It does not touch the sink.
    scale : float, optional
        Factor of the scores $q k^\top$, finite and `> 0`. Default $1/\sqrt{d}$ (gpt-oss's
        `head_dim**-0.5`).

    Returns
    -------
    ndarray
        Shape `(..., n_heads, n_q, d_v)`; float32 when `q`, `k` and `v` are float32,
        otherwise float64. With `v = np.eye(n_k)` the rows are the weights $w_{ij}$.
        A row whose keys are all masked gives zeros when its sink is finite (all the weight
        went to the sink) and NaN when the sink is `-inf`.

    Raises
    ------
    ValueError
        If `q`, `k` or `v` has fewer than 3 dimensions, their shapes do not fit together (as
        in `scaled_dot_product_attention`), `sinks` does not have shape `(n_heads,)` or holds
        NaN or `+inf`, the bias cannot be broadcast to the scores, `causal` is set with
        `n_q > n_k`, or `scale` is not finite and `> 0`.
    TypeError
        If an input does not hold real numbers, or `scale` is not a real number.

    References
    ----------
    - OpenAI, "gpt-oss-120b & gpt-oss-20b Model Card", 2025, arXiv:2508.10925 (the
      architecture: a learned bias per head in the denominator of the softmax).
    - Hugging Face Transformers 5.24, `src/transformers/models/gpt_oss/modeling_gpt_oss.py`,
      `eager_attention_forward` (sinks joined to the scores, softmax, sink column dropped)
      and `GptOssAttention` (`self.sinks`, one per attention head).
    - G. Xiao et al., "Efficient Streaming Language Models with Attention Sinks", ICLR 2024,
      arXiv:2309.17453, section 3.3 (a learnable sink token; the zero sink of
      "SoftMax-off-by-One").
    - E. Miller, "Attention Is Off By One", blog post, 2023 (the extra 1 in the softmax's
      denominator).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import attention_with_sinks
    >>> q = np.zeros((1, 1, 2))  # one head, one query: every score is 0
    >>> k = np.ones((1, 3, 2))
    >>> weights = attention_with_sinks(q, k, np.eye(3)[None], sinks=[np.log(3.0)])
    >>> print(np.round(weights, 4))  # e^0 / (e^ln3 + 3 e^0) = 1/6 each
    [[[0.1667 0.1667 0.1667]]]
    >>> print(round(float(weights.sum()), 4))  # the other half went to the sink
    0.5
    >>> plain = attention_with_sinks(q, k, np.eye(3)[None], sinks=[-np.inf])
    >>> print(np.round(plain, 4))
    [[[0.3333 0.3333 0.3333]]]
    """
    queries, keys, values = (as_real_array(name, a) for name, a in (("q", q), ("k", k), ("v", v)))
    for name, array in (("q", queries), ("k", keys), ("v", values)):
        if array.ndim < 3:
            raise ValueError(
                f"{name} must have shape (..., n_heads, n, d) with at least 3 dimensions, "
                f"got shape {array.shape}"
            )
    if queries.shape[-1] != keys.shape[-1]:
        raise ValueError(
            f"q and k must have the same last dimension d, got {queries.shape} and {keys.shape}"
        )
    if keys.shape[-2] != values.shape[-2]:
        raise ValueError(
            f"k and v must have the same number of rows n_k, got {keys.shape} and {values.shape}"
        )
    try:
        batch = np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    except ValueError:
        raise ValueError(
            "the batch and head dimensions of q, k and v must broadcast together, got "
            f"{queries.shape}, {keys.shape} and {values.shape}"
        ) from None
    n_q, n_k = queries.shape[-2], keys.shape[-2]
    if causal and n_q > n_k:
        raise ValueError(
            f"causal attention needs n_q <= n_k (the queries are the last n_q of the n_k "
            f"positions), got n_q={n_q} and n_k={n_k}"
        )
    scores_shape = (*batch, n_q, n_k)
    sink_logits = as_real_array("sinks", sinks)
    n_heads = batch[-1]
    if sink_logits.shape != (n_heads,):
        raise ValueError(
            f"sinks must have shape (n_heads,) = ({n_heads},), one logit per head of the "
            f"scores of shape {scores_shape}, got shape {sink_logits.shape}"
        )
    if np.any(np.isnan(sink_logits) | (sink_logits == np.inf)):
        raise ValueError("sinks must be real numbers or -inf, got NaN or +inf")
    extra = np.zeros(()) if bias is None else as_real_array("bias", bias)
    try:
        full_shape = np.broadcast_shapes(extra.shape, scores_shape)
    except ValueError:
        raise ValueError(
            f"bias of shape {extra.shape} cannot be added to scores of shape {scores_shape}"
        ) from None
    # The sink as key 0: a zero key (score 0) whose bias is the sink logit, with a zero value.
    # Placed first, it stays visible under the bottom-right causal mask of n_k + 1 keys.
    sink_column = np.broadcast_to(sink_logits[:, None, None], (*full_shape[:-1], 1))
    joined_bias = np.concatenate([sink_column, np.broadcast_to(extra, full_shape)], axis=-1)
    zero_key = np.zeros((*keys.shape[:-2], 1, keys.shape[-1]), dtype=keys.dtype)
    zero_value = np.zeros((*values.shape[:-2], 1, values.shape[-1]), dtype=values.dtype)
    return scaled_dot_product_attention(
        queries,
        np.concatenate([zero_key, keys], axis=-2),
        np.concatenate([zero_value, values], axis=-2),
        bias=joined_bias,
        causal=causal,
        scale=scale,
    )


def _check_stream(n_tokens: object, n_sink: object, window: object) -> tuple[int, int, int]:
    """Check the arguments of the StreamingLLM cache functions; return them as ints."""
    return (
        check_integer("n_tokens", n_tokens, minimum=0),
        check_integer("n_sink", n_sink, minimum=0),
        check_integer("window", window, minimum=1),
    )


def streaming_cache_indices(n_tokens: int, *, n_sink: int = 4, window: int) -> np.ndarray:
    """Which of the tokens `0 .. n_tokens - 1` a StreamingLLM key/value cache holds.

    The cache keeps the first `n_sink` tokens (the attention sinks) and the latest `window`
    tokens, and evicts those in between. Until more than `n_sink + window` tokens have come,
    it holds them all.

    Parameters
    ----------
    n_tokens : int
        How many tokens of the stream have been seen, `>= 0`.
    n_sink : int, default 4
        How many initial tokens stay, `>= 0`: StreamingLLM's `start_size` (4 in the paper);
        0 gives a plain sliding window.
    window : int
        How many recent tokens stay, `>= 1`: StreamingLLM's `recent_size`.

    Returns
    -------
    ndarray
        The kept token indices in increasing order, int64, of length
        `min(n_tokens, n_sink + window)`, without repeats.

    Raises
    ------
    TypeError
        If an argument is not an integer.
    ValueError
        If `n_tokens < 0`, `n_sink < 0` or `window < 1`.

    References
    ----------
    - G. Xiao et al., "Efficient Streaming Language Models with Attention Sinks", ICLR 2024,
      arXiv:2309.17453, section 3.2 (the rolling cache with attention sinks).
    - `mit-han-lab/streaming-llm`, `streaming_llm/kv_cache.py` (`StartRecentKVCache`,
      `start_size` and `recent_size`).

    Examples
    --------
    >>> from posenc import streaming_cache_indices
    >>> print(streaming_cache_indices(10, n_sink=2, window=3))
    [0 1 7 8 9]
    >>> print(streaming_cache_indices(4, n_sink=2, window=3))  # nothing evicted yet
    [0 1 2 3]
    """
    n_tokens, n_sink, window = _check_stream(n_tokens, n_sink, window)
    if n_tokens <= n_sink + window:
        return np.arange(n_tokens, dtype=np.int64)
    return np.concatenate(
        [np.arange(n_sink, dtype=np.int64), np.arange(n_tokens - window, n_tokens, dtype=np.int64)]
    )


def streaming_cache_positions(n_tokens: int, *, n_sink: int = 4, window: int) -> np.ndarray:
    """The positions StreamingLLM gives the kept keys: their places in the cache, `0 .. n - 1`.

    After eviction the cache holds tokens such as `0, 1, 7, 8, 9`; RoPE then rotates them as
    if they stood at positions `0, 1, 2, 3, 4`, and the next query takes position `n`, the
    cache's length. The offsets between the query and the latest tokens are the same as in
    the text, so only the sinks come closer. Keeping the positions of the text instead would
    put the query at offsets beyond those the model saw in training.

    Parameters
    ----------
    n_tokens : int
        How many tokens of the stream have been seen, `>= 0`.
    n_sink : int, default 4
        How many initial tokens stay, `>= 0`.
    window : int
        How many recent tokens stay, `>= 1`.

    Returns
    -------
    ndarray
        `arange(n)`, int64, with `n = len(streaming_cache_indices(n_tokens, ...))`: the
        position of each kept key, in the order of `streaming_cache_indices`.

    Raises
    ------
    TypeError
        If an argument is not an integer.
    ValueError
        If `n_tokens < 0`, `n_sink < 0` or `window < 1`.

    References
    ----------
    - G. Xiao et al., "Efficient Streaming Language Models with Attention Sinks", ICLR 2024,
      arXiv:2309.17453, section 3.2 (positions assigned within the cache, not in the text).
    - `mit-han-lab/streaming-llm`, `streaming_llm/pos_shift/modify_llama.py`
      (`llama_pos_shift_attention_forward`: keys cached before RoPE and rotated with
      `arange(kv_seq_len)` at every step).

    Examples
    --------
    >>> from posenc import streaming_cache_indices, streaming_cache_positions
    >>> print(streaming_cache_indices(10, n_sink=2, window=3))
    [0 1 7 8 9]
    >>> print(streaming_cache_positions(10, n_sink=2, window=3))  # the next query gets 5
    [0 1 2 3 4]
    """
    n_tokens, n_sink, window = _check_stream(n_tokens, n_sink, window)
    return np.arange(min(n_tokens, n_sink + window), dtype=np.int64)


def _cache_positions(name: str, value: ArrayLike, shape: tuple[int, ...]) -> np.ndarray:
    """Check positions for the rows of keys of `shape` `(..., n, head_dim)`; return float64."""
    where = as_real_array(name, value).astype(np.float64)
    n = shape[-2]
    batched = (
        len(shape) >= 3
        and where.ndim == 2
        and where.shape[1] == n
        and where.shape[0] in (1, shape[0])
    )
    if where.shape != (n,) and not batched:
        raise ValueError(
            f"{name} must have shape (n,) or (batch, n) to match keys of shape {shape} "
            f"(n = {n}), got shape {where.shape}"
        )
    if not np.all(np.isfinite(where)):
        raise ValueError(f"{name} must be finite")
    return where


def rerotate_keys(
    keys: ArrayLike,
    *,
    from_positions: ArrayLike,
    to_positions: ArrayLike,
    inv_freq: ArrayLike,
    layout: Literal["half", "interleaved"] = "half",
) -> np.ndarray:
    r"""Move keys that were cached after RoPE to other positions, with one more rotation.

    RoPE rotations add up: $R(b)\,R(a) = R(a + b)$. A key rotated at position `from` and
    rotated again by `to - from` is the key rotated at `to`. A cache that stores keys after
    RoPE can so give them new positions, as StreamingLLM needs once tokens were evicted,
    without the unrotated keys. The alternative is to cache keys before RoPE and rotate the
    whole cache at every step (StreamingLLM's code does that); it costs more computation
    but adds no rounding error, while each re-rotation of a low-precision cache adds some.

    Parameters
    ----------
    keys : array_like
        Keys already rotated at `from_positions`, shape `(..., n, head_dim)`.
    from_positions : array_like
        Where each key was rotated, shape `(n,)` or `(batch, n)` for keys of shape
        `(batch, ..., n, head_dim)` (a batch of 1 is shared), integers or real numbers.
    to_positions : array_like
        Where each key should be, same shapes as `from_positions`.
    inv_freq : array_like
        The frequencies the keys were rotated with, shape `(rotary_dim // 2,)`, for example
        `rotary_frequencies(head_dim, base=rope_theta)`; with partial rotary the dimensions
        after `rotary_dim` pass through.
    layout : {"half", "interleaved"}, default "half"
        The pairing of dimensions the keys were rotated with (see `apply_rotary`).

    Returns
    -------
    ndarray
        Same shape as `keys` (the batch shape of the positions broadcast in), float32 for
        float32 keys, otherwise float64. Norms are unchanged: an `attention_factor` the
        keys were multiplied by stays.

    Raises
    ------
    TypeError
        If `keys`, a position array or `inv_freq` does not hold real numbers.
    ValueError
        If `keys` has fewer than 2 dimensions, a position array has another shape than
        `(n,)` or `(batch, n)` or is not finite, `inv_freq` does not have shape
        `(rotary_dim // 2,)` with `rotary_dim <= head_dim`, or `layout` is unknown.

    References
    ----------
    - J. Su et al., "RoFormer: Enhanced Transformer with Rotary Position Embedding", 2021,
      section 3.4.2 (the rotation matrices; their product adds the angles).
    - G. Xiao et al., "Efficient Streaming Language Models with Attention Sinks", ICLR 2024,
      arXiv:2309.17453, section 3.2 (positions within the cache).
    - `mit-han-lab/streaming-llm`, `streaming_llm/pos_shift/modify_llama.py` (the keys cached
      before RoPE instead).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import apply_rotary, rerotate_keys, rotary_frequencies
    >>> inv_freq = rotary_frequencies(4)
    >>> k = np.random.default_rng(0).normal(size=(3, 4))
    >>> cached = apply_rotary(k, [0, 5, 6], inv_freq=inv_freq)  # tokens 0, 5, 6 of a stream
    >>> moved = rerotate_keys(cached, from_positions=[0, 5, 6], to_positions=[0, 1, 2],
    ...                       inv_freq=inv_freq)
    >>> bool(np.allclose(moved, apply_rotary(k, [0, 1, 2], inv_freq=inv_freq)))
    True
    """
    values = as_real_array("keys", keys)
    if values.ndim < 2:
        raise ValueError(f"keys must have shape (..., n, head_dim), got shape {values.shape}")
    theta = as_real_array("inv_freq", inv_freq)
    if theta.ndim != 1 or not 1 <= theta.size <= values.shape[-1] // 2:
        raise ValueError(
            f"inv_freq must have shape (rotary_dim // 2,) with 2 <= rotary_dim <= head_dim = "
            f"{values.shape[-1]}, got shape {theta.shape}"
        )
    start = _cache_positions("from_positions", from_positions, values.shape)
    end = _cache_positions("to_positions", to_positions, values.shape)
    shift = end - start  # (n,) or (batch, n): both shapes broadcast to one apply_rotary takes
    return apply_rotary(values, shift, inv_freq=theta, layout=layout)
