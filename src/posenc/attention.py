"""Softmax and the simplest self-attention, the order-blind baseline of the lessons."""

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_real_array, check_integer


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
    return exps / exps.sum(axis=axis, keepdims=True)


def self_attention(x: ArrayLike) -> np.ndarray:
    r"""Single-head self-attention with no learned weights: queries, keys and values are `x`.

    Computes $\operatorname{softmax}(x x^\top / \sqrt{d})\, x$, the scaled dot-product
    attention of Vaswani et al. with $Q = K = V = x$. It has no notion of order:
    permuting the rows of `x` permutes the rows of the result in the same way (permutation
    equivariance), which is why transformers need a positional encoding.

    Parameters
    ----------
    x : array_like
        Real numbers of shape `(..., n, d)`: `n` token vectors of size `d`; any leading
        dimensions are batch dimensions.
        `n` may be 0; `d` must be at least 1.

    Returns
    -------
    ndarray
        Shape `(..., n, d)`. Each row is a weighted average of the rows of `x`. float32
        input gives float32, float64 and integer input give float64.

    Raises
    ------
    ValueError
        If `x` has fewer than 2 dimensions or a last dimension `d` of 0.
    TypeError
        If `x` holds something other than real numbers.

    References
    ----------
    - A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017, section 3.2.1,
      equation (1).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import self_attention
    >>> x = np.random.default_rng(0).normal(size=(4, 6))
    >>> self_attention(x).shape
    (4, 6)
    >>> bool(np.allclose(self_attention(x[::-1]), self_attention(x)[::-1]))
    True
    """
    tokens = as_real_array("x", x)
    if tokens.ndim < 2:
        raise ValueError(
            f"x must have shape (..., n, d) with at least 2 dimensions, got shape {tokens.shape}"
        )
    d = tokens.shape[-1]
    if d == 0:
        raise ValueError(f"x must have a last dimension d >= 1, got shape {tokens.shape}")
    scale = np.sqrt(np.asarray(d, dtype=tokens.dtype))
    scores = tokens @ np.swapaxes(tokens, -1, -2) / scale
    return softmax(scores, axis=-1) @ tokens
