"""Positional encodings for transformers, in NumPy.

The public names below are the ones the lessons teach; every other module is private, except
`posenc.plotting` (figures, needs matplotlib) and `posenc.torch` (PyTorch modules, needs torch).
"""

from posenc.alibi import alibi_bias, alibi_slopes
from posenc.attention import scaled_dot_product_attention, self_attention, softmax
from posenc.exercise import ExerciseCheck, check_exercise, check_output
from posenc.grid import (
    grid_positions,
    patch_center_coordinates,
    resize_position_table,
    sincos_2d,
)
from posenc.layers import LayerPositions, describe_schedule, layer_schedule
from posenc.learned import embed_positions, learned_position_table
from posenc.mla import mla_absorbed_scores, mla_scores, mla_softmax_scale
from posenc.model_config import frequencies_from_config
from posenc.multimodal import (
    apply_axial_rotary,
    apply_mrope,
    axial_rotary_angles,
    mrope_angles,
    mrope_position_ids,
    qwen3vl_video_segments,
)
from posenc.packing import (
    mask_to_bias,
    packed_attention_mask,
    packed_document_ids,
    packed_position_ids,
)
from posenc.relative import relative_position_bucket, relative_position_buckets
from posenc.rope_scaling import (
    dynamic_ntk_frequencies,
    linear_frequencies,
    llama3_frequencies,
    longrope_attention_factor,
    longrope_frequencies,
    ntk_frequencies,
    proportional_frequencies,
    yarn_attention_factor,
    yarn_frequencies,
)
from posenc.rotary import (
    apply_rotary,
    half_to_interleaved,
    interleaved_to_half,
    rotary_frequencies,
)
from posenc.sinks import (
    attention_with_sinks,
    rerotate_keys,
    streaming_cache_indices,
    streaming_cache_positions,
)
from posenc.sinusoidal import sinusoidal_encoding
from posenc.temperature import llama4_attention_scale

__all__ = [
    "ExerciseCheck",
    "LayerPositions",
    "alibi_bias",
    "alibi_slopes",
    "apply_axial_rotary",
    "apply_mrope",
    "apply_rotary",
    "attention_with_sinks",
    "axial_rotary_angles",
    "check_exercise",
    "check_output",
    "describe_schedule",
    "dynamic_ntk_frequencies",
    "embed_positions",
    "frequencies_from_config",
    "grid_positions",
    "half_to_interleaved",
    "interleaved_to_half",
    "layer_schedule",
    "learned_position_table",
    "linear_frequencies",
    "llama3_frequencies",
    "llama4_attention_scale",
    "longrope_attention_factor",
    "longrope_frequencies",
    "mask_to_bias",
    "mla_absorbed_scores",
    "mla_scores",
    "mla_softmax_scale",
    "mrope_angles",
    "mrope_position_ids",
    "ntk_frequencies",
    "packed_attention_mask",
    "packed_document_ids",
    "packed_position_ids",
    "patch_center_coordinates",
    "proportional_frequencies",
    "qwen3vl_video_segments",
    "relative_position_bucket",
    "relative_position_buckets",
    "rerotate_keys",
    "resize_position_table",
    "rotary_frequencies",
    "scaled_dot_product_attention",
    "self_attention",
    "sincos_2d",
    "sinusoidal_encoding",
    "softmax",
    "streaming_cache_indices",
    "streaming_cache_positions",
    "yarn_attention_factor",
    "yarn_frequencies",
]
# The one place of the version: pyproject.toml reads it (tool.setuptools.dynamic).
__version__ = "0.1.0"
