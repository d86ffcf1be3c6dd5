"""PyTorch modules for the sinusoidal encoding and rotary embeddings (needs the torch extra).

`import posenc` never imports torch; this module does. Install it with
`python -m pip install "posenc[torch]"`. The tables and frequencies are computed by the NumPy
functions of `posenc`, so both give the same numbers.

The examples sit here rather than in the classes' docstrings, which the lessons show as they are.

Examples
--------
The sinusoidal encoding added to two zero embeddings (dropout off) is its first two rows:

>>> import torch
>>> from posenc.torch import RotaryEmbedding, SinusoidalPositionalEncoding
>>> layer = SinusoidalPositionalEncoding(d_model=4, dropout=0.0).eval()
>>> layer(torch.zeros(1, 2, 4)).round(decimals=4)
tensor([[[0.0000, 1.0000, 0.0000, 1.0000],
         [0.8415, 0.5403, 0.0100, 1.0000]]])

Rotary embeddings rotate each query by its position: lengths do not change.

>>> rope = RotaryEmbedding(head_dim=4)
>>> q = torch.ones(1, 3, 4)
>>> rope(q).shape
torch.Size([1, 3, 4])
>>> torch.allclose(rope(q).norm(dim=-1), q.norm(dim=-1))
True
"""

# --8<-- [start:imports]
import torch
from torch import nn

from posenc import sinusoidal_encoding

# --8<-- [end:imports]
# isort: split
# The imports above are the ones the sinusoidal lesson shows; the rotary module needs these.
from collections.abc import Mapping

from posenc._validation import check_choice
from posenc.model_config import frequencies_from_config
from posenc.rotary import DEFAULT_BASE, LAYOUTS, rotary_frequencies

__all__ = ["RotaryEmbedding", "SinusoidalPositionalEncoding"]


# The lines below are shown in a lesson: they fit a phone, 79 characters.
# --8<-- [start:sinusoidal]
class SinusoidalPositionalEncoding(nn.Module):
    """Add the sinusoidal encoding to token embeddings.

    The encoding of Vaswani et al. (2017, section 3.5).

    Parameters
    ----------
    d_model : int
        Size of the embeddings, `>= 1`.
    dropout : float, default 0.1
        Dropout applied to the sum, as in the paper; identity in `eval()`
        mode.
    max_len : int, default 5000
        Longest sequence accepted; the table has this many rows.
    base : float, default 10000.0
        Base of the wavelengths.
    batch_first : bool, default True
        Inputs of shape `(batch, seq, d_model)`; with False,
        `(seq, batch, d_model)`.

    Notes
    -----
    The table is a buffer, not a parameter: it is not trained, it follows
    `.to(device)`, and it is left out of the `state_dict` (it is
    recomputed, so checkpoints stay small and a module with another
    `max_len` loads them).
    """

    def __init__(
        self,
        d_model: int,
        dropout: float = 0.1,
        max_len: int = 5000,
        *,
        base: float = 10000.0,
        batch_first: bool = True,
    ) -> None:
        super().__init__()
        table = sinusoidal_encoding(max_len, d_model, base=base)
        buffer = torch.from_numpy(table).to(torch.float32)
        self.register_buffer("pe", buffer, persistent=False)
        self.dropout = nn.Dropout(p=dropout)
        self.d_model = d_model
        self.max_len = max_len
        self.batch_first = batch_first

    def forward(self, x: torch.Tensor, start: int = 0) -> torch.Tensor:
        """Return `dropout(x + PE)`, same shape, dtype and device as `x`.

        `start` is the position of the first token: 0 for a whole
        sequence, the number of tokens already decoded (the key/value
        cache's length) for the next ones.
        """
        if x.dim() != 3 or x.size(-1) != self.d_model:
            order = "batch, seq" if self.batch_first else "seq, batch"
            layout = f"({order}, d_model)"
            wanted = f"{layout} with d_model={self.d_model}"
            got = tuple(x.shape)
            raise ValueError(f"x must have shape {wanted}, got {got}")
        seq_len = x.size(1) if self.batch_first else x.size(0)
        if start < 0 or start + seq_len > self.max_len:
            raise ValueError(
                f"positions {start} to {start + seq_len - 1} must lie in "
                f"[0, max_len - 1] = [0, {self.max_len - 1}]"
            )
        pe = self.pe[start : start + seq_len].to(dtype=x.dtype)
        pe = pe.unsqueeze(0) if self.batch_first else pe.unsqueeze(1)
        return self.dropout(x + pe)


# --8<-- [end:sinusoidal]


# --8<-- [start:rotary]
class RotaryEmbedding(nn.Module):
    """Rotary position embedding (Su et al. 2021) of queries or keys `(..., n, head_dim)`.

    The PyTorch twin of `posenc.apply_rotary`, with the conventions of Hugging Face
    Transformers' rotary modules (`LlamaRotaryEmbedding`): a float32 `inv_freq` buffer,
    left out of the `state_dict`; angles, cosines and sines computed in float32 (float64
    for float64 inputs) and cast to the input's dtype. Nothing of dtype float64 is moved to
    the input's device unless the input is float64 itself (Apple's MPS has no float64).

    Parameters
    ----------
    head_dim : int
        Size of each query or key vector.
    base : float, optional
        `rope_theta`, default 10000.0. Not with `rope_parameters`, which holds it.
    layout : {"half", "interleaved"}, default "half"
        GPT-NeoX style pairs `(i, i + d / 2)` (`rotate_half`, Hugging Face's Llama) or
        GPT-J style pairs `(2i, 2i + 1)`; see `posenc.apply_rotary`.
    rotary_dim : int, optional
        Partial rotary: the first `rotary_dim` dimensions rotate, the rest pass through.
        Not with `rope_parameters` (use its `partial_rotary_factor`).
    rope_parameters : mapping, optional
        A model configuration's `rope_parameters` (or `rope_scaling`) dictionary: its
        `rope_type` sets the frequencies and the attention factor, as in
        `posenc.frequencies_from_config`.
    max_position_embeddings : int, optional
        The configuration's `max_position_embeddings`, for the types that read it.

    Notes
    -----
    Equal to Transformers' results to float32 rounding, not bit for bit: `inv_freq` here is
    the float64 value rounded once to float32, where Transformers computes
    `base ** (arange / dim)` in float32, so the two differ by a few float32 ulps (relative
    difference up to 3e-6). The angle `m * inv_freq` inherits that relative difference, so
    the outputs drift apart with the position: at positions up to 8191 they differ by up to
    5e-4 times the attention factor times the input's largest entry. Measured against
    `LlamaRotaryEmbedding` for `head_dim` 64, 80, 96, 128 and 256, `rope_theta` 10000,
    500000 and 1000000, default, and `linear`, `llama3` and `yarn` at factors 2 to 40
    (largest: 2.5e-6 for `llama3` at factor 40 with `head_dim` 96, and 4.7e-4);
    `tests/oracle/test_transformers_oracle.py` holds it to these bounds.

    With `rope_type="dynamic"` the frequencies follow the length of each call
    (`position_ids.max() + 1`). Transformers keeps those of the longest length seen so far,
    until a call is shorter than the trained length again.
    """

    def __init__(
        self,
        head_dim: int,
        *,
        base: float | None = None,
        layout: str = "half",
        rotary_dim: int | None = None,
        rope_parameters: Mapping[str, object] | None = None,
        max_position_embeddings: int | None = None,
    ) -> None:
        super().__init__()
        self.layout = check_choice("layout", layout, LAYOUTS)
        if rope_parameters is None:
            base = DEFAULT_BASE if base is None else base
            inv_freq, self.attention_factor = (
                rotary_frequencies(head_dim, base=base, rotary_dim=rotary_dim),
                1.0,
            )
        elif base is not None or rotary_dim is not None:
            raise ValueError(
                "pass base and rotary_dim inside rope_parameters (rope_theta, "
                "partial_rotary_factor), not beside it"
            )
        else:
            inv_freq, self.attention_factor = frequencies_from_config(
                head_dim, rope_parameters, max_position_embeddings=max_position_embeddings
            )
        self.register_buffer(
            "inv_freq", torch.from_numpy(inv_freq).to(torch.float32), persistent=False
        )
        # The float64 frequencies stay on the CPU, outside the buffers: module.to(torch.float16)
        # must not round them, and float64 inputs rotate with them.
        self._inv_freq64 = torch.from_numpy(inv_freq)
        self._rope_parameters = dict(rope_parameters or {})
        self._max_position_embeddings = max_position_embeddings
        self.head_dim, self.rotary_dim = head_dim, 2 * len(inv_freq)

    def _frequencies(self, position_ids: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
        """The frequencies of this call, of `dtype`, still on the CPU or on the buffer's device."""
        rope_type = self._rope_parameters.get("rope_type", self._rope_parameters.get("type"))
        if rope_type == "dynamic":
            seq_len = int(position_ids.max().floor().item()) + 1 if position_ids.numel() else 1
            inv_freq, _ = frequencies_from_config(
                self.head_dim,
                self._rope_parameters,
                max_position_embeddings=self._max_position_embeddings,
                seq_len=max(seq_len, 1),
            )
            return torch.from_numpy(inv_freq).to(dtype)
        if dtype == torch.float32 and self.inv_freq.dtype == torch.float32:
            return self.inv_freq
        return self._inv_freq64.to(dtype)  # float64 inputs, or a buffer rounded by .to(dtype)

    def forward(self, x: torch.Tensor, position_ids: torch.Tensor | None = None) -> torch.Tensor:
        """Rotate `x` by its positions; same shape, dtype and device as `x`.

        `position_ids` has shape `(n,)` or `(batch, n)` (batch 1 or `x.size(0)`), integers
        or real numbers; default `0, 1, ..., n - 1`.
        """
        if x.dim() < 2 or x.size(-1) != self.head_dim:
            raise ValueError(f"x must have shape (..., n, {self.head_dim}), got {tuple(x.shape)}")
        n = x.size(-2)
        dtype = torch.float64 if x.dtype == torch.float64 else torch.float32
        if position_ids is None:
            position_ids = torch.arange(n, device=x.device)
        batched = (
            position_ids.dim() == 2
            and x.dim() >= 3
            and position_ids.size(0) in (1, x.size(0))
            and position_ids.size(1) == n
        )
        if position_ids.dtype == torch.bool or not (position_ids.shape == (n,) or batched):
            raise ValueError(
                f"position_ids must be numbers of shape ({n},) or (batch, {n}) to match x of "
                f"shape {tuple(x.shape)}, got {position_ids.dtype} of shape "
                f"{tuple(position_ids.shape)}"
            )
        inv_freq = self._frequencies(position_ids, dtype).to(x.device)
        angles = position_ids.to(dtype=dtype).to(x.device)[..., None] * inv_freq
        if batched:  # (batch, n, r / 2) -> (batch, 1, ..., 1, n, r / 2), against x
            angles = angles.reshape(angles.size(0), *[1] * (x.dim() - 3), n, -1)
        cos = (angles.cos() * self.attention_factor).to(x.dtype)
        sin = (angles.sin() * self.attention_factor).to(x.dtype)
        r = self.rotary_dim
        rotating, passing = x[..., :r], x[..., r:]
        if self.layout == "interleaved":
            first, second = rotating[..., 0::2], rotating[..., 1::2]
        else:
            first, second = rotating[..., : r // 2], rotating[..., r // 2 :]
        pair = (first * cos - second * sin, first * sin + second * cos)
        if self.layout == "interleaved":
            rotated = torch.stack(pair, dim=-1).flatten(-2)
        else:
            rotated = torch.cat(pair, dim=-1)
        if r == self.head_dim:
            return rotated
        return torch.cat([rotated, passing.expand(*rotated.shape[:-1], -1)], dim=-1)


# --8<-- [end:rotary]
