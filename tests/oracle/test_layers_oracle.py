"""layer_schedule against tiny models: what each layer of the model really does.

For each model, a tiny configuration (a few layers, hidden size 64, window and chunk 4) is
built with its Transformers 5.24 class, `layer_schedule` reads its `to_dict()`, and the model
built from it (random weights, eager attention, nothing downloaded) is asked, layer by layer:

- which keys each query sees: a forward pass of 10 tokens with `output_attentions=True`;
  the non-zero weights give full, sliding (last `window` tokens) or chunked attention;
- whether it rotates: the layer's attention is run twice on the same input, with the
  model's own rotary embedding of positions 0, 1, 2, ... and of 0, 3, 6, ...; a layer that
  applies RoPE sees other distances and gives another output, a NoPE layer the same;
- with which RoPE: the rotary embedding's `rope_type` and the configuration's base.
"""

import inspect

import numpy as np
import pytest

from posenc import LayerPositions, layer_schedule

pytestmark = pytest.mark.usefixtures("transformers")  # every test compares with it

N_TOKENS = 10
TINY = {
    "hidden_size": 64,
    "intermediate_size": 32,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "head_dim": 16,
    "vocab_size": 32,
    "pad_token_id": 0,
    "bos_token_id": 1,
    "eos_token_id": 2,
}
NO_HEAD_DIM = {key: value for key, value in TINY.items() if key != "head_dim"}
GEMMA3_ROPE = {
    "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1_000_000.0},
    "sliding_attention": {"rope_type": "default", "rope_theta": 10_000.0},
}

# id: (configuration class, its arguments). A configuration with a text_config is read whole
# by layer_schedule and its text model is built.
CASES = {
    "gemma3": (
        "Gemma3TextConfig",
        TINY | {"num_hidden_layers": 12, "sliding_window": 4, "rope_parameters": GEMMA3_ROPE},
    ),
    "gpt_oss": (
        "GptOssConfig",
        TINY
        | {"num_hidden_layers": 8, "sliding_window": 4}
        | {"num_local_experts": 4, "num_experts_per_tok": 2},
    ),
    "cohere2": ("Cohere2Config", TINY | {"num_hidden_layers": 8, "sliding_window": 4}),
    "llama4": (
        "Llama4TextConfig",
        TINY
        | {"num_hidden_layers": 8, "attention_chunk_size": 4}
        | {"num_local_experts": 2, "intermediate_size_mlp": 32},
    ),
    "smollm3": ("SmolLM3Config", TINY | {"num_hidden_layers": 8}),
    "llama": ("LlamaConfig", TINY | {"num_hidden_layers": 2}),
    "deepseek_v3": (
        "DeepseekV3Config",
        NO_HEAD_DIM
        | {"num_hidden_layers": 3, "num_key_value_heads": 4, "moe_intermediate_size": 16}
        | {"q_lora_rank": 16, "kv_lora_rank": 16, "qk_rope_head_dim": 8, "qk_nope_head_dim": 8}
        | {"v_head_dim": 8, "n_routed_experts": 4, "num_experts_per_tok": 2, "n_group": 1}
        | {"topk_group": 1, "first_k_dense_replace": 1},
    ),
    "phi3-sliding": ("Phi3Config", NO_HEAD_DIM | {"num_hidden_layers": 2, "sliding_window": 4}),
    "gemma4": (
        "Gemma4TextConfig",
        TINY
        | {"num_hidden_layers": 6, "sliding_window": 4, "global_head_dim": 32}
        | {"hidden_size_per_layer_input": 8},
    ),
    "qwen2_vl": (
        "Qwen2VLConfig",
        {
            "text_config": TINY
            | {"num_hidden_layers": 2}
            | {"rope_parameters": {"rope_type": "default", "mrope_section": [2, 3, 3]}}
        },
    ),
    "qwen3_vl": (
        "Qwen3VLConfig",
        {
            "text_config": TINY
            | {"num_hidden_layers": 2}
            | {
                "rope_parameters": {"rope_type": "default", "mrope_section": [2, 3, 3]}
                | {"mrope_interleaved": True}
            }
        },
    ),
    "flint": ("FlintConfig", TINY | {"num_hidden_layers": 4, "sliding_window": 4}),
    "beam": ("BeamConfig", TINY | {"num_hidden_layers": 4, "sliding_window": 4}),
}


def build(config_class, arguments, torch):
    """The configuration and its decoder (the text model of a multimodal configuration)."""
    import transformers

    torch.manual_seed(0)
    config = getattr(transformers, config_class)(**arguments)
    text = getattr(config, "text_config", None) or config
    decoder = transformers.AutoModel.from_config(text, attn_implementation="eager")
    return config, decoder.eval()


def visible_keys(decoder, torch):
    """Per layer, which keys each query sees: where its attention weights are not zero."""
    input_ids = torch.randint(3, 32, (1, N_TOKENS), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        attentions = decoder(input_ids=input_ids, output_attentions=True).attentions
    return [(weights[0] > 0).all(0).numpy() for weights in attentions]  # all heads agree


def expected_keys(item: LayerPositions):
    query, key = np.ogrid[:N_TOKENS, :N_TOKENS]
    seen = key <= query
    if item.attention_type == "sliding_attention":
        seen = seen & (query - key < item.window)
    elif item.attention_type == "chunked_attention":
        seen = seen & (key // item.window == query // item.window)
    return seen


def rotates(decoder, index, torch):
    """Whether layer `index` changes its output when the positions are spread out."""
    attention = decoder.layers[index].self_attn
    rotary = decoder.rotary_emb
    layer_types = getattr(decoder.config, "layer_types", None)
    layer_type = layer_types[index] if layer_types else None
    per_type = "layer_type" in inspect.signature(type(rotary).forward).parameters
    hidden = torch.randn(
        1, 6, decoder.config.hidden_size, generator=torch.Generator().manual_seed(2)
    )
    extra = {}
    if "shared_kv_states" in inspect.signature(type(attention).forward).parameters:
        extra["shared_kv_states"] = {}  # Gemma 4
    outputs = []
    for step in (1, 3):
        positions = torch.arange(6)[None] * step
        if not per_type:
            embeddings = rotary(hidden, positions)
        elif layer_type in rotary.rope_type:
            embeddings = rotary(hidden, positions, layer_type)
        else:
            embeddings = None  # a layer type without RoPE parameters: the model passes None
        with torch.no_grad():
            output = attention(
                hidden_states=hidden, position_embeddings=embeddings, attention_mask=None, **extra
            )
        outputs.append(output[0])
    return not torch.allclose(outputs[0], outputs[1], atol=1e-6)


def model_rope(decoder, layer_type):
    """The rope_type of the model's rotary embedding and the base in its configuration."""
    rope_type = decoder.rotary_emb.rope_type
    params = decoder.config.rope_parameters
    if isinstance(rope_type, dict):
        return rope_type[layer_type], params[layer_type]["rope_theta"]
    return rope_type, params["rope_theta"]


@pytest.mark.parametrize("case", list(CASES))
def test_layer_schedule(case, torch):
    config, decoder = build(*CASES[case], torch)
    schedule = layer_schedule(config.to_dict())
    assert [item.layer for item in schedule] == list(range(len(decoder.layers)))
    for item, seen in zip(schedule, visible_keys(decoder, torch), strict=True):
        np.testing.assert_array_equal(seen, expected_keys(item), err_msg=f"layer {item.layer}")
        assert item.rotary == rotates(decoder, item.layer, torch), f"layer {item.layer}"
        if item.rotary:
            assert (item.rope_type, item.rope_theta) == model_rope(decoder, item.attention_type)
        else:
            assert item.rope_type is item.rope_theta is None


def test_layer_schedule_finds_what_the_cases_are_for(torch):
    # The comparisons above would also pass for models where every layer is alike: check
    # that the cases hold the structures they stand for.
    def kinds(case):
        config, _ = build(*CASES[case], torch)
        schedule = layer_schedule(config.to_dict())
        return [(s.attention_type[0], s.window, s.rotary, s.rope_theta) for s in schedule]

    gemma3 = kinds("gemma3")
    assert gemma3[4:6] == [("s", 4, True, 10_000.0), ("f", None, True, 1_000_000.0)]
    assert [k[0] for k in gemma3].count("f") == 2
    assert [k[2] for k in kinds("cohere2")] == [True, True, True, False] * 2
    assert [k[:3] for k in kinds("llama4")][2:4] == [("c", 4, True), ("f", None, False)]
    assert [k[2] for k in kinds("smollm3")] == [True, True, True, False] * 2
    assert [k[0] for k in kinds("gpt_oss")] == ["s", "f"] * 4
    assert {k[:3] for k in kinds("phi3-sliding")} == {("s", 4, True)}
