"""ALiBi: attention with linear biases (Press et al., 2022)."""

import math

import numpy as np

from posenc._validation import check_integer, check_query_start


def alibi_slopes(n_heads: int) -> np.ndarray:
    r"""The slope of each attention head, as in the paper's reference implementation.

    For a power of two $n$, the slopes are the geometric sequence that starts at
    $2^{-8/n}$ with that same ratio: for 8 heads $1/2, 1/4, \dots, 1/256$. For other
    numbers of heads, the slopes of the closest smaller power of two come first, then every
    other slope of the next power of two, until there are `n_heads`.

    Parameters
    ----------
    n_heads : int
        Number of attention heads, `>= 1`.

    Returns
    -------
    ndarray
        Shape `(n_heads,)`, float64, every slope in `(0, 1)`.

    Raises
    ------
    TypeError
        If `n_heads` is not an integer.
    ValueError
        If `n_heads < 1`.

    References
    ----------
    - O. Press, N. A. Smith, M. Lewis, "Train Short, Test Long: Attention with Linear Biases
      Enables Input Length Extrapolation", ICLR 2022, section 3 and its code (`get_slopes`).

    Examples
    --------
    >>> from posenc.alibi import alibi_slopes
    >>> print(1 / alibi_slopes(8))
    [  2.   4.   8.  16.  32.  64. 128. 256.]
    """
    n_heads = check_integer("n_heads", n_heads, minimum=1)
    closest = 2 ** math.floor(math.log2(n_heads))
    start = 2.0 ** (-(2.0 ** -(math.log2(closest) - 3)))
    slopes: np.ndarray = start ** np.arange(1, closest + 1, dtype=np.float64)
    if closest == n_heads:
        return slopes
    extra = alibi_slopes(2 * closest)[0::2][: n_heads - closest]
    return np.concatenate([slopes, extra])


def alibi_bias(
    n_heads: int,
    n_queries: int,
    n_keys: int | None = None,
    *,
    causal: bool = True,
    query_start: int | None = None,
) -> np.ndarray:
    """The ALiBi bias added to the attention scores: `-slope * distance`.

    Queries stand at positions `query_start, ..., query_start + n_queries - 1` and keys at
    `0, ..., n_keys - 1`. Without a cache both are `0 .. n - 1`; when decoding with a
    key/value cache the new queries are the last positions, which is the default.

    Parameters
    ----------
    n_heads : int
        Number of heads, `>= 1`.
    n_queries : int
        Number of queries, `>= 0` (the sequence length when queries and keys are the same).
    n_keys : int, optional
        Number of keys, `>= 0`: the cached keys and the new ones. Default `n_queries`.
    causal : bool, default True
        True: a query at `i` sees keys `j <= i` with bias `-slope * (i - j)`, and the keys
        after it get `-inf` (the causal mask), as in the paper's language models. False: the
        symmetric variant `-slope * |i - j|` for encoders. That variant is not in the paper
        (which trains causal language models only); the first author describes it in the
        reference repository's issue #5. A key two places to the left and one two places to
        the right get the same bias, so on its own it cannot tell left from right.
    query_start : int, optional
        Position of the first query, `>= 0` (the number of tokens already in the cache).
        Default `n_keys - n_queries`: the queries are the last positions (bottom-right, as
        `scaled_dot_product_attention`'s causal mask).

    Returns
    -------
    ndarray
        Shape `(n_heads, n_queries, n_keys)`, float64; `bias[h, i, j]` is added to the
        score of query `i` and key `j` in head `h`.

    Raises
    ------
    TypeError, ValueError
        As `alibi_slopes`; if a size is not an integer `>= 0`, `query_start` is negative, or
        it is left to its default with `n_queries > n_keys`.

    References
    ----------
    - O. Press et al., ICLR 2022, section 3, figure 3.
    - `ofirpress/attention_with_linear_biases`, issue #5, "Modifying ALiBi for
      Encoder-Attention or Cross-Attention" (the symmetric variant).

    Examples
    --------
    >>> from posenc.alibi import alibi_bias
    >>> print(alibi_bias(8, 3)[0])  # head 0, slope 1/2
    [[ 0.  -inf -inf]
     [-0.5  0.  -inf]
     [-1.  -0.5  0. ]]
    >>> print(alibi_bias(8, 1, 3)[0])  # one new query after 2 cached keys: the last row
    [[-1.  -0.5  0. ]]
    """
    slopes = alibi_slopes(n_heads)
    n_queries = check_integer("n_queries", n_queries, minimum=0)
    n_keys = n_queries if n_keys is None else check_integer("n_keys", n_keys, minimum=0)
    first = check_query_start(n_queries, n_keys, query_start)
    offsets = np.arange(first, first + n_queries)[:, None] - np.arange(n_keys)[None, :]  # i - j
    distance = offsets if causal else np.abs(offsets)
    bias: np.ndarray = slopes[:, None, None] * -distance[None, :, :]  # no "-0." on the diagonal
    if causal:
        bias = np.where(offsets[None, :, :] < 0, -np.inf, bias)
    return bias
