"""posenc's learned attention sinks against gpt-oss in Hugging Face Transformers.

`eager_attention_forward` of `models/gpt_oss/modeling_gpt_oss.py` runs on float64 torch
tensors, with a `GptOssAttention` module of a tiny `GptOssConfig` (random sinks from a seed,
grouped-query attention) as its `module`; nothing downloaded. Its output and weights are
compared with `attention_with_sinks`, under a causal mask and under gpt-oss's sliding window.

StreamingLLM has no oracle here: Transformers 5.24 no longer has `SinkCache` (removed from
`cache_utils`), and StreamingLLM's own code (`mit-han-lab/streaming-llm`) is not on PyPI.
`streaming_cache_indices`, `streaming_cache_positions` and `rerotate_keys` are covered by the
decoding tests of tests/lib/test_sinks.py.
"""

import numpy as np
import pytest

from posenc import attention_with_sinks

pytestmark = pytest.mark.usefixtures("transformers")

N_HEADS, N_KV_HEADS, HEAD_DIM = 4, 2, 8


def gpt_oss_attention(torch, seed: int):
    from transformers import GptOssConfig
    from transformers.models.gpt_oss.modeling_gpt_oss import GptOssAttention

    config = GptOssConfig(
        hidden_size=32,
        num_attention_heads=N_HEADS,
        num_key_value_heads=N_KV_HEADS,
        head_dim=HEAD_DIM,
        num_hidden_layers=2,
        intermediate_size=16,
        vocab_size=16,
        num_local_experts=2,
        num_experts_per_tok=1,
    )
    module = GptOssAttention(config, layer_idx=0).double().eval()
    with torch.no_grad():
        module.sinks.copy_(torch.from_numpy(np.random.default_rng(seed).normal(size=N_HEADS)))
    return module


def additive_mask(n_q: int, n_k: int, window: int | None) -> np.ndarray:
    """0 where query i (at position n_k - n_q + i) may see key j, -inf elsewhere."""
    offsets = np.arange(n_k) - (n_k - n_q + np.arange(n_q))[:, None]
    hidden = offsets > 0
    if window is not None:
        hidden |= offsets <= -window
    return np.where(hidden, -np.inf, 0.0)


@pytest.mark.parametrize(
    ("n_q", "n_k", "window"),
    [(5, 5, None), (2, 7, None), (6, 6, 3), (1, 9, 4)],
    ids=["prefill", "chunk after a cache", "sliding window", "decoding, sliding window"],
)
def test_attention_with_sinks(torch, n_q, n_k, window):
    from transformers.models.gpt_oss.modeling_gpt_oss import eager_attention_forward

    module = gpt_oss_attention(torch, seed=n_k)
    rng = np.random.default_rng(n_q)
    q = rng.normal(size=(2, N_HEADS, n_q, HEAD_DIM))
    k = rng.normal(size=(2, N_KV_HEADS, n_k, HEAD_DIM))
    v = rng.normal(size=(2, N_KV_HEADS, n_k, HEAD_DIM))
    mask = additive_mask(n_q, n_k, window)
    with torch.no_grad():
        out, weights = eager_attention_forward(
            module,
            *(torch.from_numpy(a) for a in (q, k, v)),
            attention_mask=torch.from_numpy(mask)[None, None],
            scaling=module.scaling,
        )
    sinks = module.sinks.detach().numpy()
    groups = N_HEADS // N_KV_HEADS  # repeat_kv: query head h uses key head h // groups
    k_rep, v_rep = np.repeat(k, groups, axis=1), np.repeat(v, groups, axis=1)
    ours = attention_with_sinks(q, k_rep, v_rep, sinks, bias=mask)
    # Transformers returns (batch, n_q, n_heads, head_dim): heads after the queries.
    np.testing.assert_allclose(ours, out.numpy().transpose(0, 2, 1, 3), rtol=1e-12, atol=1e-13)
    identity = np.broadcast_to(np.eye(n_k), (2, N_HEADS, n_k, n_k))
    our_weights = attention_with_sinks(q, k_rep, identity, sinks, bias=mask)
    np.testing.assert_allclose(our_weights, weights.numpy(), rtol=1e-12, atol=1e-13)
    assert np.all(our_weights.sum(-1) < 1)
    if window is None:  # the causal argument is the same mask
        np.testing.assert_allclose(
            attention_with_sinks(q, k_rep, v_rep, sinks, causal=True), ours, rtol=1e-13
        )
