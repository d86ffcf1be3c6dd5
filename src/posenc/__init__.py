"""Positional encodings for transformers, in NumPy.

The public names below are the ones the lessons teach; every other module is private, except
`posenc.plotting` (figures, needs matplotlib) and `posenc.torch` (PyTorch modules, needs torch).
"""

from posenc.alibi import alibi_bias, alibi_slopes
from posenc.attention import scaled_dot_product_attention, self_attention, softmax
from posenc.grid import grid_positions, resize_position_table, sincos_2d
from posenc.learned import embed_positions, learned_position_table
from posenc.multimodal import (
    apply_axial_rotary,
    apply_mrope,
    axial_rotary_angles,
    mrope_angles,
    mrope_position_ids,
)
from posenc.relative import relative_position_bucket, relative_position_buckets
from posenc.rope_scaling import (
    dynamic_ntk_frequencies,
    frequencies_from_config,
    linear_frequencies,
    llama3_frequencies,
    ntk_frequencies,
    yarn_attention_factor,
    yarn_frequencies,
)
from posenc.rotary import (
    apply_rotary,
    half_to_interleaved,
    interleaved_to_half,
    rotary_frequencies,
)
from posenc.sinusoidal import sinusoidal_encoding

__all__ = [
    "alibi_bias",
    "alibi_slopes",
    "apply_axial_rotary",
    "apply_mrope",
    "apply_rotary",
    "axial_rotary_angles",
    "dynamic_ntk_frequencies",
    "embed_positions",
    "frequencies_from_config",
    "grid_positions",
    "half_to_interleaved",
    "interleaved_to_half",
    "learned_position_table",
    "linear_frequencies",
    "llama3_frequencies",
    "mrope_angles",
    "mrope_position_ids",
    "ntk_frequencies",
    "relative_position_bucket",
    "relative_position_buckets",
    "resize_position_table",
    "rotary_frequencies",
    "scaled_dot_product_attention",
    "self_attention",
    "sincos_2d",
    "sinusoidal_encoding",
    "softmax",
    "yarn_attention_factor",
    "yarn_frequencies",
]
# The one place of the version: pyproject.toml reads it (tool.setuptools.dynamic).
__version__ = "0.1.0"
