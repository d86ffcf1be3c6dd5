r"""RoPE settings read from a Hugging Face model configuration.

`frequencies_from_config` takes either a `rope_parameters` dictionary (called `rope_scaling`
before Transformers 5) with the model's `head_dim`, or a whole configuration as
`config.to_dict()` gives it, and returns the frequencies and the attention factor of one
kind of layer, by calling the method of `posenc.rope_scaling` its `rope_type` names. It
follows Hugging Face Transformers' `src/transformers/modeling_rope_utils.py` and the
configuration classes of the models, and the tests compare it with them.
"""

import math
import warnings
from collections.abc import Mapping
from typing import overload

import numpy as np

from posenc._validation import (
    check_finite_real,
    check_head_dim,
    check_integer,
    check_positive_real,
)
from posenc.layers import _read
from posenc.rope_scaling import (
    _check_factor,
    dynamic_ntk_frequencies,
    linear_frequencies,
    llama3_frequencies,
    longrope_attention_factor,
    longrope_frequencies,
    proportional_frequencies,
    yarn_attention_factor,
    yarn_frequencies,
)
from posenc.rotary import DEFAULT_BASE, rotary_frequencies

ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "longrope", "llama3", "proportional")

# Keys of a rope_parameters dictionary, per rope_type, as transformers validates them
# (RotaryEmbeddingConfigMixin._validate_*_rope_parameters); every type also takes these.
_COMMON_KEYS = frozenset({"rope_type", "type", "rope_theta", "partial_rotary_factor"})
# Keys of multimodal RoPE (Qwen2-VL, Qwen3-VL) that split the frequencies among the axes of
# position without changing them.
_MROPE_KEYS = frozenset({"mrope_section", "mrope_interleaved"})
_KEYS = {
    "default": frozenset(),
    "linear": frozenset({"factor"}),
    "dynamic": frozenset({"factor"}),
    "yarn": frozenset(
        {
            "factor",
            "original_max_position_embeddings",
            "attention_factor",
            "beta_fast",
            "beta_slow",
            "mscale",
            "mscale_all_dim",
            "truncate",
        }
    ),
    "longrope": frozenset(
        {
            "short_factor",
            "long_factor",
            "original_max_position_embeddings",
            "factor",
            "attention_factor",
        }
    ),
    "llama3": frozenset(
        {"factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"}
    ),
    # Transformers' validator lists no `factor`, but `_compute_proportional_rope_parameters`
    # divides by it.
    "proportional": frozenset({"factor"}),
}


@overload
def frequencies_from_config(
    head_dim: int,
    rope_parameters: Mapping[str, object] | None = None,
    *,
    max_position_embeddings: int | None = None,
    seq_len: int | None = None,
    rope_theta: float | None = None,
    layer_type: str | None = None,
) -> tuple[np.ndarray, float]: ...


@overload
def frequencies_from_config(
    config: Mapping[str, object],
    /,
    *,
    seq_len: int | None = None,
    layer_type: str | None = None,
) -> tuple[np.ndarray, float]: ...


def frequencies_from_config(
    head_dim: int | Mapping[str, object],
    rope_parameters: Mapping[str, object] | None = None,
    *,
    max_position_embeddings: int | None = None,
    seq_len: int | None = None,
    rope_theta: float | None = None,
    layer_type: str | None = None,
) -> tuple[np.ndarray, float]:
    r"""The frequencies and attention factor of a model configuration's RoPE settings.

    Two forms. `frequencies_from_config(head_dim, rope_parameters, ...)` reads one
    dictionary shaped like the `rope_parameters` of a Hugging Face configuration
    (called `rope_scaling` before Transformers 5, with `type` for `rope_type` in older
    files), for example Llama 3.1's
    `{"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
    "low_freq_factor": 1.0, "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192}`, and dispatches on `rope_type`:
    `"default"` (`rotary_frequencies`), `"linear"`, `"dynamic"`, `"yarn"`, `"longrope"`,
    `"llama3"` and `"proportional"`: every type of Transformers 5.24's `ROPE_INIT_FUNCTIONS`
    plus the default. `partial_rotary_factor` sets the rotated size
    `int(head_dim * partial_rotary_factor)` (for `"proportional"`, the number of non-zero
    frequencies). The multimodal keys `mrope_section` and `mrope_interleaved` (Qwen2-VL,
    Qwen3-VL) are accepted: they share the frequencies among axes without changing them.
    A `"llama3"` dictionary with `low_freq_factor == high_freq_factor` (Llama 4 Scout: both
    1) has no band between: pairs slower than `original_max_position_embeddings /
    low_freq_factor` are divided by `factor`, the others kept, as Transformers computes it.

    Transformers 5 writes `rope_theta` into every `rope_parameters`; Transformers 4 kept it
    outside `rope_scaling`. A dictionary without it and no `rope_theta` argument gets
    10000.0 with a `UserWarning`, since the model's real base (500000 in Llama 3, 1000000 in
    Qwen2) may sit elsewhere in its configuration.

    Gemma 3 and others hold one dictionary per kind of layer,
    `{"full_attention": {...}, "sliding_attention": {...}}`; `layer_type` picks one.

    `frequencies_from_config(config, layer_type=..., seq_len=...)` reads a whole model
    configuration instead: the output of `SomeConfig(...).to_dict()` in Transformers 5.24,
    or its `text_config` when it has one (Qwen2-VL, Qwen3-VL, Llama 4, Gemma 3), the values
    the model's rotary embedding class reads:

    - the dictionary is `rope_parameters` (or a Transformers 4 `rope_scaling`, with
      `rope_theta` and `partial_rotary_factor` at the top level);
    - `head_dim` is the configuration's `head_dim` when it is not None, else
      `hidden_size // num_attention_heads`. DeepSeek-V3's configuration sets `head_dim` to
      `qk_rope_head_dim`, the rotated part of each head; Gemma 4's full-attention layers
      take their own `head_dim` from `per_layer_config`;
    - `max_position_embeddings` comes from the configuration, and so does Phi-3's
      top-level `original_max_position_embeddings`, which wins over the dictionary's, as in
      Transformers;
    - `layer_type` picks a kind of layer (a value of the configuration's `layer_types`); a
      dictionary split by layer type needs it. A kind of layer that does not rotate, such as
      Cohere 2's and Llama 4's full-attention layers, raises an error: `layer_schedule`
      shows which layers do.

    The attention factor is the one the rotary embedding multiplies cos and sin by.
    DeepSeek-V3 also multiplies its softmax scale by the square of
    $0.1\, \text{mscale\_all\_dim} \ln s + 1$ (`DeepseekV3Attention`, `yarn_get_mscale`
    in `modeling_deepseek_v3.py`), which this factor does not include.

    Parameters
    ----------
    head_dim : int or mapping
        Size of each query and key vector; or a whole configuration dictionary (the second
        form), from which everything else is read.
    rope_parameters : mapping, optional
        The dictionary; None or `{}` means `{"rope_type": "default"}`. Keys other than
        those of its `rope_type` raise an error (a misspelt key would otherwise be ignored).
        Not with a configuration.
    max_position_embeddings : int, optional
        The configuration's `max_position_embeddings`. Needed by `"dynamic"` (as its
        trained length), and used by `"yarn"` and `"llama3"` when the dictionary has no
        `original_max_position_embeddings`, and by `"yarn"` when its `factor` is None
        (`max_position_embeddings / original_max_position_embeddings`), as Transformers does.
        A `factor` key that is missing altogether raises `KeyError`, as in Transformers.
        `"longrope"` without `factor` takes the same ratio for its attention factor.
        Not with a configuration, which holds it.
    seq_len : int, optional
        Current sequence length. For `"dynamic"` (default: `max_position_embeddings`,
        which leaves the frequencies unchanged), and for `"longrope"`, which takes
        `long_factor` when `seq_len > original_max_position_embeddings` and `short_factor`
        otherwise (default: short, as Transformers builds the model).
    rope_theta : float, optional
        The base when the dictionary has no `rope_theta` (a Transformers 4 configuration's
        top-level `rope_theta`); the dictionary's own value wins, as in Transformers.
        Not with a configuration, which holds it.
    layer_type : str, optional
        Which dictionary of a per-layer-type form to read (a key of `rope_parameters`, such
        as `"sliding_attention"`). Required for that form, refused for a flat dictionary.
        With a configuration: a value of its `layer_types`, required when `rope_parameters`
        is split by layer type.

    Returns
    -------
    inv_freq : ndarray
        Shape `(rotary_dim // 2,)`, float64: pass it to `apply_rotary(..., inv_freq=...)`.
    attention_factor : float
        1.0 except for `"yarn"` and `"longrope"`: pass it as
        `apply_rotary(..., attention_factor=...)`.

    Raises
    ------
    KeyError
        If a key the `rope_type` needs is missing. For `"yarn"` that includes `factor`, even
        though its value may be None (then `max_position_embeddings` must be given). With a
        configuration, also a missing `num_hidden_layers`, `hidden_size` or
        `num_attention_heads` (when there is no `head_dim`).
    TypeError, ValueError
        For an unknown `rope_type` (the message lists the known ones), an unknown key, a
        value out of range (see the function of each type), a per-layer-type form without
        `layer_type` or with one it does not hold (the message lists those it holds), or a
        `layer_type` for a flat dictionary. With a configuration: `rope_parameters`,
        `max_position_embeddings` or `rope_theta` passed as well (TypeError); a kind of layer
        without RoPE (NoPE) or a configuration without any; layers of the chosen kind that
        differ in their RoPE settings; and what `layer_schedule` refuses.

    Warns
    -----
    UserWarning
        If neither the dictionary nor the `rope_theta` argument (nor, with a configuration,
        its top level) gives the base.

    References
    ----------
    - Hugging Face Transformers 5.24, `src/transformers/modeling_rope_utils.py`
      (`ROPE_INIT_FUNCTIONS`, `RopeParameters`, `RotaryEmbeddingConfigMixin`: its
      `default_theta` and `standardize_rope_params`; `_compute_llama3_parameters`).
    - The rotary embedding classes of `src/transformers/models/`: `gemma3/modeling_gemma3.py`
      (`Gemma3RotaryEmbedding`, per layer type), `gemma4/modeling_gemma4.py`
      (`Gemma4TextRotaryEmbedding`, `per_layer_config`), `phi3/modeling_phi3.py`
      (`Phi3RotaryEmbedding`), `deepseek_v3/modeling_deepseek_v3.py`
      (`DeepseekV3RotaryEmbedding`), `qwen2_vl/modeling_qwen2_vl.py`
      (`Qwen2VLRotaryEmbedding`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.model_config import frequencies_from_config
    >>> inv_freq, attention_factor = frequencies_from_config(
    ...     64,
    ...     {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096,
    ...      "rope_theta": 10000.0},
    ... )
    >>> inv_freq.shape, round(attention_factor, 4)
    ((32,), 1.1386)
    >>> inv_freq, _ = frequencies_from_config(
    ...     96, {"partial_rotary_factor": 0.25}, rope_theta=10000.0
    ... )
    >>> inv_freq.shape  # GPT-NeoX-20B: 24 of 96 dimensions rotate
    (12,)
    >>> gemma3 = {
    ...     "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
    ...     "sliding_attention": {"rope_type": "default", "rope_theta": 1e4},
    ... }
    >>> inv_freq, _ = frequencies_from_config(256, gemma3, layer_type="sliding_attention")
    >>> print(inv_freq[:2])
    [1.         0.93057204]

    A whole configuration, shaped like `Gemma3TextConfig(...).to_dict()` with 6 layers:

    >>> config = {
    ...     "num_hidden_layers": 6, "head_dim": 256, "max_position_embeddings": 131072,
    ...     "sliding_window": 1024, "rope_parameters": gemma3,
    ...     "layer_types": ["sliding_attention"] * 5 + ["full_attention"],
    ... }
    >>> inv_freq, _ = frequencies_from_config(config, layer_type="full_attention")
    >>> print(np.round(inv_freq[:2], 4))  # base 1,000,000, divided by 8
    [0.125  0.1122]
    """
    if isinstance(head_dim, Mapping):
        extra = [
            name
            for name, value in (
                ("rope_parameters", rope_parameters),
                ("max_position_embeddings", max_position_embeddings),
                ("rope_theta", rope_theta),
            )
            if value is not None
        ]
        if extra:
            raise TypeError(
                f"frequencies_from_config(config, ...) reads {extra} from the configuration; "
                f"pass only layer_type and seq_len with it"
            )
        return _from_model_config(head_dim, layer_type=layer_type, seq_len=seq_len)
    return _from_rope_parameters(
        head_dim,
        rope_parameters,
        max_position_embeddings=max_position_embeddings,
        seq_len=seq_len,
        rope_theta=rope_theta,
        layer_type=layer_type,
    )


def _from_rope_parameters(
    head_dim: int,
    rope_parameters: Mapping[str, object] | None,
    *,
    max_position_embeddings: int | None,
    seq_len: int | None,
    rope_theta: float | None,
    layer_type: str | None,
    from_config: bool = False,
) -> tuple[np.ndarray, float]:
    """`frequencies_from_config` for one RoPE dictionary (both forms end here)."""
    params = _layer_parameters(rope_parameters, layer_type)
    rope_type = params.get("rope_type", params.get("type", "default"))
    if "type" in params and "rope_type" in params and params["type"] != params["rope_type"]:
        raise ValueError(
            f"rope_parameters has type={params['type']!r} and rope_type="
            f"{params['rope_type']!r}; keep one"
        )
    if not isinstance(rope_type, str) or rope_type not in ROPE_TYPES:
        raise ValueError(f"rope_type must be one of {ROPE_TYPES}, got {rope_type!r}")
    unknown = set(params) - _COMMON_KEYS - _MROPE_KEYS - _KEYS[rope_type]
    if unknown:
        allowed = sorted(_COMMON_KEYS | _MROPE_KEYS | _KEYS[rope_type])
        raise ValueError(
            f"unknown keys {sorted(unknown)} in rope_parameters for rope_type={rope_type!r}; "
            f"allowed: {allowed}"
        )
    head_dim = check_head_dim(head_dim, even=False)
    if params.get("rope_theta") is None and rope_theta is None:
        hint = (
            "the configuration has no 'rope_theta' (neither in rope_parameters nor at its top, "
            "where Transformers 4 kept it)"
            if from_config
            else "rope_parameters has no 'rope_theta' and no rope_theta argument was given"
        )
        warnings.warn(
            f"{hint}: using {DEFAULT_BASE:,.0f}. A Transformers 4 configuration keeps "
            f"rope_theta outside rope_scaling: pass it (rope_theta=...) or put it in the "
            f"dictionary",
            UserWarning,
            stacklevel=4 if from_config else 3,  # the caller of frequencies_from_config
        )
    theta = params.get("rope_theta")
    base = check_positive_real(
        "rope_theta",
        theta if theta is not None else rope_theta if rope_theta is not None else DEFAULT_BASE,
    )
    if rope_type == "proportional":
        # Both default to 1.0 in Transformers; a missing partial_rotary_factor leaves
        # every frequency non-zero.
        fraction, factor = (
            1.0 if params.get(key) is None else check_positive_real(key, params[key])
            for key in ("partial_rotary_factor", "factor")
        )
        inv_freq = proportional_frequencies(
            head_dim, partial_rotary_factor=fraction, factor=factor, base=base
        )
        return inv_freq, 1.0
    rotary_dim = _rotary_dim_from_factor(head_dim, params.get("partial_rotary_factor"))

    def given(key: str, fallback: object = None) -> object:
        value = params.get(key)
        value = fallback if value is None else value
        if value is None:
            raise KeyError(f"rope_parameters for rope_type={rope_type!r} needs {key!r}")
        return value

    def number(key: str, fallback: float | None = None) -> float:
        return check_finite_real(key, given(key, fallback))  # each method checks its range

    def length(key: str, fallback: int | None = None) -> int:
        return check_integer(key, given(key, fallback), minimum=1)

    if rope_type == "default":
        return rotary_frequencies(head_dim, base=base, rotary_dim=rotary_dim), 1.0
    if rope_type == "linear":
        factor = number("factor")
        return linear_frequencies(head_dim, factor=factor, base=base, rotary_dim=rotary_dim), 1.0
    if rope_type == "dynamic":
        if max_position_embeddings is None:
            raise ValueError(
                "rope_type='dynamic' needs max_position_embeddings (its trained length)"
            )
        inv_freq = dynamic_ntk_frequencies(
            head_dim,
            factor=number("factor"),
            seq_len=max_position_embeddings if seq_len is None else seq_len,
            max_position_embeddings=max_position_embeddings,
            base=base,
            rotary_dim=rotary_dim,
        )
        return inv_freq, 1.0
    if rope_type == "longrope":
        if params.get("original_max_position_embeddings") is None:
            # Phi-3 keeps it beside rope_scaling, at the top of its configuration, where
            # Transformers reads it first: max_position_embeddings would be a wrong default.
            raise KeyError(
                "rope_parameters for rope_type='longrope' needs "
                "'original_max_position_embeddings' (Phi-3 keeps it at the top of its "
                "configuration: put it in the dictionary)"
            )
        original = length("original_max_position_embeddings")
        inv_freq = longrope_frequencies(
            head_dim,
            short_factor=given("short_factor"),  # type: ignore[arg-type]  # checked there
            long_factor=given("long_factor"),  # type: ignore[arg-type]
            original_max_position_embeddings=original,
            seq_len=seq_len,
            base=base,
            rotary_dim=rotary_dim,
        )
        if params.get("attention_factor") is not None:
            return inv_freq, check_positive_real("attention_factor", params["attention_factor"])
        if params.get("factor") is None and max_position_embeddings is None:
            raise KeyError(
                "rope_parameters for rope_type='longrope' has no 'factor' and no "
                "'attention_factor': pass max_position_embeddings (the factor is then "
                "max_position_embeddings / original_max_position_embeddings, as in Transformers)"
            )
        implied = None if max_position_embeddings is None else max_position_embeddings / original
        return inv_freq, longrope_attention_factor(number("factor", implied), original)
    original = length("original_max_position_embeddings", max_position_embeddings)
    if rope_type == "llama3":
        low, high = number("low_freq_factor"), number("high_freq_factor")
        if low == high:  # Llama 4 Scout
            inv_freq = _llama3_step(
                head_dim, number("factor"), low, original, base=base, rotary_dim=rotary_dim
            )
            return inv_freq, 1.0
        inv_freq = llama3_frequencies(
            head_dim,
            factor=number("factor"),
            low_freq_factor=low,
            high_freq_factor=high,
            original_max_position_embeddings=original,
            base=base,
            rotary_dim=rotary_dim,
        )
        return inv_freq, 1.0
    # yarn. Transformers requires the key (`_validate_yarn_rope_parameters`) and takes the
    # ratio of the two lengths for a factor of None (`_compute_yarn_parameters`).
    if "factor" not in params:
        raise KeyError(
            "rope_parameters for rope_type='yarn' needs 'factor' (a number >= 1, or None for "
            "max_position_embeddings / original_max_position_embeddings)"
        )
    if params["factor"] is None and max_position_embeddings is None:
        raise KeyError(
            "rope_parameters for rope_type='yarn' has factor=None, which means "
            "max_position_embeddings / original_max_position_embeddings: pass "
            "max_position_embeddings"
        )
    implied = None if max_position_embeddings is None else max_position_embeddings / original
    factor = number("factor", implied)
    inv_freq = yarn_frequencies(
        head_dim,
        factor=factor,
        original_max_position_embeddings=original,
        # As in Transformers, a beta that is missing, None or 0 takes its default.
        beta_fast=number("beta_fast") if params.get("beta_fast") else 32.0,
        beta_slow=number("beta_slow") if params.get("beta_slow") else 1.0,
        truncate=bool(params.get("truncate", True)),
        base=base,
        rotary_dim=rotary_dim,
    )
    if params.get("attention_factor") is not None:
        return inv_freq, check_positive_real("attention_factor", params["attention_factor"])
    mscale, mscale_all_dim = (
        None if params.get(key) is None else number(key) for key in ("mscale", "mscale_all_dim")
    )
    return inv_freq, yarn_attention_factor(factor, mscale=mscale, mscale_all_dim=mscale_all_dim)


def _llama3_step(
    head_dim: int,
    factor: float,
    low_freq_factor: float,
    original_max_position_embeddings: int,
    *,
    base: float,
    rotary_dim: int | None,
) -> np.ndarray:
    """The Llama 3 rule without its smooth band (`low_freq_factor == high_freq_factor`).

    Pairs whose wavelength exceeds `original_max_position_embeddings / low_freq_factor` are
    divided by `factor`, the others kept. At that exact wavelength Transformers divides 0 by
    0 (a NaN); it keeps the pair here.
    """
    factor = _check_factor(factor)
    low_freq_factor = check_positive_real("low_freq_factor", low_freq_factor)
    theta = rotary_frequencies(head_dim, base=base, rotary_dim=rotary_dim)
    wavelength = 2 * math.pi / theta
    step: np.ndarray = np.where(
        wavelength > original_max_position_embeddings / low_freq_factor, theta / factor, theta
    )
    return step


def _from_model_config(
    config: Mapping[str, object], *, layer_type: str | None, seq_len: int | None
) -> tuple[np.ndarray, float]:
    """`frequencies_from_config` for a whole configuration dictionary."""
    reading = _read(config, warn=False)
    schedule = reading.schedule
    kinds = sorted({item.attention_type for item in schedule})
    if layer_type is None:
        if reading.split_by_layer_type:
            raise ValueError(
                f"the configuration's rope_parameters is split by layer type: pass layer_type, "
                f"one of {kinds}"
            )
        chosen = list(schedule)
    else:
        if layer_type not in kinds:
            raise ValueError(
                f"layer_type must be one of the configuration's layer types {kinds}, got "
                f"{layer_type!r}"
            )
        chosen = [item for item in schedule if item.attention_type == layer_type]
    rotating = [item.layer for item in chosen if item.rotary]
    if not rotating:
        which = (
            "no layer of the configuration"
            if layer_type is None
            else f"no layer of type {layer_type!r} (layers {[item.layer for item in chosen]})"
        )
        raise ValueError(
            f"{which} applies RoPE: these are layers without positional encoding (NoPE). "
            f"layer_schedule(config) lists which layers rotate and how"
        )
    inputs = [
        _model_rope_inputs(
            reading.layer_configs[index], reading.rope_entries[index], reading.split_by_layer_type
        )
        for index in rotating
    ]
    for index, other in zip(rotating[1:], inputs[1:], strict=True):
        if other != inputs[0]:
            raise ValueError(
                f"layers {rotating[0]} and {index} (both {layer_type or 'rotating'}) differ in "
                f"their RoPE settings (head_dim, rope_parameters or lengths); they have no "
                f"single set of frequencies"
            )
    head_dim, params, max_position_embeddings, rope_theta = inputs[0]
    return _from_rope_parameters(
        head_dim,
        params,
        max_position_embeddings=max_position_embeddings,
        seq_len=seq_len,
        rope_theta=rope_theta,
        layer_type=None,
        from_config=True,
    )


def _model_rope_inputs(
    layer: Mapping[str, object], entry: Mapping[str, object] | None, split: bool
) -> tuple[int, dict[str, object], int | None, float | None]:
    """What one layer's rotary embedding reads: head_dim, its RoPE dictionary, and lengths.

    The dictionary is completed as `RotaryEmbeddingConfigMixin.standardize_rope_params`
    does; the top-level `rope_theta` is the fallback base.
    """
    params = dict(entry or {})
    if layer.get("partial_rotary_factor") is not None:
        params.setdefault("partial_rotary_factor", layer["partial_rotary_factor"])
    length = layer.get("max_position_embeddings")
    max_position_embeddings = (
        None if length is None else check_integer("max_position_embeddings", length, minimum=1)
    )
    if params.get("rope_type", params.get("type")) in ("llama3", "yarn", "longrope"):
        original = layer.get("original_max_position_embeddings")
        if original is not None and not split:  # Phi-3 keeps it at the top, and it wins
            params["original_max_position_embeddings"] = original
        elif max_position_embeddings is not None:
            params.setdefault("original_max_position_embeddings", max_position_embeddings)
    theta = layer.get("rope_theta")
    rope_theta = None if theta is None else check_positive_real("rope_theta", theta)
    return _config_head_dim(layer), params, max_position_embeddings, rope_theta


def _config_head_dim(layer: Mapping[str, object]) -> int:
    """`head_dim`, or `hidden_size // num_attention_heads` without one, as Transformers reads it."""
    if layer.get("head_dim") is not None:
        return check_integer("head_dim", layer["head_dim"], minimum=2)
    if layer.get("qk_rope_head_dim") is not None:
        raise KeyError(
            "the configuration has qk_rope_head_dim (multi-head latent attention) but no "
            "head_dim, which its configuration class sets (to qk_rope_head_dim in DeepSeek-V3): "
            "pass SomeConfig(**config).to_dict()"
        )
    sizes = []
    for key in ("hidden_size", "num_attention_heads"):
        if layer.get(key) is None:
            raise KeyError(
                f"the configuration has no 'head_dim' and no {key!r} (head_dim is then "
                f"hidden_size // num_attention_heads)"
            )
        sizes.append(check_integer(key, layer[key], minimum=1))
    return sizes[0] // sizes[1]


def _layer_parameters(
    rope_parameters: Mapping[str, object] | None, layer_type: str | None
) -> dict[str, object]:
    """The flat dictionary of one layer type, from a flat or a per-layer-type form."""
    params = dict(rope_parameters or {})
    # Transformers recognises the nested form by the config's `layer_types`; without the
    # config, a dictionary whose values are dictionaries is the nested form.
    layers = {key: value for key, value in params.items() if isinstance(value, Mapping)}
    layer_types = sorted(layers)
    if not layer_types:
        if layer_type is not None:
            raise ValueError(
                f"layer_type={layer_type!r} given, but rope_parameters is not split by layer "
                f"type (no dictionary values); leave layer_type out"
            )
        return params
    if len(layer_types) != len(params):
        others = sorted(set(params) - set(layer_types))
        raise ValueError(
            f"rope_parameters mixes per-layer-type dictionaries {layer_types} with flat keys "
            f"{others}; in the per-layer-type form every value is a dictionary"
        )
    if layer_type is None:
        raise ValueError(
            f"rope_parameters is split by layer type: pass layer_type, one of {layer_types}"
        )
    if layer_type not in params:
        raise ValueError(f"layer_type must be one of {layer_types}, got {layer_type!r}")
    return {str(key): value for key, value in layers[layer_type].items()}


def _rotary_dim_from_factor(head_dim: int, partial_rotary_factor: object) -> int | None:
    """`int(head_dim * partial_rotary_factor)`, as Transformers computes the rotated size."""
    if partial_rotary_factor is None:
        return None
    fraction = check_positive_real("partial_rotary_factor", partial_rotary_factor)
    if fraction > 1.0:
        raise ValueError(f"partial_rotary_factor must be in (0, 1], got {fraction!r}")
    rotary_dim = int(head_dim * fraction)
    if rotary_dim < 2 or rotary_dim % 2:
        raise ValueError(
            f"partial_rotary_factor={fraction!r} gives int(head_dim * partial_rotary_factor) = "
            f"{rotary_dim} rotated dimensions for head_dim={head_dim}; it must be even and >= 2"
        )
    return rotary_dim
