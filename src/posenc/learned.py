"""Learned absolute position embeddings: a trained table with one row per position."""

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_integer_array, check_integer, check_positive_real


def learned_position_table(
    max_positions: int, d_model: int, *, seed: int = 0, std: float = 0.02
) -> np.ndarray:
    """A position embedding table as it is before training: small random values.

    BERT and GPT-2 learn one vector per position and add it to the token embeddings. Both
    start it from small random values: GPT-2's released code draws its position table from
    a normal distribution with standard deviation 0.01 (its token table 0.02); BERT's from a
    normal truncated at two standard deviations, with standard deviation 0.02. Hugging
    Face's re-implementations use a plain normal with `initializer_range` 0.02 for both.
    Training then shapes the rows; a row that training never reached stays random.

    Parameters
    ----------
    max_positions : int
        Rows of the table, `>= 1`: the longest input the model can read (512 in BERT,
        1024 in GPT-2).
    d_model : int
        Size of each row, `>= 1`.
    seed : int, default 0
        Seed of the random generator (`numpy.random.default_rng`): same seed, same table.
    std : float, default 0.02
        Standard deviation of the initial values, `> 0`.

    Returns
    -------
    ndarray
        Shape `(max_positions, d_model)`, float64.

    Raises
    ------
    TypeError
        If a size or the seed is not an integer, or `std` is not a real number.
    ValueError
        If a size is `< 1`, the seed is negative, or `std` is not finite and `> 0`.

    References
    ----------
    - J. Devlin et al., "BERT", NAACL 2019, section 3 and appendix A.2; the BERT code,
      `google-research/bert`, `modeling.py` (`embedding_postprocessor`,
      `create_initializer`: `truncated_normal_initializer(stddev=0.02)`).
    - A. Radford et al., "Language Models are Unsupervised Multitask Learners", 2019,
      section 2.3 (GPT-2: 1024 positions); the GPT-2 code, `openai/gpt-2`, `src/model.py`
      (`wpe` with `stddev=0.01`, `wte` with `stddev=0.02`).

    Examples
    --------
    >>> from posenc.learned import learned_position_table
    >>> table = learned_position_table(512, 64)
    >>> table.shape
    (512, 64)
    """
    max_positions = check_integer("max_positions", max_positions, minimum=1)
    d_model = check_integer("d_model", d_model, minimum=1)
    seed = check_integer("seed", seed, minimum=0)
    std = check_positive_real("std", std)
    return np.random.default_rng(seed).normal(0.0, std, size=(max_positions, d_model))


def embed_positions(
    table: ArrayLike, positions: ArrayLike, *, start: int = 0, offset: int = 0
) -> np.ndarray:
    """Look up the rows of a learned table: `table[start + positions + offset]`.

    `start` moves the positions: when decoding with a key/value cache, the new tokens
    `0 .. n - 1` of a step stand at `start .. start + n - 1`, with `start` the number of
    tokens already in the cache (`past_seen_tokens` in Hugging Face's GPT-2 and OPT).

    `offset` is something else, a property of the table: some models keep rows at its start
    that no position uses. OPT and BART look up position `p` in row `p + 2` (`offset=2`;
    Hugging Face Transformers, `OPTLearnedPositionalEmbedding` and
    `BartLearnedPositionalEmbedding`), and RoBERTa numbers its positions from
    `padding_idx + 1 = 2` (`create_position_ids_from_input_ids`), so its 514-row table holds
    512 positions. Loading such a table, pass the model's offset.

    Parameters
    ----------
    table : array_like
        Shape `(max_positions, d_model)`.
    positions : array_like of int
        Any shape; every `start + position + offset` in `[0, max_positions - 1]`.
    start : int, default 0
        Position of the first token of this step, `>= 0`: added to every position.
    offset : int, default 0
        Rows of the table before position 0, `>= 0`: added to every position too.

    Returns
    -------
    ndarray
        Shape `positions.shape + (d_model,)`, the dtype of `table`.

    Raises
    ------
    TypeError
        If `positions` does not hold integers, or `start` or `offset` is not an integer.
    ValueError
        If `table` is not 2-D, `start` or `offset` is negative, or a position (with `start`
        added) falls outside the table: the
        table has no row for it, which is why such a model cannot read a longer input.

    References
    ----------
    - Hugging Face Transformers, `src/transformers/models/opt/modeling_opt.py`
      (`OPTLearnedPositionalEmbedding`, offset 2) and
      `src/transformers/models/bart/modeling_bart.py` (`BartLearnedPositionalEmbedding`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.learned import embed_positions, learned_position_table
    >>> table = learned_position_table(4, 2)
    >>> embed_positions(table, [0, 3]).shape
    (2, 2)
    >>> bool(np.array_equal(embed_positions(table, [0, 1], offset=2), table[[2, 3]]))
    True
    >>> bool(np.array_equal(embed_positions(table, [0], start=3), table[[3]]))  # decoding
    True
    >>> embed_positions(table, [4])
    Traceback (most recent call last):
    ...
    ValueError: position 4 is beyond the table: max_positions=4, so positions run from 0 to 3
    """
    rows = np.asarray(table)
    if rows.ndim != 2:
        raise ValueError(f"table must have shape (max_positions, d_model), got {rows.shape}")
    where = as_integer_array("positions", positions)
    start = check_integer("start", start, minimum=0)
    offset = check_integer("offset", offset, minimum=0)
    where = where.astype(np.int64) + start
    max_positions = rows.shape[0]
    last = max_positions - 1 - offset
    outside = (where < 0) | (where > last)
    if np.any(outside):
        bad = int(where[outside].flat[0])
        table_size = f"max_positions={max_positions}" + (f" and offset={offset}" if offset else "")
        if last < 0:
            raise ValueError(f"position {bad} is beyond the table: {table_size} leave no row")
        raise ValueError(
            f"position {bad} is beyond the table: {table_size}, so positions run from 0 to {last}"
        )
    looked_up: np.ndarray = rows[where + offset]
    return looked_up
