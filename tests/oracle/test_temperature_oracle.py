"""posenc's Llama 4 attention temperature against `Llama4TextAttention` in Transformers.

A NoPE layer of a tiny `Llama4TextConfig` (`attn_temperature_tuning=True`, a small
`floor_scale` so that a few tokens cross several blocks) runs in float64 on a prompt and then
on a chunk after a `DynamicCache`; nothing downloaded. The queries the layer hands to its
attention function are captured (the module's `eager_attention_forward` is wrapped) and
divided by the queries of `q_proj`: the ratio is the scale, compared with
`llama4_attention_scale` at the positions the layer uses (the cache length plus `0 .. n - 1`).
With Llama 4's own `floor_scale` of 8192, zero keys fill the cache first so that the queries
cross position 8191, where the scale first rises.

Tolerance: Transformers computes the scale in float32 (`positions.float()`), posenc in
float64; they agree to a few float32 ulps (rtol 1e-6).
"""

import numpy as np
import pytest

from posenc import llama4_attention_scale

pytestmark = pytest.mark.usefixtures("transformers")

N_HEADS, HEAD_DIM, HIDDEN = 4, 8, 32
RTOL = 1e-6  # float32 scale in transformers


def nope_layer(floor_scale: int, attn_scale: float):
    from transformers import Llama4TextConfig
    from transformers.models.llama4.modeling_llama4 import Llama4TextAttention

    config = Llama4TextConfig(
        hidden_size=HIDDEN,
        num_attention_heads=N_HEADS,
        num_key_value_heads=2,
        head_dim=HEAD_DIM,
        num_hidden_layers=4,  # layer 3 is the NoPE layer (no_rope_layer_interval 4)
        intermediate_size=16,
        intermediate_size_mlp=16,
        vocab_size=16,
        num_local_experts=2,
        attn_temperature_tuning=True,
        floor_scale=floor_scale,
        attn_scale=attn_scale,
    )
    config._attn_implementation = "eager"
    assert config.no_rope_layers[3] == 0
    return config, Llama4TextAttention(config, layer_idx=3).double().eval()


@pytest.mark.parametrize(
    ("floor_scale", "attn_scale", "cached"),
    [(4, 0.1, 0), (3, 0.5, 0), (8192, 0.1, 8185)],
    ids=["floor_scale 4", "floor_scale 3", "Llama 4 values, across position 8191"],
)
def test_llama4_attention_scale(torch, monkeypatch, floor_scale, attn_scale, cached):
    from transformers import DynamicCache
    from transformers.models.llama4 import modeling_llama4

    config, layer = nope_layer(floor_scale, attn_scale)
    assert not layer.use_rope
    seen = []

    def capture(module, query, *args, **kwargs):
        seen.append(query.detach().clone())  # (batch, n_heads, n, head_dim)
        return original(module, query, *args, **kwargs)

    original = modeling_llama4.eager_attention_forward
    monkeypatch.setattr(modeling_llama4, "eager_attention_forward", capture)
    torch.manual_seed(0)
    cache = DynamicCache(config=config)
    if cached:  # zero keys and values stand for a long prompt already in the cache
        zeros = torch.zeros(2, 2, cached, HEAD_DIM, dtype=torch.float64)
        cache.update(zeros, zeros, layer_idx=3)
    past = cached
    for n in (11, 6):  # a prompt, then a chunk after the cache
        hidden = torch.randn(2, n, HIDDEN, dtype=torch.float64)
        with torch.no_grad():
            layer(hidden, position_embeddings=None, attention_mask=None, cache=cache)
            raw = layer.q_proj(hidden).view(2, n, N_HEADS, HEAD_DIM).transpose(1, 2)
        ratio = (seen[-1] / raw).numpy()  # (batch, n_heads, n, head_dim)
        expected = llama4_attention_scale(
            past + np.arange(n), floor_scale=floor_scale, attn_scale=attn_scale
        )
        np.testing.assert_allclose(
            ratio, np.broadcast_to(expected[:, None], ratio.shape), rtol=RTOL
        )
        past += n
    assert cache.get_seq_length(3) == cached + 17
