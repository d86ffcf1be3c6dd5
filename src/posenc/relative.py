"""Relative position buckets of T5 (Raffel et al., 2020)."""

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_integer_array, check_integer, check_query_start


def relative_position_bucket(
    relative_position: ArrayLike,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> np.ndarray:
    """Map signed distances `key - query` to T5's buckets: exact when near, logarithmic when far.

    Half of the buckets of each direction hold the distances `0 .. max_exact - 1` one by one,
    with `max_exact` half the buckets of a direction; the other half cover larger distances
    on a logarithmic scale that would reach the end of the last bucket at `max_distance`.
    Every distance from the start of the last bucket on shares it: with the defaults
    (bidirectional, 32 buckets, `max_distance=128`) bucket 15 starts at distance 91, and in
    causal mode bucket 31 starts at 113. Bidirectional (encoder): keys after the query use
    the upper half of the buckets. Causal (decoder): keys after the query all fall in
    bucket 0.

    Parameters
    ----------
    relative_position : array_like of int
        `key_position - query_position`, any shape.
    bidirectional : bool, default True
        Whether keys after the query get buckets of their own.
    num_buckets : int, default 32
        Number of buckets, `>= 4` (even when bidirectional).
    max_distance : int, default 128
        Where the logarithmic scale would end; distances from the start of the last
        bucket on (91 for the defaults, not 128) share that bucket; `> num_buckets // 2`
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
    >>> print(relative_position_bucket([-200, -128, -91, -90, -9, -8, -1, 0, 1, 8, 200]))
    [15 15 15 14  8  8  1  0 17 24 31]
    """
    distance = as_integer_array("relative_position", relative_position)
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
    query_start: int | None = None,
) -> np.ndarray:
    """The bucket of every query-key pair: `relative_position_bucket(j - i)`.

    Queries stand at positions `i = query_start, ..., query_start + n_queries - 1` and keys
    at `j = 0, ..., n_keys - 1`. When decoding with a key/value cache the new queries are
    the last positions, which is the default (Hugging Face's T5 passes the number of cached
    tokens as `past_seen_tokens`).

    Parameters
    ----------
    n_queries, n_keys : int
        Sequence lengths, `>= 0`.
    bidirectional, num_buckets, max_distance
        As in `relative_position_bucket`.
    query_start : int, optional
        Position of the first query, `>= 0`. Default `n_keys - n_queries` (bottom-right),
        which needs `n_queries <= n_keys`.

    Returns
    -------
    ndarray
        Shape `(n_queries, n_keys)`, int64. A learned table of `num_buckets` values per head,
        indexed with it, gives T5's bias.

    Raises
    ------
    TypeError, ValueError
        As `relative_position_bucket`; for negative sizes or a negative `query_start`, or
        `n_queries > n_keys` without `query_start`.

    References
    ----------
    - Hugging Face Transformers, `src/transformers/models/t5/modeling_t5.py`
      (`T5Attention.compute_bias`, `past_seen_tokens`).

    Examples
    --------
    >>> from posenc.relative import relative_position_buckets
    >>> print(relative_position_buckets(3, 3, bidirectional=False))
    [[0 0 0]
     [1 0 0]
     [2 1 0]]
    >>> print(relative_position_buckets(1, 3, bidirectional=False))  # 2 keys in the cache
    [[2 1 0]]
    """
    n_queries = check_integer("n_queries", n_queries, minimum=0)
    n_keys = check_integer("n_keys", n_keys, minimum=0)
    first = check_query_start(n_queries, n_keys, query_start)
    relative = np.arange(n_keys)[None, :] - np.arange(first, first + n_queries)[:, None]
    return relative_position_bucket(
        relative, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
