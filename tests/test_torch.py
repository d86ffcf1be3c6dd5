"""posenc.torch against the NumPy functions, and PyTorch conventions."""

import os

import numpy as np
import pytest

if os.environ.get("CI") == "true":
    import torch  # CI installs torch: a missing torch is a failure there, never a skip
else:
    torch = pytest.importorskip(
        "torch", reason="torch is not installed: python -m pip install -e '.[torch]'"
    )

from posenc import apply_rotary, sinusoidal_encoding
from posenc.torch import RotaryEmbedding, SinusoidalPositionalEncoding


def test_importing_posenc_does_not_import_torch():
    import subprocess
    import sys

    code = "import sys, posenc; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("batch_first", [True, False])
def test_sinusoidal_module_adds_the_numpy_table(batch_first):
    module = SinusoidalPositionalEncoding(16, dropout=0.0, max_len=50, batch_first=batch_first)
    shape = (3, 20, 16) if batch_first else (20, 3, 16)
    x = torch.zeros(shape)
    out = module(x)
    table = out[0] if batch_first else out[:, 0]
    np.testing.assert_allclose(table.numpy(), sinusoidal_encoding(20, 16), atol=1e-6)


def test_dropout_is_identity_in_eval_mode_only():
    module = SinusoidalPositionalEncoding(8, dropout=0.5, max_len=10)
    x = torch.ones(4, 10, 8)
    module.eval()
    expected = x + torch.from_numpy(sinusoidal_encoding(10, 8)).float()
    torch.testing.assert_close(module(x), expected)
    module.train()
    torch.manual_seed(0)
    assert not torch.allclose(module(x), expected)


def test_table_is_a_buffer_not_a_parameter():
    module = SinusoidalPositionalEncoding(8, max_len=10)
    assert list(module.parameters()) == []
    assert "pe" in dict(module.named_buffers())
    assert module.state_dict() == {}
    other = SinusoidalPositionalEncoding(8, max_len=20)
    other.load_state_dict(module.state_dict())  # another max_len loads the checkpoint


def test_dtype_and_device_follow_the_input():
    module = SinusoidalPositionalEncoding(8, dropout=0.0, max_len=10)
    out = module(torch.zeros(1, 4, 8, dtype=torch.float64))
    assert out.dtype == torch.float64
    half = module.to(torch.float64)
    assert half.pe.dtype == torch.float64
    assert module(torch.zeros(1, 4, 8)).device == torch.device("cpu")


def test_works_under_no_grad_and_with_gradients():
    module = SinusoidalPositionalEncoding(8, dropout=0.0, max_len=10)
    with torch.no_grad():
        assert not module(torch.zeros(1, 4, 8)).requires_grad
    x = torch.zeros(1, 4, 8, requires_grad=True)
    module(x).sum().backward()
    torch.testing.assert_close(x.grad, torch.ones_like(x))


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        ((1, 11, 8), "sequence length 11 exceeds max_len=10"),
        ((1, 4, 6), r"x must have shape \(batch, seq, d_model\) with d_model=8"),
        ((4, 8), "x must have shape"),
    ],
)
def test_bad_inputs_raise_clear_errors(shape, message):
    module = SinusoidalPositionalEncoding(8, max_len=10)
    with pytest.raises(ValueError, match=message):
        module(torch.zeros(shape))


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_rotary_module_equals_the_numpy_function(layout, dtype):
    x = torch.randn(2, 3, 7, 16, generator=torch.Generator().manual_seed(0), dtype=dtype)
    positions = torch.tensor([0, 5, 9, 100, 1000, 3, 2])
    out = RotaryEmbedding(16, layout=layout)(x, positions)
    assert out.dtype == dtype
    expected = apply_rotary(x.numpy(), positions.numpy(), layout=layout)
    tolerance = 1e-5 if dtype == torch.float32 else 1e-12
    np.testing.assert_allclose(out.numpy(), expected, atol=tolerance, rtol=tolerance)


def test_rotary_module_defaults_and_conventions():
    module = RotaryEmbedding(8)
    assert list(module.parameters()) == []
    assert module.state_dict() == {}
    x = torch.randn(5, 8, generator=torch.Generator().manual_seed(1))
    np.testing.assert_allclose(module(x).numpy(), apply_rotary(x.numpy()), atol=1e-6)
    module.to(torch.float16)  # must not round the frequencies
    with torch.no_grad():
        assert module(x.half()).dtype == torch.float16
    with pytest.raises(ValueError, match="layout must be"):
        RotaryEmbedding(8, layout="llama")
    with pytest.raises(ValueError, match=r"x must have shape \(\.\.\., n, 8\)"):
        module(torch.zeros(5, 6))
    with pytest.raises(ValueError, match=r"positions must be integers of shape \(5,\)"):
        module(x, torch.arange(4))


def test_attention_matches_torch_sdpa_and_differs_on_fully_masked_rows():
    from posenc import scaled_dot_product_attention

    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 2, 4, 8))
    bias = np.zeros((4, 4))
    bias[0] = -np.inf  # query 0 may look at no key
    ours = scaled_dot_product_attention(q, k, v, bias=bias)
    theirs = torch.nn.functional.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (q, k, v)), attn_mask=torch.from_numpy(bias)
    ).numpy()
    np.testing.assert_allclose(ours[:, 1:], theirs[:, 1:], rtol=1e-10, atol=1e-12)
    assert np.isnan(ours[:, 0]).all()  # posenc: the softmax of nothing is undefined
    np.testing.assert_array_equal(theirs[:, 0], 0.0)  # PyTorch: zeros for such a row
    t5 = torch.nn.functional.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (q, k, v)), scale=1.0
    ).numpy()
    np.testing.assert_allclose(scaled_dot_product_attention(q, k, v, scale=1.0), t5, atol=1e-12)
