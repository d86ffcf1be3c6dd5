"""MLA's decoupled RoPE against DeepSeek-V3's attention in Hugging Face Transformers.

A tiny `DeepseekV3Config` (4 heads, kv_lora_rank 16, qk_nope_head_dim 8, qk_rope_head_dim 4)
and a `DeepseekV3Attention` with random weights (torch.manual_seed), in float64, eager
attention. The module's query and key, as it hands them to `eager_attention_forward`, give
its logits `query @ key.T * scaling`; posenc gets the unrotated parts computed with the
module's own projections and must find the same logits. Nothing is downloaded.

Tolerance: `DeepseekV3RotaryEmbedding` computes its angles, cos and sin in float32 even for a
float64 model, so the logits agree to about 1e-7 (measured up to 9e-8 on logits of size 1):
atol 1e-6. The other rope_interleave misses by 0.6 or more.
"""

import importlib

import numpy as np
import pytest

from posenc import frequencies_from_config, mla_absorbed_scores, mla_scores, mla_softmax_scale

N_HEADS, NOPE, ROPE, RANK, V_DIM, HIDDEN = 4, 8, 4, 16, 8, 64
SEQ, START = 8, 100  # 8 tokens at positions 100..107
ATOL = 1e-6

CASES = {
    # DeepSeek-V3's rope_scaling (config.json of deepseek-ai/DeepSeek-V3), its length 163840.
    "V3 yarn, mscale == mscale_all_dim": (
        {
            "rope_type": "yarn",
            "factor": 40.0,
            "mscale": 1.0,
            "mscale_all_dim": 1.0,
            "original_max_position_embeddings": 4096,
            "beta_fast": 32,
            "beta_slow": 1,
            "rope_theta": 10000.0,
        },
        163840,
        None,
    ),
    # Unequal coefficients: cos and sin get an attention factor too (1.0648 here).
    "yarn, mscale != mscale_all_dim, q_lora_rank": (
        {
            "rope_type": "yarn",
            "factor": 4.0,
            "mscale": 1.0,
            "mscale_all_dim": 0.5,
            "original_max_position_embeddings": 64,
            "rope_theta": 10000.0,
        },
        256,
        12,
    ),
    # YaRN's own temperature on cos and sin only: the softmax scale stays 1 / sqrt(12).
    "yarn without mscale_all_dim": (
        {
            "rope_type": "yarn",
            "factor": 4.0,
            "original_max_position_embeddings": 64,
            "rope_theta": 10000.0,
        },
        256,
        None,
    ),
    "default": ({"rope_type": "default", "rope_theta": 10000.0}, 4096, 12),
}


@pytest.fixture(scope="module")
def deepseek_v3(transformers):
    """Transformers' DeepSeek-V3 modeling module (pinned in .ci/run; no weights)."""
    assert transformers.__version__ == "5.24.0", "the oracle tests are written for 5.24.0"
    return importlib.import_module("transformers.models.deepseek_v3.modeling_deepseek_v3")


def tiny_config(transformers, case, rope_interleave=True):
    rope_parameters, max_position_embeddings, q_lora_rank = CASES[case]
    return transformers.DeepseekV3Config(
        hidden_size=HIDDEN,
        num_attention_heads=N_HEADS,
        num_key_value_heads=N_HEADS,
        q_lora_rank=q_lora_rank,
        kv_lora_rank=RANK,
        qk_nope_head_dim=NOPE,
        qk_rope_head_dim=ROPE,
        v_head_dim=V_DIM,
        num_hidden_layers=1,
        intermediate_size=32,
        moe_intermediate_size=8,
        n_routed_experts=8,
        vocab_size=16,
        max_position_embeddings=max_position_embeddings,
        rope_parameters=dict(rope_parameters),
        rope_interleave=rope_interleave,
        attn_implementation="eager",
    )


def attention_module(deepseek_v3, torch, config):
    torch.manual_seed(0)
    attention = deepseek_v3.DeepseekV3Attention(config, layer_idx=0).double().eval()
    with torch.no_grad():  # the norms start at ones: make them random too
        for norm in (attention.kv_a_layernorm, attention.q_a_layernorm):
            if norm is not None:
                norm.weight.normal_()
    return attention


def run(deepseek_v3, torch, monkeypatch, attention, hidden, positions, cache=None):
    """The module's logits (query @ key.T * scaling), attention weights and scaling."""
    rotary = deepseek_v3.DeepseekV3RotaryEmbedding(attention.config)
    cos, sin = rotary(hidden, torch.as_tensor(positions)[None])
    seen = {}
    eager = deepseek_v3.eager_attention_forward

    def capture(module, query, key, value, attention_mask, scaling, **kwargs):
        seen.update(query=query, key=key, scaling=scaling)
        return eager(module, query, key, value, attention_mask, scaling, **kwargs)

    monkeypatch.setattr(deepseek_v3, "eager_attention_forward", capture)
    with torch.no_grad():
        _, weights = attention(hidden, (cos, sin), None, cache=cache)
    logits = seen["query"] @ seen["key"].transpose(2, 3) * seen["scaling"]
    return logits[0].numpy(), weights[0].numpy()


def mla_parts(attention, torch, hidden):
    """The unrotated parts, from the module's own projections (as its forward splits them)."""
    with torch.no_grad():
        if attention.q_lora_rank is None:
            q = attention.q_proj(hidden)
        else:
            q = attention.q_b_proj(attention.q_a_layernorm(attention.q_a_proj(hidden)))
        q = q[0].view(hidden.shape[1], N_HEADS, NOPE + ROPE).transpose(0, 1).numpy()
        compressed = attention.kv_a_proj_with_mqa(hidden)[0]
        c_kv = attention.kv_a_layernorm(compressed[:, :RANK]).numpy()
        k_rope = compressed[:, RANK:].numpy()
        w_kv = attention.kv_b_proj.weight.view(N_HEADS, NOPE + V_DIM, RANK).numpy()
    w_uk = w_kv[:, :NOPE]  # the rows of each head's key; the other V_DIM rows are W^UV
    return q[..., :NOPE], q[..., NOPE:], c_kv, k_rope, w_uk


def posenc_options(config, rope_interleave):
    inv_freq, attention_factor = frequencies_from_config(
        ROPE, config.rope_parameters, max_position_embeddings=config.max_position_embeddings
    )
    return {
        "inv_freq": inv_freq,
        "attention_factor": attention_factor,
        "rope_interleave": rope_interleave,
        "softmax_scale": mla_softmax_scale(NOPE + ROPE, config.rope_parameters),
    }


@pytest.mark.parametrize("case", CASES)
def test_mla_softmax_scale(deepseek_v3, transformers, case):
    config = tiny_config(transformers, case)
    attention = deepseek_v3.DeepseekV3Attention(config, layer_idx=0)
    assert mla_softmax_scale(NOPE + ROPE, config.rope_parameters) == pytest.approx(
        attention.scaling, rel=1e-15
    )


def test_mla_softmax_scale_of_deepseek_v3s_size(deepseek_v3, transformers):
    # The configuration's defaults (128 + 64 = 192) with and without V3's YaRN settings.
    yarn = CASES["V3 yarn, mscale == mscale_all_dim"][0]
    for rope_parameters, expected in ((None, 0.0722), (yarn, 0.1352)):
        config = transformers.DeepseekV3Config(
            max_position_embeddings=163840, rope_parameters=rope_parameters
        )
        scaling = deepseek_v3.yarn_apply_mscale(config.rope_parameters, config.qk_head_dim**-0.5)
        ours = mla_softmax_scale(config.qk_head_dim, config.rope_parameters)
        assert ours == pytest.approx(scaling, rel=1e-15)
        assert round(ours, 4) == expected


@pytest.mark.parametrize("rope_interleave", [True, False])
@pytest.mark.parametrize("case", CASES)
def test_mla_scores(deepseek_v3, torch, transformers, monkeypatch, case, rope_interleave):
    config = tiny_config(transformers, case, rope_interleave)
    attention = attention_module(deepseek_v3, torch, config)
    hidden = torch.randn(1, SEQ, HIDDEN, dtype=torch.float64)
    positions = np.arange(SEQ) + START
    logits, weights = run(deepseek_v3, torch, monkeypatch, attention, hidden, positions)
    q_nope, q_rope, c_kv, k_rope, w_uk = mla_parts(attention, torch, hidden)
    k_nope = np.einsum("nc,hdc->hnd", c_kv, w_uk)  # what expand_kv builds
    options = posenc_options(config, rope_interleave)
    ours = mla_scores(q_nope, q_rope, k_nope, k_rope, position_ids=positions, **options)
    np.testing.assert_allclose(ours, logits, rtol=0, atol=ATOL)
    # The module's softmax, unmasked (attention_mask None), of the same logits.
    probabilities = np.exp(ours - ours.max(-1, keepdims=True))
    probabilities /= probabilities.sum(-1, keepdims=True)
    np.testing.assert_allclose(probabilities, weights, rtol=0, atol=ATOL)
    # The other layout gives other logits: the flag matters.
    options["rope_interleave"] = not rope_interleave
    other = mla_scores(q_nope, q_rope, k_nope, k_rope, position_ids=positions, **options)
    assert np.max(np.abs(other - logits)) > 0.1


@pytest.mark.parametrize("rope_interleave", [True, False])
@pytest.mark.parametrize("case", CASES)
def test_mla_absorbed_scores(deepseek_v3, torch, transformers, monkeypatch, case, rope_interleave):
    config = tiny_config(transformers, case, rope_interleave)
    attention = attention_module(deepseek_v3, torch, config)
    hidden = torch.randn(1, SEQ, HIDDEN, dtype=torch.float64)
    positions = np.arange(SEQ) + START
    logits, _ = run(deepseek_v3, torch, monkeypatch, attention, hidden, positions)
    q_nope, q_rope, c_kv, k_rope, w_uk = mla_parts(attention, torch, hidden)
    ours = mla_absorbed_scores(
        q_nope,
        q_rope,
        c_kv,
        k_rope,
        w_uk,
        position_ids=positions,
        **posenc_options(config, rope_interleave),
    )
    np.testing.assert_allclose(ours, logits, rtol=0, atol=ATOL)


def test_mla_absorbed_scores_after_a_cache(deepseek_v3, torch, transformers, monkeypatch):
    # The module caches the latent and the rotated shared key (DynamicCache); 3 new tokens
    # then attend to the 5 cached ones and themselves. posenc gets all 8 latents and
    # unrotated shared keys, and the queries of the last 3 positions.
    case = "V3 yarn, mscale == mscale_all_dim"
    config = tiny_config(transformers, case)
    attention = attention_module(deepseek_v3, torch, config)
    hidden = torch.randn(1, SEQ, HIDDEN, dtype=torch.float64)
    positions = np.arange(SEQ) + START
    cache = transformers.DynamicCache(config=config)
    run(deepseek_v3, torch, monkeypatch, attention, hidden[:, :5], positions[:5], cache)
    logits, _ = run(deepseek_v3, torch, monkeypatch, attention, hidden[:, 5:], positions[5:], cache)
    assert logits.shape == (N_HEADS, 3, SEQ)
    q_nope, q_rope, c_kv, k_rope, w_uk = mla_parts(attention, torch, hidden)
    ours = mla_absorbed_scores(
        q_nope[:, 5:],
        q_rope[:, 5:],
        c_kv,
        k_rope,
        w_uk,
        position_ids=positions,
        **posenc_options(config, True),
    )
    np.testing.assert_allclose(ours, logits, rtol=0, atol=ATOL)
