"""Cached decoding: a key/value cache, filled chunk by chunk, gives the outputs of full attention.

For each encoding, a small causal attention layer runs once over the whole sequence, and
again over chunks of it (one token at a time, or a prompt in pieces as in chunked prefill),
keeping the keys and values of the earlier chunks. The encodings take the new chunk's
position (`start`, `query_start`) and the causal mask is aligned bottom-right.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import (
    alibi_bias,
    apply_rotary,
    embed_positions,
    learned_position_table,
    relative_position_buckets,
    scaled_dot_product_attention,
    sinusoidal_encoding,
)

D_MODEL, HEAD_DIM, N_HEADS, MAX_LEN = 8, 4, 2, 64
ENCODINGS = ["sinusoidal", "learned", "rotary", "alibi", "t5"]


class Layer:
    """One causal multi-head attention layer with random weights and one position encoding."""

    def __init__(self, encoding: str, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.encoding = encoding
        self.w_q, self.w_k, self.w_v = rng.normal(size=(3, N_HEADS, D_MODEL, HEAD_DIM))
        self.table = learned_position_table(MAX_LEN, D_MODEL, seed=seed, std=0.5)
        self.t5_bias = rng.normal(size=(32, N_HEADS))  # one value per bucket and head

    def __call__(self, x: np.ndarray, start: int, cache: dict) -> np.ndarray:
        """Attend from the chunk `x` (tokens `start ..`) over the cache and the chunk."""
        n = len(x)
        if self.encoding == "sinusoidal":
            x = x + sinusoidal_encoding(n, D_MODEL, start=start)
        elif self.encoding == "learned":
            x = x + embed_positions(self.table, np.arange(n), start=start)
        q, k, v = (x @ w for w in (self.w_q, self.w_k, self.w_v))  # (N_HEADS, n, HEAD_DIM)
        if self.encoding == "rotary":
            positions = start + np.arange(n)
            q, k = apply_rotary(q, positions), apply_rotary(k, positions)
        cache["k"] = np.concatenate([cache.get("k", k[:, :0]), k], axis=1)
        cache["v"] = np.concatenate([cache.get("v", v[:, :0]), v], axis=1)
        n_keys = cache["k"].shape[1]
        bias, scale = None, None
        if self.encoding == "alibi":
            bias = alibi_bias(N_HEADS, n, n_keys)  # queries: the last n of n_keys positions
        elif self.encoding == "t5":
            buckets = relative_position_buckets(n, n_keys, bidirectional=False)
            bias, scale = np.moveaxis(self.t5_bias[buckets], -1, 0), 1.0
        return scaled_dot_product_attention(
            q, cache["k"], cache["v"], bias=bias, causal=True, scale=scale
        )


def decode(layer: Layer, x: np.ndarray, chunk_sizes: list[int]) -> np.ndarray:
    cache: dict = {}
    outputs, start = [], 0
    for size in chunk_sizes:
        outputs.append(layer(x[start : start + size], start, cache))
        start += size
    return np.concatenate(outputs, axis=1)


def chunkings(n: int) -> st.SearchStrategy[list[int]]:
    """Ways to cut n tokens into consecutive chunks."""
    if n == 1:
        return st.just([1])
    return st.sets(st.integers(1, n - 1), max_size=n - 1).map(
        lambda cuts: np.diff([0, *sorted(cuts), n]).tolist()
    )


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=40, deadline=None)
@given(data=st.data(), n=st.integers(1, 24), seed=st.integers(0, 2**16))
def test_cached_decoding_equals_full_attention(encoding, data, n, seed):
    layer = Layer(encoding, seed)
    x = np.random.default_rng(seed).normal(size=(n, D_MODEL))
    full = decode(layer, x, [n])
    chunks = data.draw(chunkings(n), label="chunk sizes")
    np.testing.assert_allclose(decode(layer, x, chunks), full, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_one_token_at_a_time(encoding):
    layer = Layer(encoding, 7)
    x = np.random.default_rng(7).normal(size=(30, D_MODEL))
    np.testing.assert_allclose(
        decode(layer, x, [1] * 30), decode(layer, x, [30]), rtol=1e-10, atol=1e-12
    )


def test_a_top_left_mask_would_break_decoding():
    # With PyTorch's is_causal alignment (top-left), a decoding step's query would see only
    # the first key: the cached result would differ. The bottom-right mask is what makes the
    # property tests above pass.
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 5, 4))
    full = scaled_dot_product_attention(q, k, v, causal=True)
    last = scaled_dot_product_attention(q[4:], k, v, causal=True)
    np.testing.assert_allclose(last, full[4:])
    top_left = np.triu(np.full((1, 5), -np.inf), k=1)  # query 0 of 1 sees key 0 only
    wrong = scaled_dot_product_attention(q[4:], k, v, bias=top_left)
    np.testing.assert_allclose(wrong, v[:1])
    assert not np.allclose(wrong, full[4:])


# --- the pieces: start positions and query offsets -------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 40), st.integers(0, 2000), st.integers(1, 33))
def test_sinusoidal_start_gives_the_rows_of_the_longer_table(n, start, d_model):
    for layout in ("interleaved", "concatenated"):
        np.testing.assert_allclose(
            sinusoidal_encoding(n, d_model, start=start, layout=layout),
            sinusoidal_encoding(start + n, d_model, layout=layout)[start:],
            rtol=0,
            atol=1e-15,
        )


def test_sinusoidal_start_far_out_matches_the_formula():
    # Positions around 2**25: the block method's exact shifts, from the start position on.
    start, n, d_model = 2**25 - 100, 300, 64
    pe = sinusoidal_encoding(n, d_model, start=start)
    positions = start + np.arange(n, dtype=np.float64)[:, None]
    angles = positions / 10000.0 ** (np.arange(0, d_model, 2) / d_model)
    np.testing.assert_allclose(pe[:, 0::2], np.sin(angles), rtol=0, atol=1e-15)
    np.testing.assert_allclose(pe[:, 1::2], np.cos(angles), rtol=0, atol=1e-15)


def test_learned_start_shifts_positions_and_offset_stays_a_table_property():
    table = learned_position_table(12, 3)
    np.testing.assert_array_equal(embed_positions(table, [0, 1], start=5), table[[5, 6]])
    np.testing.assert_array_equal(embed_positions(table, [0, 1], start=5, offset=2), table[[7, 8]])
    with pytest.raises(ValueError, match="position 10 is beyond the table: max_positions=12 and"):
        embed_positions(table, [0, 1], start=9, offset=2)
    with pytest.raises(ValueError, match="start must be an integer >= 0"):
        embed_positions(table, [0], start=-1)


def test_alibi_and_t5_rows_for_a_query_offset_are_rows_of_the_full_matrix():
    full = alibi_bias(4, 10)
    np.testing.assert_array_equal(alibi_bias(4, 3, 10), full[:, 7:])
    np.testing.assert_array_equal(alibi_bias(4, 3, 10, query_start=2), full[:, 2:5])
    symmetric = alibi_bias(4, 10, causal=False)
    np.testing.assert_array_equal(alibi_bias(4, 2, 10, causal=False), symmetric[:, 8:])
    for bidirectional in (True, False):
        buckets = relative_position_buckets(10, 10, bidirectional=bidirectional)
        np.testing.assert_array_equal(
            relative_position_buckets(1, 10, bidirectional=bidirectional), buckets[9:]
        )
        np.testing.assert_array_equal(
            relative_position_buckets(2, 10, bidirectional=bidirectional, query_start=3),
            buckets[3:5],
        )


def test_causal_mask_is_bottom_right_aligned():
    q = np.zeros((2, 4))  # equal scores: each query averages the keys it sees
    v = np.eye(5)
    out = scaled_dot_product_attention(q, np.zeros((5, 4)), v, causal=True)
    np.testing.assert_allclose(out, [[0.25, 0.25, 0.25, 0.25, 0], [0.2, 0.2, 0.2, 0.2, 0.2]])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: alibi_bias(2, 4, 3), "query_start defaults to n_keys - n_queries"),
        (lambda: alibi_bias(2, 4, 3, query_start=-1), "query_start must be an integer >= 0"),
        (lambda: relative_position_buckets(4, 3), "needs n_queries <= n_keys"),
        (
            lambda: scaled_dot_product_attention(
                np.ones((4, 2)), np.ones((3, 2)), np.ones((3, 2)), causal=True
            ),
            r"causal attention needs n_q <= n_k .* got n_q=4 and n_k=3",
        ),
        (lambda: sinusoidal_encoding(2, 4, start=-1), "start must be an integer >= 0"),
    ],
)
def test_bad_offsets(call, message):
    with pytest.raises(ValueError, match=message):
        call()
