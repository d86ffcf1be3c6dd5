"""Axial 2-D RoPE and multimodal RoPE against Qwen2-VL's code in Hugging Face Transformers.

Small configurations, no weights. The properties and the reference formulas are in
tests/lib/test_multimodal.py.
"""

import importlib

import numpy as np
import pytest

from posenc import apply_axial_rotary, apply_mrope, grid_positions, mrope_position_ids


@pytest.fixture(scope="module")
def qwen2_vl(transformers):
    """Hugging Face Transformers' Qwen2-VL modeling module (pinned in .ci/run; no weights)."""
    assert transformers.__version__ == "5.24.0", "the oracle tests are written for 5.24.0"
    return importlib.import_module("transformers.models.qwen2_vl.modeling_qwen2_vl")


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
