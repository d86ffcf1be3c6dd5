"""Resizing a grid's learned table against PyTorch's bicubic interpolation (MAE, timm)."""

import numpy as np
import pytest

from posenc import resize_position_table


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
