"""Positions of image patches: indices, normalised centres, the 2-D sine-cosine table, resizing."""

from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import as_real_array, check_choice, check_integer, check_positive_real


def _check_grid(name: str, grid: object) -> tuple[int, int]:
    """Return ``grid`` as ``(grid_h, grid_w)``, two integers ``>= 1``; raise otherwise."""
    if isinstance(grid, str | bytes) or not isinstance(grid, Sequence | np.ndarray):
        raise TypeError(f"{name} must be a pair (grid_h, grid_w) of integers >= 1, got {grid!r}")
    if len(grid) != 2:
        raise ValueError(f"{name} must be a pair (grid_h, grid_w) of integers >= 1, got {grid!r}")
    return (
        check_integer(f"{name}[0] (grid_h)", grid[0], minimum=1),
        check_integer(f"{name}[1] (grid_w)", grid[1], minimum=1),
    )


def grid_positions(grid_h: int, grid_w: int, *, merge_size: int = 1) -> np.ndarray:
    """The row and the column of each patch of a `grid_h × grid_w` grid, in token order.

    A vision transformer cuts an image into a grid of patches and reads them as a sequence.
    ViT, MAE and most others read the grid row by row (row-major, the order of
    `x.flatten(2)` after the patch embedding's convolution): token `k` is the patch at row
    `k // grid_w`, column `k % grid_w`. Qwen2-VL's vision encoder reads it by blocks of
    `merge_size × merge_size` neighbouring patches (its merger then concatenates each block
    into one token for the language model): the blocks row by row, and row by row inside
    each block.

    Parameters
    ----------
    grid_h, grid_w : int
        Rows and columns of the grid, `>= 1`.
    merge_size : int, default 1
        Side of the blocks read together, `>= 1`, dividing both `grid_h` and `grid_w`;
        `1` gives the row-major order, Qwen2-VL uses `2` (`spatial_merge_size`).

    Returns
    -------
    ndarray
        Shape `(2, grid_h * grid_w)`, int64: row 0 holds each token's row, row 1 its column.

    Raises
    ------
    TypeError
        If a size is not an integer.
    ValueError
        If a size is `< 1`, or `merge_size` does not divide `grid_h` and `grid_w`.

    References
    ----------
    - A. Dosovitskiy et al., "An Image is Worth 16x16 Words", ICLR 2021, section 3.1.
    - Hugging Face Transformers 5.24, `src/transformers/vision_utils.py`,
      `get_vision_position_ids` (Qwen2-VL's block order).

    Examples
    --------
    >>> from posenc import grid_positions
    >>> print(grid_positions(2, 3))
    [[0 0 0 1 1 1]
     [0 1 2 0 1 2]]
    >>> print(grid_positions(2, 4, merge_size=2))
    [[0 0 1 1 0 0 1 1]
     [0 1 0 1 2 3 2 3]]
    """
    grid_h = check_integer("grid_h", grid_h, minimum=1)
    grid_w = check_integer("grid_w", grid_w, minimum=1)
    merge_size = check_integer("merge_size", merge_size, minimum=1)
    if grid_h % merge_size or grid_w % merge_size:
        raise ValueError(
            f"merge_size must divide grid_h and grid_w, got merge_size={merge_size} for a "
            f"{grid_h} x {grid_w} grid"
        )
    rows, cols = np.meshgrid(np.arange(grid_h), np.arange(grid_w), indexing="ij")
    blocks = (grid_h // merge_size, merge_size, grid_w // merge_size, merge_size)
    order = (0, 2, 1, 3)  # block row, block column, row in block, column in block
    return np.stack(
        [
            rows.reshape(blocks).transpose(order).ravel(),
            cols.reshape(blocks).transpose(order).ravel(),
        ]
    ).astype(np.int64)


_NORMALIZE_COORDS = ("separate", "max", "min")


def patch_center_coordinates(
    grid_h: int,
    grid_w: int,
    *,
    normalize_coords: Literal["separate", "max", "min"] = "separate",
) -> np.ndarray:
    r"""The centre of each patch of a `grid_h × grid_w` grid, scaled to [-1, 1]: DINOv3's RoPE.

    DINOv3 gives its rotary embedding no patch indices but the centre of each patch as a
    fraction of the image: the patch at row $r$, column $c$ has the centre
    $(r + 1/2,\ c + 1/2)$ in patch units, divided by a length $L$ and mapped from [0, 1]
    to [-1, 1],

    $$y_r = 2\,\frac{r + 1/2}{L_h} - 1, \qquad x_c = 2\,\frac{c + 1/2}{L_w} - 1.$$

    With the default `normalize_coords="separate"`, $L_h$ = `grid_h` and $L_w$ = `grid_w`:
    the centres fill [-1, 1] on both axes whatever the size of the grid, so a larger
    image gives more, closer coordinates in the same range instead of positions beyond
    the trained ones. `"max"` divides both axes by the longer side, `"min"` by the
    shorter one, which keeps the patches square at the cost of the range: with `"max"`
    the shorter axis stays inside [-1, 1], with `"min"` the longer one goes past it.

    DINOv3's RoPE is then axial RoPE on these coordinates times $2\pi$, with base 100
    and the row first:
    `axial_rotary_angles(2 * np.pi * patch_center_coordinates(h, w).T, head_dim,
    base=100.0)` equals the angles of Transformers' `DINOv3ViTRopePositionEmbedding`
    (tested). In training DINOv3 also moves the coordinates at random (shift, jitter,
    rescale: `augment_patches_center_coordinates`), which this function does not do.

    Parameters
    ----------
    grid_h, grid_w : int
        Rows and columns of patches, `>= 1` (image size // patch size).
    normalize_coords : {"separate", "max", "min"}, default "separate"
        The length each axis is divided by: its own number of patches, the larger of the
        two, or the smaller of the two (DINOv3's `normalize_coords`; its models use
        `"separate"`).

    Returns
    -------
    ndarray
        Shape `(grid_h * grid_w, 2)`, float64: column 0 the row coordinate $y$, column 1
        the column coordinate $x$, patches in row-major order (`grid_positions`).

    Raises
    ------
    TypeError
        If a size is not an integer.
    ValueError
        If a size is `< 1` or `normalize_coords` is not one of the three modes.

    References
    ----------
    - O. Siméoni et al., "DINOv3", 2025, arXiv:2508.10104, section 3 (RoPE on patch
      coordinates normalised to [-1, 1], with box jittering in training).
    - `facebookresearch/dinov3`, `dinov3/layers/rope_position_encoding.py`
      (`RopePositionEmbedding`: `normalize_coords`, base 100, `shift_coords`,
      `jitter_coords`, `rescale_coords`).
    - Hugging Face Transformers 5.24,
      `src/transformers/models/dinov3_vit/modeling_dinov3_vit.py`
      (`get_patches_center_coordinates`, the `"separate"` mode;
      `DINOv3ViTRopePositionEmbedding`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import patch_center_coordinates
    >>> print(patch_center_coordinates(2, 4))  # (y, x) of each patch, row by row
    [[-0.5  -0.75]
     [-0.5  -0.25]
     [-0.5   0.25]
     [-0.5   0.75]
     [ 0.5  -0.75]
     [ 0.5  -0.25]
     [ 0.5   0.25]
     [ 0.5   0.75]]
    >>> print(patch_center_coordinates(2, 4, normalize_coords="max")[[0, -1]])
    [[-0.75 -0.75]
     [-0.25  0.75]]
    """
    grid_h = check_integer("grid_h", grid_h, minimum=1)
    grid_w = check_integer("grid_w", grid_w, minimum=1)
    mode = check_choice("normalize_coords", normalize_coords, _NORMALIZE_COORDS)
    lengths = {
        "separate": (grid_h, grid_w),
        "max": (max(grid_h, grid_w),) * 2,
        "min": (min(grid_h, grid_w),) * 2,
    }[mode]
    rows = 2.0 * (np.arange(grid_h) + 0.5) / lengths[0] - 1.0
    cols = 2.0 * (np.arange(grid_w) + 0.5) / lengths[1] - 1.0
    y, x = np.meshgrid(rows, cols, indexing="ij")
    return np.stack([y.ravel(), x.ravel()], axis=1)


def sincos_2d(
    grid_h: int, grid_w: int, d_model: int, *, base: float = 10000.0, cls_token: bool = False
) -> np.ndarray:
    r"""The fixed 2-D sine-cosine position table of MAE: half the columns for each axis.

    Each patch at row $m$ and column $n$ of the grid gets the 1-D sinusoidal encoding of $n$
    in the first half of its `d_model` values and that of $m$ in the second half. Each half
    holds sines first, then cosines, over $d_{\text{model}}/4$ frequencies
    $\omega_i = base^{-i / (d_{\text{model}}/4)}$, $i = 0, \dots, d_{\text{model}}/4 - 1$:

    $$
    PE_{(m,\, n)} = \left[\sin(n\,\omega) \mid \cos(n\,\omega) \mid \sin(m\,\omega)
    \mid \cos(m\,\omega)\right].
    $$

    This is the table of MAE (masked autoencoders), used as it is by later models built on
    its code. Its quirks, kept here so that its tables are reproduced exactly:

    - the column comes first. The code names the first half `emb_h` (height), but fills it
      from `np.meshgrid(grid_w, grid_h)[0]`, the column index ("here w goes first");
    - sines and cosines are in two blocks (as in tensor2tensor), not interleaved as in the
      transformer paper;
    - the frequencies are those of a 1-D table of $d_{\text{model}}/2$ columns, so the
      exponent divides by $d_{\text{model}}/4$: the lowest frequency is
      $base^{-(1 - 4/d_{\text{model}})}$, not $1/base$;
    - MAE computes in float32; this table is float64 (the differences are float32
      rounding: $7 \cdot 10^{-7}$ at most for a 14 × 14 grid, $4 \cdot 10^{-6}$ for 64 × 64);
    - its class token, when there is one, gets a row of zeros, first.

    Other codes that build "the same" table differ from it, and from each other:

    - MoCo v3's `build_2d_sincos_position_embedding` has MAE's frequencies, but its
      `torch.meshgrid(grid_w, grid_h)` indexes "ij", so the half it names `out_w`, first,
      holds the row of a square grid: the two halves of MAE's table swapped;
    - big_vision's `posemb_sincos_2d` puts the column first, as MAE, but spaces the
      frequencies so that the last one is exactly $1/base$ (exponent
      $i / (d_{\text{model}}/4 - 1)$).

    Parameters
    ----------
    grid_h, grid_w : int
        Rows and columns of the grid of patches, `>= 1`. Rows of the table follow the
        row-major order of `grid_positions(grid_h, grid_w)`.
    d_model : int
        Size of each row, `>= 4` and divisible by 4 (two axes, each with sines and cosines).
    base : float, default 10000.0
        Base of the frequencies, finite and `> 0` (MoCo v3's and big_vision's
        `temperature`).
    cls_token : bool, default False
        Put a row of zeros first, for a class token (MAE's `cls_token=True`).

    Returns
    -------
    ndarray
        Shape `(grid_h * grid_w, d_model)`, or `(1 + grid_h * grid_w, d_model)` with
        `cls_token`; float64, values in `[-1, 1]`. Row `1 + r * grid_w + c` (or
        `r * grid_w + c`) belongs to the patch at row `r`, column `c`.

    Raises
    ------
    TypeError
        If a size is not an integer, `base` is not a real number, or `cls_token` not a bool.
    ValueError
        If a size is `< 1`, `d_model` is not divisible by 4, or `base` is not finite `> 0`.

    References
    ----------
    - K. He et al., "Masked Autoencoders Are Scalable Vision Learners", CVPR 2022, appendix
      A.1 (sine-cosine position embeddings added to the encoder's and decoder's inputs);
      the MAE code,
      `facebookresearch/mae`, `util/pos_embed.py` (`get_2d_sincos_pos_embed`,
      `get_2d_sincos_pos_embed_from_grid`, `get_1d_sincos_pos_embed_from_grid`).
    - X. Chen, S. Xie and K. He, "An Empirical Study of Training Self-Supervised Vision
      Transformers" (MoCo v3), ICCV 2021; `facebookresearch/moco-v3`, `vits.py`
      (`build_2d_sincos_position_embedding`).
    - `google-research/big_vision`, `big_vision/models/vit.py` (`posemb_sincos_2d`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import sincos_2d
    >>> table = sincos_2d(2, 3, 8)
    >>> table.shape
    (6, 8)
    >>> print(np.round(table[4], 3))  # row 1, column 1: the two halves are equal
    [0.841 0.01  0.54  1.    0.841 0.01  0.54  1.   ]
    >>> print(np.round(table[2], 3))  # row 0, column 2: sin, sin, cos, cos of the column
    [ 0.909  0.02  -0.416  1.     0.     0.     1.     1.   ]
    >>> sincos_2d(2, 3, 8, cls_token=True).shape
    (7, 8)
    """
    grid_h = check_integer("grid_h", grid_h, minimum=1)
    grid_w = check_integer("grid_w", grid_w, minimum=1)
    d_model = check_integer("d_model", d_model, minimum=4)
    if d_model % 4:
        raise ValueError(
            f"d_model must be divisible by 4 (sines and cosines of two axes), got {d_model}"
        )
    base = check_positive_real("base", base)
    if not isinstance(cls_token, bool | np.bool_):
        raise TypeError(f"cls_token must be a bool, got {type(cls_token).__name__}")
    quarter = d_model // 4
    omega = base ** (-np.arange(quarter, dtype=np.float64) / quarter)
    rows, cols = grid_positions(grid_h, grid_w).astype(np.float64)
    col_angles, row_angles = cols[:, None] * omega, rows[:, None] * omega
    table = np.zeros((int(cls_token) + grid_h * grid_w, d_model), dtype=np.float64)
    patches = table[int(cls_token) :]
    patches[:, :quarter] = np.sin(col_angles)
    patches[:, quarter : 2 * quarter] = np.cos(col_angles)
    patches[:, 2 * quarter : 3 * quarter] = np.sin(row_angles)
    patches[:, 3 * quarter :] = np.cos(row_angles)
    return table


# Cubic convolution parameter of PyTorch's bicubic interpolation without antialiasing
# (R. Keys, 1981, with a = -0.75 as in OpenCV), and of its antialiased filter (a = -0.5, as
# in Pillow); ATen, `aten/src/ATen/native/UpSample.h` and `cpu/UpSampleKernel.cpp`.
_A_PLAIN = -0.75
_A_ANTIALIAS = -0.5


def _cubic(x: np.ndarray, a: float) -> np.ndarray:
    """Keys' cubic convolution kernel at distances ``x``: zero beyond 2."""
    x = np.abs(x)
    near = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    far = ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
    return np.where(x < 1.0, near, np.where(x < 2.0, far, 0.0))


def _bicubic_matrix(in_size: int, out_size: int, *, antialias: bool) -> np.ndarray:
    """The ``(out_size, in_size)`` matrix of PyTorch's 1-D bicubic resampling (align_corners=False).

    Resizing a grid is this matrix applied along each axis. Written here rather than taken
    from a library: scipy's and Pillow's cubic resamplers use other kernels and borders, and
    a checkpoint resized in PyTorch must give the same table.
    """
    scale = in_size / out_size
    out = np.arange(out_size, dtype=np.float64)
    if not antialias:
        # The source coordinate of each output pixel, its four neighbours clamped to the
        # edge (upsample_get_value_bounded), weights from the fractional part.
        source = scale * (out + 0.5) - 0.5
        first = np.floor(source)
        t = source - first
        taps = np.arange(-1, 3)
        weights = _cubic(t[:, None] - taps, _A_PLAIN)
        index = np.clip(first[:, None].astype(np.int64) + taps, 0, in_size - 1)
    else:
        # The filter widens by the scale when shrinking; the weights inside the support are
        # normalised to sum to one (_compute_weights_aa).
        support = 2.0 * scale if scale >= 1.0 else 2.0
        inv_scale = 1.0 / scale if scale >= 1.0 else 1.0
        center = scale * (out + 0.5)
        low = np.maximum(np.trunc(center - support + 0.5), 0).astype(np.int64)
        high = np.minimum(np.trunc(center + support + 0.5).astype(np.int64), in_size)
        index = low[:, None] + np.arange(int(np.ceil(support)) * 2 + 1)
        inside = index < high[:, None]
        weights = np.where(inside, _cubic((index - center[:, None] + 0.5) * inv_scale, -0.5), 0)
        weights = weights / weights.sum(axis=1, keepdims=True)
        index = np.minimum(index, in_size - 1)
    matrix = np.zeros((out_size, in_size), dtype=np.float64)
    np.add.at(matrix, (np.broadcast_to(out.astype(np.int64)[:, None], index.shape), index), weights)
    return matrix


def resize_position_table(
    table: ArrayLike,
    grid: tuple[int, int],
    new_grid: tuple[int, int],
    *,
    n_prefix_tokens: int = 0,
    antialias: bool = False,
) -> np.ndarray:
    r"""Resize a learned grid of position embeddings to a new grid, as PyTorch's bicubic does.

    A ViT trained at one resolution has one learned row per patch of its grid (14 × 14 for
    224-pixel images and 16-pixel patches). Fine-tuned at a higher resolution it sees a
    larger grid, 24 × 24 at 384 pixels: the table is then resized as an image whose
    `d_model` channels are the embedding's values, each channel by bicubic interpolation.
    The rows of the class token (and DeiT's distillation token) are not positions of the
    grid: they are kept apart and put back first, unchanged.

    The result equals `torch.nn.functional.interpolate(..., size=new_grid,
    mode="bicubic", align_corners=False, antialias=antialias)` on the table laid out as
    `(1, d_model, grid_h, grid_w)`, up to float64 rounding (tested against PyTorch):
    `antialias=False` is what MAE's and DeiT's `interpolate_pos_embed` do,
    `antialias=True` the default of timm's `resample_abs_pos_embed`. The two differ even
    when enlarging, since PyTorch's antialiased filter uses the cubic kernel with
    $a = -0.5$ and the plain one $a = -0.75$. big_vision resizes with
    `scipy.ndimage.zoom(order=1)`, a bilinear interpolation, which this function does not
    reproduce.

    Parameters
    ----------
    table : array_like
        Shape `(..., n_prefix_tokens + grid_h * grid_w, d_model)`: the prefix tokens' rows,
        then one row per patch in row-major order (`grid_positions`). Leading dimensions
        (such as PyTorch's batch dimension of 1) are kept.
    grid : tuple of int
        `(grid_h, grid_w)` of `table`, each `>= 1`.
    new_grid : tuple of int
        `(new_h, new_w)` of the result, each `>= 1`. Equal to `grid`, the table is returned
        unchanged (as a new array).
    n_prefix_tokens : int, default 0
        Rows before the grid that are not patches, `>= 0`: 1 for a class token (ViT, MAE),
        2 for DeiT's class and distillation tokens (timm's `num_prefix_tokens`, MAE's
        `num_extra_tokens`).
    antialias : bool, default False
        PyTorch's antialiased resampling (timm's default) instead of MAE's plain bicubic.

    Returns
    -------
    ndarray
        Shape `(..., n_prefix_tokens + new_h * new_w, d_model)`, with the dtype of a
        floating-point `table` (float64 for integers); computed in float64.

    Raises
    ------
    TypeError
        If `table` is not real, a grid is not a pair of integers, or `antialias` is not a
        bool.
    ValueError
        If `table` has fewer than 2 dimensions, its number of rows is not
        `n_prefix_tokens + grid_h * grid_w`, or a size is out of range.

    Notes
    -----
    PyTorch's plain bicubic maps output pixel $i$ to the source coordinate
    $x = (i + 1/2)\,s - 1/2$, where $s$ is `grid_h / new_h` (likewise for columns), and takes
    the four source pixels $\lfloor x \rfloor - 1, \dots, \lfloor x \rfloor + 2$, clamped to
    the edge, weighted by Keys' cubic convolution kernel at their distances to $x$. Its
    antialiased resampling widens the kernel by $s$ when shrinking and normalises the
    weights. Both act on rows and columns separately, so the result is
    $M_h\,X\,M_w^{\top}$ for each channel $X$, with one matrix per axis.

    References
    ----------
    - H. Touvron et al., "Training data-efficient image transformers & distillation through
      attention" (DeiT), ICML 2021, section 6 (fine-tuning at a higher resolution,
      bicubic interpolation of the position embeddings); A. Dosovitskiy et al., "An Image
      is Worth 16x16 Words", ICLR 2021, section 3.2 (2-D interpolation).
    - MAE, `facebookresearch/mae`, `util/pos_embed.py` (`interpolate_pos_embed`).
    - timm, `huggingface/pytorch-image-models`, `timm/layers/pos_embed.py`
      (`resample_abs_pos_embed`).
    - R. Keys, "Cubic convolution interpolation for digital image processing", IEEE
      Trans. ASSP 29(6), 1981.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import resize_position_table
    >>> table = np.arange(5.0).reshape(5, 1)  # d_model 1: a class token (0), then a 2 x 2 grid
    >>> print(table[1:, 0].reshape(2, 2))
    [[1. 2.]
     [3. 4.]]
    >>> out = resize_position_table(table, (2, 2), (3, 3), n_prefix_tokens=1)
    >>> out.shape
    (10, 1)
    >>> print(out[0, 0])  # the class token's row, unchanged
    0.0
    >>> print(np.round(out[1:, 0].reshape(3, 3), 3))
    [[0.74  1.326 1.913]
     [1.913 2.5   3.087]
     [3.087 3.674 4.26 ]]
    """
    values = as_real_array("table", table)
    grid_h, grid_w = _check_grid("grid", grid)
    new_h, new_w = _check_grid("new_grid", new_grid)
    n_prefix_tokens = check_integer("n_prefix_tokens", n_prefix_tokens, minimum=0)
    if not isinstance(antialias, bool | np.bool_):
        raise TypeError(f"antialias must be a bool, got {type(antialias).__name__}")
    if values.ndim < 2:
        raise ValueError(
            f"table must have shape (..., n_prefix_tokens + grid_h * grid_w, d_model), "
            f"got shape {values.shape}"
        )
    expected = n_prefix_tokens + grid_h * grid_w
    if values.shape[-2] != expected:
        raise ValueError(
            f"table must have n_prefix_tokens + grid_h * grid_w = {n_prefix_tokens} + "
            f"{grid_h} * {grid_w} = {expected} rows for grid={grid_h, grid_w}, "
            f"got {values.shape[-2]} rows (shape {values.shape})"
        )
    prefix, patches = values[..., :n_prefix_tokens, :], values[..., n_prefix_tokens:, :]
    image = patches.astype(np.float64).reshape(*values.shape[:-2], grid_h, grid_w, -1)
    rows = _bicubic_matrix(grid_h, new_h, antialias=bool(antialias))
    cols = _bicubic_matrix(grid_w, new_w, antialias=bool(antialias))
    resized = np.einsum("ij,...jkd,lk->...ild", rows, image, cols, optimize=True)
    resized = resized.reshape(*values.shape[:-2], new_h * new_w, values.shape[-1])
    return np.concatenate([prefix.astype(np.float64), resized], axis=-2).astype(values.dtype)
