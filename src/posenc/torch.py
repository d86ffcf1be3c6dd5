"""PyTorch modules for the sinusoidal encoding and rotary embeddings (needs the torch extra).

`import posenc` never imports torch; this module does. Install it with
`python -m pip install -e ".[torch]"`. The tables are computed by the NumPy functions of
`posenc`, so both give the same numbers.
"""

# --8<-- [start:imports]
import torch
from torch import nn

from posenc import rotary_frequencies, sinusoidal_encoding

# --8<-- [end:imports]

__all__ = ["RotaryEmbedding", "SinusoidalPositionalEncoding"]


# --8<-- [start:sinusoidal]
class SinusoidalPositionalEncoding(nn.Module):
    """Add the sinusoidal encoding of Vaswani et al. (2017, section 3.5) to token embeddings.

    Parameters
    ----------
    d_model : int
        Size of the embeddings, `>= 1`.
    dropout : float, default 0.1
        Dropout applied to the sum, as in the paper; identity in `eval()` mode.
    max_len : int, default 5000
        Longest sequence accepted; the table has this many rows.
    base : float, default 10000.0
        Base of the wavelengths.
    batch_first : bool, default True
        Inputs of shape `(batch, seq, d_model)`; with False, `(seq, batch, d_model)`.

    Notes
    -----
    The table is a buffer, not a parameter: it is not trained, it follows `.to(device)`, and
    it is left out of the `state_dict` (it is recomputed, so checkpoints stay small and a
    module with another `max_len` loads them).
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
        table = torch.from_numpy(sinusoidal_encoding(max_len, d_model, base=base))
        self.register_buffer("pe", table.to(torch.float32), persistent=False)
        self.dropout = nn.Dropout(p=dropout)
        self.d_model, self.max_len, self.batch_first = d_model, max_len, batch_first

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Return `dropout(x + PE)`, same shape, dtype and device as `x`."""
        if x.dim() != 3 or x.size(-1) != self.d_model:
            layout = "(batch, seq, d_model)" if self.batch_first else "(seq, batch, d_model)"
            raise ValueError(
                f"x must have shape {layout} with d_model={self.d_model}, got {tuple(x.shape)}"
            )
        seq_len = x.size(1) if self.batch_first else x.size(0)
        if seq_len > self.max_len:
            raise ValueError(f"sequence length {seq_len} exceeds max_len={self.max_len}")
        pe = self.pe[:seq_len].to(dtype=x.dtype)
        pe = pe.unsqueeze(0) if self.batch_first else pe.unsqueeze(1)
        return self.dropout(x + pe)


# --8<-- [end:sinusoidal]


# --8<-- [start:rotary]
class RotaryEmbedding(nn.Module):
    """Rotary position embedding (Su et al. 2021) for queries or keys `(..., n, head_dim)`.

    Parameters
    ----------
    head_dim : int
        Size of each query or key vector, even.
    base : float, default 10000.0
        Base of the rotation frequencies.
    layout : {"interleaved", "half"}, default "interleaved"
        Pairs `(2i, 2i + 1)` as in the paper, or `(i, i + head_dim / 2)` as in GPT-NeoX and
        Hugging Face's LLaMA; see `posenc.apply_rotary`.
    """

    def __init__(
        self, head_dim: int, *, base: float = 10000.0, layout: str = "interleaved"
    ) -> None:
        super().__init__()
        if layout not in ("interleaved", "half"):
            raise ValueError(f"layout must be 'interleaved' or 'half', got {layout!r}")
        # A plain float64 tensor, not a buffer: module.to(torch.float16) must not round the
        # frequencies. It has head_dim / 2 values and moves to the input's device per call.
        self._theta = torch.from_numpy(rotary_frequencies(head_dim, base=base))
        self.head_dim, self.layout = head_dim, layout

    def forward(self, x: torch.Tensor, positions: torch.Tensor | None = None) -> torch.Tensor:
        """Rotate `x` by its positions (default `0..n-1`); same shape, dtype and device."""
        if x.dim() < 2 or x.size(-1) != self.head_dim:
            raise ValueError(f"x must have shape (..., n, {self.head_dim}), got {tuple(x.shape)}")
        n = x.size(-2)
        if positions is None:
            positions = torch.arange(n, device=x.device)
        if positions.shape != (n,) or positions.is_floating_point():
            raise ValueError(
                f"positions must be integers of shape ({n},), got {tuple(positions.shape)}"
            )
        theta = self._theta.to(x.device)
        angles = positions.to(device=x.device, dtype=theta.dtype)[:, None] * theta[None, :]
        cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
        if self.layout == "interleaved":
            first, second = x[..., 0::2], x[..., 1::2]
        else:
            first, second = x[..., : self.head_dim // 2], x[..., self.head_dim // 2 :]
        rotated = (first * cos - second * sin, first * sin + second * cos)
        if self.layout == "interleaved":
            return torch.stack(rotated, dim=-1).flatten(-2)
        return torch.cat(rotated, dim=-1)


# --8<-- [end:rotary]
