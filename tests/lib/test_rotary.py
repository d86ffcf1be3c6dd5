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
    out = apply_rotary(x, layout="interleaved")
    np.testing.assert_allclose(out[:, 0], np.cos([0, 1, 2]))
    np.testing.assert_allclose(out[:, 1], np.sin([0, 1, 2]))


def test_the_default_layout_is_half_neox_style():
    # The layout of GPT-NeoX, and of Llama, Mistral and Qwen in Hugging Face Transformers.
    x = np.zeros((3, 4))
    x[:, 0] = 1.0
    out = apply_rotary(x)
    np.testing.assert_array_equal(out, apply_rotary(x, layout="half"))
    np.testing.assert_allclose(out[:, 0], np.cos([0, 1, 2]))
    np.testing.assert_allclose(out[:, 2], np.sin([0, 1, 2]))
    np.testing.assert_array_equal(out[:, [1, 3]], 0.0)


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
            r"positions must have shape \(n,\) to match x of shape \(3, 4\) \(n = 3\)",
        ),
        (
            lambda: apply_rotary(np.ones((2, 3, 4)), np.zeros((3, 3))),
            ValueError,
            r"positions must have shape \(n,\) or \(batch, n\) with batch 2 or 1",
        ),
        (
            lambda: apply_rotary(np.ones((2, 4)), [True, False]),
            TypeError,
            "positions must hold real numbers",
        ),
        (
            lambda: apply_rotary(np.ones((2, 4)), [0.0, np.nan]),
            ValueError,
            "positions must be finite",
        ),
        (
            lambda: apply_rotary(np.ones((2, 8)), rotary_dim=3),
            ValueError,
            r"rotary_dim must be even and in \[2, head_dim=8\]",
        ),
        (
            lambda: apply_rotary(np.ones((2, 8)), rotary_dim=10),
            ValueError,
            r"rotary_dim must be an integer in \[2, 8\], got 10",
        ),
        (
            lambda: apply_rotary(np.ones((2, 5))),
            ValueError,
            "with an odd head_dim pass an even rotary_dim",
        ),
        (
            lambda: apply_rotary(np.ones((2, 8)), inv_freq=[1.0, 0.1], base=10.0),
            ValueError,
            "pass base or inv_freq, not both",
        ),
        (
            lambda: apply_rotary(np.ones((2, 8)), inv_freq=[1.0, 0.1], rotary_dim=8),
            ValueError,
            r"inv_freq must have shape \(rotary_dim // 2,\) = \(4,\)",
        ),
        (
            lambda: apply_rotary(np.ones((2, 8)), inv_freq=np.ones(5)),
            ValueError,
            r"rotary_dim must be an integer in \[2, 8\], got 10",
        ),
        (
            lambda: apply_rotary(np.ones((2, 8)), attention_factor=0.0),
            ValueError,
            "attention_factor must be a finite real number > 0",
        ),
        (
            lambda: apply_rotary(np.ones((2, 4)), layout="llama"),
            ValueError,
            "layout must be one of",
        ),
        (lambda: apply_rotary(np.ones((2, 4)), base=0.0), ValueError, "base must be a finite"),
        (lambda: rotary_frequencies(0), ValueError, "head_dim must be an integer >= 2"),
        (lambda: rotary_frequencies(7), ValueError, "head_dim must be even"),
        (lambda: rotary_frequencies(8, rotary_dim=12), ValueError, r"in \[2, 8\], got 12"),
        (lambda: interleaved_to_half(np.ones(6), head_dim=4), ValueError, "multiple of head_dim=4"),
        (lambda: half_to_interleaved(np.ones(6), head_dim=3), ValueError, "head_dim must be even"),
        (lambda: interleaved_to_half(np.ones(4), head_dim=4.0), TypeError, "head_dim must be an"),
        (lambda: half_to_interleaved(np.float64(1.0), head_dim=2), ValueError, "multiple of"),
    ],
)
def test_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --- RoPE as models ship it: partial rotary, real and batched positions ---------------------


def rotate_half_reference(x, positions, rotary_dim, base=10000.0):
    """Hugging Face's GPT-NeoX rotary (modeling_gpt_neox.py), transcribed to NumPy.

    inv_freq = 1 / base ** (arange(0, dim, 2) / dim); emb = cat(freqs, freqs);
    x_rot * cos + rotate_half(x_rot) * sin, then the passed-through dimensions.
    """
    inv_freq = 1.0 / base ** (np.arange(0, rotary_dim, 2) / rotary_dim)
    freqs = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq
    emb = np.concatenate([freqs, freqs], axis=-1)
    x_rot, x_pass = x[..., :rotary_dim], x[..., rotary_dim:]
    half = rotary_dim // 2
    rotated_half = np.concatenate([-x_rot[..., half:], x_rot[..., :half]], axis=-1)
    return np.concatenate([x_rot * np.cos(emb) + rotated_half * np.sin(emb), x_pass], axis=-1)


def rotate_every_two_reference(x, positions, rotary_dim, base=10000.0):
    """GPT-J's rotary (mesh-transformer-jax, and modeling_gptj.py), transcribed to NumPy."""
    inv_freq = 1.0 / base ** (np.arange(0, rotary_dim, 2) / rotary_dim)
    angles = np.asarray(positions, dtype=np.float64)[:, None] * inv_freq
    sin, cos = np.repeat(np.sin(angles), 2, axis=-1), np.repeat(np.cos(angles), 2, axis=-1)
    x_rot, x_pass = x[..., :rotary_dim], x[..., rotary_dim:]
    every_two = np.stack([-x_rot[..., 1::2], x_rot[..., 0::2]], axis=-1).reshape(x_rot.shape)
    return np.concatenate([x_rot * cos + every_two * sin, x_pass], axis=-1)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda half_rot: st.tuples(
            st.just(2 * half_rot), st.integers(2 * half_rot, 2 * half_rot + 5)
        )
    ),
    st.integers(1, 6),
    st.integers(0, 10_000),
    st.sampled_from([10000.0, 500000.0, 100.0]),
)
def test_partial_rotary_matches_gpt_neox_and_gpt_j(dims, n, start, base):
    rotary_dim, head_dim = dims  # head_dim may be odd: only the rotated part needs pairs
    x = np.random.default_rng(n).normal(size=(2, n, head_dim))
    positions = start + np.arange(n)
    half = apply_rotary(x, positions, base=base, rotary_dim=rotary_dim)
    np.testing.assert_allclose(
        half, rotate_half_reference(x, positions, rotary_dim, base), rtol=1e-9, atol=1e-9
    )
    every_two = apply_rotary(x, positions, base=base, rotary_dim=rotary_dim, layout="interleaved")
    np.testing.assert_allclose(
        every_two, rotate_every_two_reference(x, positions, rotary_dim, base), rtol=1e-9, atol=1e-9
    )
    np.testing.assert_array_equal(half[..., rotary_dim:], x[..., rotary_dim:])


def test_partial_rotary_frequencies_use_the_rotated_size():
    # GPT-NeoX-20B: head_dim 96, rotary_pct 0.25 -> 24 dimensions with exponents 2i / 24.
    np.testing.assert_allclose(
        rotary_frequencies(96, rotary_dim=24), 10000.0 ** (-np.arange(0, 24, 2) / 24)
    )
    assert rotary_frequencies(96, rotary_dim=24)[1] == pytest.approx(10000 ** (-2 / 24))


@settings(max_examples=40, deadline=None)
@given(st.floats(1.0, 64.0), st.integers(0, 5000), st.sampled_from(["half", "interleaved"]))
def test_real_positions_are_position_interpolation(factor, start, layout):
    # Rotating position m / s with theta equals rotating position m with theta / s.
    from posenc import linear_frequencies

    x = np.random.default_rng(start).normal(size=(4, 16))
    positions = start + np.arange(4)
    np.testing.assert_allclose(
        apply_rotary(x, positions / factor, layout=layout),
        apply_rotary(x, positions, layout=layout, inv_freq=linear_frequencies(16, factor=factor)),
        atol=1e-9,
    )


def test_batched_position_ids_rotate_each_sequence_by_its_own_positions():
    rng = np.random.default_rng(4)
    x = rng.normal(size=(3, 2, 5, 8))  # batch, heads, n, head_dim
    position_ids = np.array([[0, 1, 2, 3, 4], [7, 8, 9, 10, 11], [0, 0, 1, 1, 2]])
    out = apply_rotary(x, position_ids)
    for b in range(3):
        np.testing.assert_array_equal(out[b], apply_rotary(x[b], position_ids[b]))
    shared = apply_rotary(x, position_ids[1:2])  # a batch of 1 is shared, as in HF
    for b in range(3):
        np.testing.assert_array_equal(shared[b], apply_rotary(x[b], position_ids[1]))
    # x of shape (batch, n, head_dim) works as well.
    np.testing.assert_array_equal(apply_rotary(x[:, 0], position_ids), out[:, 0])


def test_inv_freq_replaces_the_default_frequencies_and_fixes_rotary_dim():
    x = np.random.default_rng(5).normal(size=(4, 12))
    theta = rotary_frequencies(12, base=500000.0, rotary_dim=8)
    np.testing.assert_array_equal(
        apply_rotary(x, inv_freq=theta), apply_rotary(x, base=500000.0, rotary_dim=8)
    )


@pytest.mark.parametrize("layout", ["half", "interleaved"])
def test_attention_factor_multiplies_the_rotated_dimensions_and_scores_by_its_square(layout):
    rng = np.random.default_rng(6)
    q, k = rng.normal(size=(2, 3, 16))
    plain_q, plain_k = apply_rotary(q, layout=layout), apply_rotary(k, layout=layout)
    scaled_q = apply_rotary(q, layout=layout, attention_factor=1.5)
    scaled_k = apply_rotary(k, layout=layout, attention_factor=1.5)
    np.testing.assert_allclose(scaled_q @ scaled_k.T, 2.25 * (plain_q @ plain_k.T))
    # With partial rotary the passed-through dimensions are not scaled (as in transformers).
    partial = apply_rotary(q, rotary_dim=8, attention_factor=1.5)
    np.testing.assert_array_equal(partial[:, 8:], q[:, 8:])
    np.testing.assert_allclose(partial[:, :8], 1.5 * apply_rotary(q, rotary_dim=8)[:, :8])
