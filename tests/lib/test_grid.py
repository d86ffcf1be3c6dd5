"""The 2-D sine-cosine table against MAE's formula, token order, and resizing a grid's table.

The resizing against PyTorch's bicubic interpolation is in tests/oracle/test_grid_oracle.py.
"""

import numpy as np
import pytest

from posenc import (
    axial_rotary_angles,
    grid_positions,
    patch_center_coordinates,
    resize_position_table,
    sincos_2d,
)

# --- The 2-D sine-cosine table ----------------------------------------------------------


def mae_sincos_2d(embed_dim, grid_h, grid_w, cls_token=False, dtype=np.float64):
    """MAE's formula, transcribed step by step from `facebookresearch/mae`, `util/pos_embed.py`.

    get_2d_sincos_pos_embed takes one `grid_size`; its arrays are written here with
    (grid_h, grid_w) so that rectangular grids can be checked too. MAE computes in float32.
    """

    def one_axis(dim, pos):  # get_1d_sincos_pos_embed_from_grid
        omega = np.arange(dim // 2, dtype=dtype)
        omega /= dim / 2.0
        omega = 1.0 / 10000**omega
        out = np.einsum("m,d->md", pos.reshape(-1), omega)
        return np.concatenate([np.sin(out), np.cos(out)], axis=1)

    grid = np.meshgrid(np.arange(grid_w, dtype=dtype), np.arange(grid_h, dtype=dtype))
    grid = np.stack(grid, axis=0).reshape([2, 1, grid_h, grid_w])  # grid[0]: the column
    emb_h = one_axis(embed_dim // 2, grid[0])  # MAE's name; it encodes grid[0]
    emb_w = one_axis(embed_dim // 2, grid[1])
    emb = np.concatenate([emb_h, emb_w], axis=1)
    if cls_token:
        emb = np.concatenate([np.zeros([1, embed_dim]), emb], axis=0)
    return emb


@pytest.mark.parametrize(("grid_h", "grid_w"), [(1, 1), (2, 3), (14, 14), (16, 9)])
@pytest.mark.parametrize("d_model", [4, 8, 64, 768])
@pytest.mark.parametrize("cls_token", [False, True])
def test_sincos_2d_is_mae_formula(grid_h, grid_w, d_model, cls_token):
    expected = mae_sincos_2d(d_model, grid_h, grid_w, cls_token)
    np.testing.assert_allclose(
        sincos_2d(grid_h, grid_w, d_model, cls_token=cls_token), expected, rtol=0, atol=1e-13
    )


def test_sincos_2d_matches_mae_float32_table_to_float32_rounding():
    # MAE's own table (float32 positions and frequencies) for ViT-B/16 at 224 pixels.
    expected = mae_sincos_2d(768, 14, 14, cls_token=True, dtype=np.float32)
    np.testing.assert_allclose(sincos_2d(14, 14, 768, cls_token=True), expected, atol=2e-6)


def moco_v3_sincos_2d(embed_dim, h, w):
    """MoCo v3's build_2d_sincos_position_embedding (`facebookresearch/moco-v3`, `vits.py`).

    torch.meshgrid indexes "ij": np.meshgrid(..., indexing="ij") is the same grid.
    """
    grid_w, grid_h = np.meshgrid(
        np.arange(w, dtype=float), np.arange(h, dtype=float), indexing="ij"
    )
    omega = 1.0 / 10000.0 ** (np.arange(embed_dim // 4) / (embed_dim // 4))
    out_w = np.einsum("m,d->md", grid_w.ravel(), omega)
    out_h = np.einsum("m,d->md", grid_h.ravel(), omega)
    return np.concatenate([np.sin(out_w), np.cos(out_w), np.sin(out_h), np.cos(out_h)], axis=1)


def big_vision_sincos_2d(h, w, width):
    """big_vision's posemb_sincos_2d (`google-research/big_vision`, `big_vision/models/vit.py`)."""
    y, x = np.mgrid[:h, :w]
    omega = 1.0 / 10000.0 ** (np.arange(width // 4) / (width // 4 - 1))
    y = np.einsum("m,d->md", y.ravel(), omega)
    x = np.einsum("m,d->md", x.ravel(), omega)
    return np.concatenate([np.sin(x), np.cos(x), np.sin(y), np.cos(y)], axis=1)


def test_moco_v3_swaps_the_halves_of_a_square_grid():
    ours = sincos_2d(6, 6, 32)
    swapped = np.concatenate([ours[:, 16:], ours[:, :16]], axis=1)
    np.testing.assert_allclose(moco_v3_sincos_2d(32, 6, 6), swapped, rtol=0, atol=1e-13)


def test_big_vision_spaces_the_frequencies_otherwise():
    theirs, ours = big_vision_sincos_2d(4, 5, 32), sincos_2d(4, 5, 32)
    # Same order (column first) and same first frequency, other spacing of the rest.
    np.testing.assert_allclose(theirs[:, [0, 8, 16, 24]], ours[:, [0, 8, 16, 24]], atol=1e-15)
    assert np.abs(theirs - ours).max() > 0.1


def test_first_half_encodes_the_column_second_half_the_row():
    table = sincos_2d(3, 4, 16).reshape(3, 4, 16)  # (row, column, d_model)
    first, second = table[..., :8], table[..., 8:]
    assert np.ptp(first, axis=0).max() == 0.0  # same in every row: depends on the column
    assert np.ptp(second, axis=1).max() == 0.0  # same in every column: depends on the row
    assert np.ptp(first, axis=1).max() > 0.5
    np.testing.assert_array_equal(first[0, :3], second[:, 0])  # column c, row c: same code


def test_sincos_2d_values_by_hand():
    # d_model = 8: two frequencies per axis, 1 and 10000 ** (-1 / 2) = 0.01.
    row, col = 2, 1
    table = sincos_2d(3, 3, 8)
    expected = [np.sin(1), np.sin(0.01), np.cos(1), np.cos(0.01)]
    expected += [np.sin(2), np.sin(0.02), np.cos(2), np.cos(0.02)]
    np.testing.assert_allclose(table[row * 3 + col], expected, rtol=0, atol=1e-15)
    np.testing.assert_allclose(sincos_2d(1, 2, 4, base=2.0)[1], [np.sin(1), np.cos(1), 0, 1])


def test_cls_token_row_is_zeros_first():
    with_cls = sincos_2d(2, 2, 8, cls_token=True)
    np.testing.assert_array_equal(with_cls[0], np.zeros(8))
    np.testing.assert_array_equal(with_cls[1:], sincos_2d(2, 2, 8))


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"d_model": 6}, ValueError, "d_model must be divisible by 4"),
        ({"d_model": 2}, ValueError, r"d_model must be an integer >= 4, got 2"),
        ({"grid_h": 0}, ValueError, r"grid_h must be an integer >= 1, got 0"),
        ({"grid_w": 2.0}, TypeError, "grid_w must be an integer"),
        ({"base": 0.0}, ValueError, "base must be a finite real number > 0"),
        ({"cls_token": 1}, TypeError, "cls_token must be a bool"),
    ],
)
def test_sincos_2d_bad_input(kwargs, error, message):
    args = {"grid_h": 2, "grid_w": 2, "d_model": 8} | kwargs
    with pytest.raises(error, match=message):
        sincos_2d(**args)


# --- Token order -------------------------------------------------------------------------


def test_grid_positions_are_row_major():
    rows, cols = grid_positions(3, 5)
    np.testing.assert_array_equal(np.stack([rows, cols]), np.unravel_index(np.arange(15), (3, 5)))
    assert grid_positions(3, 5).dtype == np.int64


def test_merge_blocks_are_contiguous():
    rows, cols = grid_positions(4, 6, merge_size=2)
    # Each run of 4 tokens is one 2 x 2 block; the blocks follow each other row by row.
    blocks = (rows // 2) * 3 + cols // 2
    np.testing.assert_array_equal(blocks, np.repeat(np.arange(6), 4))
    assert {tuple(p) for p in np.stack([rows, cols]).T} == {
        (r, c) for r in range(4) for c in range(6)
    }


def test_grid_positions_bad_merge():
    with pytest.raises(ValueError, match="merge_size must divide grid_h and grid_w"):
        grid_positions(4, 5, merge_size=2)


# --- DINOv3: patch centres in [-1, 1] ---------------------------------------------------


def dinov3_coords(height, width, normalize_coords):
    """RopePositionEmbedding.forward's coordinates, transcribed from `facebookresearch/dinov3`,
    `dinov3/layers/rope_position_encoding.py` (in NumPy, before the training-time moves).
    """
    if normalize_coords == "max":
        coords_h = np.arange(0.5, height) / max(height, width)
        coords_w = np.arange(0.5, width) / max(height, width)
    elif normalize_coords == "min":
        coords_h = np.arange(0.5, height) / min(height, width)
        coords_w = np.arange(0.5, width) / min(height, width)
    else:
        coords_h = np.arange(0.5, height) / height
        coords_w = np.arange(0.5, width) / width
    coords = np.stack(np.meshgrid(coords_h, coords_w, indexing="ij"), axis=-1).reshape(-1, 2)
    return 2.0 * coords - 1.0


@pytest.mark.parametrize(("grid_h", "grid_w"), [(1, 1), (2, 4), (14, 14), (7, 3), (1, 9)])
@pytest.mark.parametrize("mode", ["separate", "max", "min"])
def test_patch_centres_are_dinov3_formula(grid_h, grid_w, mode):
    out = patch_center_coordinates(grid_h, grid_w, normalize_coords=mode)
    assert out.shape == (grid_h * grid_w, 2)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, dinov3_coords(grid_h, grid_w, mode), rtol=0, atol=1e-15)


def test_patch_centres_by_hand():
    np.testing.assert_array_equal(patch_center_coordinates(1, 1), [[0.0, 0.0]])
    np.testing.assert_array_equal(
        patch_center_coordinates(2, 2), [[-0.5, -0.5], [-0.5, 0.5], [0.5, -0.5], [0.5, 0.5]]
    )


@pytest.mark.parametrize("side", [7, 14, 16, 32, 64])
def test_separate_fills_the_same_box_at_every_resolution(side):
    # The first and last centres sit half a patch inside -1 and 1: the box is the same,
    # only the spacing 2 / side changes; the order is the row-major order of grid_positions.
    y, x = patch_center_coordinates(side, 2 * side).T
    assert y.min() == pytest.approx(-1 + 1 / side)
    assert y.max() == pytest.approx(1 - 1 / side)
    assert x.min() == pytest.approx(-1 + 1 / (2 * side))
    np.testing.assert_allclose(np.diff(np.unique(y)), 2 / side)
    rows, cols = grid_positions(side, 2 * side)
    np.testing.assert_allclose(y, 2 * (rows + 0.5) / side - 1)
    np.testing.assert_allclose(x, 2 * (cols + 0.5) / (2 * side) - 1)


def test_max_and_min_keep_patches_square():
    for mode in ("max", "min"):
        y, x = patch_center_coordinates(3, 6, normalize_coords=mode).T
        assert np.diff(np.unique(y))[0] == pytest.approx(np.diff(np.unique(x))[0])
    y, x = patch_center_coordinates(3, 6, normalize_coords="max").T
    assert x.max() < 1
    assert y.max() < 0  # the shorter axis stops at 0
    y, x = patch_center_coordinates(3, 6, normalize_coords="min").T
    assert y.max() < 1 < x.max()  # the longer axis goes past 1


def test_dinov3_rope_is_axial_rope_on_centres_times_two_pi():
    # Pair j of the row half turns by 2 pi y / period_j, period_j = 100 ** (4 j / head_dim)
    # (DINOv3's `periods` with base 100); the column half likewise with x.
    head_dim = 16
    coords = patch_center_coordinates(3, 4)
    periods = 100.0 ** (2 * np.arange(head_dim // 4) / (head_dim // 2))
    expected = (2 * np.pi * coords[:, :, None] / periods).reshape(len(coords), -1)
    angles = axial_rotary_angles(2 * np.pi * coords.T, head_dim, base=100.0)
    np.testing.assert_allclose(angles, expected, rtol=1e-14, atol=0)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        ((0, 3), {}, ValueError, "grid_h must be an integer >= 1"),
        ((3, 2.0), {}, TypeError, "grid_w must be an integer"),
        ((3, 3), {"normalize_coords": "mean"}, ValueError, "normalize_coords must be one of"),
    ],
)
def test_patch_centres_bad_input(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        patch_center_coordinates(*args, **kwargs)


# --- Resizing a learned table ------------------------------------------------------------


def test_resize_keeps_prefix_rows_and_a_constant_grid():
    table = np.full((2 + 9, 3), 0.25)
    table[:2] = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    out = resize_position_table(table, (3, 3), (5, 4), n_prefix_tokens=2)
    np.testing.assert_array_equal(out[:2], table[:2])
    np.testing.assert_allclose(out[2:], 0.25, rtol=0, atol=1e-15)


def test_resize_to_the_same_grid_is_the_identity():
    table = np.random.default_rng(0).normal(size=(1 + 12, 4))
    for antialias in (False, True):
        out = resize_position_table(table, (3, 4), (3, 4), n_prefix_tokens=1, antialias=antialias)
        np.testing.assert_allclose(out, table, rtol=0, atol=1e-15)


def test_plain_bicubic_overshoots_at_the_borders():
    # Keys' kernel has negative lobes: a 2 x 2 grid 1..4 enlarged reaches below 1.
    out = resize_position_table(np.arange(1.0, 5.0)[:, None], (2, 2), (3, 3))
    assert out.min() < 1.0
    assert out[4, 0] == pytest.approx(2.5)  # the centre is the mean of the four


def test_resize_keeps_leading_dims_and_float32():
    table = np.ones((2, 3, 1 + 4, 8), dtype=np.float32)
    out = resize_position_table(table, (2, 2), (3, 3), n_prefix_tokens=1)
    assert out.shape == (2, 3, 1 + 9, 8)
    assert out.dtype == np.float32
    assert resize_position_table(np.ones((4, 2), dtype=int), (2, 2), (1, 1)).dtype == np.float64


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        (
            (np.zeros((197, 8)), (14, 14), (16, 16)),
            {},
            ValueError,
            r"n_prefix_tokens \+ grid_h \* grid_w = 0 \+ 14 \* 14 = 196 rows .* got 197 rows",
        ),
        ((np.zeros(4), (2, 2), (3, 3)), {}, ValueError, "table must have shape"),
        ((np.zeros((4, 2)), (2, 0), (3, 3)), {}, ValueError, r"grid\[1\] \(grid_w\) must be"),
        ((np.zeros((4, 2)), (2, 2), (3,)), {}, ValueError, r"new_grid must be a pair"),
        ((np.zeros((4, 2)), 4, (3, 3)), {}, TypeError, r"grid must be a pair"),
        ((np.zeros((4, 2)), (2, 2), (3, 3)), {"n_prefix_tokens": -1}, ValueError, "n_prefix"),
        ((np.zeros((4, 2)), (2, 2), (3, 3)), {"antialias": "yes"}, TypeError, "antialias"),
        ((np.zeros((4, 2), dtype=complex), (2, 2), (3, 3)), {}, TypeError, "real numbers"),
    ],
)
def test_resize_bad_input(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        resize_position_table(*args, **kwargs)
