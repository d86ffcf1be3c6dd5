"""Relative position buckets of T5 (Raffel et al., 2020) and attention with an additive bias."""

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_real_array, check_integer
from posenc.attention import softmax


def relative_position_bucket(
    relative_position: ArrayLike,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> np.ndarray:
    """Map signed distances `key - query` to T5's buckets: exact when near, logarithmic when far.

    Half of the buckets (per direction) hold the distances `0 .. max_exact - 1` one by one,
    with `max_exact = num_buckets // 2` (per direction); the other half cover the distances up
    to `max_distance` on a logarithmic scale; farther distances share the last bucket.
    Bidirectional (encoder): keys after the query use the upper half of the buckets. Causal
    (decoder): keys after the query all fall in bucket 0.

    Parameters
    ----------
    relative_position : array_like of int
        `key_position - query_position`, any shape.
    bidirectional : bool, default True
        Whether keys after the query get buckets of their own.
    num_buckets : int, default 32
        Number of buckets, `>= 4` (even when bidirectional).
    max_distance : int, default 128
        Distances at or beyond this share the last bucket; `> num_buckets // 2`
        (`// 4` when bidirectional).

    Returns
    -------
    ndarray
        Same shape as `relative_position`, int64, values in `[0, num_buckets - 1]`.

    Raises
    ------
    TypeError
        If `relative_position` does not hold integers, or a parameter is not an integer.
    ValueError
        If `num_buckets` or `max_distance` is out of range.

    References
    ----------
    - C. Raffel et al., "Exploring the Limits of Transfer Learning with a Unified
      Text-to-Text Transformer", JMLR 2020, section 2.1, and the T5 code
      (`_relative_position_bucket`).

    Examples
    --------
    >>> from posenc.relative import relative_position_bucket
    >>> print(relative_position_bucket([-200, -128, -9, -8, -1, 0, 1, 8, 200]))
    [15 15  8  8  1  0 17 24 31]
    """
    distance = np.asarray(relative_position)
    if distance.dtype == np.bool_ or not np.issubdtype(distance.dtype, np.integer):
        raise TypeError(f"relative_position must hold integers, got dtype {distance.dtype}")
    num_buckets = check_integer("num_buckets", num_buckets, minimum=4)
    if bidirectional and num_buckets % 2:
        raise ValueError(f"num_buckets must be even when bidirectional, got {num_buckets}")
    per_direction = num_buckets // 2 if bidirectional else num_buckets
    max_exact = per_direction // 2
    max_distance = check_integer("max_distance", max_distance, minimum=max_exact + 1)

    n = -distance.astype(np.int64)  # query - key: positive for keys before the query
    bucket = np.zeros(n.shape, dtype=np.int64)
    if bidirectional:
        bucket += (n < 0) * per_direction
        n = np.abs(n)
    else:
        n = np.maximum(n, 0)
    # np.maximum(n, 1): the log of 0 is never used (those distances are exact) but would warn.
    scaled = np.log(np.maximum(n, 1) / max_exact) / np.log(max_distance / max_exact)
    far = max_exact + (scaled * (per_direction - max_exact)).astype(np.int64)
    far = np.minimum(far, per_direction - 1)
    return bucket + np.where(n < max_exact, n, far)


def relative_position_buckets(
    n_queries: int,
    n_keys: int,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> np.ndarray:
    """The bucket of every query-key pair: `relative_position_bucket(j - i)`.

    Parameters
    ----------
    n_queries, n_keys : int
        Sequence lengths, `>= 0`.
    bidirectional, num_buckets, max_distance
        As in `relative_position_bucket`.

    Returns
    -------
    ndarray
        Shape `(n_queries, n_keys)`, int64. A learned table of `num_buckets` values per head,
        indexed with it, gives T5's bias.

    Raises
    ------
    TypeError, ValueError
        As `relative_position_bucket`, and for negative sizes.

    Examples
    --------
    >>> from posenc.relative import relative_position_buckets
    >>> print(relative_position_buckets(3, 3, bidirectional=False))
    [[0 0 0]
     [1 0 0]
     [2 1 0]]
    """
    n_queries = check_integer("n_queries", n_queries, minimum=0)
    n_keys = check_integer("n_keys", n_keys, minimum=0)
    relative = np.arange(n_keys)[None, :] - np.arange(n_queries)[:, None]
    return relative_position_bucket(
        relative, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )


def scaled_dot_product_attention(
    q: ArrayLike,
    k: ArrayLike,
    v: ArrayLike,
    *,
    bias: ArrayLike | None = None,
    causal: bool = False,
) -> np.ndarray:
    r"""Attention $\operatorname{softmax}(q k^\top / \sqrt{d} + bias)\, v$, with an optional mask.

    The first lesson's `self_attention(x)` is the special case `q = k = v = x` without bias.
    ALiBi (`alibi_bias`) and T5's bucketed biases plug in as `bias`.

    Parameters
    ----------
    q : array_like
        Queries, shape `(..., n_q, d)`.
    k : array_like
        Keys, shape `(..., n_k, d)`.
    v : array_like
        Values, shape `(..., n_k, d_v)`.
    bias : array_like, optional
        Added to the scores; broadcastable to `(..., n_q, n_k)`, for example
        `(n_heads, n_q, n_k)`. `-inf` entries mask keys out.
    causal : bool, default False
        Mask every key after its query (needs `n_q == n_k`).

    Returns
    -------
    ndarray
        Shape `(..., n_q, d_v)`. float32 when every input is float32, otherwise float64.

    Raises
    ------
    ValueError
        If the shapes do not fit together, the bias cannot be broadcast to the scores, or
        `causal` is set with `n_q != n_k`.
    TypeError
        If an input does not hold real numbers.

    References
    ----------
    - A. Vaswani et al., NeurIPS 2017, section 3.2.1, equation (1).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.relative import scaled_dot_product_attention
    >>> x = np.eye(3)
    >>> out = scaled_dot_product_attention(x, x, x, causal=True)
    >>> print(np.round(out[0], 3))
    [1. 0. 0.]
    """
    queries, keys, values = (as_real_array(name, a) for name, a in (("q", q), ("k", k), ("v", v)))
    for name, array in (("q", queries), ("k", keys), ("v", values)):
        if array.ndim < 2:
            raise ValueError(f"{name} must have shape (..., n, d), got shape {array.shape}")
    if queries.shape[-1] != keys.shape[-1]:
        raise ValueError(
            f"q and k must have the same last dimension d, got {queries.shape} and {keys.shape}"
        )
    if keys.shape[-2] != values.shape[-2]:
        raise ValueError(
            f"k and v must have the same number of rows n_k, got {keys.shape} and {values.shape}"
        )
    scale = np.sqrt(np.asarray(queries.shape[-1], dtype=queries.dtype))
    scores = queries @ np.swapaxes(keys, -1, -2) / scale
    if bias is not None:
        extra = as_real_array("bias", bias)
        try:
            np.broadcast_shapes(extra.shape, scores.shape)
        except ValueError:
            raise ValueError(
                f"bias of shape {extra.shape} cannot be added to scores of shape {scores.shape}"
            ) from None
        scores = scores + extra.astype(scores.dtype, copy=False)
    if causal:
        n_q, n_k = scores.shape[-2:]
        if n_q != n_k:
            raise ValueError(f"causal attention needs n_q == n_k, got {n_q} and {n_k}")
        scores = np.where(np.triu(np.ones((n_q, n_k), dtype=bool), k=1), -np.inf, scores)
    return softmax(scores, axis=-1) @ values
