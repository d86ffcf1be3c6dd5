"""Softmax and scaled dot-product attention, with self-attention as its simplest case."""

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_real_array, check_integer, check_positive_real


def softmax(z: ArrayLike, axis: int = -1) -> np.ndarray:
    r"""Turn scores into probabilities along one axis, without overflow.

    Computes $\operatorname{softmax}(z)_j = e^{z_j - m} / \sum_k e^{z_k - m}$ with
    $m = \max_k z_k$. Subtracting the maximum changes nothing mathematically but keeps
    every exponent $\le 0$, so large scores such as 1000 do not overflow to `inf`.

    Parameters
    ----------
    z : array_like
        Scores (logits), real numbers of any shape with at least one dimension. Integer
        input is converted to float64.
    axis : int, default -1
        The axis along which the probabilities sum to 1.

    Returns
    -------
    ndarray
        Same shape as `z`: non-negative values that sum to 1 along `axis`. float32 input
        gives float32, float64 and integer input give float64.

    Raises
    ------
    TypeError
        If `z` holds something other than real numbers (bool, complex, strings).
    ValueError
        If `z` is a scalar, or `axis` is out of range for `z`.

    Notes
    -----
    A slice made only of `-inf` has no defined softmax; its result is `nan`. A `-inf` next to
    finite scores gets probability 0, which is how attention masks are applied.

    References
    ----------
    - I. Goodfellow, Y. Bengio, A. Courville, *Deep Learning*, MIT Press, 2016,
      section 4.1 (overflow and underflow; the stable softmax).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import softmax
    >>> p = softmax(np.array([1.0, 2.0, 3.0]))
    >>> print(np.round(p, 4))
    [0.09   0.2447 0.6652]
    >>> print(softmax(np.array([1000.0, 1000.0])))
    [0.5 0.5]
    """
    scores = as_real_array("z", z)
    if scores.ndim == 0:
        raise ValueError("z must have at least one dimension, got a scalar")
    axis = check_integer("axis", axis, minimum=-scores.ndim, maximum=scores.ndim - 1)
    if scores.shape[axis] == 0:
        return np.empty_like(scores)
    peak = scores.max(axis=axis, keepdims=True)
    # A slice of -inf would give -inf - -inf = nan; shifting such slices by 0 keeps them -inf.
    peak = np.where(np.isfinite(peak), peak, 0)
    exps = np.exp(scores - peak)
    # A slice of only -inf sums to 0: its result is the documented nan, not a warning.
    with np.errstate(invalid="ignore"):
        probabilities: np.ndarray = exps / exps.sum(axis=axis, keepdims=True)
    return probabilities


def self_attention(x: ArrayLike, *, causal: bool = False) -> np.ndarray:
    r"""Single-head self-attention with no learned weights: queries, keys and values are `x`.

    Computes $\operatorname{softmax}(x x^\top / \sqrt{d} + M)\, x$, the scaled dot-product
    attention of Vaswani et al. with $Q = K = V = x$. Without a mask ($M = 0$, an encoder)
    it has no notion of order: permuting the rows of `x` permutes the rows of the result in
    the same way (permutation equivariance), which is why such a model needs a positional
    encoding. With `causal=True`, $M$ is $-\infty$ above the diagonal (a decoder): row `i`
    averages rows `0..i` only, so a token's output depends on how many tokens precede it and
    the equivariance is broken.

    Parameters
    ----------
    x : array_like
        Real numbers of shape `(..., n, d)`: `n` token vectors of size `d`; any leading
        dimensions are batch dimensions.
        `n` may be 0; `d` must be at least 1.
    causal : bool, default False
        Mask every key after its query, as a decoder does.

    Returns
    -------
    ndarray
        Shape `(..., n, d)`. Each row is a weighted average of the rows of `x` (of the rows up
        to it when `causal`). float32 input gives float32, float64 and integer input give
        float64.

    Raises
    ------
    ValueError
        If `x` has fewer than 2 dimensions or a last dimension `d` of 0.
    TypeError
        If `x` holds something other than real numbers.

    References
    ----------
    - A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017, section 3.2.1,
      equation (1), and section 3.2.3 (masking in the decoder).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import self_attention
    >>> x = np.random.default_rng(0).normal(size=(4, 6))
    >>> self_attention(x).shape
    (4, 6)
    >>> bool(np.allclose(self_attention(x[::-1]), self_attention(x)[::-1]))
    True
    >>> bool(np.allclose(self_attention(x, causal=True)[0], x[0]))  # row 0 sees only itself
    True
    """
    tokens = as_real_array("x", x)
    if tokens.ndim < 2:
        raise ValueError(
            f"x must have shape (..., n, d) with at least 2 dimensions, got shape {tokens.shape}"
        )
    if tokens.shape[-1] == 0:
        raise ValueError(f"x must have a last dimension d >= 1, got shape {tokens.shape}")
    return scaled_dot_product_attention(tokens, tokens, tokens, causal=causal)


def scaled_dot_product_attention(
    q: ArrayLike,
    k: ArrayLike,
    v: ArrayLike,
    *,
    bias: ArrayLike | None = None,
    causal: bool = False,
    scale: float | None = None,
) -> np.ndarray:
    r"""Attention $\operatorname{softmax}(s\, q k^\top + bias)\, v$, with an optional mask.

    The scale $s$ is $1/\sqrt{d}$ by default, as in the original Transformer. T5 uses
    $s = 1$: its initialisation already scales the query projection (Mesh TensorFlow), so
    its attention has no $1/\sqrt{d}$. `self_attention(x)` is the case `q = k = v = x`
    without bias. ALiBi (`alibi_bias`) and T5's bucketed biases plug in as `bias`.

    Parameters
    ----------
    q : array_like
        Queries, shape `(..., n_q, d)`.
    k : array_like
        Keys, shape `(..., n_k, d)`.
    v : array_like
        Values, shape `(..., n_k, d_v)`.
    bias : array_like, optional
        Added to the scaled scores; broadcastable to `(..., n_q, n_k)`, for example
        `(n_heads, n_q, n_k)`. `-inf` entries mask keys out.
    causal : bool, default False
        Mask every key after its query. With fewer queries than keys (`n_q < n_k`: a
        decoding step or a chunk of the prompt after a key/value cache) the queries are the
        last `n_q` of the `n_k` positions, so query `i` sees keys `0 .. n_k - n_q + i`: the
        mask is aligned bottom-right, as in flash-attn (`flash_attn_func`) and Meta's
        reference Llama code. PyTorch's `scaled_dot_product_attention(..., is_causal=True)`
        aligns it top-left instead (query `i` sees keys `0 .. i`), which is right only
        when `n_q == n_k`; its `torch.nn.attention.bias.causal_lower_right` gives the
        bottom-right mask. `n_q > n_k` is refused: the first queries would see no key.
    scale : float, optional
        Factor of the scores $q k^\top$, a finite number `> 0`. None (the default) means
        $1/\sqrt{d}$; T5 uses 1.0.

    Returns
    -------
    ndarray
        Shape `(..., n_q, d_v)`. float32 when every input is float32, otherwise float64.
        A query row whose keys are all masked (`-inf` everywhere) gives NaN: its softmax is
        undefined. (PyTorch's `scaled_dot_product_attention` returns zeros for such rows in
        its recent versions.)

    Raises
    ------
    ValueError
        If the shapes do not fit together (last dimensions, rows, batch dimensions, or
        `d = 0`), the bias cannot be broadcast to the scores,
        `causal` is set with `n_q > n_k`, or `scale` is not finite and `> 0`.
    TypeError
        If an input does not hold real numbers, or `scale` is not a real number.

    References
    ----------
    - A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017, section 3.2.1,
      equation (1).
    - C. Raffel et al., "Exploring the Limits of Transfer Learning with a Unified
      Text-to-Text Transformer", JMLR 2020; the scores without $1/\sqrt{d}$ are in the T5
      code (Mesh TensorFlow) and in Hugging Face's `modeling_t5.py` (`T5Attention`).
    - The bottom-right causal mask: `meta-llama/llama-models`,
      `models/llama3/model.py` (`Transformer.forward`: zeros for the cached
      keys beside the triangular mask); `Dao-AILab/flash-attention`,
      `flash_attn/flash_attn_interface.py` (the docstring of `flash_attn_func` on
      `causal`); PyTorch, `torch/nn/attention/bias.py` (`CausalVariant.UPPER_LEFT` and
      `LOWER_RIGHT`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import scaled_dot_product_attention
    >>> x = np.eye(3)
    >>> out = scaled_dot_product_attention(x, x, x, causal=True)
    >>> print(np.round(out[0], 3))
    [1. 0. 0.]
    >>> q = k = np.array([[2.0, 0.0], [0.0, 2.0]])
    >>> print(np.round(scaled_dot_product_attention(q, k, np.eye(2), scale=1.0), 3))
    [[0.982 0.018]
     [0.018 0.982]]
    >>> keys = np.eye(3)  # one query after 2 cached keys: it sees all 3 (bottom-right)
    >>> print(np.round(scaled_dot_product_attention(keys[2:], keys, keys, causal=True), 3))
    [[0.264 0.264 0.471]]
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
    if queries.shape[-1] == 0:
        raise ValueError(f"q and k must have a last dimension d >= 1, got {queries.shape}")
    try:
        np.broadcast_shapes(queries.shape[:-2], keys.shape[:-2], values.shape[:-2])
    except ValueError:
        raise ValueError(
            "the batch dimensions of q, k and v must broadcast together, got "
            f"{queries.shape}, {keys.shape} and {values.shape}"
        ) from None
    scores = queries @ np.swapaxes(keys, -1, -2)
    if scale is None:
        scores = scores / np.sqrt(np.asarray(queries.shape[-1], dtype=scores.dtype))
    else:
        scores = scores * np.asarray(check_positive_real("scale", scale), dtype=scores.dtype)
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
        if n_q > n_k:
            raise ValueError(
                f"causal attention needs n_q <= n_k (the queries are the last n_q of the n_k "
                f"positions), got n_q={n_q} and n_k={n_k}"
            )
        # Bottom-right: query i stands at position n_k - n_q + i and sees the keys up to it.
        future = np.triu(np.ones((n_q, n_k), dtype=bool), k=1 + n_k - n_q)
        scores = np.where(future, -np.inf, scores)
    attended: np.ndarray = softmax(scores, axis=-1) @ values
    return attended
