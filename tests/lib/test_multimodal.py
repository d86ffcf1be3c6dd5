"""Axial 2-D RoPE and multimodal RoPE: properties, reference formulas, and Qwen2-VL's code."""

import importlib

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


@pytest.fixture(scope="module")
def qwen2_vl(transformers):
    """Hugging Face Transformers' Qwen2-VL modeling module (pinned in .ci/run; no weights)."""
    assert transformers.__version__ == "5.24.0", "the oracle tests are written for 5.24.0"
    return importlib.import_module("transformers.models.qwen2_vl.modeling_qwen2_vl")


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


def test_grid_positions_are_qwen2_vl_vision_positions(qwen2_vl, torch):
    vision_utils = importlib.import_module("transformers.vision_utils")
    grid_thw = torch.tensor([[1, 4, 6], [2, 2, 4]])
    expected = vision_utils.get_vision_position_ids(grid_thw, 2).numpy()
    ours = np.concatenate(
        [grid_positions(4, 6, merge_size=2), np.tile(grid_positions(2, 4, merge_size=2), 2)], 1
    )
    np.testing.assert_array_equal(ours.T, expected)
    unmerged = vision_utils.get_vision_position_ids(torch.tensor([[1, 3, 5]]), 1).numpy()
    np.testing.assert_array_equal(grid_positions(3, 5).T, unmerged)


@pytest.mark.parametrize(("head_dim", "base"), [(16, 10000.0), (80, 10000.0), (8, 100.0)])
def test_axial_is_qwen2_vl_vision_rotary(qwen2_vl, torch, head_dim, base):
    config = importlib.import_module("transformers").Qwen2VLVisionConfig(
        depth=1,
        embed_dim=2 * head_dim,
        hidden_size=2 * head_dim,
        num_heads=2,
        spatial_merge_size=2,
        rope_parameters={"rope_type": "axial", "rope_theta": base},
    )
    rotary = qwen2_vl.Qwen2VLVisionRotaryEmbedding(config)
    positions = grid_positions(4, 6, merge_size=2)
    n = positions.shape[1]
    rng = np.random.default_rng(head_dim)
    q, k = rng.normal(size=(2, n, 2, head_dim))  # (tokens, heads, head_dim), as the encoder
    cos, sin = rotary(torch.zeros(1), torch.from_numpy(positions.T.copy()))
    expected = qwen2_vl.apply_rotary_pos_emb_vision(
        torch.from_numpy(q), torch.from_numpy(k), cos, sin
    )
    for x, ref in zip((q, k), expected, strict=True):
        ours = apply_axial_rotary(np.swapaxes(x, 0, 1), positions, base=base, layout="half")
        # Transformers computes the angles and the rotation in float32.
        np.testing.assert_allclose(np.swapaxes(ours, 0, 1), ref.numpy(), rtol=0, atol=3e-5)


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


def transformers_rope_index(qwen2_vl, torch, segments, merge):
    """Qwen2VLModel.get_rope_index for segments given in patches (before the merge)."""
    transformers = importlib.import_module("transformers")
    config = transformers.Qwen2VLConfig(
        text_config={
            "hidden_size": 16,
            "intermediate_size": 16,
            "num_hidden_layers": 1,
            "num_attention_heads": 2,
            "num_key_value_heads": 2,
            "vocab_size": 8,
            "bos_token_id": None,
            "eos_token_id": None,
        },
        vision_config={
            "depth": 1,
            "embed_dim": 16,
            "hidden_size": 16,
            "num_heads": 2,
            "spatial_merge_size": merge,
        },
    )
    model = qwen2_vl.Qwen2VLModel(config)
    types, images, videos = [], [], []
    for segment in segments:
        if isinstance(segment, int):
            types += [0] * segment
        else:
            t, h, w = segment
            kind = 1 if t == 1 else 2
            types += [kind] * (t * h * w // merge**2)
            (images if kind == 1 else videos).append(segment)
    mm_types = torch.tensor([types])
    position_ids, _ = model.get_rope_index(
        torch.zeros_like(mm_types),
        mm_types,
        image_grid_thw=torch.tensor(images) if images else None,
        video_grid_thw=torch.tensor(videos) if videos else None,
    )
    return position_ids[:, 0].numpy()


CASES = [
    ([3, (1, 4, 6), 2], 2),  # text, a 2 x 3 image (in tokens), text
    ([(1, 6, 4), 5], 2),  # an image first
    ([2, (1, 2, 2), 1, (1, 8, 2), 3], 2),  # two images
    ([1, (2, 4, 4), 2], 2),  # a video of 2 temporal patches, t <= max(h, w)
    ([4, (1, 3, 5), 1], 1),  # no merging
]


@pytest.mark.parametrize(("segments", "merge"), CASES)
def test_position_ids_are_qwen2_vl_get_rope_index(qwen2_vl, torch, segments, merge):
    expected = transformers_rope_index(qwen2_vl, torch, segments, merge)
    np.testing.assert_array_equal(mrope_position_ids(segments, spatial_merge_size=merge), expected)


def test_transformers_restarts_text_inside_a_long_video(qwen2_vl, torch):
    # A video of 3 temporal patches on a 1 x 2 token grid: Qwen2-VL's code starts the text
    # at the largest position + 1 = 1 + 3; Transformers 5.24 at 1 + max(h, w) = 1 + 2.
    segments = [1, (3, 2, 4), 1]
    ours = mrope_position_ids(segments, spatial_merge_size=2)
    theirs = transformers_rope_index(qwen2_vl, torch, segments, 2)
    np.testing.assert_array_equal(ours[:, :-1], theirs[:, :-1])
    assert ours[:, -1].tolist() == [4, 4, 4]
    assert theirs[:, -1].tolist() == [3, 3, 3]


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
    ("section", "base", "segments"),
    [
        ([2, 3, 3], 10000.0, [3, (1, 2, 3), 2]),
        ([16, 24, 24], 1000000.0, [3, (1, 2, 3), 2]),
        ([1, 2, 1], 10000.0, [2, (2, 2, 2), 4, (1, 3, 1), 1]),
    ],
)
def test_mrope_is_qwen2_vl_rotary(qwen2_vl, torch, section, base, segments):
    head_dim = 2 * sum(section)
    transformers = importlib.import_module("transformers")
    config = transformers.Qwen2VLTextConfig(
        hidden_size=2 * head_dim,
        intermediate_size=8,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        vocab_size=8,
        bos_token_id=None,
        eos_token_id=None,
        rope_parameters={"rope_type": "default", "rope_theta": base, "mrope_section": section},
    )
    rotary = qwen2_vl.Qwen2VLRotaryEmbedding(config)
    positions = mrope_position_ids(segments)
    n = positions.shape[1]
    rng = np.random.default_rng(head_dim)
    q, k = rng.normal(size=(2, 1, 2, n, head_dim))  # (batch, heads, tokens, head_dim)
    q_t, k_t = torch.from_numpy(q), torch.from_numpy(k)
    cos, sin = rotary(q_t, torch.from_numpy(positions[:, None, :].copy()))
    expected = qwen2_vl.apply_rotary_pos_emb(q_t, k_t, cos, sin)
    for x, ref in zip((q, k), expected, strict=True):
        ours = apply_mrope(x, positions, mrope_section=section, base=base, layout="half")
        # Transformers computes the angles in float32 (positions up to 11: about 1e-6 rad).
        np.testing.assert_allclose(ours, ref.numpy(), rtol=0, atol=2e-5)


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
