import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from posenc import apply_rotary, half_to_interleaved, interleaved_to_half, rotary_frequencies

finite = st.floats(-10, 10, allow_nan=False, allow_subnormal=False)
head_dims = st.integers(1, 8).map(lambda k: 2 * k)


def vectors(head_dim):
    return arrays(np.float64, (head_dim,), elements=finite)


def test_frequencies_follow_the_paper():
    np.testing.assert_allclose(rotary_frequencies(8), [1.0, 0.1, 0.01, 0.001])
    np.testing.assert_allclose(rotary_frequencies(4, base=100.0), [1.0, 0.1])


def test_position_zero_is_the_identity():
    x = np.random.default_rng(0).normal(size=(1, 8))
    np.testing.assert_array_equal(apply_rotary(x), x)


def test_first_pair_turns_by_one_radian_per_position():
    x = np.zeros((3, 4))
    x[:, 0] = 1.0
    out = apply_rotary(x)
    np.testing.assert_allclose(out[:, 0], np.cos([0, 1, 2]))
    np.testing.assert_allclose(out[:, 1], np.sin([0, 1, 2]))


def test_half_layout_pairs_i_with_i_plus_half():
    x = np.zeros((2, 4))
    x[:, 0] = 1.0
    out = apply_rotary(x, layout="half")
    np.testing.assert_allclose(out[1], [np.cos(1), 0.0, np.sin(1), 0.0], atol=1e-15)


@settings(max_examples=60)
@given(
    head_dims.flatmap(lambda d: st.tuples(vectors(d), vectors(d))),
    st.integers(-50, 50),
    st.integers(-50, 50),
    st.integers(-100, 100),
    st.sampled_from(["interleaved", "half"]),
)
def test_score_depends_only_on_the_offset(qk, m, n, t, layout):
    q, k = qk

    def score(a, b):
        rq = apply_rotary(q[None], [a], layout=layout)[0]
        rk = apply_rotary(k[None], [b], layout=layout)[0]
        return rq @ rk

    assert score(m, n) == pytest.approx(score(m + t, n + t), rel=1e-9, abs=1e-9)


@settings(max_examples=60)
@given(
    head_dims.flatmap(lambda d: arrays(np.float64, (5, d), elements=finite)),
    st.sampled_from(["interleaved", "half"]),
)
def test_rotation_preserves_norms(x, layout):
    np.testing.assert_allclose(
        np.linalg.norm(apply_rotary(x, layout=layout), axis=-1),
        np.linalg.norm(x, axis=-1),
        rtol=1e-12,
        atol=1e-12,
    )


@settings(max_examples=60)
@given(
    head_dims.flatmap(lambda d: arrays(np.float64, (2, 3, d), elements=finite)),
    st.lists(st.integers(-1000, 1000), min_size=3, max_size=3),
)
def test_the_two_layouts_agree_after_the_permutation(x, positions):
    d = x.shape[-1]
    interleaved = apply_rotary(x, positions, layout="interleaved")
    half = apply_rotary(interleaved_to_half(x, head_dim=d), positions, layout="half")
    np.testing.assert_allclose(interleaved_to_half(interleaved, head_dim=d), half, atol=1e-9)
    np.testing.assert_allclose(half_to_interleaved(half, head_dim=d), interleaved, atol=1e-9)


def test_layout_conversion_is_per_head():
    # Two heads of head_dim 4: each head is reordered on its own, never across heads.
    np.testing.assert_array_equal(
        interleaved_to_half(np.arange(8), head_dim=4), [0, 2, 1, 3, 4, 6, 5, 7]
    )
    np.testing.assert_array_equal(
        interleaved_to_half(np.arange(12), head_dim=6), [0, 2, 4, 1, 3, 5, 6, 8, 10, 7, 9, 11]
    )
    np.testing.assert_array_equal(half_to_interleaved(np.arange(6), head_dim=6), [0, 3, 1, 4, 2, 5])


@settings(max_examples=40)
@given(st.integers(1, 4).map(lambda k: 2 * k), st.integers(1, 3), st.integers(0, 2))
def test_layout_conversions_are_inverse_permutations(head_dim, n_heads, n_rows):
    x = np.arange(n_rows * n_heads * head_dim).reshape(n_rows, n_heads * head_dim)
    there = interleaved_to_half(x, head_dim=head_dim)
    assert sorted(there.ravel()) == sorted(x.ravel())
    np.testing.assert_array_equal(half_to_interleaved(there, head_dim=head_dim), x)
    back = interleaved_to_half(half_to_interleaved(x, head_dim=head_dim), head_dim=head_dim)
    np.testing.assert_array_equal(back, x)


def test_converted_projection_gives_the_same_scores_per_head():
    # A checkpoint trained for the interleaved layout, converted column by column of W_q and
    # W_k (output dimensions), gives the same attention scores with the half layout.
    rng = np.random.default_rng(3)
    n_heads, head_dim, d_model, n = 2, 4, 6, 5
    tokens = rng.normal(size=(n, d_model))
    w_q, w_k = rng.normal(size=(2, d_model, n_heads * head_dim))

    def scores(w_q, w_k, layout):
        q = (tokens @ w_q).reshape(n, n_heads, head_dim).swapaxes(0, 1)
        k = (tokens @ w_k).reshape(n, n_heads, head_dim).swapaxes(0, 1)
        q, k = apply_rotary(q, layout=layout), apply_rotary(k, layout=layout)
        return q @ k.swapaxes(-1, -2)

    before = scores(w_q, w_k, "interleaved")
    converted = [interleaved_to_half(w, head_dim=head_dim) for w in (w_q, w_k)]
    np.testing.assert_allclose(scores(*converted, "half"), before, atol=1e-9)
    # Reordering the whole projection as one vector mixes the heads: wrong scores.
    mixed = [interleaved_to_half(w, head_dim=n_heads * head_dim) for w in (w_q, w_k)]
    assert not np.allclose(scores(*mixed, "half"), before)


def test_batches_and_float32():
    x = np.random.default_rng(1).normal(size=(2, 3, 5, 8)).astype(np.float32)
    out = apply_rotary(x)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out[1, 2], apply_rotary(x[1, 2]), rtol=1e-6)
    np.testing.assert_allclose(out, apply_rotary(x.astype(np.float64)), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: apply_rotary(np.ones((3, 5))), ValueError, "head_dim must be even"),
        (
            lambda: apply_rotary(np.ones(4)),
            ValueError,
            r"x must have shape \(\.\.\., n, head_dim\)",
        ),
        (
            lambda: apply_rotary(np.ones((3, 4)), [0, 1]),
            ValueError,
            r"positions must have shape \(3,\)",
        ),
        (
            lambda: apply_rotary(np.ones((2, 4)), [0.5, 1.0]),
            TypeError,
            "positions must hold integers",
        ),
        (
            lambda: apply_rotary(np.ones((2, 4)), layout="llama"),
            ValueError,
            "layout must be one of",
        ),
        (lambda: apply_rotary(np.ones((2, 4)), base=0.0), ValueError, "base must be a finite"),
        (lambda: rotary_frequencies(0), ValueError, "head_dim must be an integer >= 2"),
        (lambda: interleaved_to_half(np.ones(6), head_dim=4), ValueError, "multiple of head_dim=4"),
        (lambda: half_to_interleaved(np.ones(6), head_dim=3), ValueError, "head_dim must be even"),
        (lambda: interleaved_to_half(np.ones(4), head_dim=4.0), TypeError, "head_dim must be an"),
        (lambda: half_to_interleaved(np.float64(1.0), head_dim=2), ValueError, "multiple of"),
    ],
)
def test_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()
