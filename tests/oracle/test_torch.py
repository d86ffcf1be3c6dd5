"""posenc.torch against the NumPy functions, and PyTorch conventions.

torch comes from the ``torch`` fixture (tests/oracle/conftest.py), imported only by the worker that
runs these tests; so is ``posenc.torch``, imported in the tests.
"""

import doctest
import importlib

import numpy as np
import pytest

from posenc import (
    apply_rotary,
    frequencies_from_config,
    rotary_frequencies,
    sinusoidal_encoding,
)


def test_importing_posenc_does_not_import_torch():
    import subprocess
    import sys

    code = "import sys, posenc; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("batch_first", [True, False])
def test_sinusoidal_module_adds_the_numpy_table(torch, batch_first):
    from posenc.torch import SinusoidalPositionalEncoding

    module = SinusoidalPositionalEncoding(16, dropout=0.0, max_len=50, batch_first=batch_first)
    shape = (3, 20, 16) if batch_first else (20, 3, 16)
    x = torch.zeros(shape)
    out = module(x)
    table = out[0] if batch_first else out[:, 0]
    np.testing.assert_allclose(table.numpy(), sinusoidal_encoding(20, 16), atol=1e-6)


def test_dropout_is_identity_in_eval_mode_only(torch):
    from posenc.torch import SinusoidalPositionalEncoding

    module = SinusoidalPositionalEncoding(8, dropout=0.5, max_len=10)
    x = torch.ones(4, 10, 8)
    module.eval()
    expected = x + torch.from_numpy(sinusoidal_encoding(10, 8)).float()
    torch.testing.assert_close(module(x), expected)
    module.train()
    torch.manual_seed(0)
    assert not torch.allclose(module(x), expected)


def test_table_is_a_buffer_not_a_parameter(torch):
    from posenc.torch import SinusoidalPositionalEncoding

    module = SinusoidalPositionalEncoding(8, max_len=10)
    assert list(module.parameters()) == []
    assert "pe" in dict(module.named_buffers())
    assert module.state_dict() == {}
    other = SinusoidalPositionalEncoding(8, max_len=20)
    other.load_state_dict(module.state_dict())  # another max_len loads the checkpoint


def test_dtype_and_device_follow_the_input(torch):
    from posenc.torch import SinusoidalPositionalEncoding

    module = SinusoidalPositionalEncoding(8, dropout=0.0, max_len=10)
    out = module(torch.zeros(1, 4, 8, dtype=torch.float64))
    assert out.dtype == torch.float64
    half = module.to(torch.float64)
    assert half.pe.dtype == torch.float64
    assert module(torch.zeros(1, 4, 8)).device == torch.device("cpu")


def test_works_under_no_grad_and_with_gradients(torch):
    from posenc.torch import SinusoidalPositionalEncoding

    module = SinusoidalPositionalEncoding(8, dropout=0.0, max_len=10)
    with torch.no_grad():
        assert not module(torch.zeros(1, 4, 8)).requires_grad
    x = torch.zeros(1, 4, 8, requires_grad=True)
    module(x).sum().backward()
    torch.testing.assert_close(x.grad, torch.ones_like(x))


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        ((1, 11, 8), r"positions 0 to 10 must lie in \[0, max_len - 1\] = \[0, 9\]"),
        ((1, 4, 6), r"x must have shape \(batch, seq, d_model\) with d_model=8"),
        ((4, 8), "x must have shape"),
    ],
)
def test_bad_inputs_raise_clear_errors(torch, shape, message):
    from posenc.torch import SinusoidalPositionalEncoding

    module = SinusoidalPositionalEncoding(8, max_len=10)
    with pytest.raises(ValueError, match=message):
        module(torch.zeros(shape))


@pytest.mark.parametrize("layout", ["interleaved", "half"])
@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
def test_rotary_module_equals_the_numpy_function(torch, layout, dtype_name):
    from posenc.torch import RotaryEmbedding

    dtype = getattr(torch, dtype_name)
    x = torch.randn(2, 3, 7, 16, generator=torch.Generator().manual_seed(0), dtype=dtype)
    positions = torch.tensor([0, 5, 9, 100, 1000, 3, 2])
    out = RotaryEmbedding(16, layout=layout)(x, positions)
    assert out.dtype == dtype
    expected = apply_rotary(x.numpy(), positions.numpy(), layout=layout)
    # float32 angles, as in transformers: at position 1000 an angle is rounded by up to half
    # an ulp of 1000 (3e-5 radian); float64 inputs rotate with float64 angles.
    tolerance = 1e-4 if dtype == torch.float32 else 1e-12
    np.testing.assert_allclose(out.numpy(), expected, atol=tolerance, rtol=0)


def test_rotary_module_defaults_and_conventions(torch):
    from posenc.torch import RotaryEmbedding

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
    with pytest.raises(ValueError, match=r"position_ids must be numbers of shape \(5,\)"):
        module(x, torch.arange(4))


def test_attention_matches_torch_sdpa_and_differs_on_fully_masked_rows(torch):
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


# --- RoPE as models ship it: float32 inv_freq, position_ids, partial rotary, scaling ----------


def test_rotary_module_keeps_a_float32_inv_freq_buffer_out_of_the_state_dict(torch):
    from posenc.torch import RotaryEmbedding

    module = RotaryEmbedding(16, base=500000.0)
    buffers = dict(module.named_buffers())
    assert list(buffers) == ["inv_freq"]
    assert buffers["inv_freq"].dtype == torch.float32
    np.testing.assert_allclose(
        buffers["inv_freq"].numpy(), rotary_frequencies(16, base=500000.0), rtol=1e-7
    )
    assert module.state_dict() == {}  # persistent=False: checkpoints do not carry it


def dtype_recorder(torch):
    """A dispatch mode that records the dtype of every tensor an operation returns."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class DtypeRecorder(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.outputs = []

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*args, **(kwargs or {}))
            for tensor in torch.utils._pytree.tree_leaves(out):
                if isinstance(tensor, torch.Tensor):
                    self.outputs.append((str(func), tensor.dtype))
            return out

    return DtypeRecorder()


@pytest.mark.parametrize("dtype_name", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize(
    "rope_parameters",
    [
        None,
        {
            "rope_type": "yarn",
            "rope_theta": 10000.0,
            "factor": 4.0,
            "original_max_position_embeddings": 16,
        },
    ],
)
def test_rotary_module_computes_nothing_in_float64_for_lower_precision_inputs(
    torch, dtype_name, rope_parameters
):
    from posenc.torch import RotaryEmbedding

    dtype = getattr(torch, dtype_name)
    # Devices such as Apple's MPS have no float64: no operation of the forward pass may make
    # a float64 tensor (so none can be moved there), even after module.to(torch.float16).
    module = RotaryEmbedding(8, rope_parameters=rope_parameters)
    x = torch.randn(2, 5, 8).to(dtype)
    for _ in range(2):
        with dtype_recorder(torch) as recorder:
            out = module(x, torch.arange(5))
        assert out.dtype == dtype
        assert recorder.outputs, "the recorder saw no operation"
        assert [op for op, kind in recorder.outputs if kind == torch.float64] == []
        module.to(torch.float16)  # rounds the buffer: the module must not use it rounded
    expected = RotaryEmbedding(8, rope_parameters=rope_parameters)(x.float(), torch.arange(5))
    tolerance = {torch.float32: 1e-6, torch.float16: 1e-2, torch.bfloat16: 5e-2}[dtype]
    torch.testing.assert_close(out.float(), expected, atol=tolerance, rtol=0)


@pytest.mark.parametrize("layout", ["half", "interleaved"])
@pytest.mark.parametrize(
    "rope_parameters",
    [
        {"rope_type": "default", "rope_theta": 500000.0},
        {"rope_type": "linear", "rope_theta": 1e4, "factor": 4.0, "partial_rotary_factor": 0.5},
        {
            "rope_type": "yarn",
            "rope_theta": 1e4,
            "factor": 8.0,
            "original_max_position_embeddings": 32,
        },
        {
            "rope_type": "yarn",
            "rope_theta": 1e4,
            "factor": 8.0,
            "original_max_position_embeddings": 32,
        }
        | {"attention_factor": 0.7, "beta_fast": 8, "beta_slow": 2, "truncate": False},
        {"rope_type": "llama3", "rope_theta": 1e4, "factor": 8.0, "low_freq_factor": 1.0}
        | {"high_freq_factor": 4.0}
        | {"original_max_position_embeddings": 64, "rope_theta": 500000.0},
    ],
)
def test_rotary_module_equals_numpy_for_every_rope_type(torch, layout, rope_parameters):
    from posenc.torch import RotaryEmbedding

    module = RotaryEmbedding(16, layout=layout, rope_parameters=rope_parameters)
    inv_freq, attention_factor = frequencies_from_config(16, rope_parameters)
    x = torch.randn(3, 2, 6, 16, generator=torch.Generator().manual_seed(2))
    position_ids = torch.tensor([[0, 1, 2, 3, 4, 5], [10, 11, 12, 13, 14, 15], [0, 0, 0, 1, 1, 1]])
    expected = apply_rotary(
        x.double().numpy(),
        position_ids.numpy(),
        layout=layout,
        inv_freq=inv_freq,
        attention_factor=attention_factor,
    )
    np.testing.assert_allclose(module(x, position_ids).numpy(), expected, atol=2e-5, rtol=0)
    np.testing.assert_allclose(
        module(x.double(), position_ids).numpy(), expected, atol=1e-12, rtol=0
    )
    # Real-valued positions, and a batch of one shared by every sequence.
    real = torch.tensor([[0.5, 1.25, 2.0, 7.75, 8.0, 9.5]], dtype=torch.float64)
    np.testing.assert_allclose(
        module(x.double(), real).numpy(),
        apply_rotary(
            x.double().numpy(),
            real.numpy(),
            layout=layout,
            inv_freq=inv_freq,
            attention_factor=attention_factor,
        ),
        atol=1e-12,
        rtol=0,
    )


def test_rotary_module_partial_rotary_passes_dimensions_through(torch):
    from posenc.torch import RotaryEmbedding

    module = RotaryEmbedding(10, rotary_dim=4)
    x = torch.randn(3, 10, dtype=torch.float64, generator=torch.Generator().manual_seed(3))
    out = module(x, torch.tensor([3, 40, 500]))
    torch.testing.assert_close(out[:, 4:], x[:, 4:], rtol=0, atol=0)
    np.testing.assert_allclose(
        out.numpy(), apply_rotary(x.numpy(), [3, 40, 500], rotary_dim=4), atol=1e-12
    )


def test_rotary_module_dynamic_follows_the_length_of_each_call(torch):
    from posenc.torch import RotaryEmbedding

    params = {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 2.0}
    module = RotaryEmbedding(8, rope_parameters=params, max_position_embeddings=16)
    x = torch.randn(1, 40, 8, dtype=torch.float64, generator=torch.Generator().manual_seed(4))
    for n in (10, 40):  # within and beyond the trained length
        inv_freq, _ = frequencies_from_config(8, params, max_position_embeddings=16, seq_len=n)
        np.testing.assert_allclose(
            module(x[:, :n]).numpy(), apply_rotary(x[:, :n].numpy(), inv_freq=inv_freq), atol=1e-12
        )
    with pytest.raises(ValueError, match="needs max_position_embeddings"):
        RotaryEmbedding(8, rope_parameters=params)


def test_rotary_module_bad_arguments(torch):
    from posenc.torch import RotaryEmbedding

    with pytest.raises(ValueError, match="not beside it"):
        RotaryEmbedding(8, base=100.0, rope_parameters={"rope_type": "default"})
    with pytest.raises(ValueError, match=r"rotary_dim must be an integer in \[2, 8\]"):
        RotaryEmbedding(8, rotary_dim=10)
    module = RotaryEmbedding(8)
    with pytest.raises(ValueError, match=r"position_ids must be numbers of shape \(3,\) or"):
        module(torch.zeros(2, 3, 8), torch.zeros(3, 3))
    with pytest.raises(ValueError, match="position_ids must be numbers"):
        module(torch.zeros(3, 8), torch.tensor([True, False, True]))


def test_sinusoidal_module_start_continues_the_sequence(torch):
    from posenc.torch import SinusoidalPositionalEncoding

    module = SinusoidalPositionalEncoding(6, dropout=0.0, max_len=20)
    x = torch.zeros(2, 3, 6)
    np.testing.assert_allclose(
        module(x, start=5)[0].numpy(), sinusoidal_encoding(3, 6, start=5), atol=1e-6
    )
    torch.testing.assert_close(module(x, start=5)[0], module(torch.zeros(1, 8, 6))[0, 5:])
    with pytest.raises(ValueError, match=r"positions 18 to 20 must lie in \[0, max_len - 1\]"):
        module(x, start=18)
    with pytest.raises(ValueError, match="positions -1 to 1"):
        module(x, start=-1)


def test_causal_attention_is_bottom_right_like_torchs_causal_lower_right(torch):
    from torch.nn.attention.bias import causal_lower_right

    from posenc import scaled_dot_product_attention

    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 2, 7, 8))
    q = q[:, 4:]  # 3 queries after 4 cached keys
    ours = scaled_dot_product_attention(q, k, v, causal=True)
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    mask = causal_lower_right(3, 7)._materialize()
    lower_right = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, attn_mask=mask)
    np.testing.assert_allclose(ours, lower_right.numpy(), rtol=1e-10, atol=1e-12)
    # PyTorch's is_causal=True aligns the mask top-left: another result when n_q < n_k.
    top_left = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True)
    assert not np.allclose(ours, top_left.numpy())


def test_the_docstring_examples_of_posenc_torch_pass(torch):
    # The root conftest.py leaves posenc/torch.py out of --doctest-modules, which would import
    # torch in every worker: its examples run here, where torch is imported anyway.
    module = importlib.import_module("posenc.torch")
    failed, attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert (failed, attempted > 0) == (0, True)
