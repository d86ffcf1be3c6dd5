import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from posenc import self_attention, sinusoidal_encoding, softmax

finite = st.floats(-50, 50, allow_nan=False)


def test_softmax_known_values():
    # e^0, e^1, e^2 over their sum.
    np.testing.assert_allclose(
        softmax([0.0, 1.0, 2.0]), [0.09003057317, 0.24472847105, 0.66524095577], rtol=1e-10
    )


def test_softmax_does_not_overflow():
    np.testing.assert_array_equal(softmax(np.array([1000.0, 1000.0])), [0.5, 0.5])
    np.testing.assert_allclose(softmax(np.array([-1000.0, 0.0])), [0.0, 1.0])


@given(arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 7)), elements=finite))
def test_softmax_rows_are_probabilities(z):
    p = softmax(z)
    assert np.all(p >= 0)
    np.testing.assert_allclose(p.sum(axis=-1), 1.0)


def test_softmax_other_axis():
    z = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(softmax(z, axis=0).sum(axis=0), 1.0)
    np.testing.assert_allclose(softmax(z, axis=0)[:, 0], softmax([0.0, 3.0]))


def test_softmax_keeps_float32_and_converts_integers():
    assert softmax(np.ones(3, dtype=np.float32)).dtype == np.float32
    assert softmax([1, 2, 3]).dtype == np.float64


def test_softmax_handles_minus_infinity_as_a_mask():
    np.testing.assert_allclose(softmax([0.0, -np.inf, 0.0]), [0.5, 0.0, 0.5])


def test_softmax_empty_axis():
    assert softmax(np.zeros((3, 0))).shape == (3, 0)


@pytest.mark.parametrize(
    ("z", "axis", "error", "message"),
    [
        ([1.0, 2.0], 1, ValueError, r"axis must be an integer in \[-1, 0\], got 1"),
        ([1.0, 2.0], 0.5, TypeError, "axis must be an integer"),
        (3.0, -1, ValueError, "z must have at least one dimension"),
        (["a", "b"], -1, TypeError, "z must hold real numbers"),
        ([1 + 2j], -1, TypeError, "z must hold real numbers"),
        ([True, False], -1, TypeError, "z must hold real numbers"),
    ],
)
def test_softmax_bad_arguments(z, axis, error, message):
    with pytest.raises(error, match=message):
        softmax(z, axis=axis)


def test_self_attention_matches_the_formula():
    x = np.random.default_rng(1).normal(size=(5, 3))
    scores = x @ x.T / np.sqrt(3)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(self_attention(x), weights @ x)


@given(
    arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 6)), elements=finite),
    st.randoms(use_true_random=False),
)
def test_self_attention_is_permutation_equivariant(x, rnd):
    order = list(range(x.shape[0]))
    rnd.shuffle(order)
    np.testing.assert_allclose(self_attention(x[order]), self_attention(x)[order], atol=1e-9)


def test_positional_encoding_breaks_equivariance():
    x = np.random.default_rng(0).normal(size=(4, 6))
    pe = sinusoidal_encoding(4, 6)
    assert np.allclose(self_attention(x[::-1]), self_attention(x)[::-1])
    assert not np.allclose(self_attention(x[::-1] + pe), self_attention(x + pe)[::-1])


def test_self_attention_batches_match_single_calls():
    x = np.random.default_rng(2).normal(size=(2, 3, 4, 5))
    out = self_attention(x)
    assert out.shape == x.shape
    np.testing.assert_allclose(out[1, 2], self_attention(x[1, 2]))


def test_self_attention_dtypes():
    assert self_attention(np.ones((2, 3), dtype=np.float32)).dtype == np.float32
    assert self_attention(np.ones((2, 3), dtype=np.int64)).dtype == np.float64


def test_self_attention_no_tokens():
    assert self_attention(np.zeros((0, 4))).shape == (0, 4)


@pytest.mark.parametrize(
    ("x", "error", "message"),
    [
        (np.ones(4), ValueError, r"x must have shape \(\.\.\., n, d\) with at least 2 dimensions"),
        (np.ones((3, 0)), ValueError, "x must have a last dimension d >= 1"),
        (np.array([["a"]]), TypeError, "x must hold real numbers"),
    ],
)
def test_self_attention_bad_arguments(x, error, message):
    with pytest.raises(error, match=message):
        self_attention(x)


def test_causal_self_attention_row_i_averages_rows_up_to_i():
    x = np.random.default_rng(4).normal(size=(4, 3))
    out = self_attention(x, causal=True)
    for i in range(4):
        scores = x[i] @ x[: i + 1].T / np.sqrt(3)
        weights = np.exp(scores - scores.max())
        np.testing.assert_allclose(out[i], weights / weights.sum() @ x[: i + 1])


def test_a_causal_mask_breaks_permutation_equivariance():
    # The first lesson's sentences: with a causal mask "cat" is not the same vector in both.
    rng = np.random.default_rng(0)
    embedding = {word: rng.normal(size=4) for word in ["cat", "chased", "dog"]}
    a = np.stack([embedding[w] for w in ["cat", "chased", "dog"]])
    b = a[::-1]
    assert np.allclose(self_attention(a)[0], self_attention(b)[2])
    assert not np.allclose(self_attention(a, causal=True)[0], self_attention(b, causal=True)[2])
    np.testing.assert_allclose(self_attention(a, causal=True)[0], a[0])


def test_causal_must_be_passed_by_keyword():
    with pytest.raises(TypeError):
        self_attention(np.ones((2, 2)), True)  # type: ignore[misc]
