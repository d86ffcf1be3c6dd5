import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from posenc import apply_rotary, interleaved_to_half, rotary_frequencies

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
    interleaved = apply_rotary(x, positions, layout="interleaved")
    half = apply_rotary(interleaved_to_half(x), positions, layout="half")
    np.testing.assert_allclose(interleaved_to_half(interleaved), half, atol=1e-9)


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
        (lambda: interleaved_to_half(np.ones(3)), ValueError, "even last dimension"),
    ],
)
def test_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()
