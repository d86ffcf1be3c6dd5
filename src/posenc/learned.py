"""Learned absolute position embeddings: a trained table with one row per position."""

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import check_integer, check_positive_real


def learned_position_table(
    max_positions: int, d_model: int, *, seed: int = 0, std: float = 0.02
) -> np.ndarray:
    """A position embedding table as it is before training: small random values.

    BERT and GPT-2 learn one vector per position, initialised from a normal distribution
    with standard deviation 0.02, and add it to the token embeddings. Training then shapes
    the rows; a row that training never reached stays random.

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
    - J. Devlin et al., "BERT", NAACL 2019, section 3 and appendix A.2.
    - A. Radford et al., "Language Models are Unsupervised Multitask Learners", 2019,
      section 2.3 (GPT-2: 1024 positions).

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


def embed_positions(table: ArrayLike, positions: ArrayLike) -> np.ndarray:
    """Look up the rows of a learned table for the given positions.

    Parameters
    ----------
    table : array_like
        Shape `(max_positions, d_model)`.
    positions : array_like of int
        Any shape; every value in `[0, max_positions - 1]`.

    Returns
    -------
    ndarray
        Shape `positions.shape + (d_model,)`, the dtype of `table`.

    Raises
    ------
    TypeError
        If `positions` does not hold integers.
    ValueError
        If `table` is not 2-D, or a position is negative or `>= max_positions`: the table
        has no row for it, which is why such a model cannot read a longer input.

    Examples
    --------
    >>> from posenc.learned import embed_positions, learned_position_table
    >>> table = learned_position_table(4, 2)
    >>> embed_positions(table, [0, 3]).shape
    (2, 2)
    >>> embed_positions(table, [4])
    Traceback (most recent call last):
    ...
    ValueError: position 4 is beyond the table: max_positions=4, so positions run from 0 to 3
    """
    rows = np.asarray(table)
    if rows.ndim != 2:
        raise ValueError(f"table must have shape (max_positions, d_model), got {rows.shape}")
    where = np.asarray(positions)
    if where.dtype == np.bool_ or not np.issubdtype(where.dtype, np.integer):
        raise TypeError(f"positions must hold integers, got an array of dtype {where.dtype}")
    max_positions = rows.shape[0]
    outside = (where < 0) | (where >= max_positions)
    if np.any(outside):
        bad = int(where[outside].flat[0])
        raise ValueError(
            f"position {bad} is beyond the table: max_positions={max_positions}, "
            f"so positions run from 0 to {max_positions - 1}"
        )
    return rows[where]
