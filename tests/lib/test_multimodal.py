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
    qwen3vl_video_segments,
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


# --- Qwen2.5-VL: time ids aligned to seconds ------------------------------------------------


def test_time_interval_by_hand():
    # Qwen2.5-VL: temporal patch i gets start + floor(i * interval); the text after the
    # video starts one after the largest id, here the last time id.
    positions = mrope_position_ids([1, (3, 1, 2), 1], time_interval=2)
    np.testing.assert_array_equal(
        positions,
        [[0, 1, 1, 3, 3, 5, 5, 6], [0, 1, 1, 1, 1, 1, 1, 6], [0, 1, 2, 1, 2, 1, 2, 6]],
    )
    half = mrope_position_ids([(5, 1, 1)], time_interval=0.5)
    np.testing.assert_array_equal(half[0], [0, 0, 1, 1, 2])  # truncated, not rounded


def test_time_interval_default_is_one_id_per_temporal_patch():
    segments = [2, (1, 2, 4), 1, (3, 4, 2), 2]
    np.testing.assert_array_equal(
        mrope_position_ids(segments, spatial_merge_size=2),
        mrope_position_ids(segments, spatial_merge_size=2, time_interval=1),
    )


def test_time_interval_per_grid_leaves_images_alone():
    segments = [1, (1, 2, 2), 1, (3, 2, 2), 1, (2, 1, 1)]
    ours = mrope_position_ids(segments, time_interval=[7.0, 3.0, 10.0])
    np.testing.assert_array_equal(ours, mrope_position_ids(segments, time_interval=[1, 3, 10]))
    first_video = ours[0, 6:18].reshape(3, 4)  # after 1 + 4 + 1 tokens: 3 patches of 4
    np.testing.assert_array_equal(first_video[:, 0] - first_video[0, 0], [0, 3, 6])
    last_video = ours[0, -2:]
    assert last_video[1] - last_video[0] == 10


def test_time_ids_align_two_frame_rates():
    # 2 tokens a second (Qwen's code), 2 frames per temporal patch: 2 ids per patch at
    # 2 fps (a patch lasts 1 s), 4 ids per patch at 1 fps (2 s). The time id counts
    # half-seconds whatever the frame rate, so second 4 has id 8 in both videos.
    tokens_per_second, temporal_patch_size = 2, 2
    ids = {}
    for fps, n_patches in [(2.0, 6), (1.0, 3)]:
        interval = tokens_per_second * temporal_patch_size / fps
        positions = mrope_position_ids([(n_patches, 1, 1)], time_interval=interval)
        seconds = np.arange(n_patches) * temporal_patch_size / fps
        ids[fps] = dict(zip(seconds.tolist(), positions[0].tolist(), strict=True))
    assert ids[2.0][4.0] == ids[1.0][4.0] == 8
    assert ids[2.0][2.0] == ids[1.0][2.0] == 4
    # Without time_interval the second-4 patches would get 4 and 2.
    assert mrope_position_ids([(6, 1, 1)])[0, 4] == 4
    assert mrope_position_ids([(3, 1, 1)])[0, 2] == 2


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.integers(1, 4),
            st.tuples(st.integers(1, 5), st.integers(1, 4), st.integers(1, 4)),
        ),
        min_size=1,
        max_size=6,
    ),
    st.floats(0.1, 30.0, allow_nan=False),
)
def test_each_segment_starts_after_the_largest_id(segments, interval):
    positions = mrope_position_ids(segments, time_interval=interval)
    sizes = [s if isinstance(s, int) else s[0] * s[1] * s[2] for s in segments]
    starts = np.cumsum([0, *sizes])
    for begin, end, after in zip(starts[:-2], starts[1:-1], starts[1:-1], strict=True):
        assert positions[:, after].min() == positions[:, begin:end].max() + 1
    assert np.all(np.diff(positions[0][starts[:-1]]) > 0)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"time_interval": 0}, ValueError, r"time_interval must be a finite real number > 0"),
        ({"time_interval": -2.0}, ValueError, "time_interval must be a finite real number > 0"),
        ({"time_interval": "2"}, TypeError, "time_interval must be a finite real number"),
        ({"time_interval": [1.0]}, ValueError, r"one per grid segment \(2\)"),
        ({"time_interval": [[1.0, 2.0]]}, ValueError, r"one per grid segment \(2\)"),
        ({"time_interval": [1.0, np.inf]}, ValueError, r"time_interval\[1\] must be a finite"),
    ],
)
def test_time_interval_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        mrope_position_ids([1, (1, 2, 2), (3, 2, 2)], **kwargs)


# --- Qwen3-VL: interleaved M-RoPE ---------------------------------------------------------------


def qwen3_vl_recomposition(freqs, mrope_section):
    """Qwen3VLTextRotaryEmbedding.recomposition_frequencies, transcribed from Hugging Face
    Transformers 5.24, `models/qwen3_vl/modeling_qwen3_vl.py`, for one half of the angles:
    `freqs` has shape (3, n, pairs), the angles by the time, height and width positions.
    """
    out = freqs[0].copy()
    for dim, offset in enumerate((1, 2), start=1):
        idx = slice(offset, mrope_section[dim] * 3, 3)
        out[..., idx] = freqs[dim, ..., idx]
    return out


@pytest.mark.parametrize("section", [[24, 20, 20], [3, 2, 2], [2, 1, 1], [1, 1, 1], [5, 1, 0]])
def test_interleaved_angles_are_qwen3_vl_recomposition(section):
    positions = np.random.default_rng(len(section)).integers(-50, 50, size=(3, 7))
    theta = rotary_frequencies(2 * sum(section), base=5e6)
    expected = qwen3_vl_recomposition(positions[:, :, None] * theta, section)
    ours = mrope_angles(positions, mrope_section=section, base=5e6, mrope_interleaved=True)
    np.testing.assert_allclose(ours, expected, rtol=1e-15, atol=0)


def axis_of_each_pair(section, interleaved):
    """The axis ("T", "H" or "W") that turns each pair, read from the angles."""
    angles = mrope_angles(
        np.eye(3, dtype=int), mrope_section=section, mrope_interleaved=interleaved
    )
    return "".join("THW"[a] for a in np.argmax(angles != 0, axis=0))


def test_qwen3_vl_split_interleaves_pairs_0_to_59_and_gives_the_tail_to_time():
    axes = axis_of_each_pair([24, 20, 20], True)
    assert axes == "THW" * 20 + "TTTT"
    assert (axes.count("T"), axes.count("H"), axes.count("W")) == (24, 20, 20)
    assert axis_of_each_pair([16, 24, 24], False) == "T" * 16 + "H" * 24 + "W" * 24


def test_interleaving_gives_time_the_slowest_frequency():
    # Qwen2-VL's blocks give time only the 16 fastest pairs; interleaved, time has pairs
    # spread over the whole ladder, down to the slowest, pair 63.
    theta = rotary_frequencies(128, base=1e6)
    blocked = axis_of_each_pair([16, 24, 24], False)
    interleaved = axis_of_each_pair([24, 20, 20], True)
    lowest = {
        name: theta[[i for i, a in enumerate(axes) if a == "T"]].min()
        for name, axes in [("blocked", blocked), ("interleaved", interleaved)]
    }
    assert lowest["blocked"] == pytest.approx(theta[15])
    assert lowest["interleaved"] == theta[63]
    assert lowest["blocked"] / lowest["interleaved"] > 1e4


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([[1, 1, 1], [3, 2, 2], [24, 20, 20], [4, 1, 1]]).flatmap(
        lambda section: st.tuples(
            st.just(section), arrays(np.float64, (4, 2 * sum(section)), elements=finite)
        )
    ),
    arrays(np.int64, (4,), elements=st.integers(-500, 500)),
    st.sampled_from(LAYOUTS),
)
def test_interleaved_text_tokens_get_one_dimensional_rope(data, positions, layout):
    section, x = data
    out = apply_mrope(
        x, np.stack([positions] * 3), mrope_section=section, layout=layout, mrope_interleaved=True
    )
    np.testing.assert_allclose(
        out, apply_rotary(x, positions, layout=layout), rtol=1e-12, atol=1e-12
    )


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([[1, 1, 1], [3, 2, 2], [2, 1, 1]]).flatmap(
        lambda section: st.tuples(
            st.just(section), arrays(np.float64, (2, 2 * sum(section)), elements=finite)
        )
    ),
    arrays(np.int64, (3, 2), elements=st.integers(-40, 40)),
    arrays(np.int64, (3,), elements=st.integers(-40, 40)),
)
def test_interleaved_scores_depend_only_on_the_3d_offset(data, positions, shift):
    section, (q, k) = data

    def rotate(x, where):
        return apply_mrope(x, where[:, None], mrope_section=section, mrope_interleaved=True)

    p_q, p_k = positions.T
    moved = score(q, k, p_q + shift, p_k + shift, rotate)
    assert moved == pytest.approx(score(q, k, p_q, p_k, rotate), rel=1e-9, abs=1e-9)


@pytest.mark.parametrize(
    ("section", "interleaved", "error", "message"),
    [
        ([2, 3, 3], True, ValueError, r"mrope_section=\[2, 3, 3\] needs 9 pairs"),
        ([0, 3, 1], True, ValueError, "needs 8 pairs"),
        ([1, 1, 1], "yes", TypeError, "mrope_interleaved must be a bool"),
        ([0, 0, 0], True, ValueError, "must not sum to 0"),
    ],
)
def test_interleaved_bad_input(section, interleaved, error, message):
    with pytest.raises(error, match=message):
        mrope_angles(np.zeros((3, 1), int), mrope_section=section, mrope_interleaved=interleaved)


# --- Qwen3-VL: text timestamps ------------------------------------------------------------------


def test_video_segments_by_hand():
    # Frames 0, 24, 48, 72 of a 24 fps video: times 0, 1, 2, 3 s; two frames per temporal
    # patch, each written at the mean of its first and last frame.
    stamps, segments = qwen3vl_video_segments([0, 24, 48, 72], 24.0, (4, 6), timestamp_tokens=6)
    assert stamps == ["<0.5 seconds>", "<2.5 seconds>"]
    assert segments == [7, (1, 4, 6), 8, (1, 4, 6), 1]


def test_video_segments_repeat_the_last_frame_and_count_tokens_per_text():
    stamps, segments = qwen3vl_video_segments(
        [0, 15, 30, 45, 300], 30.0, (2, 2), timestamp_tokens=len
    )
    # (0 + 0.5) / 2, (1 + 1.5) / 2, and frame 300 paired with itself: 10 s.
    assert stamps == ["<0.2 seconds>", "<1.2 seconds>", "<10.0 seconds>"]
    assert segments == [14, (1, 2, 2), 15, (1, 2, 2), 16, (1, 2, 2), 1]
    one_frame = qwen3vl_video_segments(
        [0, 15, 30], 30.0, (2, 2), timestamp_tokens=1, temporal_patch_size=1
    )
    assert one_frame[0] == ["<0.0 seconds>", "<0.5 seconds>", "<1.0 seconds>"]


def test_video_segments_give_each_frame_one_time_id():
    _, segments = qwen3vl_video_segments(np.arange(0, 120, 12), 24.0, (4, 4), timestamp_tokens=5)
    positions = mrope_position_ids([2, *segments, 3], spatial_merge_size=2)
    sizes = [s if isinstance(s, int) else s[1] * s[2] // 4 for s in [2, *segments, 3]]
    starts = np.cumsum([0, *sizes])
    grids = [i for i, s in enumerate([2, *segments, 3]) if not isinstance(s, int)]
    assert len(grids) == 5
    firsts = []
    for i in grids:
        frame = positions[:, starts[i] : starts[i + 1]]
        assert np.all(frame[0] == frame[0, 0])  # one time id per frame
        np.testing.assert_array_equal(np.unique(frame[1]) - frame[1].min(), [0, 1])
        firsts.append(frame[0, 0])
    # Between two frames: the 2 tokens after the grid's largest id, 1 end + 5 + 1 start.
    np.testing.assert_array_equal(np.diff(firsts), [2 + 7] * 4)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        (([0.0, 1.0], 24.0, (2, 2)), {}, TypeError, "frame_indices must hold integers"),
        (([], 24.0, (2, 2)), {}, TypeError, "frame_indices must hold integers"),
        ((np.zeros((0,), int), 24.0, (2, 2)), {}, ValueError, "n_frames >= 1"),
        (([[0, 1]], 24.0, (2, 2)), {}, ValueError, r"frame_indices must have shape \(n_frames,\)"),
        (([0, -1], 24.0, (2, 2)), {}, ValueError, "frame_indices must be >= 0"),
        (([0, 1], 0.0, (2, 2)), {}, ValueError, "video_fps must be a finite real number > 0"),
        (([0, 1], 24.0, (2, 2, 2)), {}, ValueError, "grid_hw must be a pair"),
        (([0, 1], 24.0, (2, 0)), {}, ValueError, r"grid_hw\[1\] \(grid_w\) must be"),
        (([0, 1], 24.0, (2, 2)), {"timestamp_tokens": 0}, ValueError, "timestamp_tokens must"),
        (([0, 1], 24.0, (2, 2)), {"timestamp_tokens": 1.5}, TypeError, "timestamp_tokens must"),
        (
            ([0, 1], 24.0, (2, 2)),
            {"timestamp_tokens": lambda text: 0},
            ValueError,
            r"timestamp_tokens\('<0.0 seconds>'\) must be an integer >= 1",
        ),
        (
            ([0, 1], 24.0, (2, 2)),
            {"timestamp_tokens": 2, "temporal_patch_size": 0},
            ValueError,
            "temporal_patch_size must be an integer >= 1",
        ),
    ],
)
def test_video_segments_bad_input(args, kwargs, error, message):
    kwargs = {"timestamp_tokens": 3, **kwargs}
    with pytest.raises(error, match=message):
        qwen3vl_video_segments(*args, **kwargs)
