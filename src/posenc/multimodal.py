"""Rotary embeddings for positions with several axes: axial 2-D RoPE and multimodal RoPE."""

import operator
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_real_array, check_integer, check_positive_real
from posenc.grid import _check_grid
from posenc.rotary import rotary_frequencies

# Spelled out here (not imported from posenc.rotary) so that every function of this module
# names the pairing it uses; see `apply_rotary` for the two layouts.
RotaryLayout = Literal["half", "interleaved"]
_LAYOUTS = ("half", "interleaved")


def _rotate(values: np.ndarray, angles: np.ndarray, layout: str) -> np.ndarray:
    """Rotate each pair of the last axis of ``values`` (..., n, head_dim) by ``angles`` (n, pairs).

    The pairs are ``(i, i + head_dim / 2)`` for ``layout="half"`` and ``(2i, 2i + 1)`` for
    ``layout="interleaved"``; pair ``i`` turns by ``angles[:, i]``.
    """
    head_dim = values.shape[-1]
    cos, sin = np.cos(angles).astype(values.dtype), np.sin(angles).astype(values.dtype)
    if layout == "interleaved":
        first, second = values[..., 0::2], values[..., 1::2]
    else:
        first, second = values[..., : head_dim // 2], values[..., head_dim // 2 :]
    rotated_first = first * cos - second * sin
    rotated_second = first * sin + second * cos
    if layout == "interleaved":
        out = np.empty_like(values)
        out[..., 0::2], out[..., 1::2] = rotated_first, rotated_second
        return out
    return np.concatenate([rotated_first, rotated_second], axis=-1)


def _check_layout(layout: object) -> str:
    if layout not in _LAYOUTS:
        raise ValueError(f"layout must be one of {_LAYOUTS}, got {layout!r}")
    return str(layout)


def _check_queries(x: ArrayLike) -> np.ndarray:
    values = as_real_array("x", x)
    if values.ndim < 2:
        raise ValueError(f"x must have shape (..., n, head_dim), got shape {values.shape}")
    return values


def _check_positions(
    positions: ArrayLike, *, n_axes: int | None, n: int | None, integer: bool, what: str
) -> np.ndarray:
    """Return ``positions`` as a float64 array of shape (n_axes, n); raise otherwise."""
    where = np.asarray(positions)
    if integer and not np.issubdtype(where.dtype, np.integer):
        raise TypeError(f"positions must hold integers, got an array of dtype {where.dtype}")
    if not integer:
        where = as_real_array("positions", where)
    axes = "n_axes" if n_axes is None else str(n_axes)
    length = "n" if n is None else str(n)
    if (
        where.ndim != 2
        or (n_axes is not None and where.shape[0] != n_axes)
        or (n is not None and where.shape[1] != n)
        or where.shape[0] < 1
    ):
        raise ValueError(
            f"positions must have shape ({axes}, {length}) ({what}), got shape {where.shape}"
        )
    if not np.all(np.isfinite(where)):
        raise ValueError("positions must be finite")
    return where.astype(np.float64)


def _check_sizes(name: str, sizes: object, *, minimum: int) -> tuple[int, ...]:
    if isinstance(sizes, str | bytes) or not isinstance(sizes, Sequence | np.ndarray):
        raise TypeError(f"{name} must be a sequence of integers, got {sizes!r}")
    return tuple(check_integer(f"{name}[{i}]", s, minimum=minimum) for i, s in enumerate(sizes))


def axial_rotary_angles(
    positions: ArrayLike,
    head_dim: int,
    *,
    axes_dims: Sequence[int] | None = None,
    base: float = 10000.0,
) -> np.ndarray:
    r"""The rotation angle of each pair of dimensions for positions with several axes.

    Axial RoPE gives each axis of the position (row and column of an image patch; or
    frame, row and column) its own share of the `head_dim / 2` pairs of dimensions: the
    first `axes_dims[0] / 2` pairs turn with axis 0, the next `axes_dims[1] / 2` with axis
    1, and so on. Each share is a 1-D rotary embedding of its own size $d_a$ =
    `axes_dims[a]`, with the frequencies $\theta_j = base^{-2j/d_a}$ of
    `rotary_frequencies(d_a)`: every axis has the whole range, from one radian per step
    down to nearly $1/base$. The angle of pair $j$ of axis $a$ at position $p$ is
    $p_a\,\theta_j$.

    Parameters
    ----------
    positions : array_like of real numbers
        Shape `(n_axes, n)`: row `a` holds the coordinate on axis `a` of each of the `n`
        tokens, for example `grid_positions(grid_h, grid_w)` (rows, then columns).
        Fractional positions are allowed (EVA-02 scales them to interpolate).
    head_dim : int
        Size of each query and key vector, even and `>= 2`.
    axes_dims : sequence of int, optional
        Dimensions given to each axis, even, `>= 2`, one per row of `positions`, summing
        to `head_dim`. Default: an equal share, `head_dim / n_axes` each (then `head_dim`
        must be divisible by `2 * n_axes`). FLUX.1 uses `(16, 56, 56)` for head_dim 128.
    base : float, default 10000.0
        Base of the frequencies, finite and `> 0` (RoPE-ViT's axial models use 100).

    Returns
    -------
    ndarray
        Shape `(n, head_dim // 2)`, float64, in radians: the angle of pair `i` of token
        `k` at `[k, i]`.

    Raises
    ------
    TypeError
        If `positions` is not real, or `head_dim`, `axes_dims` hold non-integers.
    ValueError
        If `positions` is not 2-D, `head_dim` is odd, an axis gets an odd share, or the
        shares do not sum to `head_dim`.

    References
    ----------
    - B. Heo et al., "Rotary Position Embedding for Vision Transformer", ECCV 2024,
      section 3 (RoPE-Axial); `naver-ai/rope-vit`, `models/vit_rope.py`
      (`compute_axial_cis`, `rope_theta=100.0` for the axial models).
    - Y. Fang et al., "EVA-02: A Visual Representation for Neon Genesis", 2023, section 2
      (architecture: 2-D RoPE); `baaivision/EVA`, `EVA-02/asuka/rope.py`
      (`VisionRotaryEmbeddingFast`, built with `dim = head_dim // 2`).
    - `black-forest-labs/flux`, `src/flux/math.py` (`rope`),
      `src/flux/modules/layers.py` (`EmbedND`) and `src/flux/util.py` (FLUX.1-dev and
      -schnell: `axes_dim=[16, 56, 56]`, `theta=10_000`, 24 heads of 128).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import axial_rotary_angles, grid_positions
    >>> positions = grid_positions(2, 2)  # rows [0 0 1 1], columns [0 1 0 1]
    >>> print(axial_rotary_angles(positions, 8))  # pairs 0-1: the row, pairs 2-3: the column
    [[0.   0.   0.   0.  ]
     [0.   0.   1.   0.01]
     [1.   0.01 0.   0.  ]
     [1.   0.01 1.   0.01]]
    """
    head_dim = check_integer("head_dim", head_dim, minimum=2)
    if head_dim % 2:
        raise ValueError(f"head_dim must be even (pairs of dimensions rotate), got {head_dim}")
    where = _check_positions(positions, n_axes=None, n=None, integer=False, what="one row per axis")
    n_axes = where.shape[0]
    if axes_dims is None:
        if head_dim % (2 * n_axes):
            raise ValueError(
                f"head_dim must be divisible by 2 * n_axes = {2 * n_axes} to share its pairs "
                f"equally between {n_axes} axes, got {head_dim}; pass axes_dims to share "
                "them unequally"
            )
        dims = (head_dim // n_axes,) * n_axes
    else:
        dims = _check_sizes("axes_dims", axes_dims, minimum=2)
        if len(dims) != n_axes:
            raise ValueError(
                f"axes_dims must have one entry per row of positions ({n_axes}), got {dims}"
            )
        if any(d % 2 for d in dims) or sum(dims) != head_dim:
            raise ValueError(f"axes_dims must be even and sum to head_dim={head_dim}, got {dims}")
    base = check_positive_real("base", base)
    theta = np.concatenate([rotary_frequencies(d, base=base) for d in dims])
    axis_of_pair = np.repeat(np.arange(n_axes), [d // 2 for d in dims])
    angles: np.ndarray = where[axis_of_pair].T * theta
    return angles


def apply_axial_rotary(
    x: ArrayLike,
    positions: ArrayLike,
    *,
    axes_dims: Sequence[int] | None = None,
    base: float = 10000.0,
    layout: RotaryLayout = "half",
) -> np.ndarray:
    r"""Rotate queries or keys by their 2-D (or n-D) positions: axial RoPE for images.

    Each pair of dimensions turns by the angle of `axial_rotary_angles`: the pairs of the
    first share by the token's row times their frequencies, the next share by its column.
    A query at row $m_1$, column $n_1$ and a key at row $m_2$, column $n_2$ then score

    $$\langle R(m_1, n_1)\,q, R(m_2, n_2)\,k\rangle = \langle q, R(m_2 - m_1, n_2 - n_1)\,k
    \rangle.$$

    The score depends only on the 2-D offset between the patches, as 1-D RoPE's depends on
    the distance between tokens.

    The models differ in the pairing and in which axis comes first; pass `layout` and
    order the rows of `positions` to match:

    - Qwen2-VL's vision encoder: `layout="half"`, rows then columns, base 10000
      (`Qwen2VLVisionRotaryEmbedding`: the frequencies of `head_dim / 2` dimensions,
      concatenated for the row and the column, then repeated for `rotate_half`);
    - EVA-02: `layout="interleaved"`, rows then columns;
    - RoPE-ViT (RoPE-Axial): `layout="interleaved"`, columns then rows
      (`positions[::-1]`), base 100, class token not rotated;
    - FLUX.1: `layout="interleaved"`, three axes (an index, row, column) with
      `axes_dims=(16, 56, 56)`.

    Parameters
    ----------
    x : array_like
        Queries or keys, shape `(..., n, head_dim)`. float32 and float64 keep their dtype;
        integers become float64.
    positions : array_like of real numbers
        Shape `(n_axes, n)`, one row per axis, such as `grid_positions(grid_h, grid_w)`.
    axes_dims : sequence of int, optional
        Dimensions given to each axis (see `axial_rotary_angles`). Default: equal shares.
    base : float, default 10000.0
        Base of the frequencies, finite and `> 0`.
    layout : {"half", "interleaved"}, default "half"
        Which dimensions form a pair: `(i, i + head_dim / 2)` or `(2i, 2i + 1)`, as in
        `apply_rotary`. Pair `i` in this order gets angle `i` of `axial_rotary_angles`.

    Returns
    -------
    ndarray
        Same shape as `x`; float32 for float32 input, otherwise float64. Norms are
        unchanged.

    Raises
    ------
    TypeError
        If `x` or `positions` is not real.
    ValueError
        If `x` has fewer than 2 dimensions, `positions` does not have `n` columns, the
        shares of `head_dim` are wrong (see `axial_rotary_angles`), or `layout` is unknown.

    References
    ----------
    - B. Heo et al., "Rotary Position Embedding for Vision Transformer", ECCV 2024,
      section 3 (RoPE-Axial); `naver-ai/rope-vit`, `models/vit_rope.py`.
    - P. Wang et al., "Qwen2-VL", 2024, section 2.1; Hugging Face Transformers 5.24,
      `src/transformers/models/qwen2_vl/modeling_qwen2_vl.py`
      (`Qwen2VLVisionRotaryEmbedding`, `apply_rotary_pos_emb_vision`).
    - Y. Fang et al., "EVA-02", 2023; `baaivision/EVA`, `EVA-02/asuka/rope.py`.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import apply_axial_rotary, grid_positions
    >>> q = np.tile([1.0, 0.0, 0.0, 0.0], (4, 1))  # pair (0, 2) turns with the row
    >>> print(np.round(apply_axial_rotary(q, grid_positions(2, 2), layout="half"), 3))
    [[1.    0.    0.    0.   ]
     [1.    0.    0.    0.   ]
     [0.54  0.    0.841 0.   ]
     [0.54  0.    0.841 0.   ]]
    """
    values = _check_queries(x)
    layout_name = _check_layout(layout)
    where = _check_positions(
        positions, n_axes=None, n=values.shape[-2], integer=False, what="one row per axis"
    )
    angles = axial_rotary_angles(where, values.shape[-1], axes_dims=axes_dims, base=base)
    return _rotate(values, angles, layout_name)


def _check_mrope_section(mrope_section: object) -> tuple[int, int, int]:
    sections = _check_sizes("mrope_section", mrope_section, minimum=0)
    if len(sections) != 3:
        raise ValueError(
            f"mrope_section must have 3 entries (pairs for time, height and width), got {sections}"
        )
    return sections


def _mrope_axis_of_pair(sections: tuple[int, ...], mrope_interleaved: object) -> np.ndarray:
    """The axis (0 time, 1 height, 2 width) whose position turns each pair; raise if unusable.

    Blocked (Qwen2-VL): the first ``sections[0]`` pairs, then ``sections[1]``, then the rest.
    Interleaved (Qwen3-VL's ``recomposition_frequencies``): pair ``j`` turns with height when
    ``j % 3 == 1`` and ``j < 3 * sections[1]``, with width when ``j % 3 == 2`` and
    ``j < 3 * sections[2]``, and with time otherwise, the tail included.
    """
    if not isinstance(mrope_interleaved, bool | np.bool_):
        raise TypeError(f"mrope_interleaved must be a bool, got {type(mrope_interleaved).__name__}")
    pairs = sum(sections)
    if pairs == 0:
        raise ValueError(f"mrope_section must not sum to 0, got {sections}")
    if not mrope_interleaved:
        return np.repeat(np.arange(3), sections)
    _, h, w = sections
    if 3 * h - 2 >= pairs or 3 * w - 1 >= pairs:
        raise ValueError(
            f"with mrope_interleaved=True, height takes pairs 1, 4, ..., 3 * mrope_section[1] "
            f"- 2 and width pairs 2, 5, ..., 3 * mrope_section[2] - 1, which must exist among "
            f"the sum(mrope_section) = {pairs} pairs; mrope_section={list(sections)} needs "
            f"{max(3 * h - 1, 3 * w)} pairs (Qwen3-VL uses [24, 20, 20])"
        )
    index = np.arange(pairs)
    axis = np.zeros(pairs, dtype=np.int64)
    axis[(index % 3 == 1) & (index < 3 * h)] = 1
    axis[(index % 3 == 2) & (index < 3 * w)] = 2
    return axis


def mrope_angles(
    positions: ArrayLike,
    *,
    mrope_section: Sequence[int],
    base: float = 10000.0,
    mrope_interleaved: bool = False,
) -> np.ndarray:
    r"""Multimodal RoPE's angles: one frequency ladder, its pairs split between 3 axes.

    M-RoPE (Qwen2-VL) keeps the frequencies of 1-D RoPE for `head_dim`,
    $\theta_i = base^{-2i/head\_dim}$, and gives the first `mrope_section[0]` pairs the
    temporal position, the next `mrope_section[1]` the height, the last
    `mrope_section[2]` the width: pair $i$ turns by $p_{a(i)}\,\theta_i$ where $a(i)$ is
    the section holding $i$. So time gets the fast frequencies and width the slow ones.
    Unlike axial RoPE (`axial_rotary_angles`), the frequencies do not restart for each
    axis. A text token has the same position on the three axes, and then its angles are
    exactly those of 1-D RoPE.

    With `mrope_interleaved=True` (Qwen3-VL, Qwen3.5) the axes take turns instead: pair
    $i$ turns with the height if $i \operatorname{mod} 3 = 1$ and $i < 3\,s_h$, with the
    width if $i \operatorname{mod} 3 = 2$ and $i < 3\,s_w$, and with time otherwise
    ($s_h$, $s_w$ = `mrope_section[1]`, `mrope_section[2]`). For Qwen3-VL's
    `[24, 20, 20]` (64 pairs) the pairs 0 to 59 go T, H, W, T, H, W, ... and the last 4
    pairs, 60 to 63, all turn with time. Each axis then has fast and slow frequencies;
    time keeps the slowest. Each axis still gets `mrope_section[a]` pairs, so the
    interleaved layout needs $3\,s_h - 2$ and $3\,s_w - 1$ to be pairs that exist.

    Parameters
    ----------
    positions : array_like of int
        Shape `(3, n)`: the temporal, height and width position of each token, such as
        `mrope_position_ids(...)`.
    mrope_section : sequence of 3 int
        Pairs of dimensions given to time, height and width, each `>= 0`, summing to
        `head_dim // 2`: `(16, 24, 24)` for Qwen2-VL's head_dim 128 (the
        `mrope_section` of its configuration, counted in pairs).
    base : float, default 10000.0
        Base of the frequencies, finite and `> 0` (the `default_theta` of Transformers
        5.24: 1000000 for Qwen2-VL, 500000 for Qwen3-VL).
    mrope_interleaved : bool, default False
        Interleave the three axes over the pairs, as Qwen3-VL does (the
        `mrope_interleaved` key of its `rope_parameters`; Transformers'
        `Qwen3VLTextRotaryEmbedding` interleaves whatever the key says), instead of
        Qwen2-VL's three consecutive blocks.

    Returns
    -------
    ndarray
        Shape `(n, head_dim // 2)` with `head_dim = 2 * sum(mrope_section)`, float64, in
        radians.

    Raises
    ------
    TypeError
        If `positions` is not integer, `mrope_section` holds non-integers, or
        `mrope_interleaved` is not a bool.
    ValueError
        If `positions` does not have shape `(3, n)`, `mrope_section` does not have 3
        entries, they sum to 0, or (interleaved) the height's or width's pairs would run
        past the last pair.

    References
    ----------
    - P. Wang et al., "Qwen2-VL: Enhancing Vision-Language Model's Perception of the World
      at Any Resolution", 2024, section 2.1 ("Multimodal Rotary Position Embedding").
    - Qwen Team, "Qwen3-VL Technical Report", 2025, arXiv:2511.21631,
      section 2 (interleaved MRoPE).
    - Hugging Face Transformers 5.24,
      `src/transformers/models/qwen2_vl/modeling_qwen2_vl.py` (`Qwen2VLRotaryEmbedding`:
      `recomposition_frequencies`, `mrope_section` default `[16, 24, 24]`) and
      `src/transformers/models/qwen3_vl/modeling_qwen3_vl.py`
      (`Qwen3VLTextRotaryEmbedding.recomposition_frequencies`, default `[24, 20, 20]`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import mrope_angles
    >>> positions = np.array([[5], [1], [2]])  # time 5, row 1, column 2
    >>> print(np.round(mrope_angles(positions, mrope_section=[1, 1, 2]), 3).tolist())
    [[5.0, 0.1, 0.02, 0.002]]
    >>> one_axis = np.eye(3, dtype=int)  # 3 tokens: time 1, height 1, width 1 alone
    >>> for interleaved in (False, True):
    ...     angles = mrope_angles(
    ...         one_axis, mrope_section=[3, 2, 2], mrope_interleaved=interleaved
    ...     )
    ...     print("".join("THW"[a] for a in np.argmax(angles != 0, axis=0)))
    TTTHHWW
    THWTHWT
    """
    sections = _check_mrope_section(mrope_section)
    axis_of_pair = _mrope_axis_of_pair(sections, mrope_interleaved)
    where = _check_positions(
        positions, n_axes=3, n=None, integer=True, what="time, height and width rows"
    )
    base = check_positive_real("base", base)
    theta = rotary_frequencies(2 * sum(sections), base=base)
    angles: np.ndarray = where[axis_of_pair].T * theta
    return angles


def apply_mrope(
    x: ArrayLike,
    positions: ArrayLike,
    *,
    mrope_section: Sequence[int],
    base: float = 10000.0,
    layout: RotaryLayout = "half",
    mrope_interleaved: bool = False,
) -> np.ndarray:
    r"""Rotate queries or keys by their (time, height, width) positions: multimodal RoPE.

    Each pair of dimensions turns by its angle of `mrope_angles`. For two image tokens of
    the same image the score depends only on their offset in time, height and width; for
    text tokens (equal positions on the three axes) the result is 1-D RoPE's,
    `apply_rotary(x, positions[0], layout=layout)`, with either assignment of the pairs.

    Two settings are independent: `layout` says which two dimensions form pair $i$, and
    `mrope_interleaved` which axis turns pair $i$. Qwen2-VL uses `layout="half"` with the
    blocked assignment; Qwen3-VL `layout="half"` with `mrope_interleaved=True`.

    Parameters
    ----------
    x : array_like
        Queries or keys, shape `(..., n, head_dim)` with `head_dim = 2 * sum(mrope_section)`.
        float32 and float64 keep their dtype; integers become float64.
    positions : array_like of int
        Shape `(3, n)`: temporal, height and width positions (`mrope_position_ids`).
    mrope_section : sequence of 3 int
        Pairs given to time, height and width (see `mrope_angles`).
    base : float, default 10000.0
        Base of the frequencies, finite and `> 0`.
    layout : {"half", "interleaved"}, default "half"
        Which dimensions form a pair. Qwen2-VL uses `"half"` (`rotate_half`): its pairs
        `(i, i + head_dim / 2)` with `i < mrope_section[0]` turn with time.
    mrope_interleaved : bool, default False
        Which axis turns each pair: consecutive blocks (Qwen2-VL) or T, H, W in turn
        (Qwen3-VL); see `mrope_angles`.

    Returns
    -------
    ndarray
        Same shape as `x`; float32 for float32 input, otherwise float64.

    Raises
    ------
    TypeError
        If `x` is not real, `positions` not integer, or `mrope_interleaved` not a bool.
    ValueError
        If `x` has fewer than 2 dimensions, `head_dim` is not `2 * sum(mrope_section)`,
        `positions` is not `(3, n)`, `layout` is unknown, or `mrope_section` does not fit
        the interleaved assignment (see `mrope_angles`).

    References
    ----------
    - P. Wang et al., "Qwen2-VL", 2024, section 2.1.
    - Qwen Team, "Qwen3-VL Technical Report", 2025, arXiv:2511.21631,
      section 2 (interleaved MRoPE).
    - Hugging Face Transformers 5.24,
      `src/transformers/models/qwen2_vl/modeling_qwen2_vl.py` (`Qwen2VLRotaryEmbedding`,
      `apply_rotary_pos_emb`) and `src/transformers/models/qwen3_vl/modeling_qwen3_vl.py`
      (`Qwen3VLTextRotaryEmbedding`, `apply_rotary_pos_emb`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import apply_mrope, mrope_position_ids
    >>> positions = mrope_position_ids([1, (1, 1, 2)])  # a text token, then a 1 x 2 image
    >>> print(positions)
    [[0 1 1]
     [0 1 1]
     [0 1 2]]
    >>> q = np.tile([1.0, 0.0, 0.0, 0.0, 0.0, 0.0], (3, 1))
    >>> out = apply_mrope(q, positions, mrope_section=[1, 1, 1])
    >>> print(np.round(out[:, [0, 3]], 3))  # pair (0, 3) turns with time
    [[1.    0.   ]
     [0.54  0.841]
     [0.54  0.841]]
    """
    values = _check_queries(x)
    layout_name = _check_layout(layout)
    sections = _check_mrope_section(mrope_section)
    if values.shape[-1] != 2 * sum(sections):
        raise ValueError(
            f"x must have head_dim = 2 * sum(mrope_section) = {2 * sum(sections)} for "
            f"mrope_section={list(sections)}, got shape {values.shape}"
        )
    _check_positions(
        positions, n_axes=3, n=values.shape[-2], integer=True, what="time, height, width"
    )
    angles = mrope_angles(
        positions, mrope_section=sections, base=base, mrope_interleaved=mrope_interleaved
    )
    return _rotate(values, angles, layout_name)


def _segment(index: int, segment: object) -> int | tuple[int, int, int]:
    """A text length (int) or a vision grid (t, h, w); raise with the segment's index."""
    name = f"segments[{index}]"
    if isinstance(segment, Sequence | np.ndarray) and not isinstance(segment, str | bytes):
        if len(segment) != 3:
            raise ValueError(f"{name} must be a text length or a grid (t, h, w), got {segment!r}")
        t, h, w = segment
        return (
            check_integer(f"{name}[0] (t)", t, minimum=1),
            check_integer(f"{name}[1] (h)", h, minimum=1),
            check_integer(f"{name}[2] (w)", w, minimum=1),
        )
    try:
        operator.index(segment)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            f"{name} must be a text length (int) or a grid (t, h, w), got "
            f"{type(segment).__name__} {segment!r}"
        ) from None
    return check_integer(name, segment, minimum=1)


def _check_time_interval(time_interval: object, n_grids: int) -> np.ndarray:
    """One float32 interval per grid segment (Transformers multiplies in float32)."""
    if time_interval is None:
        return np.ones(n_grids, dtype=np.float32)
    values = np.asarray(time_interval, dtype=object)
    if values.ndim == 0:
        value = check_positive_real("time_interval", values.item())
        return np.full(n_grids, value, dtype=np.float32)
    if values.ndim != 1 or len(values) != n_grids:
        raise ValueError(
            f"time_interval must be one number, or one per grid segment ({n_grids}), "
            f"got {time_interval!r}"
        )
    checked = [check_positive_real(f"time_interval[{i}]", v) for i, v in enumerate(values)]
    return np.array(checked, dtype=np.float32)


def mrope_position_ids(
    segments: Sequence[int | Sequence[int]],
    *,
    spatial_merge_size: int = 1,
    time_interval: float | Sequence[float] | None = None,
) -> np.ndarray:
    r"""M-RoPE's (time, height, width) position of each token of text, images and videos.

    The input is read as segments. A text segment of `k` tokens counts on from the last
    position, the same number on all three rows. An image or video segment, a grid of
    `t × h × w` tokens read frame by frame and row by row, starts at `s` (the position
    after everything before it) and gives the token at frame `i`, row `r`, column `c` the
    position `(s + i, s + r, s + c)`. The next segment starts one after the largest
    position used so far. So an image advances the count by its largest side, not by its
    number of tokens.

    Qwen2.5-VL ties the time axis to seconds instead (`time_interval`): temporal patch
    `i` gets the time id $s + \lfloor i \cdot \Delta \rfloor$, where
    $\Delta$ = `tokens_per_second * second_per_grid_t` is the number of ids per temporal
    patch and `second_per_grid_t = temporal_patch_size / fps` the seconds one temporal
    patch covers at the sampled frame rate `fps`. Two videos sampled at different rates
    then give the same second the same time id.

    Parameters
    ----------
    segments : sequence of int or (int, int, int)
        In reading order: an int `k >= 1` for `k` text tokens, a triple `(t, h, w)` of
        integers `>= 1` for an image (`t = 1`) or a video (`t` temporal patches, of two
        frames each in Qwen2-VL). Qwen2-VL's prompts wrap each image in the text tokens
        `<|vision_start|>` and `<|vision_end|>`: count them in the text segments.
    spatial_merge_size : int, default 1
        `>= 1`, dividing every `h` and `w`. Qwen2-VL's processor gives `image_grid_thw` in
        patches and merges 2 × 2 patches into one token: pass those grids with
        `spatial_merge_size=2`, or the token grids with the default 1.
    time_interval : float or sequence of float, optional
        $\Delta$, finite and `> 0`: one number for every grid, or one per grid segment in
        reading order (images included: an image has only temporal patch 0, so its value
        changes nothing). Transformers' `Qwen2_5_VLModel.get_rope_index` uses
        `vision_config.tokens_per_second * second_per_grid_ts[video]`; Qwen's fine-tuning
        code hard-codes 2 tokens per second. The product is computed in float32 and then
        truncated, as both do. Default: one id per temporal patch (Qwen2-VL), the same
        as 1.

    Returns
    -------
    ndarray
        Shape `(3, n_tokens)`, int64: rows time, height, width.

    Raises
    ------
    TypeError
        If a segment is neither an integer nor a sequence of 3 integers, or
        `time_interval` holds something other than real numbers.
    ValueError
        If a length or size is `< 1`, `segments` is empty, `spatial_merge_size` does not
        divide a grid's `h` and `w`, or `time_interval` is not `> 0` or has not one value
        per grid segment.

    Notes
    -----
    Qwen2-VL's code starts the segment after a vision segment at its largest position
    plus one (`llm_pos_ids_list[-1].max() + 1`), as the paper says; so does Qwen's own
    code for Qwen2.5-VL, absolute time included, and this function. Hugging Face
    Transformers 5.24 (`Qwen2VLModel.get_rope_index`, and `Qwen2_5_VLModel.get_rope_index`)
    advances instead by `max(h, w) // spatial_merge_size` alone; the two agree for every
    image and for videos whose last time id stays below `s + max(h, w)`, but after a
    longer video Transformers 5.24 restarts the text below the video's last time ids
    (tested). With `time_interval` this happens whenever
    $\lfloor (t - 1)\,\Delta \rfloor \ge \max(h, w)$: a video of 4 temporal patches
    at $\Delta = 2$ ends at time id `s + 6`, and a grid of 6 × 6 tokens moves the text
    to `s + 6` only.

    References
    ----------
    - P. Wang et al., "Qwen2-VL: Enhancing Vision-Language Model's Perception of the World
      at Any Resolution", 2024, section 2.1 (M-RoPE: each modality's positions start one
      after the largest position of the modality before it).
    - S. Bai et al. (Qwen Team), "Qwen2.5-VL Technical Report", 2025, arXiv:2502.13923,
      section 2.1 (multimodal rotary position embedding aligned to absolute time).
    - Hugging Face Transformers 5.24,
      `src/transformers/models/qwen2_vl/modeling_qwen2_vl.py`
      (`Qwen2VLModel.get_rope_index`, `get_vision_position_ids`) and
      `src/transformers/models/qwen2_5_vl/modeling_qwen2_5_vl.py`
      (`Qwen2_5_VLModel.get_rope_index`, `get_vision_position_ids`: `time_interval`);
      `processing_qwen2_5_vl.py` (`second_per_grid_ts = temporal_patch_size / fps`).
    - `QwenLM/Qwen3-VL` (formerly `QwenLM/Qwen2.5-VL`),
      `qwen-vl-finetune/qwenvl/data/rope2d.py` (`get_rope_index_25`).

    Examples
    --------
    >>> from posenc import mrope_position_ids
    >>> print(mrope_position_ids([3, (1, 2, 3), 2]))  # text, a 2 x 3 image, text
    [[0 1 2 3 3 3 3 3 3 6 7]
     [0 1 2 3 3 3 4 4 4 6 7]
     [0 1 2 3 4 5 3 4 5 6 7]]
    >>> # text, a video of 3 temporal patches on a 1 x 2 grid, 2 ids per patch, text
    >>> print(mrope_position_ids([1, (3, 1, 2), 1], time_interval=2))
    [[0 1 1 3 3 5 5 6]
     [0 1 1 1 1 1 1 6]
     [0 1 2 1 2 1 2 6]]
    """
    if isinstance(segments, str | bytes) or not isinstance(segments, Sequence | np.ndarray):
        raise TypeError(f"segments must be a sequence of text lengths and grids, got {segments!r}")
    if len(segments) == 0:
        raise ValueError("segments must hold at least one segment, got an empty sequence")
    merge = check_integer("spatial_merge_size", spatial_merge_size, minimum=1)
    checked = [_segment(index, raw) for index, raw in enumerate(segments)]
    intervals = iter(
        _check_time_interval(time_interval, sum(not isinstance(s, int) for s in checked))
    )
    parts = []
    start = 0
    for index, segment in enumerate(checked):
        if isinstance(segment, int):
            parts.append(np.broadcast_to(start + np.arange(segment), (3, segment)))
            start += segment
            continue
        t, h, w = segment
        if h % merge or w % merge:
            raise ValueError(
                f"spatial_merge_size={merge} must divide h and w of segments[{index}], "
                f"got {segment}"
            )
        h, w = h // merge, w // merge
        # float32 product, then truncation: Transformers' `(arange(t) * time_interval).long()`
        times = np.floor(np.arange(t, dtype=np.float32) * next(intervals)).astype(np.int64)
        grid = np.meshgrid(times, np.arange(h), np.arange(w), indexing="ij")
        part = start + np.stack(grid).reshape(3, -1)
        parts.append(part)
        start = int(part.max()) + 1
    return np.concatenate(parts, axis=1).astype(np.int64)


def qwen3vl_video_segments(
    frame_indices: ArrayLike,
    video_fps: float,
    grid_hw: Sequence[int],
    *,
    timestamp_tokens: int | Callable[[str], int],
    temporal_patch_size: int = 2,
) -> tuple[list[str], list[int | tuple[int, int, int]]]:
    r"""What Qwen3-VL's language model reads for a video: timestamps as text, one grid each.

    Qwen3-VL gives up Qwen2.5-VL's time ids (`mrope_position_ids(..., time_interval=...)`).
    Its processor writes the time of each temporal patch as text, `<t seconds>` with one
    decimal, followed by the patch's tokens framed by `<|vision_start|>` and
    `<|vision_end|>`; the model's `get_rope_index` splits the video's grid `(t, h, w)`
    into `t` grids `(1, h, w)`. So every temporal patch gets the same time id on its
    tokens, and time moves on with the text between patches.

    The time of a frame is its index in the video divided by the video's frame rate; the
    time of a temporal patch is the mean of the times of its first and last frame. When
    the number of frames is not a multiple of `temporal_patch_size`, the last index is
    repeated to fill the last patch, as the processor does.

    Parameters
    ----------
    frame_indices : array_like of int
        Shape `(n_frames,)`, `>= 0`: the index, in the original video, of each frame
        sampled (the `frames_indices` of Transformers' `VideoMetadata`; Qwen3-VL's video
        processor samples `fps=2` frames per second by default).
    video_fps : float
        Frame rate of the original video, finite and `> 0` (`VideoMetadata.fps`).
    grid_hw : (int, int)
        `(h, w)` of each frame's grid, each `>= 1`, in the units that will be passed to
        `mrope_position_ids`: the processor's `video_grid_thw[1:]` in patches (then pass
        `spatial_merge_size=2` there) or the grid in tokens.
    timestamp_tokens : int or callable
        How many tokens the text of one timestamp takes: an int `>= 1` for all of them,
        or a function from the text (such as `"<0.5 seconds>"`) to its number of tokens,
        for example `lambda text: len(tokenizer(text).input_ids)` with the model's
        tokenizer.
    temporal_patch_size : int, default 2
        Frames per temporal patch, `>= 1` (Qwen3-VL's video processor: 2).

    Returns
    -------
    timestamps : list of str
        One text per temporal patch, `"<0.5 seconds>"` style, as the processor writes it.
    segments : list
        The video in the format of `mrope_position_ids`: `[k_0 + 1, (1, h, w), 1 + k_1 +
        1, (1, h, w), ..., 1]`, where `k_i` is the number of tokens of `timestamps[i]` and
        the ones are `<|vision_start|>` and `<|vision_end|>`. Put the prompt's other text
        before and after it.

    Raises
    ------
    TypeError
        If `frame_indices` does not hold integers, `video_fps` is not a real number,
        `grid_hw` is not a pair of integers, or `timestamp_tokens` is neither an integer
        nor callable (or returns a non-integer).
    ValueError
        If `frame_indices` is not 1-D and non-empty or has a negative index, `video_fps`
        is not finite `> 0`, or a size or a token count is `< 1`.

    References
    ----------
    - Qwen Team, "Qwen3-VL Technical Report", 2025, arXiv:2511.21631,
      section 2 (text timestamps instead of time ids).
    - Hugging Face Transformers 5.24,
      `src/transformers/models/qwen3_vl/processing_qwen3_vl.py`
      (`Qwen3VLProcessor.replace_video_token`, `_calculate_timestamps`),
      `video_processing_qwen3_vl.py` (`sample_frames`, `fps = 2`,
      `temporal_patch_size = 2`) and `modeling_qwen3_vl.py`
      (`Qwen3VLModel.get_rope_index`: `video_grid_thw` split into one-frame grids).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import mrope_position_ids, qwen3vl_video_segments
    >>> frames = np.arange(0, 96, 24)  # 1 frame a second from a 24 fps video
    >>> stamps, segments = qwen3vl_video_segments(frames, 24.0, (1, 2), timestamp_tokens=3)
    >>> stamps
    ['<0.5 seconds>', '<2.5 seconds>']
    >>> segments
    [4, (1, 1, 2), 5, (1, 1, 2), 1]
    >>> print(mrope_position_ids(segments)[0])  # time ids: each frame's 2 tokens share one
    [ 0  1  2  3  4  4  6  7  8  9 10 11 11 13]
    """
    indices = np.asarray(frame_indices)
    if not np.issubdtype(indices.dtype, np.integer):
        raise TypeError(f"frame_indices must hold integers, got an array of dtype {indices.dtype}")
    if indices.ndim != 1 or indices.size == 0:
        raise ValueError(
            f"frame_indices must have shape (n_frames,) with n_frames >= 1, got shape "
            f"{indices.shape}"
        )
    if np.any(indices < 0):
        raise ValueError(f"frame_indices must be >= 0, got {indices.min()}")
    video_fps = check_positive_real("video_fps", video_fps)
    h, w = _check_grid("grid_hw", grid_hw)
    patch = check_integer("temporal_patch_size", temporal_patch_size, minimum=1)
    if not callable(timestamp_tokens):
        check_integer("timestamp_tokens", timestamp_tokens, minimum=1)
    padded = np.concatenate([indices, np.repeat(indices[-1], -indices.size % patch)])
    times = padded.reshape(-1, patch) / video_fps
    middles = (times[:, 0] + times[:, -1]) / 2
    timestamps = [f"<{float(t):.1f} seconds>" for t in middles]
    counts = [
        check_integer(
            f"timestamp_tokens({text!r})",
            timestamp_tokens(text) if callable(timestamp_tokens) else timestamp_tokens,
            minimum=1,
        )
        for text in timestamps
    ]
    segments: list[int | tuple[int, int, int]] = [counts[0] + 1]
    for count_after in [*counts[1:], None]:
        segments.append((1, h, w))
        segments.append(1 if count_after is None else count_after + 2)
    return timestamps, segments
