"""Resizing a grid's learned table against PyTorch's bicubic interpolation (MAE, timm), and
DINOv3's patch coordinates against Hugging Face Transformers."""

import importlib

import numpy as np
import pytest

from posenc import axial_rotary_angles, patch_center_coordinates, resize_position_table


def torch_resize(torch, table, grid, new_grid, n_prefix_tokens, antialias):
    """MAE's interpolate_pos_embed (timm's resample_abs_pos_embed with antialias=True)."""
    table = torch.from_numpy(table)
    prefix, patches = table[:, :n_prefix_tokens], table[:, n_prefix_tokens:]
    image = patches.reshape(-1, *grid, table.shape[-1]).permute(0, 3, 1, 2)
    image = torch.nn.functional.interpolate(
        image, size=new_grid, mode="bicubic", align_corners=False, antialias=antialias
    )
    patches = image.permute(0, 2, 3, 1).flatten(1, 2)
    return torch.cat((prefix, patches), dim=1).numpy()


SIZES = [
    ((14, 14), (24, 24)),  # ViT-B/16, 224 -> 384 pixels
    ((14, 14), (7, 7)),
    ((2, 2), (5, 3)),
    ((3, 5), (4, 4)),
    ((7, 4), (2, 9)),
    ((1, 3), (3, 1)),
    ((6, 6), (6, 6)),
    ((5, 8), (1, 1)),
]


@pytest.mark.parametrize(("grid", "new_grid"), SIZES)
@pytest.mark.parametrize("n_prefix_tokens", [0, 1, 2])
@pytest.mark.parametrize("antialias", [False, True])
def test_resize_matches_torch_bicubic(torch, grid, new_grid, n_prefix_tokens, antialias):
    rng = np.random.default_rng(grid[0] * 100 + new_grid[1])
    table = rng.normal(size=(1, n_prefix_tokens + grid[0] * grid[1], 12))
    expected = torch_resize(torch, table, grid, new_grid, n_prefix_tokens, antialias)
    out = resize_position_table(
        table, grid, new_grid, n_prefix_tokens=n_prefix_tokens, antialias=antialias
    )
    assert out.shape == expected.shape
    np.testing.assert_allclose(out, expected, rtol=0, atol=1e-12)


# --- DINOv3: patch centres in [-1, 1] ------------------------------------------------------


@pytest.fixture(scope="module")
def dinov3(transformers):
    assert transformers.__version__ == "5.24.0", "the oracle tests are written for 5.24.0"
    return importlib.import_module("transformers.models.dinov3_vit.modeling_dinov3_vit")


@pytest.mark.parametrize(("grid_h", "grid_w"), [(1, 1), (2, 4), (14, 14), (5, 3), (32, 20)])
def test_patch_center_coordinates_is_dinov3_get_patches_center_coordinates(
    dinov3, torch, grid_h, grid_w
):
    expected = dinov3.get_patches_center_coordinates(grid_h, grid_w, torch.float64, "cpu")
    np.testing.assert_allclose(
        patch_center_coordinates(grid_h, grid_w), expected.numpy(), rtol=0, atol=1e-15
    )


@pytest.mark.parametrize(("head_dim", "grid"), [(16, (3, 5)), (64, (14, 14)), (8, (2, 7))])
def test_patch_center_coordinates_give_dinov3_rope_angles(
    dinov3, transformers, torch, head_dim, grid
):
    patch_size = 4
    config = transformers.DINOv3ViTConfig(
        hidden_size=2 * head_dim,
        num_attention_heads=2,
        intermediate_size=8,
        num_hidden_layers=1,
        patch_size=patch_size,
        image_size=16,
        rope_theta=100.0,
    )
    # eval(): in training the module moves the coordinates at random (pos_embed_rescale).
    rope = dinov3.DINOv3ViTRopePositionEmbedding(config).eval()
    pixels = torch.zeros(1, 3, grid[0] * patch_size, grid[1] * patch_size)
    cos, sin = rope(pixels)
    positions = 2 * np.pi * patch_center_coordinates(*grid).T  # rows first, then columns
    angles = np.tile(axial_rotary_angles(positions, head_dim, base=100.0), 2)  # rotate_half
    # Transformers computes the angles in float32 (up to 2 pi: about 5e-7 rad).
    np.testing.assert_allclose(np.cos(angles), cos.numpy(), rtol=0, atol=2e-6)
    np.testing.assert_allclose(np.sin(angles), sin.numpy(), rtol=0, atol=2e-6)
