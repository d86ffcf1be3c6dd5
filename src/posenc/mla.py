r"""Multi-head latent attention (MLA): the decoupled RoPE of DeepSeek-V2 and V3.

MLA caches, per token and layer, one small latent vector $c$ (`kv_lora_rank` values) instead
of every head's key and value; each head's unrotated key is $W^{UK}_h c$. Because that key is
linear in $c$, the matrix $W^{UK}_h$ can be moved onto the query ("absorbed"), and the keys
are never decompressed. RoPE would break this: a rotation that depends on the key's position
would sit between $W^{UK}_h$ and the query. So each head's query and key are split in two:
`qk_nope_head_dim` dimensions without position (the part taken from the latent) and
`qk_rope_head_dim` rotated dimensions, whose key part `k_rope` is one vector per token shared
by all the heads and cached beside the latent.

DeepSeek-V3 (Transformers' `DeepseekV3Config` defaults): `kv_lora_rank` 512,
`qk_rope_head_dim` 64, `qk_nope_head_dim` 128, `v_head_dim` 128 and 128 heads. Its cache
holds $512 + 64 = 576$ values per token and layer; caching every head's key and value would
take $128 \times (128 + 64 + 128) = 40960$.
"""

import math
from collections.abc import Mapping

import numpy as np
from numpy.typing import ArrayLike

from posenc._validation import (
    as_real_array,
    check_finite_real,
    check_integer,
    check_positive_real,
)
from posenc.rotary import apply_rotary


def mla_softmax_scale(
    qk_head_dim: int, rope_parameters: Mapping[str, object] | None = None
) -> float:
    r"""The factor of MLA's scores: $1/\sqrt{d}$, times $m^2$ with YaRN's `mscale_all_dim`.

    $d$ = `qk_head_dim` = `qk_nope_head_dim + qk_rope_head_dim` (192 in DeepSeek-V2 and V3).
    When the RoPE settings have a `rope_type` other than `"default"` and a non-zero
    `mscale_all_dim`, the scale is multiplied by $m^2$ with
    $m = 0.1\,\text{mscale\_all\_dim} \ln s + 1$ ($s$ = `factor`; $m = 1$ when $s \le 1$):
    YaRN's temperature applied to the whole score, the unrotated dimensions included. The
    rotated dimensions get, in addition, the `attention_factor` of `yarn_attention_factor`
    on their cosines and sines, which is 1 when `mscale == mscale_all_dim`, as in V3's
    configuration. Leaving the $m^2$ out (a plain $1/\sqrt{d}$) gives a model that runs but
    attends more flatly than it was trained to (its logits are $m^2$ times too small).

    Parameters
    ----------
    qk_head_dim : int
        Size of each head's query and key, `qk_nope_head_dim + qk_rope_head_dim`, `>= 1`.
    rope_parameters : mapping, optional
        The configuration's `rope_parameters` (`rope_scaling` before Transformers 5, with
        `type` for `rope_type` in older files), for example DeepSeek-V3's
        `{"rope_type": "yarn", "factor": 40.0, "mscale": 1.0, "mscale_all_dim": 1.0,
        "original_max_position_embeddings": 4096, ...}`. Only `rope_type`, `mscale_all_dim`
        and `factor` are read. None or `{}` means the default RoPE.

    Returns
    -------
    float
        The softmax scale, the `scaling` of Transformers' `DeepseekV3Attention`.

    Raises
    ------
    TypeError
        If `qk_head_dim` is not an integer, `rope_parameters` not a mapping, or `rope_type`,
        `mscale_all_dim` or `factor` of the wrong type.
    ValueError
        If `qk_head_dim < 1`, `mscale_all_dim` is not finite, `factor` not finite and `> 0`,
        or `rope_parameters` holds one dictionary per layer type (pass the one of the layer).
    KeyError
        If `mscale_all_dim` is non-zero and `factor` is missing.

    References
    ----------
    - DeepSeek-AI, "DeepSeek-V2", 2024, arXiv:2405.04434, section 3.1.4 (YaRN on the
      decoupled key, with its own length scaling factor).
    - B. Peng et al., "YaRN", 2023, arXiv:2309.00071, section 3.4 (the temperature).
    - Hugging Face Transformers 5.24, `src/transformers/models/deepseek_v3/
      modeling_deepseek_v3.py` (`yarn_get_mscale`, `yarn_apply_mscale`,
      `DeepseekV3Attention.scaling`).

    Examples
    --------
    >>> from posenc import mla_softmax_scale
    >>> round(mla_softmax_scale(192), 4)  # DeepSeek-V3 without YaRN: 1 / sqrt(128 + 64)
    0.0722
    >>> v3 = {"rope_type": "yarn", "factor": 40.0, "mscale": 1.0, "mscale_all_dim": 1.0}
    >>> round(mla_softmax_scale(192, v3), 4)  # times (0.1 ln 40 + 1) ** 2 = 1.8739
    0.1352
    """
    qk_head_dim = check_integer("qk_head_dim", qk_head_dim, minimum=1)
    scale: float = qk_head_dim**-0.5  # as Transformers computes it
    if rope_parameters is None:
        return scale
    if not isinstance(rope_parameters, Mapping):
        raise TypeError(
            f"rope_parameters must be a mapping or None, got {type(rope_parameters).__name__}"
        )
    nested = sorted(
        str(key) for key, value in rope_parameters.items() if isinstance(value, Mapping)
    )
    if nested:
        raise ValueError(
            f"rope_parameters is split by layer type ({nested}): pass the dictionary of the "
            "layer's type"
        )
    rope_type = rope_parameters.get("rope_type", rope_parameters.get("type", "default"))
    if not isinstance(rope_type, str):
        raise TypeError(f"rope_type must be a string, got {type(rope_type).__name__}")
    raw = rope_parameters.get("mscale_all_dim")
    mscale_all_dim = 0.0 if raw is None else check_finite_real("mscale_all_dim", raw)
    if rope_type == "default" or not mscale_all_dim:
        return scale
    if rope_parameters.get("factor") is None:
        raise KeyError(
            f"rope_parameters with mscale_all_dim={mscale_all_dim!r} needs 'factor' (the "
            "YaRN extension factor)"
        )
    factor = check_positive_real("factor", rope_parameters["factor"])
    mscale = 1.0 if factor <= 1.0 else 0.1 * mscale_all_dim * math.log(factor) + 1.0
    return scale * mscale * mscale


def _per_head(name: str, value: ArrayLike, names: str) -> np.ndarray:
    """``value`` as a float64 array of 3 dimensions, ``names`` describing them."""
    array = as_real_array(name, value).astype(np.float64)
    if array.ndim != 3:
        raise ValueError(f"{name} must have shape ({names}), got shape {array.shape}")
    return array


def _shared(name: str, value: ArrayLike, names: str) -> np.ndarray:
    """``value`` of shape ``(n, d)`` or ``(1, n, d)`` (one head for all) as float64 ``(n, d)``."""
    array = as_real_array(name, value).astype(np.float64)
    if array.ndim == 3 and array.shape[0] == 1:
        array = array[0]
    if array.ndim != 2:
        raise ValueError(
            f"{name} must have shape ({names}) or (1, {names}): one head shared by every "
            f"query head, got shape {array.shape}"
        )
    return array


def _rope_scores(
    q_rope: ArrayLike,
    k_rope: ArrayLike,
    *,
    inv_freq: ArrayLike,
    position_ids: ArrayLike | None,
    rope_interleave: bool,
    attention_factor: float,
) -> np.ndarray:
    """The scores of the rotated parts, ``(n_heads, n_q, n_k)``, unscaled; inputs checked."""
    queries = _per_head("q_rope", q_rope, "n_heads, n_q, qk_rope_head_dim")
    keys = _shared("k_rope", k_rope, "n_k, qk_rope_head_dim")
    (n_q, rope_dim), (n_k, key_rope_dim) = queries.shape[1:], keys.shape
    if rope_dim != key_rope_dim:
        raise ValueError(
            f"q_rope and k_rope must have the same qk_rope_head_dim (last dimension), got "
            f"shapes {queries.shape} and {keys.shape}"
        )
    if n_q > n_k:
        raise ValueError(
            f"the queries are the last n_q of the n_k positions, so n_q <= n_k is needed, "
            f"got n_q={n_q} (q_rope) and n_k={n_k} (k_rope)"
        )
    theta = as_real_array("inv_freq", inv_freq)
    if theta.shape != (rope_dim // 2,) or rope_dim % 2:
        raise ValueError(
            f"inv_freq must have shape (qk_rope_head_dim // 2,) with qk_rope_head_dim even "
            f"(every dimension of k_rope rotates), got shape {theta.shape} for "
            f"qk_rope_head_dim={rope_dim}"
        )
    if not isinstance(rope_interleave, bool | np.bool_):
        raise TypeError(
            f"rope_interleave must be True or False, got {type(rope_interleave).__name__}"
        )
    if position_ids is None:
        positions = np.arange(n_k, dtype=np.float64)
    else:
        positions = as_real_array("position_ids", position_ids).astype(np.float64)
        if positions.shape != (n_k,):
            raise ValueError(
                f"position_ids must have shape (n_k,) = ({n_k},), the positions of the keys "
                f"(the queries take the last n_q of them), got shape {positions.shape}"
            )
    layout = "interleaved" if rope_interleave else "half"
    rotate = {"inv_freq": theta, "layout": layout, "attention_factor": attention_factor}
    rotated_q = apply_rotary(queries, positions[n_k - n_q :], **rotate)  # type: ignore[arg-type]
    rotated_k = apply_rotary(keys, positions, **rotate)  # type: ignore[arg-type]
    scores: np.ndarray = rotated_q @ rotated_k.T
    return scores


def _scale(softmax_scale: float | None, qk_head_dim: int) -> float:
    if softmax_scale is None:
        return mla_softmax_scale(qk_head_dim)
    return check_positive_real("softmax_scale", softmax_scale)


def _check_queries(q_nope: np.ndarray, q_rope: ArrayLike) -> np.ndarray:
    """``q_rope`` checked against ``q_nope``: same heads and rows."""
    rope = _per_head("q_rope", q_rope, "n_heads, n_q, qk_rope_head_dim")
    if rope.shape[:2] != q_nope.shape[:2]:
        raise ValueError(
            f"q_nope and q_rope must have the same n_heads and n_q (first two dimensions), "
            f"got shapes {q_nope.shape} and {rope.shape}"
        )
    return rope


def mla_scores(
    q_nope: ArrayLike,
    q_rope: ArrayLike,
    k_nope: ArrayLike,
    k_rope: ArrayLike,
    *,
    inv_freq: ArrayLike,
    position_ids: ArrayLike | None = None,
    rope_interleave: bool = True,
    softmax_scale: float | None = None,
    attention_factor: float = 1.0,
) -> np.ndarray:
    r"""MLA's attention scores the plain way, with every head's key decompressed.

    Each head $h$ joins an unrotated part and a rotated part, and the rotated key part is one
    vector per token shared by all the heads:

    $$q_{h,m} = [q^C_{h,m},\, R_m q^R_{h,m}], \quad k_{h,n} = [k^C_{h,n},\, R_n k^R_n],$$

    $$\text{score}_{h,m,n} = s\,(q^C_{h,m} \cdot k^C_{h,n} + R_m q^R_{h,m} \cdot R_n k^R_n),$$

    with $R_m$ the rotation of `apply_rotary` at position $m$ and $s$ = `softmax_scale`.
    The first term does not depend on the positions; the second depends on them only through
    $n - m$. These are the logits before the mask and the softmax.

    Parameters
    ----------
    q_nope : array_like
        The unrotated query parts $q^C$, shape `(n_heads, n_q, qk_nope_head_dim)`.
    q_rope : array_like
        The query parts to rotate $q^R$, shape `(n_heads, n_q, qk_rope_head_dim)`, before
        the rotation.
    k_nope : array_like
        The unrotated key parts $k^C$, shape `(n_heads, n_k, qk_nope_head_dim)`: in MLA,
        `c_kv @ w_uk[h].T` for each head (see `mla_absorbed_scores`).
    k_rope : array_like
        The shared key part to rotate $k^R$, shape `(n_k, qk_rope_head_dim)` or
        `(1, n_k, qk_rope_head_dim)`, before the rotation.
    inv_freq : array_like
        The frequencies, shape `(qk_rope_head_dim // 2,)`: every dimension of the rotated
        part turns. `frequencies_from_config(qk_rope_head_dim, rope_parameters)` gives them
        with the `attention_factor` (the configuration's `head_dim` is `qk_rope_head_dim`).
    position_ids : array_like, optional
        The positions of the keys, shape `(n_k,)`, integers or reals; the queries stand at
        the last `n_q` of them, as after a key/value cache. Default `0, 1, ..., n_k - 1`.
    rope_interleave : bool, default True
        True: the pairs are `(2i, 2i + 1)` (`layout="interleaved"` of `apply_rotary`), the
        layout of DeepSeek's checkpoints (`rope_interleave` of Transformers'
        `DeepseekV3Config`, default True). False: `(i, i + d/2)` (`rotate_half`).
        Transformers' `apply_rotary_pos_emb_interleave` writes the rotated pairs back in the
        half order, which reorders the query and the key alike and leaves their scores
        unchanged.
    softmax_scale : float, optional
        $s$, finite and `> 0`. Default $1/\sqrt{d}$ with
        `d = qk_nope_head_dim + qk_rope_head_dim`; with YaRN pass
        `mla_softmax_scale(qk_head_dim, rope_parameters)`.
    attention_factor : float, default 1.0
        Multiplies the rotated parts of queries and keys, as `apply_rotary`'s
        `attention_factor` (Transformers' `attention_scaling` on cos and sin), so the
        rotated term of the score gets its square. 1.0 for DeepSeek-V3 (`mscale` equals
        `mscale_all_dim`).

    Returns
    -------
    ndarray
        Shape `(n_heads, n_q, n_k)`, float64.

    Raises
    ------
    TypeError
        If an array does not hold real numbers, `rope_interleave` is not a bool, or a
        number has the wrong type.
    ValueError
        If a shape does not fit (the message names the array and its expected shape),
        `n_q > n_k`, `qk_rope_head_dim` is odd, or `softmax_scale` or `attention_factor`
        is not finite and `> 0`.

    See Also
    --------
    mla_absorbed_scores : the same scores from the cached latent, without decompressing.
    mla_softmax_scale : $s$ as DeepSeek-V3 computes it.

    References
    ----------
    - DeepSeek-AI, "DeepSeek-V2: A Strong, Economical, and Efficient Mixture-of-Experts
      Language Model", 2024, arXiv:2405.04434, section 2.1.3 and appendix C (the full
      formulas of MLA).
    - DeepSeek-AI, "DeepSeek-V3 Technical Report", 2024, arXiv:2412.19437, section 2.1.1.
    - Hugging Face Transformers 5.24, `src/transformers/models/deepseek_v3/
      modeling_deepseek_v3.py` (`DeepseekV3Attention.forward`, `expand_kv`,
      `apply_rotary_pos_emb_interleave`, `eager_attention_forward`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import mla_scores, rotary_frequencies
    >>> q_nope, k_nope = np.ones((1, 2, 2)), np.ones((1, 2, 2))  # 1 head, 2 tokens
    >>> q_rope, k_rope = np.array([[[1.0, 0.0], [1.0, 0.0]]]), np.array([[1.0, 0.0]] * 2)
    >>> scores = mla_scores(
    ...     q_nope, q_rope, k_nope, k_rope, inv_freq=rotary_frequencies(2), softmax_scale=1.0
    ... )
    >>> print(np.round(scores, 3))  # 2 from the unrotated part, cos(n - m) from the rotated
    [[[3.   2.54]
      [2.54 3.  ]]]
    """
    queries = _per_head("q_nope", q_nope, "n_heads, n_q, qk_nope_head_dim")
    rope = _check_queries(queries, q_rope)
    keys = _per_head("k_nope", k_nope, "n_heads, n_k, qk_nope_head_dim")
    if keys.shape[0] != queries.shape[0] or keys.shape[2] != queries.shape[2]:
        raise ValueError(
            f"k_nope must have shape (n_heads, n_k, qk_nope_head_dim) with the n_heads and "
            f"qk_nope_head_dim of q_nope {queries.shape}, got shape {keys.shape}"
        )
    rotated = _rope_scores(
        rope,
        k_rope,
        inv_freq=inv_freq,
        position_ids=position_ids,
        rope_interleave=rope_interleave,
        attention_factor=attention_factor,
    )
    if rotated.shape[-1] != keys.shape[1]:
        raise ValueError(
            f"k_nope and k_rope must have the same n_k, got shapes {keys.shape} and "
            f"{np.shape(k_rope)}"
        )
    scale = _scale(softmax_scale, queries.shape[2] + rope.shape[2])
    scores: np.ndarray = scale * (queries @ np.swapaxes(keys, -1, -2) + rotated)
    return scores


def mla_absorbed_scores(
    q_nope: ArrayLike,
    q_rope: ArrayLike,
    c_kv: ArrayLike,
    k_rope: ArrayLike,
    w_uk: ArrayLike,
    *,
    inv_freq: ArrayLike,
    position_ids: ArrayLike | None = None,
    rope_interleave: bool = True,
    softmax_scale: float | None = None,
    attention_factor: float = 1.0,
) -> np.ndarray:
    r"""MLA's attention scores from the cached latent: `w_uk` moves onto the query.

    Each head's unrotated key is $k^C_{h,n} = W^{UK}_h c_n$, so
    $q^C_{h,m} \cdot k^C_{h,n} = (W^{UK\top}_h q^C_{h,m}) \cdot c_n$: the query is taken
    into the latent space once (`kv_lora_rank` values) and dotted with the cached latents.
    No head's key is ever built. The rotated term is the one of `mla_scores`, from the
    shared `k_rope` cached beside the latent. The result equals
    `mla_scores(q_nope, q_rope, k_nope, k_rope, ...)` with `k_nope[h] = c_kv @ w_uk[h].T`.

    Why the rotated part must be separate: were RoPE applied to the whole decompressed key,
    $R_n W^{UK}_h c_n$, the score would be $q^\top R_m^\top R_n W^{UK}_h c_n =
    q^\top R_{n-m} W^{UK}_h c_n$. The matrix between the query and the latent then changes
    with the offset $n - m$, so no single matrix can be absorbed into the query, and every
    cached latent would have to be decompressed and rotated again at each step.

    Parameters
    ----------
    q_nope : array_like
        The unrotated query parts, shape `(n_heads, n_q, qk_nope_head_dim)`.
    q_rope : array_like
        The query parts to rotate, shape `(n_heads, n_q, qk_rope_head_dim)`.
    c_kv : array_like
        The cached latents, shape `(n_k, kv_lora_rank)` or `(1, n_k, kv_lora_rank)`: in
        DeepSeek-V3 the output of `kv_a_layernorm` (the normalised first `kv_lora_rank`
        values of `kv_a_proj_with_mqa`).
    k_rope : array_like
        The shared key part to rotate, shape `(n_k, qk_rope_head_dim)` or
        `(1, n_k, qk_rope_head_dim)`, before the rotation.
    w_uk : array_like
        The up-projection of the keys $W^{UK}$, shape `(n_heads, qk_nope_head_dim,
        kv_lora_rank)`. From Transformers' `kv_b_proj.weight` of shape
        `(n_heads * (qk_nope_head_dim + v_head_dim), kv_lora_rank)`: reshape it to
        `(n_heads, qk_nope_head_dim + v_head_dim, kv_lora_rank)` and keep the first
        `qk_nope_head_dim` rows of each head (the others are $W^{UV}$).
    inv_freq, position_ids, rope_interleave, softmax_scale, attention_factor
        As in `mla_scores`.

    Returns
    -------
    ndarray
        Shape `(n_heads, n_q, n_k)`, float64.

    Raises
    ------
    TypeError
        As `mla_scores`.
    ValueError
        As `mla_scores`, and if `w_uk` does not have shape `(n_heads, qk_nope_head_dim,
        kv_lora_rank)` for the `q_nope` and `c_kv` given, or `c_kv` and `k_rope` have
        different `n_k`.

    References
    ----------
    - DeepSeek-AI, "DeepSeek-V2", 2024, arXiv:2405.04434, section 2.1.2 (absorbing
      $W^{UK}$ into $W^{Q}$) and section 2.1.3 (why RoPE is decoupled).
    - `deepseek-ai/DeepSeek-V3`, `inference/model.py` (`MLA.forward`, the `"absorb"`
      branch: `q_nope` times the key rows of `wkv_b`, dotted with `kv_cache`).
    - Hugging Face Transformers 5.24, `src/transformers/models/deepseek_v3/
      modeling_deepseek_v3.py` (`DeepseekV3Attention`: `kv_b_proj`, `expand_kv`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc import mla_absorbed_scores, mla_scores, rotary_frequencies
    >>> rng = np.random.default_rng(0)
    >>> q_nope, q_rope = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 3, 2))
    >>> c_kv, k_rope = rng.normal(size=(3, 8)), rng.normal(size=(3, 2))
    >>> w_uk = rng.normal(size=(2, 4, 8))  # 2 heads, qk_nope_head_dim 4, kv_lora_rank 8
    >>> k_nope = c_kv @ np.swapaxes(w_uk, 1, 2)  # every head's key, decompressed
    >>> inv_freq = rotary_frequencies(2)
    >>> absorbed = mla_absorbed_scores(q_nope, q_rope, c_kv, k_rope, w_uk, inv_freq=inv_freq)
    >>> bool(np.allclose(absorbed, mla_scores(q_nope, q_rope, k_nope, k_rope, inv_freq=inv_freq)))
    True
    """
    queries = _per_head("q_nope", q_nope, "n_heads, n_q, qk_nope_head_dim")
    rope = _check_queries(queries, q_rope)
    latent = _shared("c_kv", c_kv, "n_k, kv_lora_rank")
    up = _per_head("w_uk", w_uk, "n_heads, qk_nope_head_dim, kv_lora_rank")
    expected = (queries.shape[0], queries.shape[2], latent.shape[1])
    if up.shape != expected:
        raise ValueError(
            f"w_uk must have shape (n_heads, qk_nope_head_dim, kv_lora_rank) = {expected} "
            f"for q_nope {queries.shape} and c_kv {latent.shape}, got shape {up.shape}"
        )
    rotated = _rope_scores(
        rope,
        k_rope,
        inv_freq=inv_freq,
        position_ids=position_ids,
        rope_interleave=rope_interleave,
        attention_factor=attention_factor,
    )
    if rotated.shape[-1] != latent.shape[0]:
        raise ValueError(
            f"c_kv and k_rope must have the same n_k, got shapes {latent.shape} and "
            f"{np.shape(k_rope)}"
        )
    absorbed_q = queries @ up  # (n_heads, n_q, kv_lora_rank): the query in the latent space
    scale = _scale(softmax_scale, queries.shape[2] + rope.shape[2])
    scores: np.ndarray = scale * (absorbed_q @ latent.T + rotated)
    return scores
