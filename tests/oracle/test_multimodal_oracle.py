"""Axial 2-D RoPE and multimodal RoPE against the Qwen2-VL, Qwen2.5-VL and Qwen3-VL code of
Hugging Face Transformers.

Small configurations, no weights, no tokenizer. The properties and the reference formulas are
in tests/lib/test_multimodal.py.
"""

import functools
import importlib
import re
import types

import numpy as np
import pytest

from posenc import (
    apply_axial_rotary,
    apply_mrope,
    grid_positions,
    mrope_position_ids,
    qwen3vl_video_segments,
)


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


# --- Qwen2.5-VL: absolute time ids ----------------------------------------------------------

TINY_TEXT = {
    "hidden_size": 16,
    "intermediate_size": 16,
    "num_hidden_layers": 1,
    "num_attention_heads": 2,
    "num_key_value_heads": 2,
    "head_dim": 8,
    "vocab_size": 8,
    "bos_token_id": None,
    "eos_token_id": None,
}
TINY_VISION = {"depth": 1, "hidden_size": 16, "intermediate_size": 16, "num_heads": 2}


def token_types(segments, merge):
    """Transformers' mm_token_type_ids for segments: text 0, image (t = 1) 1, video 2."""
    kinds = []
    for segment in segments:
        if isinstance(segment, int):
            kinds += [0] * segment
        else:
            t, h, w = segment
            kinds += [1 if t == 1 else 2] * (t * h * w // merge**2)
    return kinds


def qwen2_5_vl_rope_index(torch, segments, merge, tokens_per_second, second_per_grid_ts):
    """Qwen2_5_VLModel.get_rope_index; returns the ids and the time interval of each grid."""
    transformers = importlib.import_module("transformers")
    modeling = importlib.import_module("transformers.models.qwen2_5_vl.modeling_qwen2_5_vl")
    vision = {**TINY_VISION, "out_hidden_size": 16, "spatial_merge_size": merge}
    config = transformers.Qwen2_5_VLConfig(
        text_config=TINY_TEXT,
        vision_config={**vision, "tokens_per_second": tokens_per_second},
    )
    model = modeling.Qwen2_5_VLModel(config)
    grids = [segment for segment in segments if not isinstance(segment, int)]
    images = [grid for grid in grids if grid[0] == 1]
    videos = [grid for grid in grids if grid[0] > 1]
    seconds = torch.tensor(second_per_grid_ts)  # float32, as the processor's output
    mm_types = torch.tensor([token_types(segments, merge)])
    position_ids, _ = model.get_rope_index(
        torch.zeros_like(mm_types),
        mm_types,
        image_grid_thw=torch.tensor(images) if images else None,
        video_grid_thw=torch.tensor(videos),
        second_per_grid_ts=seconds,
    )
    # The interval Transformers uses for each video, tokens_per_second * seconds, in float32;
    # images get 1 (their only temporal patch is 0 whatever the interval).
    per_video = iter((tokens_per_second * seconds).tolist())
    intervals = [next(per_video) if grid[0] > 1 else 1.0 for grid in grids]
    return position_ids[:, 0].numpy(), intervals


TIME_CASES = [
    # segments, merge, tokens_per_second, second_per_grid_ts (2 frames / sampled fps)
    ([2, (3, 8, 12), 3], 2, 2, [2 / 2]),  # 2 fps: 2 ids per temporal patch
    ([1, (2, 12, 12), 1], 2, 2, [2 / 1]),  # 1 fps: 4 ids per temporal patch
    ([1, (4, 12, 12), 1], 2, 2, [2 / 3]),  # 3 fps: 4/3, truncated: 0, 1, 2, 4 (float32)
    ([1, (1, 4, 4), 2, (3, 12, 8), 1, (2, 4, 4), 2], 2, 2, [0.5, 2 / 3]),  # image, 2 videos
    ([3, (2, 2, 4), 1], 1, 25, [2 / 50]),  # 25 tokens a second at 50 fps: 1 per patch
]


@pytest.mark.parametrize(("segments", "merge", "tokens_per_second", "seconds"), TIME_CASES)
def test_mrope_position_ids_time_interval_is_qwen2_5_vl_get_rope_index(
    torch, transformers, segments, merge, tokens_per_second, seconds
):
    expected, intervals = qwen2_5_vl_rope_index(torch, segments, merge, tokens_per_second, seconds)
    ours = mrope_position_ids(segments, spatial_merge_size=merge, time_interval=intervals)
    np.testing.assert_array_equal(ours, expected)


def test_mrope_position_ids_time_interval_truncates_in_float32(torch, transformers):
    # 25 tokens a second at 11 fps: 4.5454545... ids per temporal patch. Temporal patch 11
    # gets 11 * 4.5454545 = 50.0000 in float32, as in Transformers, and 49.99999 in float64.
    segments = [1, (12, 2, 2), 1]
    expected, intervals = qwen2_5_vl_rope_index(torch, segments, 1, 25, [2 / 11])
    ours = mrope_position_ids(segments, time_interval=intervals)
    np.testing.assert_array_equal(ours[:, :-1], expected[:, :-1])  # the text differs after
    assert ours[0, -2] == 1 + 50


def test_mrope_position_ids_time_interval_restarts_text_in_transformers(torch, transformers):
    # 4 temporal patches of a 1 x 2 token grid at 1 fps, 2 tokens a second: time ids 1, 5,
    # 9, 13. Qwen's code starts the text after them, at 14; Transformers 5.24 at
    # 1 + max(h, w) // merge = 3, below the video's last time ids.
    segments = [1, (4, 2, 4), 1]
    expected, intervals = qwen2_5_vl_rope_index(torch, segments, 2, 2, [2.0])
    ours = mrope_position_ids(segments, spatial_merge_size=2, time_interval=intervals)
    np.testing.assert_array_equal(ours[:, :-1], expected[:, :-1])
    assert sorted(set(ours[0, 1:-1].tolist())) == [1, 5, 9, 13]
    assert ours[:, -1].tolist() == [14, 14, 14]
    assert expected[:, -1].tolist() == [3, 3, 3]


# --- Qwen3-VL: interleaved M-RoPE, text timestamps ---------------------------------------------


@pytest.fixture(scope="module")
def qwen3_vl(transformers):
    return importlib.import_module("transformers.models.qwen3_vl.modeling_qwen3_vl")


@pytest.mark.parametrize(
    ("section", "base", "segments"),
    [
        ([24, 20, 20], 5000000.0, [3, (1, 4, 6), (2, 3, 3), 2]),  # Qwen3-VL, head_dim 128
        # Small bases: with 5e6 the last pairs of a small head turn too slowly for a
        # mistake in their axis to show at these positions.
        ([3, 2, 2], 10.0, [2, (1, 2, 3), 1]),
        ([2, 1, 1], 10.0, [1, (3, 2, 2), 1]),
        ([1, 1, 1], 10.0, [4]),
        ([4, 1, 1], 10.0, [1, (2, 1, 3)]),  # a long tail of time pairs
        ([3, 3, 2], 10.0, [2, (1, 3, 2), (2, 2, 3)]),  # more height pairs than width pairs
    ],
)
def test_mrope_interleaved_is_qwen3_vl_rotary(qwen3_vl, torch, section, base, segments):
    head_dim = 2 * sum(section)
    transformers = importlib.import_module("transformers")
    config = transformers.Qwen3VLTextConfig(
        hidden_size=2 * head_dim,
        head_dim=head_dim,
        intermediate_size=8,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        vocab_size=8,
        rope_parameters={
            "rope_type": "default",
            "rope_theta": base,
            "mrope_section": section,
            "mrope_interleaved": True,
        },
    )
    rotary = qwen3_vl.Qwen3VLTextRotaryEmbedding(config)
    positions = mrope_position_ids(segments)
    rng = np.random.default_rng(head_dim)
    q, k = rng.normal(size=(2, 1, 2, positions.shape[1], head_dim))
    q_t, k_t = torch.from_numpy(q), torch.from_numpy(k)
    cos, sin = rotary(q_t, torch.from_numpy(positions[:, None, :].copy()))
    expected = qwen3_vl.apply_rotary_pos_emb(q_t, k_t, cos, sin)
    for x, ref in zip((q, k), expected, strict=True):
        ours = apply_mrope(
            x, positions, mrope_section=section, base=base, layout="half", mrope_interleaved=True
        )
        # Transformers computes the angles in float32.
        np.testing.assert_allclose(ours, ref.numpy(), rtol=0, atol=2e-5)


def qwen3_vl_video_text(frame_indices, video_fps, grid_thw, merge):
    """Qwen3VLProcessor.replace_video_token's text for one video, without a tokenizer."""
    processing = importlib.import_module("transformers.models.qwen3_vl.processing_qwen3_vl")
    video_utils = importlib.import_module("transformers.video_utils")
    processor = processing.Qwen3VLProcessor
    stub = types.SimpleNamespace(
        video_processor=types.SimpleNamespace(merge_size=merge, temporal_patch_size=2),
        _calculate_timestamps=functools.partial(processor._calculate_timestamps, None),
        vision_start_token="<|vision_start|>",
        vision_end_token="<|vision_end|>",
        video_token="<|video_pad|>",
    )
    metadata = video_utils.VideoMetadata(
        total_num_frames=int(max(frame_indices)) + 1,
        fps=video_fps,
        frames_indices=list(frame_indices),
    )
    inputs = {"video_grid_thw": np.array([grid_thw]), "video_metadata": [metadata]}
    return processor.replace_video_token(stub, inputs, 0)


VIDEOS = [
    # frame indices in the video, its fps, (h, w) in patches
    (list(range(0, 96, 24)), 24.0, (4, 6)),  # 1 frame a second, 2 temporal patches
    ([0, 12, 24, 36, 48], 24.0, (2, 2)),  # odd: the last index is repeated
    (list(np.linspace(0, 299, 20).round().astype(int)), 29.97, (6, 4)),
    ([0, 1], 2.0, (2, 4)),
    (list(range(0, 1200, 15)), 30.0, (2, 2)),  # 40 temporal patches, up to "<39.2 seconds>"
]


@pytest.mark.parametrize(("frames", "fps", "grid_hw"), VIDEOS)
def test_qwen3vl_video_segments_timestamps_are_qwen3_vl_processor_text(
    transformers, frames, fps, grid_hw
):
    merge = 2
    stamps, segments = qwen3vl_video_segments(frames, fps, grid_hw, timestamp_tokens=1)
    grid_thw = ((len(frames) + 1) // 2, *grid_hw)
    pads = "<|video_pad|>" * (grid_hw[0] * grid_hw[1] // merge**2)
    ours = "".join(f"{stamp}<|vision_start|>{pads}<|vision_end|>" for stamp in stamps)
    assert ours == qwen3_vl_video_text(frames, fps, grid_thw, merge)
    assert sum(not isinstance(segment, int) for segment in segments) == grid_thw[0]


def stand_in_tokens(text, count):
    """Token types of the processor's text: each special token is one token (the video's
    pads of type 2), each timestamp and each other piece of text `count(piece)` tokens."""
    kinds = []
    for piece in re.split(r"(<\|[a-z_]+\|>|<[0-9.]+ seconds>)", text):
        if piece == "<|video_pad|>":
            kinds.append(2)
        elif piece.startswith("<|"):
            kinds.append(0)
        elif piece:
            kinds += [0] * count(piece)
    return kinds


@pytest.mark.parametrize(("frames", "fps", "grid_hw"), VIDEOS)
def test_qwen3vl_video_segments_positions_are_qwen3_vl_get_rope_index(
    qwen3_vl, torch, frames, fps, grid_hw
):
    transformers = importlib.import_module("transformers")
    merge = 2
    config = transformers.Qwen3VLConfig(
        text_config=TINY_TEXT,
        vision_config={
            **TINY_VISION,
            "out_hidden_size": 16,
            "spatial_merge_size": merge,
            "deepstack_visual_indexes": [],
        },
    )
    model = qwen3_vl.Qwen3VLModel(config)

    # A stand-in for the tokenizer: some timestamps take more tokens than others.
    def count(text):
        return len(text) - 10

    grid_thw = ((len(frames) + 1) // 2, *grid_hw)
    before, after = "Describe the video: ", "What happens?"
    text = before + qwen3_vl_video_text(frames, fps, grid_thw, merge) + after
    mm_types = torch.tensor([stand_in_tokens(text, count)])
    expected, _ = model.get_rope_index(
        torch.zeros_like(mm_types), mm_types, video_grid_thw=torch.tensor([grid_thw])
    )
    _, video = qwen3vl_video_segments(frames, fps, grid_hw, timestamp_tokens=count)
    ours = mrope_position_ids([count(before), *video, count(after)], spatial_merge_size=merge)
    np.testing.assert_array_equal(ours, expected[:, 0].numpy())
