"""Attention sinks: learned sink logits, and StreamingLLM's rolling cache with its positions.

The StreamingLLM tests decode a stream one token at a time through a small RoPE attention
layer whose cache keeps `n_sink` first and `window` last tokens, and compare every step with
attention computed afresh over the kept tokens placed at positions `0 .. n - 1`.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc import (
    apply_rotary,
    attention_with_sinks,
    rerotate_keys,
    rotary_frequencies,
    scaled_dot_product_attention,
    streaming_cache_indices,
    streaming_cache_positions,
)

N_HEADS, N_Q, N_K, HEAD_DIM = 3, 4, 6, 8


def qkv(seed: int, n_q: int = N_Q, n_k: int = N_K) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=(N_HEADS, n_q, HEAD_DIM)),
        rng.normal(size=(N_HEADS, n_k, HEAD_DIM)),
        rng.normal(size=(N_HEADS, n_k, HEAD_DIM)),
    )


def weights_of(q, k, sinks, **kwargs) -> np.ndarray:
    """The attention weights: the output for values that are the identity matrix."""
    identity = np.broadcast_to(np.eye(k.shape[-2]), (*k.shape[:-2], k.shape[-2], k.shape[-2]))
    return attention_with_sinks(q, k, identity, sinks, **kwargs)


# --- attention_with_sinks ---------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"causal": True}, {"scale": 1.0}, {"bias": "window"}],
    ids=["plain", "causal", "scale", "bias"],
)
def test_a_sink_of_minus_infinity_is_plain_attention(kwargs):
    q, k, v = qkv(0)
    if kwargs.get("bias") == "window":  # a sliding window of 3 keys, bottom-right
        offsets = np.arange(N_K) - (N_K - N_Q + np.arange(N_Q))[:, None]
        kwargs = {"bias": np.where((offsets > 0) | (offsets < -2), -np.inf, 0.0)}
    off = np.full(N_HEADS, -np.inf)
    np.testing.assert_allclose(
        attention_with_sinks(q, k, v, off, **kwargs),
        scaled_dot_product_attention(q, k, v, **kwargs),
        rtol=1e-13,
        atol=1e-14,
    )


def test_the_weights_match_the_formula_and_rows_sum_to_less_than_one():
    q, k, _ = qkv(1)
    sinks = np.array([-1.0, 0.5, 2.0])
    exp_scores = np.exp(q @ np.swapaxes(k, -1, -2) / np.sqrt(HEAD_DIM))
    expected = exp_scores / (np.exp(sinks)[:, None, None] + exp_scores.sum(-1, keepdims=True))
    weights = weights_of(q, k, sinks)
    np.testing.assert_allclose(weights, expected, rtol=1e-12)
    totals = weights.sum(-1)
    assert np.all(totals < 1)
    # The larger a head's sink, the more weight it takes: head 2 keeps the least for tokens.
    assert np.all(totals[2] < totals[0])


def test_a_hand_computed_case():
    # Zero scores: each of the 3 keys gets e^0 = 1, the sink e^ln3 = 3, so 1/6 per key.
    q, k = np.zeros((1, 2, 4)), np.ones((1, 3, 4))
    np.testing.assert_allclose(weights_of(q, k, [np.log(3.0)]), np.full((1, 2, 3), 1 / 6))
    # A sink of 0 with zero scores is Miller's softmax plus one: 1 / (n + 1) per key.
    np.testing.assert_allclose(weights_of(q, k, [0.0]), np.full((1, 2, 3), 1 / 4))


def test_causal_sinks_are_bottom_right_and_never_masked():
    q, k, _ = qkv(2, n_q=2, n_k=4)
    sinks = np.zeros(N_HEADS)
    weights = weights_of(q, k, sinks, causal=True)
    # Query 0 stands at position 2: it sees keys 0..2, not key 3.
    assert np.all(weights[:, 0, 3] == 0)
    assert np.all(weights[:, 0, :3] > 0)
    exp_scores = np.exp(np.einsum("hd,hkd->hk", q[:, 0], k[:, :3]) / np.sqrt(HEAD_DIM))
    np.testing.assert_allclose(
        weights[:, 0, :3], exp_scores / (1 + exp_scores.sum(-1, keepdims=True)), rtol=1e-12
    )


def test_a_row_with_every_key_masked_gives_zeros():
    q, k, v = qkv(3)
    bias = np.zeros((N_Q, N_K))
    bias[1] = -np.inf
    out = attention_with_sinks(q, k, v, np.zeros(N_HEADS), bias=bias)
    np.testing.assert_array_equal(out[:, 1], 0.0)
    assert np.all(np.isfinite(out))


def test_batches_grouped_keys_and_float32():
    rng = np.random.default_rng(4)
    q = rng.normal(size=(2, N_HEADS, N_Q, HEAD_DIM)).astype(np.float32)
    k = rng.normal(size=(2, 1, N_K, HEAD_DIM)).astype(np.float32)  # one key head for all
    v = rng.normal(size=(2, 1, N_K, 5)).astype(np.float32)
    sinks = np.array([0.0, 1.0, -1.0], dtype=np.float32)
    out = attention_with_sinks(q, k, v, sinks, causal=True)
    assert out.shape == (2, N_HEADS, N_Q, 5)
    assert out.dtype == np.float32
    for b in range(2):
        for h in range(N_HEADS):
            one = attention_with_sinks(q[b, h][None], k[b], v[b], sinks[h : h + 1], causal=True)
            np.testing.assert_allclose(out[b, h], one[0], rtol=1e-5)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((np.zeros((2, 4)),) * 3 + ([0.0],), {}, ValueError, "at least 3 dimensions"),
        ((*qkv(0), np.zeros(2)), {}, ValueError, r"sinks must have shape \(n_heads,\) = \(3,\)"),
        ((*qkv(0), np.zeros((3, 1))), {}, ValueError, "sinks must have shape"),
        ((*qkv(0), [0.0, np.nan, 0.0]), {}, ValueError, "NaN or \\+inf"),
        ((*qkv(0), [0.0, np.inf, 0.0]), {}, ValueError, "NaN or \\+inf"),
        ((*qkv(0), ["a", "b", "c"]), {}, TypeError, "sinks must hold real numbers"),
        ((*qkv(0, n_q=7), np.zeros(3)), {"causal": True}, ValueError, "n_q <= n_k"),
        ((*qkv(0), np.zeros(3)), {"bias": np.zeros((4, 7))}, ValueError, r"\(3, 4, 6\)"),
        ((*qkv(0), np.zeros(3)), {"scale": 0.0}, ValueError, "scale"),
        ((*qkv(0)[:2], np.zeros((3, 5, 8)), np.zeros(3)), {}, ValueError, "n_k"),
    ],
    ids=[
        "2-d",
        "sinks-size",
        "sinks-2d",
        "sinks-nan",
        "sinks-inf",
        "sinks-str",
        "causal",
        "bias",
        "scale",
        "values",
    ],
)
def test_bad_input_names_the_parameter(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        attention_with_sinks(*args, **kwargs)


# --- the StreamingLLM cache -----------------------------------------------------------


@given(st.integers(0, 40), st.integers(0, 6), st.integers(1, 10))
def test_the_cache_holds_the_first_and_the_last_tokens(n_tokens, n_sink, window):
    kept = streaming_cache_indices(n_tokens, n_sink=n_sink, window=window)
    assert len(kept) == min(n_tokens, n_sink + window)
    assert np.all(np.diff(kept) > 0)  # increasing, so no repeats
    assert set(range(min(n_sink, n_tokens))) <= set(kept.tolist())
    assert set(range(max(0, n_tokens - window), n_tokens)) <= set(kept.tolist())
    positions = streaming_cache_positions(n_tokens, n_sink=n_sink, window=window)
    np.testing.assert_array_equal(positions, np.arange(len(kept)))


def test_cache_values():
    np.testing.assert_array_equal(
        streaming_cache_indices(12, n_sink=4, window=4), [0, 1, 2, 3, 8, 9, 10, 11]
    )
    np.testing.assert_array_equal(streaming_cache_indices(5, n_sink=4, window=4), np.arange(5))
    np.testing.assert_array_equal(streaming_cache_indices(0, window=4), [])
    np.testing.assert_array_equal(streaming_cache_indices(9, n_sink=0, window=3), [6, 7, 8])


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n_tokens": -1, "window": 2}, ValueError, "n_tokens"),
        ({"n_tokens": 3, "n_sink": -1, "window": 2}, ValueError, "n_sink"),
        ({"n_tokens": 3, "window": 0}, ValueError, "window"),
        ({"n_tokens": 3.0, "window": 2}, TypeError, "n_tokens"),
    ],
)
def test_bad_cache_arguments(kwargs, error, match):
    for function in (streaming_cache_indices, streaming_cache_positions):
        with pytest.raises(error, match=match):
            function(**kwargs)


INV_FREQ = rotary_frequencies(HEAD_DIM)


def stream(seed: int, n_tokens: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Queries, keys and values (before RoPE) of a stream: shape (N_HEADS, n_tokens, HEAD_DIM)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n_tokens, 16))
    w_q, w_k, w_v = rng.normal(size=(3, N_HEADS, 16, HEAD_DIM)) / 4
    return x @ w_q, x @ w_k, x @ w_v


def attend(q: np.ndarray, q_position: int, k: np.ndarray, k_positions, v: np.ndarray):
    """One query (before RoPE) at `q_position` over keys (before RoPE) at `k_positions`."""
    q_rot = apply_rotary(q, [q_position], inv_freq=INV_FREQ)
    k_rot = apply_rotary(k, k_positions, inv_freq=INV_FREQ)
    return scaled_dot_product_attention(q_rot, k_rot, v)


def reference(q, k, v, t: int, n_sink: int, window: int) -> np.ndarray:
    """Token t over the kept tokens (itself included), placed at positions 0 .. n - 1."""
    kept = streaming_cache_indices(t + 1, n_sink=n_sink, window=window)
    positions = streaming_cache_positions(t + 1, n_sink=n_sink, window=window)
    return attend(q[:, t : t + 1], len(kept) - 1, k[:, kept], positions, v[:, kept])


def decode(q, k, v, n_sink: int, window: int, *, rotated: bool) -> np.ndarray:
    """Decode token by token with a rolling cache.

    `rotated=False`: the cache holds keys before RoPE and rotates them with their cache
    positions at every step (StreamingLLM's code). `rotated=True`: it holds keys rotated
    at their cache positions, and moves them with `rerotate_keys` after an eviction.
    """
    outputs = []
    cache_k, cache_v, tokens = k[:, :0], v[:, :0], np.arange(0)
    for t in range(k.shape[1]):
        new_k = k[:, t : t + 1]
        if rotated:
            new_k = apply_rotary(new_k, [len(tokens)], inv_freq=INV_FREQ)
        cache_k = np.concatenate([cache_k, new_k], axis=1)
        cache_v = np.concatenate([cache_v, v[:, t : t + 1]], axis=1)
        tokens = np.append(tokens, t)
        n = len(tokens)
        q_rot = apply_rotary(q[:, t : t + 1], [n - 1], inv_freq=INV_FREQ)
        keys = cache_k if rotated else apply_rotary(cache_k, np.arange(n), inv_freq=INV_FREQ)
        outputs.append(scaled_dot_product_attention(q_rot, keys, cache_v))
        # Make room for the next token, as StreamingLLM's StartRecentKVCache.evict_for_space:
        # when full, keep the first n_sink and the last window - 1.
        keep = np.ones(n, dtype=bool)
        if n + 1 > n_sink + window:
            keep[n_sink : n - (window - 1)] = False
        if rotated:
            old = np.flatnonzero(keep)
            cache_k = rerotate_keys(
                cache_k[:, old],
                from_positions=old,
                to_positions=np.arange(len(old)),
                inv_freq=INV_FREQ,
            )
        else:
            cache_k = cache_k[:, keep]
        cache_v, tokens = cache_v[:, keep], tokens[keep]
    return np.concatenate(outputs, axis=1)


@pytest.mark.parametrize("n_tokens", [3, 7, 8, 9, 20])
@pytest.mark.parametrize("rotated", [False, True], ids=["keys before RoPE", "re-rotated"])
def test_decoding_with_the_cache_is_attention_over_the_kept_tokens(n_tokens, rotated):
    n_sink, window = 2, 5  # n_tokens 3 and 7 never evict; 8, 9 and 20 do
    q, k, v = stream(5, n_tokens)
    expected = np.concatenate(
        [reference(q, k, v, t, n_sink, window) for t in range(n_tokens)], axis=1
    )
    np.testing.assert_allclose(decode(q, k, v, n_sink, window, rotated=rotated), expected)


def test_keeping_the_original_positions_differs_once_tokens_were_evicted():
    n_sink, window, n_tokens = 2, 5, 12
    q, k, v = stream(6, n_tokens)
    for t in range(n_tokens):
        kept = streaming_cache_indices(t + 1, n_sink=n_sink, window=window)
        naive = attend(q[:, t : t + 1], t, k[:, kept], kept, v[:, kept])
        streaming = reference(q, k, v, t, n_sink, window)
        if t + 1 <= n_sink + window:
            np.testing.assert_allclose(naive, streaming)  # nothing evicted: the same
        else:
            assert not np.allclose(naive, streaming)  # the sinks are far away in the text


def test_without_sinks_the_positions_do_not_matter():
    # RoPE sees only offsets; a plain window keeps the offsets of the text.
    window, n_tokens = 4, 10
    q, k, v = stream(7, n_tokens)
    t = n_tokens - 1
    kept = streaming_cache_indices(n_tokens, n_sink=0, window=window)
    np.testing.assert_allclose(
        attend(q[:, t : t + 1], t, k[:, kept], kept, v[:, kept]),
        reference(q, k, v, t, 0, window),
    )


# --- rerotate_keys ------------------------------------------------------------------------


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize("rotary_dim", [None, 4])
def test_rerotating_equals_rotating_at_the_new_positions(layout, rotary_dim):
    head_dim = HEAD_DIM
    inv_freq = rotary_frequencies(head_dim, base=500000.0, rotary_dim=rotary_dim)
    keys = np.random.default_rng(8).normal(size=(2, N_HEADS, 5, head_dim))
    start = np.array([[0, 1, 40, 41, 42], [0, 1, 100, 101, 102]])  # batch of 2
    end = np.arange(5)
    cached = apply_rotary(keys, start, inv_freq=inv_freq, layout=layout)
    moved = rerotate_keys(
        cached, from_positions=start, to_positions=end, inv_freq=inv_freq, layout=layout
    )
    np.testing.assert_allclose(
        moved, apply_rotary(keys, end, inv_freq=inv_freq, layout=layout), atol=1e-12
    )


def test_rerotating_to_the_same_positions_changes_nothing_and_keeps_float32():
    keys = np.random.default_rng(9).normal(size=(4, HEAD_DIM)).astype(np.float32)
    same = rerotate_keys(
        keys, from_positions=[3, 4, 5, 6], to_positions=[3, 4, 5, 6], inv_freq=INV_FREQ
    )
    assert same.dtype == np.float32
    np.testing.assert_array_equal(same, keys)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"from_positions": [0, 1], "to_positions": [0, 1, 2]}, ValueError, "from_positions"),
        ({"from_positions": [0, 1, 2], "to_positions": [[0, 1, 2]] * 4}, ValueError, "to_pos"),
        ({"from_positions": [0, 1, np.nan], "to_positions": [0, 1, 2]}, ValueError, "finite"),
        ({"from_positions": ["a"] * 3, "to_positions": [0, 1, 2]}, TypeError, "from_positions"),
        (
            {"from_positions": [0, 1, 2], "to_positions": [0, 1, 2], "inv_freq": np.ones(5)},
            ValueError,
            "inv_freq",
        ),
        (
            {"from_positions": [0, 1, 2], "to_positions": [0, 1, 2], "layout": "neox"},
            ValueError,
            "layout",
        ),
    ],
)
def test_bad_rerotate_arguments(kwargs, error, match):
    kwargs = {"inv_freq": INV_FREQ, **kwargs}
    with pytest.raises(error, match=match):
        rerotate_keys(np.zeros((2, 3, HEAD_DIM)), **kwargs)
