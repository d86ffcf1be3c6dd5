"""layer_schedule and describe_schedule on configuration dictionaries shaped like
Transformers 5.24's `to_dict()` output (written out here; the comparison with the models
themselves is in tests/oracle/test_layers_oracle.py).
"""

import dataclasses

import pytest

from posenc import LayerPositions, describe_schedule, layer_schedule

SLIDING, FULL, CHUNKED = "sliding_attention", "full_attention", "chunked_attention"

GEMMA3 = {  # Gemma 3 4B's settings, 12 layers
    "model_type": "gemma3_text",
    "num_hidden_layers": 12,
    "head_dim": 256,
    "sliding_window": 1024,
    "max_position_embeddings": 131072,
    "layer_types": ([SLIDING] * 5 + [FULL]) * 2,
    "rope_parameters": {
        SLIDING: {"rope_type": "default", "rope_theta": 10000.0},
        FULL: {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0},
    },
}
GPT_OSS = {
    "model_type": "gpt_oss",
    "num_hidden_layers": 4,
    "sliding_window": 128,
    "layer_types": [SLIDING, FULL] * 2,
    "rope_parameters": {"rope_type": "yarn", "factor": 32.0, "rope_theta": 150000.0}
    | {"beta_fast": 32.0, "beta_slow": 1.0, "truncate": False}
    | {"original_max_position_embeddings": 4096},
}
COHERE2 = {
    "model_type": "cohere2",
    "num_hidden_layers": 8,
    "sliding_window": 4096,
    "layer_types": [SLIDING, SLIDING, SLIDING, FULL] * 2,
    "rope_parameters": {"rope_type": "default", "rope_theta": 50000.0},
}
LLAMA4 = {
    "model_type": "llama4_text",
    "num_hidden_layers": 8,
    "attention_chunk_size": 8192,
    "no_rope_layers": [1, 1, 1, 0] * 2,  # 1: RoPE
    "no_rope_layer_interval": 4,
    "layer_types": [CHUNKED, CHUNKED, CHUNKED, FULL] * 2,
    "rope_parameters": {"rope_type": "llama3", "factor": 16.0, "rope_theta": 500000.0}
    | {"low_freq_factor": 1.0, "high_freq_factor": 1.0, "original_max_position_embeddings": 8192},
}
SMOLLM3 = {
    "model_type": "smollm3",
    "num_hidden_layers": 8,
    "sliding_window": None,
    "use_sliding_window": False,
    "no_rope_layers": [1, 1, 1, 0] * 2,
    "layer_types": [FULL] * 8,
    "rope_parameters": {"rope_type": "default", "rope_theta": 2000000.0},
}
LLAMA = {
    "model_type": "llama",
    "num_hidden_layers": 3,
    "rope_parameters": {"rope_type": "default", "rope_theta": 500000.0},
}


def pattern(schedule):
    return [(s.attention_type, s.window, s.rotary, s.rope_type, s.rope_theta) for s in schedule]


def test_gemma3_alternates_five_local_layers_with_one_global_with_their_own_bases():
    schedule = layer_schedule(GEMMA3)
    local = (SLIDING, 1024, True, "default", 10000.0)
    glob = (FULL, None, True, "linear", 1000000.0)
    assert pattern(schedule) == ([local] * 5 + [glob]) * 2
    assert [s.layer for s in schedule] == list(range(12))


def test_gpt_oss_alternates_window_128_and_full_layers_all_with_yarn():
    assert (
        pattern(layer_schedule(GPT_OSS))
        == [
            (SLIDING, 128, True, "yarn", 150000.0),
            (FULL, None, True, "yarn", 150000.0),
        ]
        * 2
    )


def test_cohere2_rotates_its_sliding_layers_only():
    schedule = layer_schedule(COHERE2)
    assert [s.rotary for s in schedule] == [True, True, True, False] * 2
    assert schedule[3] == LayerPositions(3, FULL, None, False, None, None)
    # The same dictionary under another model type: every layer rotates.
    assert all(s.rotary for s in layer_schedule(COHERE2 | {"model_type": "gpt_oss"}))


def test_llama4_every_fourth_layer_is_full_attention_without_rope():
    schedule = layer_schedule(LLAMA4)
    assert pattern(schedule)[2:4] == [
        (CHUNKED, 8192, True, "llama3", 500000.0),
        (FULL, None, False, None, None),
    ]
    assert [s.layer for s in schedule if not s.rotary] == [3, 7]


def test_smollm3_no_rope_layers_with_full_attention_everywhere():
    schedule = layer_schedule(SMOLLM3)
    assert {s.attention_type for s in schedule} == {FULL}
    assert [s.rotary for s in schedule] == [True, True, True, False] * 2


def test_llama4_empty_no_rope_layers_means_every_layer_rotates_as_given():
    # Llama 4's released config.json has "no_rope_layers": [] (its class then fills in the
    # default); an empty list is read as "no switch" here, every layer rotating.
    schedule = layer_schedule(LLAMA | {"no_rope_layers": []})
    assert all(s.rotary for s in schedule)


def test_without_layer_types_every_layer_is_full_or_sliding_by_the_window():
    assert pattern(layer_schedule(LLAMA)) == [(FULL, None, True, "default", 500000.0)] * 3
    mistral = LLAMA | {"sliding_window": 4096}
    assert {s.window for s in layer_schedule(mistral)} == {4096}
    switched_off = mistral | {"use_sliding_window": False}  # Qwen2's flag
    assert {s.attention_type for s in layer_schedule(switched_off)} == {FULL}


def test_a_multimodal_configuration_is_read_from_its_text_config():
    qwen2_vl = {
        "model_type": "qwen2_vl",
        "vision_config": {"depth": 32},
        "text_config": LLAMA
        | {
            "rope_parameters": {
                "rope_type": "default",
                "mrope_section": [16, 24, 24],
                "rope_theta": 1e6,
            }
        },
    }
    assert pattern(layer_schedule(qwen2_vl)) == [(FULL, None, True, "default", 1e6)] * 3


def test_a_layer_type_whose_rope_parameters_are_none_is_nope():
    beam = GEMMA3 | {"rope_parameters": GEMMA3["rope_parameters"] | {FULL: None}}
    schedule = layer_schedule(beam)
    assert [s.layer for s in schedule if not s.rotary] == [5, 11]
    assert schedule[5].rope_theta is None


def test_per_layer_config_overrides_one_layer():
    config = GEMMA3 | {"per_layer_config": {"03": {"sliding_window": 512}}}
    assert [s.window for s in layer_schedule(config)][2:5] == [1024, 512, 1024]


def test_transformers_4_rope_scaling_and_top_level_rope_theta():
    old = {"num_hidden_layers": 2, "rope_theta": 500000.0}
    old["rope_scaling"] = {"type": "linear", "factor": 2.0}
    assert pattern(layer_schedule(old)) == [(FULL, None, True, "linear", 500000.0)] * 2
    old["rope_scaling"] |= {"rope_theta": None}  # None in the dictionary: the top-level one
    assert {s.rope_theta for s in layer_schedule(old)} == {500000.0}


def test_a_base_found_nowhere_warns_and_is_ten_thousand():
    with pytest.warns(UserWarning, match=r"no 'rope_theta' for layers \[0, 1\].*10,000"):
        schedule = layer_schedule({"num_hidden_layers": 2})
    assert {s.rope_theta for s in schedule} == {10000.0}


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        (
            {"layer_types": [SLIDING] * 11 + ["linear_attention"]},
            ValueError,
            r"layer_types\[11\] must be one of \('full_attention', 'sliding_attention', "
            r"'chunked_attention'\), got 'linear_attention'",
        ),
        ({"layer_types": [SLIDING] * 3}, ValueError, "3 entries for num_hidden_layers=12"),
        ({"layer_types": "sliding_attention"}, TypeError, "list of strings"),
        (
            {"sliding_window": None},
            ValueError,
            r"layer 0 is 'sliding_attention' but .* sliding_window is None",
        ),
        ({"use_sliding_window": False}, ValueError, "use_sliding_window is False"),
        ({"no_rope_layers": [1, 0]}, ValueError, "list of num_hidden_layers=12 flags"),
        ({"no_rope_layers": [1] * 11 + [2]}, ValueError, r"no_rope_layers\[11\] must be 0 or 1"),
        (
            {"rope_parameters": {FULL: {}}},
            KeyError,
            r"no entry for the layer type 'sliding_attention'; it has \['full_attention'\]",
        ),
        (
            {"rope_parameters": {FULL: {}, SLIDING: {}, "rope_theta": 1.0}},
            ValueError,
            r"mixes .* other keys \['rope_theta'\]",
        ),
        (
            {"rope_parameters": {"main": {}, "compress": {}}},
            ValueError,
            r"split by \['compress', 'main'\], which are not the configuration's layer types",
        ),
        ({"rope_parameters": {FULL: {}, SLIDING: 1.0}}, TypeError, "must be a mapping or None"),
        ({"num_hidden_layers": None}, KeyError, "no 'num_hidden_layers'"),
        ({"num_hidden_layers": 0}, ValueError, "num_hidden_layers must be an integer >= 1"),
        (
            {"layer_types": None, "sliding_window_pattern": 6},
            ValueError,
            r"no 'layer_types' but has \['sliding_window_pattern'\].*to_dict\(\)",
        ),
        ({"model_type": "cohere2_moe"}, ValueError, "force_rope"),
        ({"layer_types": None, "attention_chunk_size": 8192}, ValueError, "attention_chunk_size"),
        (
            {"layer_types": None, "use_sliding_window": True, "max_window_layers": 28},
            ValueError,
            r"has \['max_window_layers'\]",
        ),
        ({"per_layer_config": {"12": {}}}, ValueError, r"layer 12, outside \[0, 12\)"),
        ({"per_layer_config": {"x": {}}}, ValueError, "must be layer indices, got 'x'"),
        ({"per_layer_config": {"1": {"skip": ["mlp"]}}}, ValueError, "skips"),
        (
            {"rope_parameters": {FULL: {"rope_theta": -1.0}, SLIDING: {}}},
            ValueError,
            "rope_theta must be a finite real number > 0",
        ),
    ],
)
def test_structures_it_cannot_read_are_refused_naming_the_key(change, error, message):
    with pytest.raises(error, match=message):
        layer_schedule(GEMMA3 | change)


def test_only_mappings_are_configurations():
    with pytest.raises(TypeError, match="config must be a mapping"):
        layer_schedule([("num_hidden_layers", 2)])
    with pytest.raises(TypeError, match=r"config\['text_config'\] must be a mapping"):
        layer_schedule({"text_config": "llama"})


def test_layer_positions_are_frozen():
    item = layer_schedule(LLAMA)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.rotary = False  # type: ignore[misc]


def test_describe_schedule_groups_the_layers_of_each_kind():
    assert describe_schedule(layer_schedule(GEMMA3)) == (
        "layers 0-4, 6-10: sliding_attention, window 1024, RoPE default, rope_theta 10,000\n"
        "layers 5, 11: full_attention, RoPE linear, rope_theta 1,000,000"
    )
    assert describe_schedule(layer_schedule(COHERE2)).splitlines()[1] == (
        "layers 3, 7: full_attention, NoPE"
    )
    one = layer_schedule({"num_hidden_layers": 1, "rope_parameters": {"rope_theta": 1e4 + 0.5}})
    assert describe_schedule(one) == "layer 0: full_attention, RoPE default, rope_theta 10000.5"
    assert describe_schedule([]) == ""


def test_describe_schedule_takes_only_layer_positions():
    with pytest.raises(TypeError, match="LayerPositions"):
        describe_schedule([(0, FULL, None, True, "default", 1e4)])  # type: ignore[list-item]
