"""Packed (padding-free) sequences: position ids that restart per document, and the mask for them.

Packing puts several documents one after the other in a single row, so no token is padding.
Two things must then change together: each document's positions start again at 0, and a
block-diagonal mask keeps each token from attending to the documents before it.
"""

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_integer_array, check_integer


def _check_lengths(lengths: object) -> np.ndarray:
    """The document lengths as an int64 array of shape (n_documents,), each `>= 1`."""
    if isinstance(lengths, np.ndarray) and lengths.ndim != 1:
        raise ValueError(
            f"lengths must be a 1-D sequence of integers >= 1, got an array of shape "
            f"{lengths.shape}"
        )
    if isinstance(lengths, str | bytes) or not isinstance(lengths, Sequence | np.ndarray):
        raise TypeError(
            f"lengths must be a sequence of integers >= 1 (one per document), got "
            f"{type(lengths).__name__} {lengths!r}"
        )
    # One check per document (not per token), so the message names the bad entry.
    sizes = [check_integer(f"lengths[{i}]", size, minimum=1) for i, size in enumerate(lengths)]
    if not sizes:
        raise ValueError("lengths must hold at least one document length, got an empty sequence")
    return np.array(sizes, dtype=np.int64)


def _check_position_ids(position_ids: object) -> np.ndarray:
    """`position_ids` as int64 of shape (n,) or (batch, n) with n >= 1."""
    ids = np.asarray(position_ids)
    if ids.ndim not in (1, 2) or ids.shape[-1] == 0:  # before the dtype: [] is float64
        raise ValueError(
            f"position_ids must have shape (n,) or (batch, n) with n >= 1, got shape {ids.shape}"
        )
    # As int64: a difference of int8 or unsigned ids could wrap around.
    return as_integer_array("position_ids", ids).astype(np.int64)


def packed_position_ids(lengths: Sequence[int]) -> np.ndarray:
    """The position ids of documents packed into one row: `0 .. l0-1, 0 .. l1-1, ...`.

    Each document keeps the positions it would have alone, so its position encoding is the
    one it was trained or will be evaluated with. This is only half of packing:
    `packed_attention_mask` gives the mask that must go with these ids.

    Parameters
    ----------
    lengths : sequence of int
        The number of tokens of each document, in packing order; each `>= 1`, at least one
        document.

    Returns
    -------
    ndarray
        Shape `(sum(lengths),)`, int64: for each token, its index inside its document.

    Raises
    ------
    TypeError
        If `lengths` is not a sequence (a string counts as none), or an entry is not an
        integer (floats and bools are refused).
    ValueError
        If `lengths` is empty, not 1-D, or an entry is `< 1`. Transformers'
        `DataCollatorWithFlattening` silently drops empty documents; here an empty one is
        refused, so a length of 0 does not pass unnoticed.

    References
    ----------
    - M. M. Krell et al., "Efficient Sequence Packing without Cross-contamination:
      Accelerating Large Language Models without Impacting Performance", arXiv:2107.02027,
      2021 (position ids that restart for each packed sequence, with the matching mask).
    - Hugging Face Transformers 5.24, `src/transformers/data/data_collator.py`,
      `DataCollatorWithFlattening.__call__` (`return_position_ids=True`; its
      `position_ids_start` is 0 by default).

    Examples
    --------
    >>> from posenc import packed_position_ids
    >>> print(packed_position_ids([3, 2, 4]))
    [0 1 2 0 1 0 1 2 3]
    """
    sizes = _check_lengths(lengths)
    starts = np.cumsum(sizes) - sizes  # index of each document's first token
    ids: np.ndarray = np.arange(int(sizes.sum()), dtype=np.int64) - np.repeat(starts, sizes)
    return ids


def packed_document_ids(position_ids: ArrayLike) -> np.ndarray:
    """Which document each token belongs to, read from packed position ids.

    A new document starts wherever the position id does not go up by exactly one from the
    token before; the document id is the number of such starts so far. This is the rule of
    Transformers' `find_packed_sequence_indices`, which `create_causal_mask` uses to build
    the mask of a packed row.

    Parameters
    ----------
    position_ids : array_like of int
        Shape `(n,)`, or `(batch, n)` as Transformers' `position_ids` (each row on its own);
        `n >= 1`.

    Returns
    -------
    ndarray
        Same shape as `position_ids`, int64: `0` for the first document of each row, then
        `1, 2, ...`.

    Raises
    ------
    TypeError
        If `position_ids` does not hold integers (bools and floats are refused).
    ValueError
        If `position_ids` is not 1-D or 2-D, or its last dimension is 0.

    Notes
    -----
    Only the steps between ids are read, so a document may start at any id: `[5, 6, 7, 0, 1]`
    is two documents, as are `[0, 1, 2, 0, 1]` and `[0, 1, 1, 2]` (a repeated id starts a new
    one). Two documents whose ids happen to continue each other (`[0, 1, 2]` then `[3, 4]`)
    cannot be told apart and count as one; ids from `packed_position_ids` never do that.

    The flash-attention path of Transformers uses another rule: there a document starts at
    each token whose id equals the smallest id of the row
    (`prepare_fa_kwargs_from_position_ids`). The two agree on ids that restart at the same
    value, such as those of `packed_position_ids`; on `[0, 1, 2, 5, 6]` they do not.

    References
    ----------
    - Hugging Face Transformers 5.24, `src/transformers/masking_utils.py`,
      `find_packed_sequence_indices`; `src/transformers/modeling_flash_attention_utils.py`,
      `prepare_fa_kwargs_from_position_ids`.

    Examples
    --------
    >>> from posenc import packed_document_ids
    >>> print(packed_document_ids([0, 1, 2, 0, 1, 0, 1, 2, 3]))
    [0 0 0 1 1 2 2 2 2]
    >>> print(packed_document_ids([5, 6, 7, 0, 1]))
    [0 0 0 1 1]
    """
    ids = _check_position_ids(position_ids)
    starts = np.diff(ids, axis=-1) != 1  # True where token i + 1 starts a new document
    first = np.zeros((*ids.shape[:-1], 1), dtype=np.int64)
    return np.concatenate([first, np.cumsum(starts, axis=-1, dtype=np.int64)], axis=-1)


def packed_attention_mask(
    lengths: Sequence[int] | None = None,
    *,
    position_ids: ArrayLike | None = None,
    causal: bool = True,
) -> np.ndarray:
    r"""The attention mask of a packed row: each token sees only its own document.

    Entry `[i, j]` is True when token `i` may attend to token `j`: both are in the same
    document and, with `causal`, `j <= i`. The mask is block-diagonal, one block per
    document, each block lower-triangular when `causal`. The documents come from `lengths`,
    or, as Transformers finds them, from `position_ids` (see `packed_document_ids`).

    Parameters
    ----------
    lengths : sequence of int, optional
        The number of tokens of each document, each `>= 1`, as for `packed_position_ids`.
    position_ids : array_like of int, optional
        Packed position ids, shape `(n,)` or `(batch, n)`; a new document starts wherever
        the id does not go up by one. Pass exactly one of `lengths` and `position_ids`.
    causal : bool, default True
        Inside a document, mask the keys after each query (a decoder). False: each token
        sees its whole document (an encoder such as BERT).

    Returns
    -------
    ndarray
        bool, shape `(n, n)` with `n = sum(lengths)` or the length of `position_ids`;
        `(batch, n, n)` for `position_ids` of shape `(batch, n)`. Every row has at least one
        True (the token itself), so no softmax row is empty. For attention with a head
        dimension, add it: `mask[:, None]` for `(batch, 1, n, n)`.

    Raises
    ------
    ValueError
        If both or neither of `lengths` and `position_ids` are given, or either is invalid
        (see `packed_position_ids` and `packed_document_ids`).
    TypeError
        If `causal` is not a bool, or `lengths` or `position_ids` do not hold integers.

    Notes
    -----
    Restarting the position ids without this mask lets every token of a document attend to
    all the documents packed before it: the outputs change although each document was
    meant to be processed alone (huggingface/nanoVLM pull request 204).

    Which of the two a model needs depends on its position encoding. With RoPE, a score
    depends only on the offset between query and key, so inside one block the absolute
    positions do not matter: the mask alone already gives each document the outputs it has
    alone. With absolute (learned or sinusoidal) embeddings added to the tokens, the mask
    alone is not enough; the positions must restart as well. Transformers needs both in
    any case: with `attention_mask=None` and no cache, `create_causal_mask` builds this
    mask from the restarted `position_ids`; given an all-ones `attention_mask`, or a cache
    (`use_cache=True`), it does not, and the documents see each other.

    Use it with `scaled_dot_product_attention` through `mask_to_bias`, which turns False
    into $-\infty$.

    References
    ----------
    - M. M. Krell et al., "Efficient Sequence Packing without Cross-contamination:
      Accelerating Large Language Models without Impacting Performance", arXiv:2107.02027,
      2021 (the block-diagonal mask that keeps packed sequences apart).
    - Hugging Face Transformers 5.24, `src/transformers/masking_utils.py`,
      `find_packed_sequence_indices`, `packed_sequence_mask_function`,
      `_preprocess_mask_arguments` and `create_causal_mask`.

    Examples
    --------
    >>> from posenc import packed_attention_mask, packed_position_ids
    >>> print(packed_attention_mask([3, 2]).astype(int))
    [[1 0 0 0 0]
     [1 1 0 0 0]
     [1 1 1 0 0]
     [0 0 0 1 0]
     [0 0 0 1 1]]
    >>> ids = packed_position_ids([3, 2])
    >>> bool((packed_attention_mask(position_ids=ids) == packed_attention_mask([3, 2])).all())
    True
    >>> print(packed_attention_mask([1, 2], causal=False).astype(int))
    [[1 0 0]
     [0 1 1]
     [0 1 1]]
    """
    if (lengths is None) == (position_ids is None):
        given = "both" if lengths is not None else "neither"
        raise ValueError(f"pass exactly one of lengths and position_ids, got {given}")
    if not isinstance(causal, bool | np.bool_):
        raise TypeError(f"causal must be a bool, got {type(causal).__name__} {causal!r}")
    if lengths is not None:
        sizes = _check_lengths(lengths)
        documents = np.repeat(np.arange(sizes.size), sizes)
    else:
        documents = packed_document_ids(position_ids)  # type: ignore[arg-type]
    mask: np.ndarray = documents[..., :, None] == documents[..., None, :]
    if causal:
        mask &= np.tri(documents.shape[-1], dtype=bool)
    return mask


def mask_to_bias(mask: ArrayLike) -> np.ndarray:
    r"""Turn a boolean attention mask into the bias that applies it: True -> 0, False -> $-\infty$.

    `scaled_dot_product_attention` takes masks as a `bias` added to the scores; a key with
    $-\infty$ gets probability 0 after the softmax.

    Parameters
    ----------
    mask : array_like of bool
        Any shape; True where a query may attend to a key, as `packed_attention_mask` gives.

    Returns
    -------
    ndarray
        Same shape, float64: 0.0 where `mask` is True, `-inf` where it is False. A query row
        with no True gives NaN in attention (no key to attend to).

    Raises
    ------
    TypeError
        If `mask` is not boolean (a 0/1 integer array is refused: 0 would be read as a bias,
        not as "masked").

    References
    ----------
    - A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017, section 3.2.3 (masking
      by setting the scores to $-\infty$ before the softmax).
    - Hugging Face Transformers 5.24, `src/transformers/masking_utils.py`, `eager_mask`
      (the same conversion, with the dtype's smallest number in place of $-\infty$).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import mask_to_bias, packed_attention_mask
    >>> print(mask_to_bias(packed_attention_mask([1, 2])))
    [[  0. -inf -inf]
     [-inf   0. -inf]
     [-inf   0.   0.]]
    """
    allowed = np.asarray(mask)
    if allowed.dtype != np.bool_:
        raise TypeError(
            f"mask must be a boolean array (True = may attend), got an array of dtype "
            f"{allowed.dtype}"
        )
    return np.where(allowed, 0.0, -np.inf)
