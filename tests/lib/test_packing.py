"""Packed sequences: restarted position ids, document ids and the block-diagonal mask.

The attention tests run one causal attention layer (2 heads) on three documents packed into
one row and compare each document's rows with the layer run on that document alone; the
oracle tier does the same with a tiny Llama in Transformers
(tests/oracle/test_packing_oracle.py).
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import (
    apply_rotary,
    embed_positions,
    learned_position_table,
    mask_to_bias,
    packed_attention_mask,
    packed_document_ids,
    packed_position_ids,
    scaled_dot_product_attention,
    sinusoidal_encoding,
)

LENGTHS = [3, 2, 4]
STARTS = np.cumsum(LENGTHS) - LENGTHS
N = sum(LENGTHS)
D_MODEL, N_HEADS, HEAD_DIM = 16, 2, 8
RNG = np.random.default_rng(0)
TOKENS = RNG.normal(size=(N, D_MODEL))  # the token embeddings of the packed row
WEIGHTS = RNG.normal(size=(3, D_MODEL, N_HEADS * HEAD_DIM)) / np.sqrt(D_MODEL)  # W_q, W_k, W_v
LEAK = 0.1  # a difference this large is no rounding error (measured: 0.9 to 2.4)

document_lengths = st.lists(st.integers(1, 6), min_size=1, max_size=6)


def attention_layer(x, positions=None, mask=None):
    """Causal multi-head attention; RoPE on queries and keys when positions are given."""
    q, k, v = (np.swapaxes((x @ w).reshape(len(x), N_HEADS, HEAD_DIM), 0, 1) for w in WEIGHTS)
    if positions is not None:
        q, k = apply_rotary(q, positions), apply_rotary(k, positions)
    bias = None if mask is None else mask_to_bias(mask)
    return scaled_dot_product_attention(q, k, v, bias=bias, causal=True)  # (heads, n, head_dim)


def per_document_difference(packed, alone):
    """The largest difference of each document's rows, packed versus alone."""
    return [
        float(np.abs(packed[:, s : s + n] - alone[:, s : s + n]).max())
        for s, n in zip(STARTS, LENGTHS, strict=True)
    ]


def rope_alone():
    return np.concatenate(
        [
            attention_layer(TOKENS[s : s + n], np.arange(n))
            for s, n in zip(STARTS, LENGTHS, strict=True)
        ],
        axis=1,
    )


def test_packed_position_ids_restart_for_each_document():
    ids = packed_position_ids(LENGTHS)
    np.testing.assert_array_equal(ids, [0, 1, 2, 0, 1, 0, 1, 2, 3])
    assert ids.dtype == np.int64
    np.testing.assert_array_equal(packed_position_ids(np.array([2, 1])), [0, 1, 0])
    np.testing.assert_array_equal(packed_position_ids([4]), np.arange(4))


def test_packed_attention_mask_is_block_diagonal_and_causal():
    expected = [
        [1, 0, 0, 0, 0, 0, 0, 0, 0],
        [1, 1, 0, 0, 0, 0, 0, 0, 0],
        [1, 1, 1, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 0, 0, 0, 0, 0],
        [0, 0, 0, 1, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 1, 0, 0, 0],
        [0, 0, 0, 0, 0, 1, 1, 0, 0],
        [0, 0, 0, 0, 0, 1, 1, 1, 0],
        [0, 0, 0, 0, 0, 1, 1, 1, 1],
    ]
    mask = packed_attention_mask(LENGTHS)
    assert mask.dtype == np.bool_
    np.testing.assert_array_equal(mask, np.array(expected, dtype=bool))
    np.testing.assert_array_equal(
        packed_attention_mask(position_ids=[0, 1, 2, 0, 1, 0, 1, 2, 3]), mask
    )


def test_packed_attention_mask_without_causal_is_full_blocks():
    mask = packed_attention_mask([2, 3], causal=False)
    expected = np.zeros((5, 5), dtype=bool)
    expected[:2, :2] = expected[2:, 2:] = True
    np.testing.assert_array_equal(mask, expected)


@given(document_lengths)
def test_position_ids_give_back_the_documents_of_their_lengths(lengths):
    ids = packed_position_ids(lengths)
    documents = np.repeat(np.arange(len(lengths)), lengths)
    np.testing.assert_array_equal(packed_document_ids(ids), documents)
    for causal in (True, False):
        np.testing.assert_array_equal(
            packed_attention_mask(position_ids=ids, causal=causal),
            packed_attention_mask(lengths, causal=causal),
        )
    # Token i sees the tokens of its document up to itself: its position id + 1 of them.
    np.testing.assert_array_equal(packed_attention_mask(lengths).sum(axis=1), ids + 1)
    np.testing.assert_array_equal(
        packed_attention_mask(lengths, causal=False).sum(axis=1), np.repeat(lengths, lengths)
    )


@pytest.mark.parametrize(
    ("position_ids", "documents"),
    [
        ([5, 6, 7, 0, 1], [0, 0, 0, 1, 1]),  # a document may start anywhere
        ([0, 1, 1, 2], [0, 0, 1, 1]),  # a repeated id starts a new document
        ([0, 1, 2, 3, 4], [0, 0, 0, 0, 0]),  # ids that continue are one document
        ([3, 2, 1], [0, 1, 2]),
        ([7], [0]),
        (np.array([127, 0, 1], dtype=np.int8), [0, 1, 1]),
        (np.array([0, 1, 0], dtype=np.uint8), [0, 0, 1]),
    ],
)
def test_packed_document_ids_start_where_the_ids_do_not_go_up_by_one(position_ids, documents):
    ids = packed_document_ids(position_ids)
    np.testing.assert_array_equal(ids, documents)
    assert ids.dtype == np.int64


def test_batched_position_ids_give_one_mask_per_row():
    ids = np.array([[0, 1, 2, 0, 1], [0, 1, 0, 1, 2]])
    np.testing.assert_array_equal(packed_document_ids(ids), [[0, 0, 0, 1, 1], [0, 0, 1, 1, 1]])
    mask = packed_attention_mask(position_ids=ids)
    assert mask.shape == (2, 5, 5)
    np.testing.assert_array_equal(mask[0], packed_attention_mask([3, 2]))
    np.testing.assert_array_equal(mask[1], packed_attention_mask([2, 3]))


def test_mask_to_bias():
    bias = mask_to_bias(np.array([[True, False], [True, True]]))
    np.testing.assert_array_equal(bias, [[0.0, -np.inf], [0.0, 0.0]])
    assert bias.dtype == np.float64


def test_rope_packed_with_restarted_ids_and_the_mask_equals_each_document_alone():
    packed = attention_layer(TOKENS, packed_position_ids(LENGTHS), packed_attention_mask(LENGTHS))
    np.testing.assert_allclose(packed, rope_alone(), rtol=0, atol=1e-12)


def test_rope_restarted_ids_without_the_mask_leak_across_documents():
    # The bug of nanoVLM pull request 204: the positions restart, but each document still
    # attends to the documents packed before it.
    packed = attention_layer(TOKENS, packed_position_ids(LENGTHS))
    first, second, third = per_document_difference(packed, rope_alone())
    assert first < 1e-12  # the first document has nothing before it
    assert second > LEAK
    assert third > LEAK


def test_rope_the_mask_alone_is_enough_as_scores_depend_on_offsets_only():
    # Positions 3..4 and 5..8 instead of 0..1 and 0..3: every offset inside a block is the same.
    packed = attention_layer(TOKENS, np.arange(N), packed_attention_mask(LENGTHS))
    np.testing.assert_allclose(packed, rope_alone(), rtol=0, atol=1e-12)


ABSOLUTE_TABLES = {
    "sinusoidal": sinusoidal_encoding(16, D_MODEL),
    # Initialised with std 0.5 instead of 0.02, as large as trained rows can be.
    "learned": learned_position_table(16, D_MODEL, std=0.5),
}


@pytest.mark.parametrize("table", ABSOLUTE_TABLES.values(), ids=ABSOLUTE_TABLES.keys())
def test_absolute_embeddings_need_restarted_ids_as_well_as_the_mask(table):
    def layer(x, positions, mask):
        return attention_layer(x + embed_positions(table, positions), mask=mask)

    alone = np.concatenate(
        [
            layer(TOKENS[s : s + n], np.arange(n), None)
            for s, n in zip(STARTS, LENGTHS, strict=True)
        ],
        axis=1,
    )
    mask = packed_attention_mask(LENGTHS)
    both = layer(TOKENS, packed_position_ids(LENGTHS), mask)
    np.testing.assert_allclose(both, alone, rtol=0, atol=1e-12)
    mask_only = per_document_difference(layer(TOKENS, np.arange(N), mask), alone)
    assert mask_only[0] < 1e-12
    assert min(mask_only[1:]) > LEAK  # later documents read the rows of later positions
    ids_only = per_document_difference(layer(TOKENS, packed_position_ids(LENGTHS), None), alone)
    assert min(ids_only[1:]) > LEAK


@pytest.mark.parametrize(
    ("lengths", "error", "message"),
    [
        ([], ValueError, "at least one document"),
        ([3, 0, 2], ValueError, r"lengths\[1\] must be an integer >= 1, got 0"),
        ([3, -1], ValueError, r"lengths\[1\] must be an integer >= 1, got -1"),
        ([2.0, 3], TypeError, r"lengths\[0\] must be an integer >= 1, got float"),
        ([2, True], TypeError, r"lengths\[1\] must be an integer >= 1, got the bool"),
        ("32", TypeError, "lengths must be a sequence of integers"),
        (5, TypeError, "lengths must be a sequence of integers"),
        (np.ones((2, 2), dtype=int), ValueError, r"1-D sequence .* shape \(2, 2\)"),
    ],
)
def test_bad_lengths(lengths, error, message):
    with pytest.raises(error, match=message):
        packed_position_ids(lengths)
    with pytest.raises(error, match=message):
        packed_attention_mask(lengths)


@pytest.mark.parametrize(
    ("position_ids", "error", "message"),
    [
        ([0.0, 1.0], TypeError, "position_ids must hold integers, got an array of dtype float64"),
        ([True, False], TypeError, "position_ids must hold integers"),
        ([], ValueError, r"shape \(n,\) or \(batch, n\) with n >= 1, got shape \(0,\)"),
        (3, ValueError, r"got shape \(\)"),
        (np.zeros((1, 2, 3), dtype=int), ValueError, r"got shape \(1, 2, 3\)"),
    ],
)
def test_bad_position_ids(position_ids, error, message):
    with pytest.raises(error, match=message):
        packed_document_ids(position_ids)
    with pytest.raises(error, match=message):
        packed_attention_mask(position_ids=position_ids)


def test_packed_attention_mask_needs_exactly_one_source():
    with pytest.raises(ValueError, match="exactly one of lengths and position_ids, got both"):
        packed_attention_mask([2], position_ids=[0, 1])
    with pytest.raises(ValueError, match="exactly one of lengths and position_ids, got neither"):
        packed_attention_mask()
    with pytest.raises(TypeError, match="causal must be a bool, got int 1"):
        packed_attention_mask([2], causal=1)


def test_mask_to_bias_refuses_numbers():
    with pytest.raises(TypeError, match=r"mask must be a boolean array .* dtype int64"):
        mask_to_bias(np.array([1, 0]))
