"""Axial 2-D RoPE and multimodal RoPE: properties and reference formulas.

The comparisons with Qwen2-VL's code in Transformers are in
tests/oracle/test_multimodal_oracle.py.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from posenc import (
    apply_axial_rotary,
    apply_mrope,
    apply_rotary,
    axial_rotary_angles,
    grid_positions,
    mrope_angles,
    mrope_position_ids,
    rotary_frequencies,
)

LAYOUTS = ["half", "interleaved"]
finite = st.floats(-10, 10, allow_nan=False, allow_subnormal=False)


def score(q, k, q_positions, k_positions, rotate):
    return rotate(q[None], q_positions) @ rotate(k[None], k_positions)[0]


# --- Axial RoPE --------------------------------------------------------------------------


def test_axial_angles_by_hand():
    positions = np.array([[3], [2]])  # row 3, column 2
    theta = rotary_frequencies(4)  # each axis has head_dim / 2 = 4 dimensions
    np.testing.assert_allclose(axial_rotary_angles(positions, 8), [[*(3 * theta), *(2 * theta)]])
    uneven = axial_rotary_angles(np.array([[1], [1], [1]]), 12, axes_dims=(4, 2, 6), base=100.0)
    expected = [*rotary_frequencies(4, base=100.0), 1.0, *rotary_frequencies(6, base=100.0)]
    np.testing.assert_allclose(uneven, [expected])


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([(8, None), (12, None), (16, (4, 12)), (12, (2, 4, 6))]).flatmap(
        lambda case: st.tuples(
            st.just(case),
            arrays(np.float64, (2, case[0]), elements=finite),
            arrays(np.int64, (2, len(case[1] or (0, 0))), elements=st.integers(-40, 40)),
            arrays(np.int64, (len(case[1] or (0, 0)),), elements=st.integers(-40, 40)),
        )
    ),
    st.sampled_from(LAYOUTS),
)
def test_axial_score_depends_only_on_the_offset(data, layout):
    (_, axes_dims), (q, k), (p_q, p_k), shift = data

    def rotate(x, positions):
        return apply_axial_rotary(x, positions[:, None], axes_dims=axes_dims, layout=layout)

    moved = score(q, k, p_q + shift, p_k + shift, rotate)
    assert moved == pytest.approx(score(q, k, p_q, p_k, rotate), rel=1e-9, abs=1e-9)


def test_axial_score_changes_with_the_offset():
    # Not a constant: moving the key one row changes the score, one column too.
    q = k = np.ones(8)

    def rotate(x, positions):
        return apply_axial_rotary(x, np.array(positions)[:, None], layout="half")

    base = score(q, k, np.array([0, 0]), np.array([0, 0]), rotate)
    row = score(q, k, np.array([0, 0]), np.array([1, 0]), rotate)
    col = score(q, k, np.array([0, 0]), np.array([0, 1]), rotate)
    assert abs(base - row) > 0.1
    assert abs(base - col) > 0.1
    assert row == pytest.approx(col)  # equal shares: the two axes are alike


def rope_vit_axial(x, end_x, end_y, theta):
    """RoPE-ViT's RoPE-Axial, transcribed from `naver-ai/rope-vit`, `models/vit_rope.py`.

    compute_axial_cis and apply_rotary_emb, with complex numbers in NumPy.
    """
    dim = x.shape[-1]
    freqs = 1.0 / (theta ** (np.arange(0, dim, 4)[: dim // 4] / dim))
    t = np.arange(end_x * end_y)
    t_x, t_y = t % end_x, t // end_x
    freqs_cis = np.concatenate(
        [np.exp(1j * np.outer(t_x, freqs)), np.exp(1j * np.outer(t_y, freqs))], axis=-1
    )
    x_complex = x[..., 0::2] + 1j * x[..., 1::2]
    out = x_complex * freqs_cis
    return np.stack([out.real, out.imag], axis=-1).reshape(x.shape)


def flux_rope(x, ids, axes_dim, theta):
    """FLUX.1's EmbedND and apply_rope, transcribed from `black-forest-labs/flux`.

    `src/flux/math.py` (rope: a 2 x 2 rotation matrix per pair) and
    `src/flux/modules/layers.py` (EmbedND: the axes' pairs one after the other).
    """
    matrices = []
    for axis, dim in enumerate(axes_dim):
        omega = 1.0 / theta ** (np.arange(0, dim, 2) / dim)
        out = ids[:, axis, None] * omega
        matrices.append(np.stack([np.cos(out), -np.sin(out), np.sin(out), np.cos(out)], -1))
    freqs = np.concatenate(matrices, axis=-2).reshape(len(ids), -1, 2, 2)
    pairs = x.reshape(*x.shape[:-1], -1, 1, 2)
    out = freqs[..., 0] * pairs[..., 0] + freqs[..., 1] * pairs[..., 1]
    return out.reshape(x.shape)


def test_axial_is_rope_vit_with_columns_first():
    x = np.random.default_rng(1).normal(size=(2, 3 * 4, 16))  # 3 rows, 4 columns
    expected = rope_vit_axial(x, end_x=4, end_y=3, theta=100.0)
    positions = grid_positions(3, 4)[::-1]  # columns, then rows
    out = apply_axial_rotary(x, positions, base=100.0, layout="interleaved")
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-13)


def eva02_rope(x, pt_seq_len, ft_seq_len):
    """EVA-02's VisionRotaryEmbeddingFast, transcribed from `baaivision/EVA`,
    `EVA-02/asuka/rope.py`, built as EVA-02 builds it: dim = head_dim // 2, base 10000.
    """
    dim = x.shape[-1] // 2
    freqs = 1.0 / (10000 ** (np.arange(0, dim, 2)[: dim // 2] / dim))
    t = np.arange(ft_seq_len) / ft_seq_len * pt_seq_len
    freqs = np.repeat(np.einsum("i,f->if", t, freqs), 2, axis=-1)  # (n r), r = 2
    rows = np.broadcast_to(freqs[:, None, :], (ft_seq_len, ft_seq_len, freqs.shape[-1]))
    cols = np.broadcast_to(freqs[None, :, :], (ft_seq_len, ft_seq_len, freqs.shape[-1]))
    freqs = np.concatenate([rows, cols], axis=-1).reshape(-1, 2 * freqs.shape[-1])
    pairs = x.reshape(*x.shape[:-1], -1, 2)
    rotated_half = np.stack([-pairs[..., 1], pairs[..., 0]], axis=-1).reshape(x.shape)
    return x * np.cos(freqs) + rotated_half * np.sin(freqs)


@pytest.mark.parametrize(("pt_seq_len", "ft_seq_len"), [(4, 4), (4, 6)])
def test_axial_is_eva02_rows_first(pt_seq_len, ft_seq_len):
    x = np.random.default_rng(3).normal(size=(2, ft_seq_len**2, 16))
    expected = eva02_rope(x, pt_seq_len, ft_seq_len)
    # EVA-02 interpolates: a grid of ft_seq_len sides gets positions scaled by pt / ft.
    positions = grid_positions(ft_seq_len, ft_seq_len) * (pt_seq_len / ft_seq_len)
    out = apply_axial_rotary(x, positions, layout="interleaved")
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-13)


def test_axial_is_flux_with_three_unequal_axes():
    rng = np.random.default_rng(2)
    ids = np.stack([np.zeros(6), *grid_positions(2, 3)], axis=1)  # (index, row, column)
    ids[:, 0] = 5.0
    x = rng.normal(size=(6, 4 + 6 + 6))
    expected = flux_rope(x, ids, axes_dim=(4, 6, 6), theta=10000.0)
    out = apply_axial_rotary(x, ids.T, axes_dims=(4, 6, 6), layout="interleaved")
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-13)


@settings(max_examples=30, deadline=None)
@given(arrays(np.float32, (3, 8), elements=finite), st.sampled_from(LAYOUTS))
def test_axial_keeps_float32_and_norms(x, layout):
    out = apply_axial_rotary(x, grid_positions(1, 3), layout=layout)
    assert out.dtype == np.float32
    np.testing.assert_allclose(
        np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-5, atol=1e-5
    )


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: axial_rotary_angles(np.zeros((2, 3)), 6), ValueError, "divisible by 2 \\* n_axes"),
        (
            lambda: axial_rotary_angles(np.zeros((2, 3)), 8, axes_dims=(2, 4)),
            ValueError,
            r"axes_dims must be even and sum to head_dim=8, got \(2, 4\)",
        ),
        (
            lambda: axial_rotary_angles(np.zeros((2, 3)), 8, axes_dims=(8,)),
            ValueError,
            "one entry per row of positions",
        ),
        (lambda: axial_rotary_angles(np.zeros(3), 8), ValueError, "positions must have shape"),
        (lambda: axial_rotary_angles(np.zeros((2, 3)), 7), ValueError, "head_dim must be even"),
        (
            lambda: apply_axial_rotary(np.zeros((4, 8)), np.zeros((2, 3))),
            ValueError,
            r"positions must have shape \(n_axes, 4\)",
        ),
        (
            lambda: apply_axial_rotary(np.zeros((3, 8)), np.zeros((2, 3)), layout="rows"),
            ValueError,
            "layout must be one of",
        ),
        (
            lambda: apply_axial_rotary(np.zeros((1, 8)), np.array([[np.nan], [0.0]])),
            ValueError,
            "positions must be finite",
        ),
        (lambda: apply_axial_rotary(np.zeros(8), np.zeros((2, 1))), ValueError, "x must have"),
    ],
)
def test_axial_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --- Multimodal RoPE: position ids ------------------------------------------------------------


def test_text_image_text_positions():
    # Qwen2-VL, section 2.1: text counts on; an image's tokens take (start + frame,
    # start + row, start + column); the next text starts after the largest position.
    expected = [
        [0, 1, 2, 3, 3, 3, 3, 3, 3, 6, 7],
        [0, 1, 2, 3, 3, 3, 4, 4, 4, 6, 7],
        [0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7],
    ]
    positions = mrope_position_ids([3, (1, 2, 3), 2])
    np.testing.assert_array_equal(positions, expected)
    assert positions.dtype == np.int64
    np.testing.assert_array_equal(
        mrope_position_ids([3, (1, 4, 6), 2], spatial_merge_size=2), expected
    )


def test_video_advances_by_its_largest_side_time_included():
    positions = mrope_position_ids([1, (3, 1, 2), 1])
    np.testing.assert_array_equal(
        positions,
        [[0, 1, 1, 2, 2, 3, 3, 4], [0, 1, 1, 1, 1, 1, 1, 4], [0, 1, 2, 1, 2, 1, 2, 4]],
    )


@pytest.mark.parametrize(
    ("segments", "kwargs", "error", "message"),
    [
        ([], {}, ValueError, "at least one segment"),
        ([3, (1, 2)], {}, ValueError, r"segments\[1\] must be a text length or a grid"),
        ([3, "abc"], {}, TypeError, r"segments\[1\] must be a text length \(int\)"),
        ([0], {}, ValueError, r"segments\[0\] must be an integer >= 1, got 0"),
        ([(1, 0, 2)], {}, ValueError, r"segments\[0\]\[1\] \(h\) must be an integer >= 1"),
        ([(1, 3, 4)], {"spatial_merge_size": 2}, ValueError, "must divide h and w"),
        (5, {}, TypeError, "segments must be a sequence"),
    ],
)
def test_position_ids_bad_input(segments, kwargs, error, message):
    with pytest.raises(error, match=message):
        mrope_position_ids(segments, **kwargs)


# --- Multimodal RoPE: rotation ---------------------------------------------------------------


def test_mrope_angles_slice_one_frequency_ladder():
    positions = np.array([[7], [2], [3]])
    theta = rotary_frequencies(16)
    expected = np.concatenate([7 * theta[:2], 2 * theta[2:5], 3 * theta[5:]])
    np.testing.assert_allclose(mrope_angles(positions, mrope_section=[2, 3, 3]), [expected])


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([[1, 1, 1], [2, 3, 3], [0, 2, 2], [16, 24, 24]]).flatmap(
        lambda section: st.tuples(
            st.just(section),
            arrays(np.float64, (4, 2 * sum(section)), elements=finite),
        )
    ),
    arrays(np.int64, (4,), elements=st.integers(-500, 500)),
    st.sampled_from(LAYOUTS),
)
def test_text_tokens_get_one_dimensional_rope(data, positions, layout):
    section, x = data
    out = apply_mrope(x, np.stack([positions] * 3), mrope_section=section, layout=layout)
    np.testing.assert_allclose(
        out, apply_rotary(x, positions, layout=layout), rtol=1e-12, atol=1e-12
    )


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([[1, 1, 1], [2, 3, 3], [1, 2, 1]]).flatmap(
        lambda section: st.tuples(
            st.just(section), arrays(np.float64, (2, 2 * sum(section)), elements=finite)
        )
    ),
    arrays(np.int64, (3, 2), elements=st.integers(-40, 40)),
    arrays(np.int64, (3,), elements=st.integers(-40, 40)),
    st.sampled_from(LAYOUTS),
)
def test_image_token_scores_depend_only_on_the_3d_offset(data, positions, shift, layout):
    section, (q, k) = data

    def rotate(x, where):
        return apply_mrope(x, where[:, None], mrope_section=section, layout=layout)

    p_q, p_k = positions.T
    moved = score(q, k, p_q + shift, p_k + shift, rotate)
    assert moved == pytest.approx(score(q, k, p_q, p_k, rotate), rel=1e-9, abs=1e-9)


def test_mrope_is_not_axial_rope():
    # Same split of the pairs, other frequencies: M-RoPE does not restart them per axis.
    positions = np.array([[0], [3], [5]])
    axial = axial_rotary_angles(positions, 16, axes_dims=(4, 6, 6))
    mrope = mrope_angles(positions, mrope_section=[2, 3, 3])
    assert not np.allclose(axial, mrope)
    np.testing.assert_allclose(mrope[0, 2:5], 3 * rotary_frequencies(16)[2:5])


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: apply_mrope(np.zeros((3, 12)), np.zeros((3, 3), int), mrope_section=[2, 3, 3]),
            ValueError,
            r"x must have head_dim = 2 \* sum\(mrope_section\) = 16",
        ),
        (
            lambda: apply_mrope(np.zeros((3, 16)), np.zeros((2, 3), int), mrope_section=[2, 3, 3]),
            ValueError,
            r"positions must have shape \(3, 3\)",
        ),
        (
            lambda: apply_mrope(np.zeros((3, 16)), np.zeros((3, 3)), mrope_section=[2, 3, 3]),
            TypeError,
            "positions must hold integers",
        ),
        (
            lambda: mrope_angles(np.zeros((3, 1), int), mrope_section=[4, 4]),
            ValueError,
            "mrope_section must have 3 entries",
        ),
        (
            lambda: mrope_angles(np.zeros((3, 1), int), mrope_section=[0, 0, 0]),
            ValueError,
            "must not sum to 0",
        ),
        (
            lambda: mrope_angles(np.zeros((3, 1), int), mrope_section=[2, -1, 3]),
            ValueError,
            r"mrope_section\[1\] must be an integer >= 0",
        ),
        (
            lambda: apply_mrope(
                np.zeros((1, 4)), np.zeros((3, 1), int), mrope_section=[1, 1, 0], layout="x"
            ),
            ValueError,
            "layout must be one of",
        ),
    ],
)
def test_mrope_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()
