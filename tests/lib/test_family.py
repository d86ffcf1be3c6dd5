"""Learned embeddings, ALiBi, T5 buckets, general attention, and the sinusoidal shift property."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import (
    alibi_bias,
    alibi_slopes,
    embed_positions,
    learned_position_table,
    relative_position_bucket,
    relative_position_buckets,
    scaled_dot_product_attention,
    self_attention,
    sinusoidal_encoding,
)

# --- learned ---------------------------------------------------------------------------------


def test_learned_table_is_seeded_small_and_shaped():
    a, b = learned_position_table(512, 32), learned_position_table(512, 32)
    np.testing.assert_array_equal(a, b)
    assert a.shape == (512, 32)
    assert a.std() == pytest.approx(0.02, rel=0.05)
    assert not np.array_equal(a, learned_position_table(512, 32, seed=1))


def test_lookup_with_an_offset_skips_the_first_rows():
    # OPT and BART: position p is row p + 2, so a table of 10 rows holds positions 0..7.
    table = learned_position_table(10, 3)
    np.testing.assert_array_equal(embed_positions(table, [0, 7], offset=2), table[[2, 9]])
    with pytest.raises(
        ValueError, match="max_positions=10 and offset=2, so positions run from 0 to 7"
    ):
        embed_positions(table, [8], offset=2)
    with pytest.raises(ValueError, match="offset must be an integer >= 0"):
        embed_positions(table, [0], offset=-1)
    with pytest.raises(ValueError, match="leave no row"):
        embed_positions(learned_position_table(2, 3), [0], offset=2)


def test_lookup_returns_rows_and_refuses_positions_past_the_table():
    table = learned_position_table(512, 8)
    np.testing.assert_array_equal(embed_positions(table, [[0, 511]]), table[[[0, 511]]])
    with pytest.raises(ValueError, match="position 512 is beyond the table: max_positions=512"):
        embed_positions(table, np.arange(513))
    with pytest.raises(ValueError, match="position -1 is beyond the table"):
        embed_positions(table, [-1])
    with pytest.raises(TypeError, match="positions must hold integers"):
        embed_positions(table, [1.0])
    with pytest.raises(ValueError, match="table must have shape"):
        embed_positions(np.ones(3), [0])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_positions": 0, "d_model": 4}, "max_positions must be an integer >= 1"),
        ({"max_positions": 4, "d_model": 4, "std": 0.0}, "std must be a finite real number > 0"),
        ({"max_positions": 4, "d_model": 4, "seed": -1}, "seed must be an integer >= 0"),
    ],
)
def test_learned_table_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        learned_position_table(**kwargs)


# --- ALiBi -----------------------------------------------------------------------------------


def test_alibi_slopes_for_eight_heads_are_the_papers():
    np.testing.assert_array_equal(alibi_slopes(8), [2.0**-k for k in range(1, 9)])


def test_alibi_slopes_for_powers_of_two_start_at_two_to_minus_eight_over_n():
    for n in (1, 2, 4, 16, 32, 64):
        slopes = alibi_slopes(n)
        assert slopes[0] == pytest.approx(2 ** (-8 / n))
        np.testing.assert_allclose(slopes[1:] / slopes[:-1], slopes[0])


def test_alibi_slopes_for_twelve_heads_follow_the_reference_code():
    # The 8 slopes of 8 heads, then slopes 1, 3, 5, 7 (1-based) of 16 heads: 2^-0.5, 2^-1.5, ...
    expected = [2.0**-k for k in range(1, 9)] + [2.0 ** -(k + 0.5) for k in range(4)]
    np.testing.assert_allclose(alibi_slopes(12), expected)
    # 5 heads: the 4 slopes of 4 heads (1/4 ... 1/256), then the first slope of 8 heads.
    np.testing.assert_array_equal(alibi_slopes(5), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2])


def test_alibi_bias_causal_and_symmetric():
    causal, symmetric = alibi_bias(4, 5), alibi_bias(4, 5, causal=False)
    assert causal.shape == symmetric.shape == (4, 5, 5)
    slope = alibi_slopes(4)[2]
    assert causal[2, 4, 1] == pytest.approx(-3 * slope)
    assert causal[2, 1, 4] == -np.inf
    assert symmetric[2, 1, 4] == pytest.approx(-3 * slope)
    np.testing.assert_array_equal(np.diagonal(causal, axis1=1, axis2=2), 0.0)
    np.testing.assert_array_equal(symmetric, np.swapaxes(symmetric, 1, 2))


def test_alibi_bad_arguments():
    with pytest.raises(ValueError, match="n_heads must be an integer >= 1"):
        alibi_slopes(0)
    with pytest.raises(TypeError, match="n_queries must be an integer"):
        alibi_bias(2, 3.5)
    with pytest.raises(ValueError, match="n_keys must be an integer >= 0"):
        alibi_bias(2, 3, -1)


# --- T5 buckets ------------------------------------------------------------------------------


def t5_bucket_scalar(relative, bidirectional, num_buckets, max_distance):
    """The bucketing of the T5 paper's code, written out for one number."""
    bucket, n = 0, -relative
    if bidirectional:
        num_buckets //= 2
        bucket += num_buckets if n < 0 else 0
        n = abs(n)
    else:
        n = max(n, 0)
    max_exact = num_buckets // 2
    if n < max_exact:
        return bucket + n
    large = max_exact + int(
        math.log(n / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    )
    return bucket + min(large, num_buckets - 1)


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize(("num_buckets", "max_distance"), [(32, 128), (16, 64), (8, 20)])
def test_buckets_match_the_reference_for_every_distance(bidirectional, num_buckets, max_distance):
    distances = np.arange(-300, 301)
    expected = [
        t5_bucket_scalar(int(d), bidirectional, num_buckets, max_distance) for d in distances
    ]
    got = relative_position_bucket(
        distances, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
    np.testing.assert_array_equal(got, expected)


def test_bucket_reference_values():
    got = relative_position_bucket([-200, -128, -9, -8, -1, 0, 1, 8, 200])
    np.testing.assert_array_equal(got, [15, 15, 8, 8, 1, 0, 17, 24, 31])
    causal = relative_position_buckets(4, 4, bidirectional=False)
    np.testing.assert_array_equal(causal, [[0, 0, 0, 0], [1, 0, 0, 0], [2, 1, 0, 0], [3, 2, 1, 0]])


def test_bucket_bad_arguments():
    with pytest.raises(TypeError, match="relative_position must hold integers"):
        relative_position_bucket([0.5])
    with pytest.raises(ValueError, match="num_buckets must be even when bidirectional"):
        relative_position_bucket([0], num_buckets=31)
    with pytest.raises(ValueError, match="max_distance must be an integer >= 9"):
        relative_position_bucket([0], num_buckets=32, max_distance=8)


# --- attention -------------------------------------------------------------------------------


def test_attention_generalises_self_attention():
    x = np.random.default_rng(0).normal(size=(2, 5, 4))
    np.testing.assert_allclose(scaled_dot_product_attention(x, x, x), self_attention(x))


def test_causal_mask_and_bias():
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 4)), rng.normal(size=(3, 4)), rng.normal(size=(3, 2))
    out = scaled_dot_product_attention(q, k, v, causal=True)
    np.testing.assert_allclose(out[0], v[0])  # the first query sees only the first key
    masked = np.triu(np.full((3, 3), -np.inf), k=1)
    np.testing.assert_allclose(scaled_dot_product_attention(q, k, v, bias=masked), out)
    heads = scaled_dot_product_attention(q, k, v, bias=alibi_bias(2, 3))
    assert heads.shape == (2, 3, 2)


def test_scale_none_is_one_over_sqrt_d_and_t5_uses_one():
    rng = np.random.default_rng(5)
    q, k, v = rng.normal(size=(3, 4, 8))

    def reference(scale):
        scores = q @ k.T * scale
        weights = np.exp(scores - scores.max(axis=1, keepdims=True))
        return weights / weights.sum(axis=1, keepdims=True) @ v

    np.testing.assert_allclose(scaled_dot_product_attention(q, k, v), reference(8**-0.5))
    np.testing.assert_allclose(scaled_dot_product_attention(q, k, v, scale=1.0), reference(1.0))
    assert not np.allclose(reference(1.0), reference(8**-0.5))


def test_a_row_with_every_key_masked_is_nan():
    q = k = v = np.ones((2, 2))
    bias = np.array([[-np.inf, -np.inf], [0.0, 0.0]])
    out = scaled_dot_product_attention(q, k, v, bias=bias)
    assert np.isnan(out[0]).all()
    np.testing.assert_allclose(out[1], [1.0, 1.0])


def test_attention_keeps_float32():
    x = np.ones((3, 4), dtype=np.float32)
    assert scaled_dot_product_attention(x, x, x).dtype == np.float32
    assert scaled_dot_product_attention(x, x, x, bias=np.zeros((3, 3))).dtype == np.float32


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((np.ones((3, 4)), np.ones((3, 5)), np.ones((3, 2))), {}, "same last dimension d"),
        ((np.ones((3, 4)), np.ones((3, 4)), np.ones((2, 2))), {}, "same number of rows n_k"),
        (
            (np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 2))),
            {"bias": np.ones((2, 2))},
            r"bias of shape \(2, 2\) cannot be added to scores of shape \(3, 3\)",
        ),
        ((np.ones((4, 4)), np.ones((3, 4)), np.ones((3, 2))), {"causal": True}, "n_q <= n_k"),
        ((np.ones(4), np.ones((3, 4)), np.ones((3, 2))), {}, r"q must have shape \(\.\.\., n, d\)"),
        ((np.ones((3, 4)),) * 3, {"scale": 0.0}, "scale must be a finite real number > 0"),
        ((np.ones((3, 0)),) * 3, {}, "last dimension d >= 1"),
        (
            (np.ones((2, 3, 4)), np.ones((3, 3, 4)), np.ones((3, 3, 2))),
            {},
            r"batch dimensions of q, k and v must broadcast together, got \(2, 3, 4\)",
        ),
        ((np.ones((3, 4)),) * 3, {"scale": np.inf}, "scale must be a finite real number > 0"),
    ],
)
def test_attention_bad_arguments(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        scaled_dot_product_attention(*args, **kwargs)


# --- sinusoidal shift property ---------------------------------------------------------------


def shift_matrix(k, d_model):
    """The block-diagonal rotation M_k with PE(p + k) = M_k PE(p)."""
    matrix = np.zeros((d_model, d_model))
    for i in range(d_model // 2):
        angle = k / 10000 ** (2 * i / d_model)
        c, s = math.cos(angle), math.sin(angle)
        matrix[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, s], [-s, c]]
    return matrix


@settings(max_examples=50)
@given(st.integers(1, 16).map(lambda h: 2 * h), st.integers(0, 200), st.integers(-50, 50))
def test_shifting_position_is_a_fixed_rotation(d_model, p, k):
    table = sinusoidal_encoding(max(p, p + k, 0) + 1, d_model)
    if p + k < 0:
        return
    m_k = shift_matrix(k, d_model)
    np.testing.assert_allclose(m_k @ table[p], table[p + k], atol=1e-9)


def test_t5_last_bucket_starts_before_max_distance():
    # With T5's defaults the last bucket is reached at distance 91 (encoder) and 113
    # (decoder), not at max_distance = 128: max_distance is where the log scale would end.
    back = -np.arange(0, 300)
    encoder = relative_position_bucket(back)
    decoder = relative_position_bucket(back, bidirectional=False)
    assert int(np.argmax(encoder == 15)) == 91
    assert int(np.argmax(decoder == 31)) == 113
    assert encoder[90] == 14
    assert decoder[112] == 30
