"""Positional encodings for transformers, in NumPy.

The public names below are the ones the lessons teach; every other module is private.
"""

from posenc.attention import self_attention, softmax
from posenc.rotary import apply_rotary, interleaved_to_half, rotary_frequencies
from posenc.sinusoidal import sinusoidal_encoding

__all__ = [
    "apply_rotary",
    "interleaved_to_half",
    "rotary_frequencies",
    "self_attention",
    "sinusoidal_encoding",
    "softmax",
]
__version__ = "0.1.0"
