"""posenc against Hugging Face Transformers, the code checkpoints are run with.

Every RoPE scaling type is compared through Transformers' own RoPE utilities
(`modeling_rope_utils.py`), built from small configuration dictionaries; the rotary modules
of Llama, GPT-NeoX and GPT-J and T5's relative bias through their model code. No weights,
nothing downloaded (HF_HUB_OFFLINE is set before the import). CI pins the version
(`.ci/run`); where transformers is missing these tests skip, and in CI they fail. torch and
transformers come from the fixtures of tests/oracle/conftest.py: only the worker that runs these
tests imports them.

Tolerances: Transformers computes the frequencies in float32, so they agree with posenc's
float64 values to a few float32 ulps (rtol 1e-6; measured up to 3e-7). The attention
factors are float64 on both sides and agree to 1e-15.
"""

import math

import numpy as np
import pytest

from posenc import (
    apply_rotary,
    frequencies_from_config,
    relative_position_buckets,
    rotary_frequencies,
)

pytestmark = pytest.mark.usefixtures("transformers")  # every test compares with it

HEAD_DIM = 64
DEFAULT_THETA = 10000.0  # RotaryEmbeddingConfigMixin.default_theta, for dictionaries without one
RTOL = 1e-6  # float32 frequencies in transformers


def llama_config(rope_parameters, *, max_position_embeddings=4096, head_dim=HEAD_DIM):
    from transformers import LlamaConfig

    return LlamaConfig(
        hidden_size=4 * head_dim,
        num_attention_heads=4,
        head_dim=head_dim,
        num_hidden_layers=1,
        intermediate_size=8,
        vocab_size=16,
        max_position_embeddings=max_position_embeddings,
        rope_parameters=dict(rope_parameters),
    )


def transformers_frequencies(config, seq_len=None):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama import modeling_llama

    rope_type = config.rope_parameters["rope_type"]
    if rope_type == "default":
        inv_freq, factor = modeling_llama.LlamaRotaryEmbedding.compute_default_rope_parameters(
            config
        )
    else:
        inv_freq, factor = ROPE_INIT_FUNCTIONS[rope_type](config, "cpu", seq_len=seq_len)
    return inv_freq.double().numpy(), float(factor)


CASES = {
    "default": ({"rope_type": "default", "rope_theta": 10000.0}, {}),
    "default, Llama 3 base": ({"rope_type": "default", "rope_theta": 500000.0}, {}),
    "linear": ({"rope_type": "linear", "factor": 4.0, "rope_theta": 10000.0}, {}),
    "linear, old 'type' key": ({"type": "linear", "factor": 2.0}, {}),
    "dynamic, within the trained length": (
        {"rope_type": "dynamic", "factor": 2.0, "rope_theta": 10000.0},
        {"seq_len": 1000},
    ),
    "dynamic, beyond the trained length": (
        {"rope_type": "dynamic", "factor": 2.0, "rope_theta": 10000.0},
        {"seq_len": 20000},
    ),
    "dynamic, far beyond": (
        {"rope_type": "dynamic", "factor": 8.0, "rope_theta": 500000.0},
        {"seq_len": 100_000},
    ),
    "yarn": (
        {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024}
        | {"rope_theta": 10000.0},
        {},
    ),
    "yarn, Qwen-like base": (
        {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024}
        | {"rope_theta": 1000000.0},
        {},
    ),
    "yarn, explicit attention_factor and betas": (
        {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 256}
        | {"attention_factor": 0.8, "beta_fast": 16.0, "beta_slow": 2.0},
        {"max_position_embeddings": 4096},
    ),
    "yarn, DeepSeek mscale and mscale_all_dim": (
        {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 256}
        | {"mscale": 0.707, "mscale_all_dim": 1.0},
        {"max_position_embeddings": 4096},
    ),
    "yarn, mscale equal to mscale_all_dim": (
        {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 256}
        | {"mscale": 1.0, "mscale_all_dim": 1.0},
        {"max_position_embeddings": 4096},
    ),
    "yarn, truncate false (gpt-oss)": (
        {"rope_type": "yarn", "factor": 32.0, "original_max_position_embeddings": 128}
        | {"rope_theta": 150000.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": False},
        {"max_position_embeddings": 4096},
    ),
    "yarn, factor from the lengths": (
        {"rope_type": "yarn", "factor": None, "original_max_position_embeddings": 1024},
        {"max_position_embeddings": 4096},
    ),
    "llama3": (
        {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0}
        | {"original_max_position_embeddings": 8192, "rope_theta": 500000.0},
        {"max_position_embeddings": 131072},
    ),
    "llama3, other factors": (
        {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 2.0, "high_freq_factor": 8.0}
        | {"original_max_position_embeddings": 2048, "rope_theta": 10000.0},
        {"max_position_embeddings": 65536},
    ),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("partial_rotary_factor", [None, 0.5])
def test_frequencies_and_attention_factor_equal_transformers(case, partial_rotary_factor):
    from transformers import GPTNeoXConfig
    from transformers.models.gpt_neox import modeling_gpt_neox

    params, options = CASES[case]
    params = dict(params)
    if partial_rotary_factor is not None:
        params["partial_rotary_factor"] = partial_rotary_factor
    max_position_embeddings = options.get("max_position_embeddings", 4096)
    seq_len = options.get("seq_len")
    config = llama_config(params, max_position_embeddings=max_position_embeddings)
    rope_type = params.get("rope_type", params.get("type", "default"))
    if partial_rotary_factor is not None and rope_type == "default":
        config = GPTNeoXConfig(  # Llama's default init ignores partial rotary; GPT-NeoX's not
            hidden_size=4 * HEAD_DIM,
            num_attention_heads=4,
            rope_parameters=dict(params),
            max_position_embeddings=max_position_embeddings,
        )
        expected, expected_factor = (
            modeling_gpt_neox.GPTNeoXRotaryEmbedding.compute_default_rope_parameters(config)
        )
        expected, expected_factor = expected.double().numpy(), float(expected_factor)
    else:
        expected, expected_factor = transformers_frequencies(config, seq_len=seq_len)
    inv_freq, attention_factor = frequencies_from_config(
        HEAD_DIM,
        params,
        max_position_embeddings=max_position_embeddings,
        seq_len=seq_len,
        rope_theta=DEFAULT_THETA,
    )
    assert inv_freq.shape == expected.shape
    np.testing.assert_allclose(inv_freq, expected, rtol=RTOL, atol=0)
    assert attention_factor == pytest.approx(expected_factor, rel=1e-15, abs=0)


def test_a_missing_yarn_factor_is_an_error_and_none_the_ratio_of_the_lengths():
    from transformers import LlamaConfig

    lengths = {"rope_type": "yarn", "rope_theta": 10000.0, "original_max_position_embeddings": 4096}
    # No factor key: Transformers refuses the configuration, and so does posenc.
    with pytest.raises(KeyError, match="factor"):
        LlamaConfig(max_position_embeddings=16384, rope_parameters=dict(lengths))
    with pytest.raises(KeyError, match="needs 'factor'"):
        frequencies_from_config(HEAD_DIM, lengths, max_position_embeddings=16384)
    # factor None: both take 16384 / 4096 = 4.
    with_none = lengths | {"factor": None}
    expected, expected_factor = transformers_frequencies(
        llama_config(with_none, max_position_embeddings=16384)
    )
    inv_freq, attention_factor = frequencies_from_config(
        HEAD_DIM, with_none, max_position_embeddings=16384
    )
    np.testing.assert_allclose(inv_freq, expected, rtol=RTOL, atol=0)
    assert attention_factor == expected_factor == pytest.approx(0.1 * math.log(4.0) + 1.0)


def test_the_oracle_can_tell_the_methods_apart():
    # The tolerance is far below the differences between methods: a wrong dispatch would fail.
    yarn, _ = transformers_frequencies(llama_config(CASES["yarn"][0]))
    linear, _ = frequencies_from_config(
        HEAD_DIM, {"rope_type": "linear", "factor": 4.0}, rope_theta=DEFAULT_THETA
    )
    assert np.abs(yarn / linear - 1).max() > 1.0
    no_truncate = dict(CASES["yarn"][0], truncate=False)
    got, _ = frequencies_from_config(HEAD_DIM, no_truncate, rope_theta=DEFAULT_THETA)
    assert np.abs(got / yarn - 1).max() > 1e-3


@pytest.mark.parametrize(
    "rope_parameters",
    [
        {"rope_type": "default", "rope_theta": 10000.0},
        CASES["yarn"][0],
        CASES["llama3"][0] | {"original_max_position_embeddings": 512},
    ],
)
def test_rotary_module_equals_llamas(torch, rope_parameters):
    from transformers.models.llama import modeling_llama

    from posenc.torch import RotaryEmbedding

    config = llama_config(rope_parameters, max_position_embeddings=8192, head_dim=16)
    theirs = modeling_llama.LlamaRotaryEmbedding(config)
    generator = torch.Generator().manual_seed(0)
    q, k = torch.randn(2, 2, 4, 9, 16, generator=generator)  # (batch, heads, n, head_dim)
    position_ids = torch.tensor([[0, 1, 2, 3, 4, 5, 6, 7, 8], [90, 91, 92, 93, 94, 95, 96, 97, 98]])
    cos, sin = theirs(q, position_ids)
    q_theirs, k_theirs = modeling_llama.apply_rotary_pos_emb(q, k, cos, sin)
    ours = RotaryEmbedding(16, rope_parameters=rope_parameters, max_position_embeddings=8192)
    # Both rotate in float32; the frequencies may differ by a float32 ulp (posenc rounds its
    # float64 values, transformers computes in float32), which moves the angle at position
    # 98 by up to 98 ulps of theta.
    atol = 2 * 98 * 2.0**-23 * float(max(q.abs().max(), k.abs().max()))
    torch.testing.assert_close(ours(q, position_ids), q_theirs, rtol=0, atol=atol)
    torch.testing.assert_close(ours(k, position_ids), k_theirs, rtol=0, atol=atol)
    # and the NumPy function, in float64
    inv_freq, factor = frequencies_from_config(
        16, rope_parameters, max_position_embeddings=8192, rope_theta=DEFAULT_THETA
    )
    np.testing.assert_allclose(
        apply_rotary(q.numpy(), position_ids.numpy(), inv_freq=inv_freq, attention_factor=factor),
        q_theirs.numpy(),
        rtol=0,
        atol=2e-5,
    )


@pytest.mark.parametrize("head_dim", [64, 96, 128])
@pytest.mark.parametrize(
    "rope_parameters",
    [
        {"rope_type": "default", "rope_theta": 10000.0},
        {"rope_type": "default", "rope_theta": 500000.0},
        CASES["llama3"][0],
        CASES["yarn"][0],
        {"rope_type": "yarn", "factor": 40.0, "original_max_position_embeddings": 4096}
        | {"rope_theta": 500000.0},
        CASES["llama3"][0] | {"factor": 40.0},
    ],
    ids=["default", "default 5e5", "llama3", "yarn", "yarn 40 5e5", "llama3 40"],
)
def test_rotary_module_equals_llamas_to_float32_rounding_not_bit_for_bit(
    torch, rope_parameters, head_dim
):
    # The bounds that posenc.torch.RotaryEmbedding's docstring states, at positions to 8191.
    from transformers.models.llama import modeling_llama

    from posenc.torch import RotaryEmbedding

    config = llama_config(rope_parameters, max_position_embeddings=131072, head_dim=head_dim)
    theirs = modeling_llama.LlamaRotaryEmbedding(config)
    ours = RotaryEmbedding(
        head_dim, rope_parameters=rope_parameters, max_position_embeddings=131072
    )
    relative = ((ours.inv_freq - theirs.inv_freq).abs() / theirs.inv_freq).max().item()
    assert relative <= 3e-6
    x = torch.randn(1, 1, 8192, head_dim, generator=torch.Generator().manual_seed(0))
    position_ids = torch.arange(8192)[None]
    expected, _ = modeling_llama.apply_rotary_pos_emb(x, x, *theirs(x, position_ids))
    difference = (ours(x, position_ids) - expected).abs().max().item()
    _, attention_factor = frequencies_from_config(
        head_dim, rope_parameters, max_position_embeddings=131072
    )
    assert 0 < difference <= 5e-4 * attention_factor * x.abs().max().item()


def test_partial_rotary_equals_gpt_neox(torch):
    from transformers import GPTNeoXConfig
    from transformers.models.gpt_neox import modeling_gpt_neox

    from posenc.torch import RotaryEmbedding

    config = GPTNeoXConfig(
        hidden_size=4 * 24, num_attention_heads=4, rotary_pct=0.25, max_position_embeddings=64
    )
    assert config.rope_parameters["partial_rotary_factor"] == 0.25
    rotary = modeling_gpt_neox.GPTNeoXRotaryEmbedding(config)
    generator = torch.Generator().manual_seed(1)
    q, k = torch.randn(2, 1, 4, 7, 24, generator=generator)
    position_ids = torch.arange(7)[None] + 3
    cos, sin = rotary(q, position_ids)
    q_theirs, _ = modeling_gpt_neox.apply_rotary_pos_emb(q, k, cos, sin)
    module = RotaryEmbedding(24, rope_parameters=config.rope_parameters)
    assert module.rotary_dim == 6
    torch.testing.assert_close(module(q, position_ids), q_theirs, rtol=0, atol=2e-6)
    np.testing.assert_allclose(
        apply_rotary(q.numpy(), position_ids.numpy(), rotary_dim=6), q_theirs.numpy(), atol=2e-6
    )


def test_interleaved_partial_rotary_equals_gpt_j(torch):
    from transformers import GPTJConfig
    from transformers.models.gptj import modeling_gptj

    config = GPTJConfig(n_embd=4 * 16, n_head=4, rotary_dim=8, n_positions=64)
    table = modeling_gptj.create_sinusoidal_positions(64, config.rotary_dim)
    generator = torch.Generator().manual_seed(2)
    x = torch.randn(1, 5, 4, 16, generator=generator)  # GPT-J: (batch, n, heads, head_dim)
    position_ids = torch.tensor([[0, 3, 4, 10, 63]])
    sin, cos = torch.split(table[position_ids], config.rotary_dim // 2, dim=-1)
    rotated = modeling_gptj.apply_rotary_pos_emb(x[..., :8], sin, cos)
    theirs = torch.cat([rotated, x[..., 8:]], dim=-1).transpose(1, 2)  # (batch, heads, n, d)
    ours = apply_rotary(
        x.transpose(1, 2).numpy(), position_ids.numpy(), layout="interleaved", rotary_dim=8
    )
    np.testing.assert_allclose(ours, theirs.numpy(), rtol=0, atol=2e-6)
    np.testing.assert_allclose(
        rotary_frequencies(16, rotary_dim=8),
        1.0 / 10000 ** (np.arange(0, 8, 2) / 8),
    )


@pytest.mark.parametrize("is_decoder", [False, True])
def test_t5_bias_with_cached_tokens_equals_t5_attention(torch, is_decoder):
    from transformers import T5Config
    from transformers.models.t5.modeling_t5 import T5Attention

    config = T5Config(
        d_model=16,
        d_kv=4,
        num_heads=2,
        relative_attention_num_buckets=32,
        relative_attention_max_distance=128,
        is_decoder=is_decoder,
    )
    attention = T5Attention(config, has_relative_attention_bias=True)
    for n_queries, n_keys in [(7, 7), (1, 200), (3, 150)]:
        past = n_keys - n_queries
        with torch.no_grad():
            theirs = attention.compute_bias(n_queries, n_keys, past_seen_tokens=past)[0]
        buckets = relative_position_buckets(n_queries, n_keys, bidirectional=not is_decoder)
        table = attention.relative_attention_bias.weight.detach().numpy()  # (buckets, heads)
        ours = np.moveaxis(table[buckets], -1, 0)
        np.testing.assert_array_equal(ours, theirs.numpy())


def test_yarn_attention_factor_matches_the_papers_formula_too():
    # transformers' attention_scaling for yarn is the paper's sqrt(1/t) = 0.1 ln s + 1.
    for factor in (2.0, 8.0, 32.0):
        params = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": 512}
        _, expected = transformers_frequencies(llama_config(params))
        assert expected == pytest.approx(0.1 * math.log(factor) + 1, rel=1e-15)


PHI3_LONGROPE = {
    "rope_type": "longrope",
    "rope_theta": 10000.0,
    "short_factor": [1.0 + 0.1 * i for i in range(HEAD_DIM // 2)],
    "long_factor": [1.0 + 2.0 * i for i in range(HEAD_DIM // 2)],
    "original_max_position_embeddings": 1024,
}


@pytest.mark.parametrize("seq_len", [None, 1024, 1025, 8192])
@pytest.mark.parametrize("extra", [{}, {"factor": 2.0}, {"attention_factor": 1.3}])
def test_compute_longrope_parameters(seq_len, extra):
    from transformers import Phi3Config
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    params = PHI3_LONGROPE | extra
    config = Phi3Config(
        hidden_size=4 * HEAD_DIM,
        num_attention_heads=4,
        num_hidden_layers=1,
        intermediate_size=8,
        vocab_size=16,
        max_position_embeddings=8192,
        original_max_position_embeddings=1024,
        rope_parameters=dict(params),
    )
    expected, expected_factor = ROPE_INIT_FUNCTIONS["longrope"](config, "cpu", seq_len=seq_len)
    inv_freq, attention_factor = frequencies_from_config(
        HEAD_DIM, params, max_position_embeddings=8192, seq_len=seq_len
    )
    np.testing.assert_allclose(inv_freq, expected.double().numpy(), rtol=RTOL, atol=0)
    assert attention_factor == pytest.approx(float(expected_factor), rel=1e-15, abs=0)


@pytest.mark.parametrize("partial_rotary_factor", [None, 0.25, 0.5, 1.0])
@pytest.mark.parametrize("factor", [None, 8.0])
def test_compute_proportional_rope_parameters(partial_rotary_factor, factor):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    params: dict[str, object] = {"rope_type": "proportional", "rope_theta": 1e6}
    if partial_rotary_factor is not None:
        params["partial_rotary_factor"] = partial_rotary_factor
    if factor is not None:
        params["factor"] = factor
    config = llama_config(params)
    expected, expected_factor = ROPE_INIT_FUNCTIONS["proportional"](config, "cpu")
    inv_freq, attention_factor = frequencies_from_config(HEAD_DIM, params)
    assert inv_freq.shape == expected.shape == (HEAD_DIM // 2,)
    np.testing.assert_allclose(inv_freq, expected.double().numpy(), rtol=RTOL, atol=0)
    assert attention_factor == float(expected_factor) == 1.0


@pytest.mark.parametrize("layer_type", ["full_attention", "sliding_attention"])
def test_compute_linear_scaling_rope_parameters_per_layer_type(layer_type):
    from transformers import Gemma3TextConfig
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    nested = {
        "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
        "sliding_attention": {"rope_type": "linear", "factor": 1.0, "rope_theta": 10000.0},
    }
    config = Gemma3TextConfig(
        hidden_size=4 * HEAD_DIM,
        num_attention_heads=4,
        num_key_value_heads=4,
        head_dim=HEAD_DIM,
        num_hidden_layers=2,
        intermediate_size=8,
        vocab_size=16,
        rope_parameters={key: dict(value) for key, value in nested.items()},
    )
    expected, _ = ROPE_INIT_FUNCTIONS["linear"](config, "cpu", layer_type=layer_type)
    inv_freq, _ = frequencies_from_config(HEAD_DIM, nested, layer_type=layer_type)
    np.testing.assert_allclose(inv_freq, expected.double().numpy(), rtol=RTOL, atol=0)
