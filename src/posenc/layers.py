r"""Which layers rotate, and how: the per-layer attention and RoPE of a model configuration.

Many models of 2025-26 do not treat every layer alike. Gemma 3 alternates five layers that
attend to a sliding window of recent tokens with one that attends to everything, and gives
the two kinds different RoPE bases; gpt-oss alternates sliding and full layers one to one;
Cohere 2 (Command R7B, Command A) rotates only its sliding layers and leaves the full ones
without positions (NoPE); Llama 4 and SmolLM3 drop RoPE on every fourth layer.
`layer_schedule` reads all of this from a Hugging Face configuration dictionary
(`SomeConfig(...).to_dict()`, Transformers 5.24) and lists, per layer, the kind of attention,
its window, and whether and how it rotates queries and keys. `frequencies_from_config` then
gives the frequencies of each kind of layer.
"""

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from posenc._validation import check_integer, check_positive_real
from posenc.rotary import DEFAULT_BASE

ATTENTION_TYPES = ("full_attention", "sliding_attention", "chunked_attention")

# Models whose attention applies RoPE only where it has a sliding window
# (`if self.sliding_window is not None:` before `apply_rotary_pos_emb` in the modelling code).
_ROPE_ONLY_ON_SLIDING_LAYERS = {
    "cohere2": "models/cohere2/modeling_cohere2.py, Cohere2Attention.forward",
    "flint": "models/flint/modeling_flint.py, FlintAttention.forward",
}
# Models that switch RoPE per layer by a rule of their own, not read here.
_UNSUPPORTED_MODELS = {
    "cohere2_moe": "its attention also rotates dense prefix layers (force_rope in "
    "models/cohere2_moe/modeling_cohere2_moe.py)",
}
# Keys from which a configuration class derives its layer_types (Gemma 3 and Cohere 2 from
# sliding_window_pattern, Llama 4 from attention_chunk_size): without layer_types, a schedule
# guessed from the other keys would be wrong. With use_sliding_window, so are Qwen2's
# (max_window_layers) and SmolLM3's (no_rope_layers).
_LAYER_PATTERN_KEYS = ("sliding_window_pattern", "rope_local_base_freq", "attention_chunk_size")
_SLIDING_PATTERN_KEYS = ("max_window_layers", "no_rope_layers")


@dataclass(frozen=True)
class LayerPositions:
    """How one layer of a model sees positions.

    Attributes
    ----------
    layer : int
        0-based index of the layer.
    attention_type : str
        The configuration's `layer_types` entry: `"full_attention"` (every earlier token),
        `"sliding_attention"` (the last `window` tokens, the query's own included) or
        `"chunked_attention"` (the tokens of the same block of `window` positions).
    window : int or None
        `sliding_window` or `attention_chunk_size`; None for full attention.
    rotary : bool
        Whether the layer rotates queries and keys (False: no positional encoding, NoPE).
    rope_type : str or None
        The `rope_type` of the layer's `rope_parameters` (`"default"`, `"linear"`, `"yarn"`,
        ...); None for a layer without RoPE.
    rope_theta : float or None
        The base of the layer's frequencies; None for a layer without RoPE.
    """

    layer: int
    attention_type: str
    window: int | None
    rotary: bool
    rope_type: str | None
    rope_theta: float | None


@dataclass(frozen=True)
class _Reading:
    """A configuration read layer by layer (what `frequencies_from_config` needs as well)."""

    schedule: list[LayerPositions]
    layer_configs: list[dict[str, object]]  # the configuration with each layer's overrides
    rope_entries: list[dict[str, object] | None]  # each layer's flat rope_parameters
    split_by_layer_type: bool  # rope_parameters holds one dictionary per layer type


def layer_schedule(config: Mapping[str, object]) -> list[LayerPositions]:
    r"""Per layer: the kind of attention, its window, and whether and how it applies RoPE.

    Reads a Hugging Face model configuration as a dictionary, the output of
    `SomeConfig(...).to_dict()` in Transformers 5.24 (defaults included). A configuration
    with a `text_config` (Gemma 3, Llama 4, Qwen2-VL, ...) is read from it. Per layer:

    - the attention type is the `layer_types` entry; without `layer_types`, every layer is
      `"sliding_attention"` when the configuration has a `sliding_window` (Mistral, Phi-3
      with a window) and `"full_attention"` otherwise (Llama, DeepSeek-V3, Qwen3-VL);
    - the window is `sliding_window` for sliding layers and `attention_chunk_size` for
      chunked ones, after the layer's own `per_layer_config` overrides (Gemma 4);
    - a layer does not rotate when its entry of a per-layer-type `rope_parameters` is None,
      when `no_rope_layers` holds 0 for it (Llama 4, SmolLM3: 1 means RoPE), or, in
      Cohere 2, when it has no sliding window;
    - the RoPE type and base come from the layer type's `rope_parameters` (or the single
      flat one), with a Transformers 4 `rope_scaling` and top-level `rope_theta` also read.

    Other ways of switching RoPE off that a model's code may have are not detected.

    Parameters
    ----------
    config : mapping
        The configuration dictionary. It needs `num_hidden_layers`; `layer_types`, when
        present, has one entry per layer, each one of `ATTENTION_TYPES`.

    Returns
    -------
    list of LayerPositions
        One per layer, in order.

    Raises
    ------
    TypeError
        If `config` or a value in it has the wrong type.
    KeyError
        If a key the configuration needs is missing (`num_hidden_layers`, a layer type's
        entry in a per-layer-type `rope_parameters`).
    ValueError
        If an attention type is not one of `ATTENTION_TYPES`; a sliding or chunked layer has
        no window; `layer_types`, `no_rope_layers` or `per_layer_config` do not match the
        number of layers; `rope_parameters` is split by names that are not the layer types;
        `layer_types` is missing where the configuration class derives it from other keys
        (a Transformers 4 dictionary: pass the `to_dict()` of the configuration class); or
        the model switches RoPE by a rule not read here (`cohere2_moe`).

    Warns
    -----
    UserWarning
        If a rotating layer's `rope_theta` is nowhere in the configuration (then 10000.0).

    References
    ----------
    - Hugging Face Transformers 5.24, `src/transformers/models/gemma3/configuration_gemma3.py`
      (`layer_types` from `sliding_window_pattern`, nested `rope_parameters`) and
      `modeling_gemma3.py` (`Gemma3Attention.sliding_window`, `Gemma3RotaryEmbedding`, one
      set of frequencies per layer type); Gemma Team, "Gemma 3 Technical Report", 2025,
      arXiv:2503.19786, section 2 (5 local layers to 1 global, local base 10k, global 1M).
    - `models/gpt_oss/configuration_gpt_oss.py` (alternating `layer_types`, window 128, YaRN)
      and `modeling_gpt_oss.py` (`GptOssAttention.sliding_window`); OpenAI, "gpt-oss-120b &
      gpt-oss-20b Model Card", 2025, arXiv:2508.10925.
    - `models/cohere2/modeling_cohere2.py` (`Cohere2Attention.forward`: RoPE only
      `if self.sliding_window is not None`); Cohere, "Command A", 2025, arXiv:2504.00698.
    - `models/llama4/configuration_llama4.py` (`no_rope_layers`, `no_rope_layer_interval`,
      `attention_chunk_size`, `layer_types`) and `modeling_llama4.py`
      (`Llama4TextAttention.use_rope`, `attn_temperature_tuning` on the NoPE layers).
    - `models/smollm3/configuration_smollm3.py` and `modeling_smollm3.py`
      (`SmolLM3Attention.use_rope`).
    - `src/transformers/masking_utils.py` (`sliding_window_overlay`, `chunked_overlay`: what
      the windows mean); `integrations/heterogeneity/configuration_utils.py`
      (`per_layer_config`).
    - A. Kazemnejad et al., "The Impact of Positional Encoding on Length Generalization in
      Transformers", 2023, arXiv:2305.19466 (NoPE).

    Examples
    --------
    >>> from posenc.layers import layer_schedule
    >>> gemma3 = {
    ...     "num_hidden_layers": 6, "sliding_window": 1024,
    ...     "layer_types": ["sliding_attention"] * 5 + ["full_attention"],
    ...     "rope_parameters": {
    ...         "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
    ...         "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
    ...     },
    ... }
    >>> layer_schedule(gemma3)[5]  # doctest: +NORMALIZE_WHITESPACE
    LayerPositions(layer=5, attention_type='full_attention', window=None, rotary=True,
                   rope_type='linear', rope_theta=1000000.0)
    >>> layer_schedule(gemma3)[0].window
    1024
    """
    return _read(config, warn=True).schedule


def describe_schedule(schedule: Sequence[LayerPositions]) -> str:
    """A short summary of a schedule: one line per kind of layer, with the layers of that kind.

    Parameters
    ----------
    schedule : sequence of LayerPositions
        As `layer_schedule` returns it.

    Returns
    -------
    str
        Lines `layers <indices>: <attention type>[, window <n>], <RoPE type and base or
        NoPE>`, in the order of each kind's first layer; runs of indices are written `a-b`.

    Raises
    ------
    TypeError
        If an item is not a `LayerPositions`.

    Examples
    --------
    >>> from posenc.layers import describe_schedule, layer_schedule
    >>> llama4 = {
    ...     "num_hidden_layers": 8, "attention_chunk_size": 8192,
    ...     "layer_types": ["chunked_attention"] * 3 + ["full_attention"]
    ...     + ["chunked_attention"] * 3 + ["full_attention"],
    ...     "no_rope_layers": [1, 1, 1, 0, 1, 1, 1, 0],
    ...     "rope_parameters": {"rope_type": "default", "rope_theta": 500000.0},
    ... }
    >>> print(describe_schedule(layer_schedule(llama4)))
    layers 0-2, 4-6: chunked_attention, window 8192, RoPE default, rope_theta 500,000
    layers 3, 7: full_attention, NoPE
    """
    groups: dict[tuple[object, ...], list[int]] = {}
    for item in schedule:
        if not isinstance(item, LayerPositions):
            raise TypeError(
                f"schedule must hold LayerPositions (from layer_schedule), got "
                f"{type(item).__name__}"
            )
        key = (item.attention_type, item.window, item.rotary, item.rope_type, item.rope_theta)
        groups.setdefault(key, []).append(item.layer)
    lines = []
    for (attention_type, window, rotary, rope_type, rope_theta), layers in groups.items():
        parts = [str(attention_type)]
        if window is not None:
            parts.append(f"window {window}")
        if rotary and isinstance(rope_theta, float):
            theta = f"{int(rope_theta):,}" if rope_theta.is_integer() else f"{rope_theta:g}"
            parts.append(f"RoPE {rope_type}, rope_theta {theta}")
        else:
            parts.append("NoPE")
        word = "layer" if len(layers) == 1 else "layers"
        lines.append(f"{word} {_ranges(layers)}: {', '.join(parts)}")
    return "\n".join(lines)


def _ranges(indices: list[int]) -> str:
    """`[0, 1, 2, 4]` as `"0-2, 4"`."""
    runs: list[list[int]] = []
    for index in indices:
        if runs and index == runs[-1][-1] + 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _text_config(config: object) -> Mapping[str, object]:
    """The language model's part of a configuration: its `text_config` when it has one."""
    if not isinstance(config, Mapping):
        raise TypeError(
            f"config must be a mapping (a configuration's to_dict()), got {type(config).__name__}"
        )
    text = config.get("text_config")
    if text is None:
        return config
    if not isinstance(text, Mapping):
        raise TypeError(f"config['text_config'] must be a mapping, got {type(text).__name__}")
    return text


def _required(config: Mapping[str, object], key: str, what: str) -> object:
    if config.get(key) is None:
        raise KeyError(f"the configuration has no {key!r} ({what})")
    return config[key]


def _layer_overrides(text: Mapping[str, object], n_layers: int) -> dict[int, Mapping[str, object]]:
    """`per_layer_config` (Transformers' heterogeneous configurations) by layer index."""
    raw = text.get("per_layer_config") or {}
    if not isinstance(raw, Mapping):
        raise TypeError(f"per_layer_config must be a mapping, got {type(raw).__name__}")
    overrides: dict[int, Mapping[str, object]] = {}
    for key, value in raw.items():
        try:
            index = int(key)
        except (TypeError, ValueError):
            raise ValueError(f"per_layer_config keys must be layer indices, got {key!r}") from None
        if not 0 <= index < n_layers:
            raise ValueError(
                f"per_layer_config has layer {index}, outside [0, {n_layers}) "
                f"(num_hidden_layers={n_layers})"
            )
        if not isinstance(value, Mapping):
            raise TypeError(f"per_layer_config[{key!r}] must be a mapping")
        if value.get("skip"):
            raise ValueError(
                f"per_layer_config[{key!r}] skips {value['skip']!r}: layers with skipped parts "
                f"are not read"
            )
        overrides[index] = value
    return overrides


def _layer_types(text: Mapping[str, object], n_layers: int) -> list[str]:
    layer_types = text.get("layer_types")
    if layer_types is None:
        derived = [key for key in _LAYER_PATTERN_KEYS if text.get(key) is not None]
        if text.get("use_sliding_window"):
            derived += [key for key in _SLIDING_PATTERN_KEYS if text.get(key) is not None]
        if derived:
            raise ValueError(
                f"the configuration has no 'layer_types' but has {derived}, from which its "
                f"configuration class derives them (a Transformers 4 dictionary?): pass "
                f"SomeConfig(**config).to_dict() of its class instead"
            )
        sliding = text.get("sliding_window") is not None and text.get("use_sliding_window", True)
        return ["sliding_attention" if sliding else "full_attention"] * n_layers
    if isinstance(layer_types, str) or not isinstance(layer_types, Sequence):
        raise TypeError(f"layer_types must be a list of strings, got {type(layer_types).__name__}")
    if len(layer_types) != n_layers:
        raise ValueError(
            f"layer_types has {len(layer_types)} entries for num_hidden_layers={n_layers}"
        )
    for index, kind in enumerate(layer_types):
        if kind not in ATTENTION_TYPES:
            raise ValueError(
                f"layer_types[{index}] must be one of {ATTENTION_TYPES}, got {kind!r} (layers "
                f"of other kinds have no RoPE schedule read here)"
            )
    return list(layer_types)


def _uses_rope(text: Mapping[str, object], n_layers: int) -> list[bool]:
    """`no_rope_layers` (1: the layer rotates, 0: NoPE), or every layer rotating."""
    flags = text.get("no_rope_layers")
    if flags in (None, []):
        return [True] * n_layers
    if isinstance(flags, str) or not isinstance(flags, Sequence) or len(flags) != n_layers:
        raise ValueError(
            f"no_rope_layers must be a list of num_hidden_layers={n_layers} flags (1: RoPE, "
            f"0: NoPE), got {flags!r}"
        )
    for index, flag in enumerate(flags):
        if flag not in (0, 1):  # True and False compare equal to 1 and 0
            raise ValueError(f"no_rope_layers[{index}] must be 0 or 1, got {flag!r}")
    return [bool(flag) for flag in flags]


def _rope_parameters(layer: Mapping[str, object]) -> Mapping[str, object]:
    """`rope_scaling` (Transformers 4, wins as in Transformers 5) or `rope_parameters`."""
    for key in ("rope_scaling", "rope_parameters"):
        value = layer.get(key)
        if value:
            if not isinstance(value, Mapping):
                raise TypeError(f"{key} must be a mapping, got {type(value).__name__}")
            return value
    return {}


def _is_split(params: Mapping[str, object], layer_types: list[str]) -> bool:
    """Whether `params` holds one dictionary per layer type (its keys are layer types).

    Transformers' rule; a dictionary split by other names is refused.
    """
    kinds = set(layer_types)
    split = [key for key in params if key in kinds]
    if not split:
        others = sorted(str(key) for key, value in params.items() if isinstance(value, Mapping))
        if others:
            raise ValueError(
                f"rope_parameters is split by {others}, which are not the configuration's "
                f"layer types {sorted(kinds)}"
            )
        return False
    flat = sorted(str(key) for key in params if key not in kinds)
    if flat:
        raise ValueError(
            f"rope_parameters mixes per-layer-type entries {sorted(split)} with other keys {flat}"
        )
    return True


def _rope_entry(
    layer: Mapping[str, object], kind: str, layer_types: list[str]
) -> tuple[dict[str, object] | None, bool]:
    """The flat RoPE dictionary of one layer (None for a NoPE entry).

    Also whether the configuration's dictionary is split by layer type.
    """
    params = _rope_parameters(layer)
    if not _is_split(params, layer_types):
        return dict(params), False
    if kind not in params:
        raise KeyError(
            f"rope_parameters has no entry for the layer type {kind!r}; it has "
            f"{sorted(str(key) for key in params)}"
        )
    entry = params[kind]
    if entry is None:
        return None, True
    if not isinstance(entry, Mapping):
        raise TypeError(
            f"rope_parameters[{kind!r}] must be a mapping or None, got {type(entry).__name__}"
        )
    return {str(key): value for key, value in entry.items()}, True


def _window(layer: Mapping[str, object], kind: str, index: int) -> int | None:
    if kind == "full_attention":
        return None
    key = "sliding_window" if kind == "sliding_attention" else "attention_chunk_size"
    if layer.get(key) is None:
        raise ValueError(f"layer {index} is {kind!r} but the configuration's {key} is None")
    if kind == "sliding_attention" and layer.get("use_sliding_window") is False:
        raise ValueError(
            f"layer {index} is 'sliding_attention' but use_sliding_window is False: the "
            f"configuration contradicts itself"
        )
    return check_integer(key, layer[key], minimum=1)


def _read(config: object, *, warn: bool) -> _Reading:
    text = _text_config(config)
    model_type = text.get("model_type")
    if model_type in _UNSUPPORTED_MODELS:
        raise ValueError(
            f"model_type {model_type!r} is not read: {_UNSUPPORTED_MODELS[str(model_type)]}"
        )
    n_layers = check_integer(
        "num_hidden_layers", _required(text, "num_hidden_layers", "the number of layers"), minimum=1
    )
    layer_types = _layer_types(text, n_layers)
    uses_rope = _uses_rope(text, n_layers)
    overrides = _layer_overrides(text, n_layers)
    schedule, layer_configs, entries = [], [], []
    split = False
    missing_theta = []
    for index, kind in enumerate(layer_types):
        layer = {**text, **overrides.get(index, {})}
        window = _window(layer, kind, index)
        entry, split = _rope_entry(layer, kind, layer_types)
        rotary = entry is not None and uses_rope[index]
        if model_type in _ROPE_ONLY_ON_SLIDING_LAYERS:
            rotary = rotary and kind == "sliding_attention"
        rope_type = rope_theta = None
        if rotary and entry is not None:
            kind_of_rope = entry.get("rope_type", entry.get("type", "default"))
            if not isinstance(kind_of_rope, str):
                raise TypeError(f"rope_type must be a string, got {kind_of_rope!r}")
            rope_type = kind_of_rope
            theta = entry.get("rope_theta")
            if theta is None:  # a Transformers 4 configuration keeps it at the top
                theta = layer.get("rope_theta")
            if theta is None:
                missing_theta.append(index)
                theta = DEFAULT_BASE
            rope_theta = check_positive_real("rope_theta", theta)
        schedule.append(LayerPositions(index, kind, window, rotary, rope_type, rope_theta))
        layer_configs.append(layer)
        entries.append(entry)
    if warn and missing_theta:
        warnings.warn(
            f"the configuration has no 'rope_theta' for layers {missing_theta} (neither in "
            f"rope_parameters nor at its top, where Transformers 4 kept it): using "
            f"{DEFAULT_BASE:,.0f}",
            UserWarning,
            stacklevel=3,
        )
    return _Reading(schedule, layer_configs, entries, split)
