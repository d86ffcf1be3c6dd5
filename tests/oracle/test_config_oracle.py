"""frequencies_from_config reading whole configurations, against each model's rotary embedding.

Each case builds a Transformers 5.24 configuration class with the RoPE settings of a released
model (small in everything else), gives its `to_dict()` to `frequencies_from_config`, and
compares the result with the `inv_freq` and `attention_scaling` of the rotary embedding class
of that model's modelling file, built from the same configuration. No weights, nothing
downloaded. Tolerances as in test_transformers_oracle.py: float32 frequencies in Transformers
(rtol 1e-6), float64 attention factors.
"""

import copy
import importlib

import numpy as np
import pytest

from posenc import frequencies_from_config, rotary_frequencies

pytestmark = pytest.mark.usefixtures("transformers")  # every test compares with it

RTOL = 1e-6

GEMMA3_ROPE = {  # Gemma 3 4B, 12B and 27B: global layers 1M with linear x8, local 10k
    "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1_000_000.0},
    "sliding_attention": {"rope_type": "default", "rope_theta": 10_000.0},
}
PHI3_FACTORS = {  # the shape of Phi-3-mini-128k's lists (48 pairs), values made up
    "short_factor": [1.0 + 0.02 * i for i in range(48)],
    "long_factor": [1.0 + 1.5 * i for i in range(48)],
}
SMALL = {"num_hidden_layers": 2, "vocab_size": 32, "intermediate_size": 32}

# id: (configuration class, its arguments, modelling module and rotary class, layer_type).
# A configuration with a text_config gives the text part to the rotary class.
CASES = {
    "gemma3-full": (
        "Gemma3TextConfig",
        {"hidden_size": 2560, "num_attention_heads": 8, "num_key_value_heads": 4}
        | {"head_dim": 256, "sliding_window": 1024, "rope_parameters": GEMMA3_ROPE},
        "gemma3.modeling_gemma3.Gemma3RotaryEmbedding",
        "full_attention",
    ),
    "gemma3-sliding": (
        "Gemma3TextConfig",
        {"head_dim": 256, "sliding_window": 1024, "rope_parameters": GEMMA3_ROPE},
        "gemma3.modeling_gemma3.Gemma3RotaryEmbedding",
        "sliding_attention",
    ),
    "gemma3-released-4b-keys": (  # the Transformers 4 keys of google/gemma-3-4b-it's config
        "Gemma3TextConfig",
        {"head_dim": 256, "rope_scaling": {"rope_type": "linear", "factor": 8.0}}
        | {"rope_theta": 1_000_000.0, "rope_local_base_freq": 10_000.0},
        "gemma3.modeling_gemma3.Gemma3RotaryEmbedding",
        "full_attention",
    ),
    "gpt_oss": ("GptOssConfig", {}, "gpt_oss.modeling_gpt_oss.GptOssRotaryEmbedding", None),
    "gpt_oss-sliding": (
        "GptOssConfig",
        {},
        "gpt_oss.modeling_gpt_oss.GptOssRotaryEmbedding",
        "sliding_attention",
    ),
    "phi3-longrope": (  # Phi-3-mini-128k: head_dim 3072 / 32 = 96, lengths at the top level
        "Phi3Config",
        {"hidden_size": 3072, "num_attention_heads": 32, "max_position_embeddings": 131072}
        | {"original_max_position_embeddings": 4096}
        | {"rope_parameters": {"rope_type": "longrope", "rope_theta": 10000.0} | PHI3_FACTORS},
        "phi3.modeling_phi3.Phi3RotaryEmbedding",
        None,
    ),
    "phi4-mini-partial-longrope": (  # 3072 / 24 = 128, 0.75 of it rotated: 48 pairs
        "Phi3Config",
        {"hidden_size": 3072, "num_attention_heads": 24, "partial_rotary_factor": 0.75}
        | {"max_position_embeddings": 131072, "original_max_position_embeddings": 4096}
        | {"rope_parameters": {"rope_type": "longrope", "rope_theta": 10000.0} | PHI3_FACTORS},
        "phi3.modeling_phi3.Phi3RotaryEmbedding",
        None,
    ),
    "deepseek_v3-yarn": (  # DeepSeek-V3: 64 rotated dimensions per head, YaRN x40
        "DeepseekV3Config",
        {"max_position_embeddings": 163840, "qk_rope_head_dim": 64}
        | {
            "rope_parameters": {"rope_type": "yarn", "factor": 40.0, "rope_theta": 10000.0}
            | {"beta_fast": 32.0, "beta_slow": 1.0, "mscale": 1.0, "mscale_all_dim": 1.0}
            | {"original_max_position_embeddings": 4096}
        },
        "deepseek_v3.modeling_deepseek_v3.DeepseekV3RotaryEmbedding",
        None,
    ),
    "deepseek_v2-lite-mscale": (  # mscale 0.707 / mscale_all_dim 1: a factor below 1
        "DeepseekV3Config",
        {"max_position_embeddings": 163840, "qk_rope_head_dim": 64}
        | {
            "rope_parameters": {"rope_type": "yarn", "factor": 40.0, "rope_theta": 10000.0}
            | {"mscale": 0.707, "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096}
        },
        "deepseek_v3.modeling_deepseek_v3.DeepseekV3RotaryEmbedding",
        None,
    ),
    "llama4-scout-chunked": (  # llama3 scaling with equal low and high frequency factors
        "Llama4TextConfig",
        {"num_hidden_layers": 4, "max_position_embeddings": 262144}
        | {
            "rope_parameters": {"rope_type": "llama3", "factor": 16.0, "rope_theta": 500000.0}
            | {"low_freq_factor": 1.0, "high_freq_factor": 1.0}
            | {"original_max_position_embeddings": 8192}
        },
        "llama4.modeling_llama4.Llama4TextRotaryEmbedding",
        "chunked_attention",
    ),
    "llama4-maverick": (
        "Llama4TextConfig",
        {"num_hidden_layers": 4, "rope_parameters": {"rope_type": "default", "rope_theta": 5e5}},
        "llama4.modeling_llama4.Llama4TextRotaryEmbedding",
        None,
    ),
    "qwen2_vl-mrope_section": (  # Qwen2-VL-7B: no head_dim, 3584 // 28 = 128
        "Qwen2VLConfig",
        {
            "text_config": SMALL
            | {"hidden_size": 3584, "num_attention_heads": 28}
            | {
                "rope_parameters": {"rope_type": "default", "rope_theta": 1_000_000.0}
                | {"mrope_section": [16, 24, 24]}
            }
        },
        "qwen2_vl.modeling_qwen2_vl.Qwen2VLRotaryEmbedding",
        None,
    ),
    "qwen3_vl-interleaved": (
        "Qwen3VLConfig",
        {
            "text_config": SMALL
            | {"head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32}
            | {
                "rope_parameters": {"rope_type": "default", "rope_theta": 5_000_000.0}
                | {"mrope_section": [24, 20, 20], "mrope_interleaved": True}
            }
        },
        "qwen3_vl.modeling_qwen3_vl.Qwen3VLTextRotaryEmbedding",
        None,
    ),
    "cohere2": (  # Command R7B: base 50k, RoPE on its sliding layers
        "Cohere2Config",
        {"num_hidden_layers": 4, "rope_parameters": {"rope_type": "default", "rope_theta": 5e4}},
        "cohere2.modeling_cohere2.Cohere2RotaryEmbedding",
        "sliding_attention",
    ),
    "smollm3": (  # no head_dim: 2048 // 16
        "SmolLM3Config",
        {"num_hidden_layers": 4},
        "smollm3.modeling_smollm3.SmolLM3RotaryEmbedding",
        "full_attention",
    ),
    "llama3.1": (
        "LlamaConfig",
        {"max_position_embeddings": 131072}
        | {
            "rope_parameters": {"rope_type": "llama3", "factor": 8.0, "rope_theta": 500000.0}
            | {"low_freq_factor": 1.0, "high_freq_factor": 4.0}
            | {"original_max_position_embeddings": 8192}
        },
        "llama.modeling_llama.LlamaRotaryEmbedding",
        None,
    ),
    "qwen3-yarn": (  # Qwen3's documented YaRN setting: x4 from 32768
        "Qwen3Config",
        {"max_position_embeddings": 131072}
        | {
            "rope_parameters": {"rope_type": "yarn", "factor": 4.0, "rope_theta": 1_000_000.0}
            | {"original_max_position_embeddings": 32768}
        },
        "qwen3.modeling_qwen3.Qwen3RotaryEmbedding",
        None,
    ),
    "gemma4-full-proportional": (  # head_dim 512 on full layers (per_layer_config)
        "Gemma4TextConfig",
        {"num_hidden_layers": 6},
        "gemma4.modeling_gemma4.Gemma4TextRotaryEmbedding",
        "full_attention",
    ),
    "gemma4-sliding": (
        "Gemma4TextConfig",
        {"num_hidden_layers": 6},
        "gemma4.modeling_gemma4.Gemma4TextRotaryEmbedding",
        "sliding_attention",
    ),
}


def build(config_class, arguments, rotary_path):
    """The configuration and the model's rotary embedding built from it."""
    import transformers

    kwargs = copy.deepcopy(arguments)  # the configuration classes complete dictionaries in place
    if "num_hidden_layers" not in kwargs and "text_config" not in kwargs:
        kwargs["num_hidden_layers"] = 12
    config = getattr(transformers, config_class)(**kwargs)
    module, name = rotary_path.rsplit(".", 1)
    rotary_class = getattr(importlib.import_module(f"transformers.models.{module}"), name)
    text = getattr(config, "text_config", None) or config
    return config, rotary_class(text)


def rotary_values(rotary, layer_type):
    """inv_freq (float64) and attention_scaling of a rotary embedding, per layer type if split."""
    prefix = f"{layer_type}_" if hasattr(rotary, f"{layer_type}_inv_freq") else ""
    inv_freq = getattr(rotary, f"{prefix}inv_freq").double().numpy()
    return inv_freq, float(getattr(rotary, f"{prefix}attention_scaling"))


@pytest.mark.parametrize("case", list(CASES))
def test_frequencies_from_config(case):
    config_class, arguments, rotary_path, layer_type = CASES[case]
    config, rotary = build(config_class, arguments, rotary_path)
    expected, expected_factor = rotary_values(rotary, layer_type)
    inv_freq, attention_factor = frequencies_from_config(config.to_dict(), layer_type=layer_type)
    assert inv_freq.shape == expected.shape
    np.testing.assert_allclose(inv_freq, expected, rtol=RTOL, atol=0)
    assert attention_factor == pytest.approx(expected_factor, rel=1e-12, abs=0)


def test_frequencies_from_config_reads_what_sets_the_cases_apart():
    # The cases above would pass with a wrong reading only if it gave the same numbers:
    # check the readings that matter differ.
    gemma3, _ = build(*CASES["gemma3-full"][:3])
    full, _ = frequencies_from_config(gemma3.to_dict(), layer_type="full_attention")
    local, _ = frequencies_from_config(gemma3.to_dict(), layer_type="sliding_attention")
    np.testing.assert_allclose(full, rotary_frequencies(256, base=1e6) / 8)
    np.testing.assert_allclose(local, rotary_frequencies(256, base=1e4))
    deepseek, _ = build(*CASES["deepseek_v3-yarn"][:3])
    inv_freq, _ = frequencies_from_config(deepseek.to_dict())
    assert deepseek.hidden_size // deepseek.num_attention_heads != 64
    assert inv_freq.shape == (32,)  # qk_rope_head_dim 64, not hidden_size // heads
    gemma4, _ = build(*CASES["gemma4-full-proportional"][:3])
    inv_freq, _ = frequencies_from_config(gemma4.to_dict(), layer_type="full_attention")
    assert inv_freq.shape == (256,)  # the full layers' own head_dim, 512
    assert np.count_nonzero(inv_freq) == 64  # a quarter of the pairs rotate


@pytest.mark.parametrize("seq_len", [4096, 4097, 20000])
def test_frequencies_from_config_switches_longrope_factors_as_phi3_does(torch, seq_len):
    config, rotary = build(*CASES["phi3-longrope"][:3])
    rotary(torch.zeros(1), torch.tensor([[seq_len - 1]]))  # the forward picks the factors
    expected, expected_factor = rotary_values(rotary, None)
    inv_freq, attention_factor = frequencies_from_config(config.to_dict(), seq_len=seq_len)
    np.testing.assert_allclose(inv_freq, expected, rtol=RTOL, atol=0)
    assert attention_factor == pytest.approx(expected_factor, rel=1e-12, abs=0)
    short, _ = frequencies_from_config(config.to_dict())
    assert np.array_equal(inv_freq, short) == (seq_len <= 4096)


@pytest.mark.parametrize("seq_len", [2048, 8192])
def test_frequencies_from_config_dynamic_uses_max_position_embeddings_as_llama_does(torch, seq_len):
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = LlamaConfig(
        num_hidden_layers=2,
        max_position_embeddings=2048,
        rope_parameters={"rope_type": "dynamic", "factor": 4.0, "rope_theta": 500000.0},
    )
    rotary = LlamaRotaryEmbedding(config)
    rotary(torch.zeros(1), torch.arange(seq_len)[None])  # grows the factor past 2048
    expected, _ = rotary_values(rotary, None)
    inv_freq, _ = frequencies_from_config(config.to_dict(), seq_len=seq_len)
    np.testing.assert_allclose(inv_freq, expected, rtol=RTOL, atol=0)


def test_frequencies_from_config_reads_a_transformers_4_dictionary():
    # rope_scaling and a top-level rope_theta, as in config.json files written before v5.
    config, rotary = build(*CASES["llama3.1"][:3])
    old = config.to_dict()
    params = old.pop("rope_parameters")
    old["rope_theta"] = params.pop("rope_theta")
    old["rope_scaling"] = params
    expected, _ = rotary_values(rotary, None)
    inv_freq, _ = frequencies_from_config(old)
    np.testing.assert_allclose(inv_freq, expected, rtol=RTOL, atol=0)


def test_frequencies_from_config_refuses_the_layers_cohere2_does_not_rotate():
    from transformers import Cohere2Config

    config = Cohere2Config(num_hidden_layers=4).to_dict()
    with pytest.raises(ValueError, match=r"'full_attention' \(layers \[3\]\).*NoPE"):
        frequencies_from_config(config, layer_type="full_attention")
    inv_freq, _ = frequencies_from_config(config)  # the one set of its rotating layers
    np.testing.assert_allclose(inv_freq, rotary_frequencies(128, base=10000.0))
