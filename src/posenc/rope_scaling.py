r"""Ways to stretch RoPE past its training length: each rescales the frequencies $\theta_i$.

A model trained on `original_max_position_embeddings` positions has seen every angle
$m\,\theta_i$ with $m$ below that length. To read longer inputs, these methods change the
frequencies so that the new positions map to angles the model knows (Peng et al. 2023,
section 3, compare them). Each function returns the frequencies that
`apply_rotary` takes as `inv_freq`; YaRN also changes the attention scores, by the factor of
`yarn_attention_factor`. `posenc.model_config.frequencies_from_config` reads a Hugging Face
model configuration and calls the right one.

The functions follow the reference code that checkpoints are run with, Hugging Face
Transformers' `src/transformers/modeling_rope_utils.py`, and the tests compare them with
it. Where that code differs from the papers, the docstrings say so.
"""

import math
from collections.abc import Sequence

import numpy as np

from posenc._validation import (
    check_finite_real,
    check_head_dim,
    check_integer,
    check_positive_real,
    check_real,
    check_rotary_dim,
)
from posenc.rotary import rotary_frequencies


def _check_factor(factor: object) -> float:
    return check_real("factor", factor, minimum=1.0)


def _rotated_size(head_dim: int, rotary_dim: int | None) -> int:
    return check_rotary_dim(rotary_dim, check_head_dim(head_dim, even=False))


def linear_frequencies(
    head_dim: int,
    *,
    factor: float,
    base: float = 10000.0,
    rotary_dim: int | None = None,
) -> np.ndarray:
    r"""Position interpolation (`rope_type="linear"`): every frequency divided by `factor`.

    $\theta'_i = \theta_i / s$ with $s$ = `factor`. Rotating position $m$ with $\theta'_i$ is
    rotating position $m / s$ with $\theta_i$: Chen et al. squeeze the positions of an input
    $s$ times longer into the trained range instead of extrapolating beyond it. Neighbouring
    positions then differ by $1/s$ of a step, so the model needs a short fine-tuning (they
    report at most 1000 steps to reach 32768 positions).

    Parameters
    ----------
    head_dim : int
        Size of each query and key vector, as in `rotary_frequencies`.
    factor : float
        The extension factor $s = L'/L$ (new length over trained length), `>= 1`.
    base : float, default 10000.0
        `rope_theta`.
    rotary_dim : int, optional
        Rotated dimensions with partial rotary, as in `rotary_frequencies`.

    Returns
    -------
    ndarray
        Shape `(rotary_dim // 2,)`, float64, radians per position.

    Raises
    ------
    TypeError, ValueError
        As `rotary_frequencies`, and if `factor` is not a finite number `>= 1`.

    References
    ----------
    - S. Chen, S. Wong, L. Chen, Y. Tian, "Extending Context Window of Large Language Models
      via Positional Interpolation", 2023, arXiv:2306.15595, section 2.3 (the interpolated
      $f'(x, m) = f(x, mL/L')$).
    - Hugging Face Transformers, `src/transformers/modeling_rope_utils.py`,
      `_compute_linear_scaling_rope_parameters` (`inv_freq /= factor`).

    Examples
    --------
    >>> from posenc.rope_scaling import linear_frequencies
    >>> print(linear_frequencies(8, factor=4.0))
    [0.25    0.025   0.0025  0.00025]
    """
    factor = _check_factor(factor)
    return rotary_frequencies(head_dim, base=base, rotary_dim=rotary_dim) / factor


def ntk_frequencies(
    head_dim: int,
    *,
    factor: float,
    base: float = 10000.0,
    rotary_dim: int | None = None,
) -> np.ndarray:
    r"""NTK-aware scaling: a larger base, $b' = b\, s^{d/(d-2)}$, so low frequencies shrink most.

    With $d$ the rotated size, $\theta'_i = b'^{-2i/d} = \theta_i\, s^{-2i/(d-2)}$: the fastest
    pair ($i = 0$) keeps its frequency, the slowest ($i = d/2 - 1$) is divided by exactly
    $s$, as position interpolation would, and the pairs between are divided by less. Fast
    pairs, which tell neighbouring tokens apart, are left nearly intact. Transformers has no
    `rope_type` for the fixed version; its `"dynamic"` type applies it with a factor that
    grows with the input (`dynamic_ntk_frequencies`).

    Parameters
    ----------
    head_dim : int
        Size of each query and key vector.
    factor : float
        The extension factor $s$, `>= 1`.
    base : float, default 10000.0
        `rope_theta`, the base before scaling.
    rotary_dim : int, optional
        Rotated dimensions with partial rotary; the exponent uses this size. At least 4:
        with a single pair, $d/(d-2)$ is undefined.

    Returns
    -------
    ndarray
        Shape `(rotary_dim // 2,)`, float64.

    Raises
    ------
    TypeError, ValueError
        As `rotary_frequencies`; if `factor` is not a finite number `>= 1`, or the rotated
        size is 2.

    References
    ----------
    - B. Peng, J. Quesnelle, H. Fan, E. Shippole, "YaRN: Efficient Context Window Extension
      of Large Language Models", 2023, arXiv:2309.00071, section 3.1 ("NTK-aware"
      interpolation, $b' = b \cdot s^{|D|/(|D|-2)}$); first posted by bloc97 on Reddit, 2023.
    - `jquesnelle/yarn`, `scaled_rope/LlamaNTKScaledRotaryEmbedding.py`
      (`base * alpha ** (dim / (dim - 2))`).

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.rope_scaling import ntk_frequencies
    >>> from posenc.rotary import rotary_frequencies
    >>> print(np.round(rotary_frequencies(8) / ntk_frequencies(8, factor=4.0), 3))
    [1.    1.587 2.52  4.   ]
    """
    factor = _check_factor(factor)
    dim = _rotated_size(head_dim, rotary_dim)
    if dim < 4:
        raise ValueError(
            f"NTK-aware scaling needs at least 4 rotated dimensions (the exponent d / (d - 2)), "
            f"got {dim}"
        )
    base = check_positive_real("base", base)
    return rotary_frequencies(
        head_dim, base=base * factor ** (dim / (dim - 2)), rotary_dim=rotary_dim
    )


def dynamic_ntk_frequencies(
    head_dim: int,
    *,
    factor: float,
    seq_len: int,
    max_position_embeddings: int,
    base: float = 10000.0,
    rotary_dim: int | None = None,
) -> np.ndarray:
    r"""Dynamic NTK scaling (`rope_type="dynamic"`): NTK-aware, with a factor set by the length.

    Up to `max_position_embeddings` the frequencies are the model's own. Beyond it, they
    are `ntk_frequencies` with the factor
    $s = \text{factor} \cdot \text{seq\_len} / L - (\text{factor} - 1)$, $L$ the trained
    length: 1 at $L$, growing by `factor` for each further $L$ positions. No fine-tuning is
    needed, and inputs within the trained length run exactly as before.

    This is the formula of the reference code (emozilla's, copied into Transformers). The
    YaRN paper (section 3.3) describes dynamic scaling with $s = \max(1, l'/L)$, $l'$ the
    current length; the two agree only when `factor` is 1. With a key/value cache the keys
    already stored keep the frequencies they were rotated with while later queries use new
    ones (Transformers recomputes the frequencies when the length grows).

    Parameters
    ----------
    head_dim : int
        Size of each query and key vector.
    factor : float
        `factor` of the configuration, `>= 1`.
    seq_len : int
        Current sequence length (the largest position + 1), `>= 1`; lengths below
        `max_position_embeddings` count as `max_position_embeddings`.
    max_position_embeddings : int
        The trained length $L$, `>= 1` (the configuration's `max_position_embeddings`;
        Transformers reads this field, not `original_max_position_embeddings`, for this type).
    base : float, default 10000.0
        `rope_theta`.
    rotary_dim : int, optional
        Rotated dimensions with partial rotary, at least 4.

    Returns
    -------
    ndarray
        Shape `(rotary_dim // 2,)`, float64.

    Raises
    ------
    TypeError, ValueError
        As `ntk_frequencies`, and if a length is not an integer `>= 1`.

    References
    ----------
    - B. Peng et al., "YaRN", 2023, arXiv:2309.00071, section 3.3 ("Dynamic Scaling").
    - emozilla, "Dynamically Scaled RoPE further increases performance of long context LLaMA
      with zero fine-tuning", Reddit r/LocalLLaMA, 2023; code: `jquesnelle/yarn`,
      `scaled_rope/LlamaDynamicScaledRotaryEmbedding.py`.
    - Hugging Face Transformers, `src/transformers/modeling_rope_utils.py`,
      `_compute_dynamic_ntk_parameters` and `dynamic_rope_update`.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.rope_scaling import dynamic_ntk_frequencies, ntk_frequencies
    >>> from posenc.rotary import rotary_frequencies
    >>> short = dynamic_ntk_frequencies(8, factor=2.0, seq_len=100, max_position_embeddings=2048)
    >>> bool(np.array_equal(short, rotary_frequencies(8)))  # within L: unchanged
    True
    >>> long = dynamic_ntk_frequencies(8, factor=2.0, seq_len=4096, max_position_embeddings=2048)
    >>> bool(np.allclose(long, ntk_frequencies(8, factor=3.0)))  # 2 * 4096 / 2048 - 1 = 3
    True
    """
    factor = _check_factor(factor)
    seq_len = check_integer("seq_len", seq_len, minimum=1)
    length = check_integer("max_position_embeddings", max_position_embeddings, minimum=1)
    # Within the trained length the factor is 1 exactly (the formula would round to 1 + 1e-15).
    scale = 1.0 if seq_len <= length else factor * seq_len / length - (factor - 1.0)
    return ntk_frequencies(head_dim, factor=scale, base=base, rotary_dim=rotary_dim)


def yarn_frequencies(
    head_dim: int,
    *,
    factor: float,
    original_max_position_embeddings: int,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    truncate: bool = True,
    base: float = 10000.0,
    rotary_dim: int | None = None,
) -> np.ndarray:
    r"""YaRN's frequencies ("NTK-by-parts"): fast pairs kept, slow ones interpolated, a ramp.

    A pair of wavelength $\lambda_i = 2\pi/\theta_i$ turns $r_i = L/\lambda_i$ times over
    the trained length $L$. Pairs that turn more than `beta_fast` times have seen every
    angle already and keep $\theta_i$; pairs that turn fewer than `beta_slow` times are
    divided by $s$ as in position interpolation; between the two the result
    $\theta'_i = (1 - \gamma_i)\, \theta_i / s + \gamma_i\, \theta_i$ moves along a ramp
    $\gamma_i$ from 0 to 1.

    The ramp is the reference code's, which differs from the paper's formula. The paper
    (section 3.2) makes $\gamma$ linear in $r$: $\gamma = (r - \alpha)/(\beta - \alpha)$ with
    $\alpha$ = `beta_slow`, $\beta$ = `beta_fast`. The code (`jquesnelle/yarn`, and
    Transformers after it) finds the pair index $i(r) = d \ln(L / (2\pi r)) / (2 \ln b)$
    where a pair turns $r$ times, rounds `i(beta_fast)` down and `i(beta_slow)` up (unless
    `truncate=False`), and makes $\gamma$ linear in the index between them, that is linear
    in $\ln r$. The pairs fully kept and fully interpolated are nearly the same; the ramp
    between differs.

    Parameters
    ----------
    head_dim : int
        Size of each query and key vector.
    factor : float
        The extension factor $s$, `>= 1`.
    original_max_position_embeddings : int
        The trained length $L$, `>= 1`.
    beta_fast : float, default 32.0
        Number of turns over $L$ above which a pair is kept, `>= beta_slow` (the paper's
        $\beta$, with the value it uses for LLaMA).
    beta_slow : float, default 1.0
        Number of turns over $L$ below which a pair is interpolated, `> 0` (the paper's
        $\alpha$).
    truncate : bool, default True
        Round the ends of the ramp to whole pair indices, as the reference code does.
        gpt-oss turns it off (`truncate: False` in Transformers' `configuration_gpt_oss.py`).
    base : float, default 10000.0
        `rope_theta`, `> 1`.
    rotary_dim : int, optional
        Rotated dimensions with partial rotary.

    Returns
    -------
    ndarray
        Shape `(rotary_dim // 2,)`, float64.

    Raises
    ------
    TypeError, ValueError
        As `rotary_frequencies`; if `factor < 1`, `base <= 1`, a length is not an integer
        `>= 1`, or the betas are not `beta_fast >= beta_slow > 0`.

    References
    ----------
    - B. Peng, J. Quesnelle, H. Fan, E. Shippole, "YaRN: Efficient Context Window Extension
      of Large Language Models", 2023, arXiv:2309.00071, section 3.2 ("NTK-by-parts"
      interpolation: $r$, $\gamma$, $h(\theta_d)$) and section 3.4 (YaRN).
    - `jquesnelle/yarn`, `scaled_rope/LlamaYaRNScaledRotaryEmbedding.py`
      (`find_correction_range`, `linear_ramp_mask`).
    - Hugging Face Transformers, `src/transformers/modeling_rope_utils.py`,
      `_compute_yarn_parameters`.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.rope_scaling import yarn_frequencies
    >>> from posenc.rotary import rotary_frequencies
    >>> theta = rotary_frequencies(16)
    >>> scaled = yarn_frequencies(16, factor=4.0, original_max_position_embeddings=2048)
    >>> print(np.round(theta / scaled, 3))  # 1: kept, 4: interpolated
    [1.    1.    1.    1.231 1.6   2.286 4.    4.   ]
    """
    factor = _check_factor(factor)
    length = check_integer(
        "original_max_position_embeddings", original_max_position_embeddings, minimum=1
    )
    beta_slow = check_positive_real("beta_slow", beta_slow)
    beta_fast = check_positive_real("beta_fast", beta_fast)
    if beta_fast < beta_slow:
        raise ValueError(
            f"beta_fast must be >= beta_slow (more turns than the interpolated pairs), got "
            f"beta_fast={beta_fast!r} and beta_slow={beta_slow!r}"
        )
    base = check_real("base", base, minimum=1.0, inclusive=False)
    dim = _rotated_size(head_dim, rotary_dim)
    theta = rotary_frequencies(head_dim, base=base, rotary_dim=rotary_dim)

    def pair_index(turns: float) -> float:
        # The pair whose wavelength fits `turns` times in the trained length.
        return dim * math.log(length / (turns * 2 * math.pi)) / (2 * math.log(base))

    low, high = pair_index(beta_fast), pair_index(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    # The reference code clamps to [0, dim - 1]; pair indices stop at dim / 2 - 1, and the
    # ramp is clipped to [0, 1] anyway, so the upper clamp only matters for tiny dims.
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001  # the reference code's guard against a zero-width ramp
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0.0, 1.0)
    interpolated: np.ndarray = theta / factor * ramp + theta * (1.0 - ramp)
    return interpolated


def yarn_attention_factor(
    factor: float, *, mscale: float | None = None, mscale_all_dim: float | None = None
) -> float:
    r"""YaRN's temperature as a factor on queries and keys: $\sqrt{1/t} = 0.1 \ln s + 1$.

    YaRN divides the attention scores by a temperature $t$ (section 3.4 of the paper), with
    $\sqrt{1/t} = 0.1 \ln s + 1$, the value the paper recommends for LLaMA and Llama 2; $1$
    when $s \le 1$. The reference code
    multiplies the cosines and sines of RoPE by $\sqrt{1/t}$ (`apply_rotary`'s
    `attention_factor`): queries and keys are both multiplied, so their scores are
    multiplied by $1/t$, with no change to the attention kernel.

    DeepSeek-V2 and V3 configurations add `mscale` and `mscale_all_dim`: then the factor is

    $$\frac{0.1\, \text{mscale} \ln s + 1}{0.1\, \text{mscale\_all\_dim} \ln s + 1},$$

    which is 1 when both are equal (those models scale their softmax separately instead). As in
    Transformers, they are used only when both are given and nonzero; otherwise the factor
    is YaRN's. DeepSeek's own code (`deepseek-ai/DeepSeek-V3`, `inference/model.py`) takes
    `mscale` even without `mscale_all_dim`.

    Parameters
    ----------
    factor : float
        The extension factor $s$, `>= 1`.
    mscale, mscale_all_dim : float, optional
        DeepSeek's coefficients of $\ln s$, finite.

    Returns
    -------
    float
        The factor on both queries and keys, $\sqrt{1/t}$; the scores get its square.

    Raises
    ------
    TypeError, ValueError
        If `factor` is not a finite number `>= 1`, or a coefficient is not finite.

    References
    ----------
    - B. Peng et al., "YaRN", 2023, arXiv:2309.00071, section 3.4 (the temperature $t$ and
      $\sqrt{1/t} = 0.1 \ln(s) + 1$).
    - `jquesnelle/yarn`, `scaled_rope/LlamaYaRNScaledRotaryEmbedding.py` (`get_mscale`).
    - Hugging Face Transformers, `src/transformers/modeling_rope_utils.py`,
      `_compute_yarn_parameters` (`get_mscale`, `mscale`, `mscale_all_dim`).

    Examples
    --------
    >>> from posenc.rope_scaling import yarn_attention_factor
    >>> round(yarn_attention_factor(16.0), 4)  # 0.1 * ln 16 + 1
    1.2773
    >>> yarn_attention_factor(40.0, mscale=1.0, mscale_all_dim=1.0)  # DeepSeek-V3
    1.0
    """
    factor = _check_factor(factor)

    def get_mscale(coefficient: float) -> float:
        return 1.0 if factor <= 1.0 else 0.1 * coefficient * math.log(factor) + 1.0

    coefficients = [
        None if c is None else check_finite_real(name, c)
        for name, c in (("mscale", mscale), ("mscale_all_dim", mscale_all_dim))
    ]
    top, bottom = coefficients
    if top and bottom:
        return get_mscale(top) / get_mscale(bottom)
    return get_mscale(1.0)


def llama3_frequencies(
    head_dim: int,
    *,
    factor: float,
    low_freq_factor: float,
    high_freq_factor: float,
    original_max_position_embeddings: int,
    base: float = 10000.0,
    rotary_dim: int | None = None,
) -> np.ndarray:
    r"""Llama 3.1's scaling (`rope_type="llama3"`): by wavelength, with a smooth band between.

    With $L$ the trained length and $\lambda_i = 2\pi/\theta_i$: pairs whose wavelength is
    shorter than $L$ / `high_freq_factor` keep $\theta_i$; pairs whose wavelength is longer
    than $L$ / `low_freq_factor` are divided by `factor`. Between the two, with
    $\alpha$ = `low_freq_factor`, $\beta$ = `high_freq_factor` and $s$ = `factor`,
    $\gamma_i = (L/\lambda_i - \alpha) / (\beta - \alpha)$ and
    $\theta'_i = (1 - \gamma_i)\, \theta_i / s + \gamma_i\, \theta_i$. It is YaRN's
    frequency ramp, linear in the number of turns $L/\lambda_i$ as in YaRN's paper (where
    $\alpha$ and $\beta$ play the same roles), without YaRN's temperature. Meta's released values:
    `factor=8`, `low_freq_factor=1`, `high_freq_factor=4`,
    `original_max_position_embeddings=8192`, with `rope_theta=500000`. The Llama 3 paper
    (Dubey et al. 2024, section 3.4.2) describes the long-context pre-training, not this
    formula; it comes from the released code.

    Parameters
    ----------
    head_dim : int
        Size of each query and key vector.
    factor : float
        Divisor of the low frequencies, `>= 1`.
    low_freq_factor, high_freq_factor : float
        Numbers of turns over $L$ that bound the smooth band,
        `0 < low_freq_factor < high_freq_factor`.
    original_max_position_embeddings : int
        The trained length $L$, `>= 1`.
    base : float, default 10000.0
        `rope_theta` (500000.0 in Llama 3).
    rotary_dim : int, optional
        Rotated dimensions with partial rotary.

    Returns
    -------
    ndarray
        Shape `(rotary_dim // 2,)`, float64.

    Raises
    ------
    TypeError, ValueError
        As `rotary_frequencies`; if `factor < 1`, the frequency factors are not
        `0 < low_freq_factor < high_freq_factor`, or the length is not an integer `>= 1`.

    References
    ----------
    - A. Dubey et al., "The Llama 3 Herd of Models", 2024, arXiv:2407.21783, sections 3.2
      and 3.4.2 (`rope_theta` 500,000; context extended to 128K).
    - Meta, `meta-llama/llama-models`, `models/llama3/model.py`
      (`apply_scaling`).
    - Hugging Face Transformers, `src/transformers/modeling_rope_utils.py`,
      `_compute_llama3_parameters`.

    Examples
    --------
    >>> import numpy as np
    >>> from posenc.rope_scaling import llama3_frequencies
    >>> from posenc.rotary import rotary_frequencies
    >>> theta = rotary_frequencies(128, base=500000.0)
    >>> scaled = llama3_frequencies(
    ...     128, factor=8.0, low_freq_factor=1.0, high_freq_factor=4.0,
    ...     original_max_position_embeddings=8192, base=500000.0,
    ... )
    >>> ratio = theta / scaled
    >>> print(int((ratio == 1).sum()), int((ratio == 8).sum()))  # pairs kept, divided by 8
    29 29
    """
    factor = _check_factor(factor)
    low_freq_factor = check_positive_real("low_freq_factor", low_freq_factor)
    high_freq_factor = check_positive_real("high_freq_factor", high_freq_factor)
    if high_freq_factor <= low_freq_factor:
        raise ValueError(
            f"high_freq_factor must be > low_freq_factor, got high_freq_factor="
            f"{high_freq_factor!r} and low_freq_factor={low_freq_factor!r}"
        )
    length = check_integer(
        "original_max_position_embeddings", original_max_position_embeddings, minimum=1
    )
    theta = rotary_frequencies(head_dim, base=base, rotary_dim=rotary_dim)
    wavelength = 2 * math.pi / theta
    turns = length / wavelength
    smooth = (turns - low_freq_factor) / (high_freq_factor - low_freq_factor)
    blended = (1.0 - smooth) * theta / factor + smooth * theta
    scaled: np.ndarray = np.where(
        wavelength > length / low_freq_factor,
        theta / factor,
        np.where(wavelength < length / high_freq_factor, theta, blended),
    )
    return scaled


def longrope_frequencies(
    head_dim: int,
    *,
    short_factor: Sequence[float],
    long_factor: Sequence[float],
    original_max_position_embeddings: int,
    seq_len: int | None = None,
    base: float = 10000.0,
    rotary_dim: int | None = None,
) -> np.ndarray:
    r"""LongRoPE (`rope_type="longrope"`, Phi-3): each frequency divided by its own factor.

    $\theta'_i = \theta_i / \lambda_i$, with one rescale factor $\lambda_i$ per pair, found
    by search rather than by a formula. There are two lists: `short_factor` for inputs up to
    the trained length $L$ = `original_max_position_embeddings`, `long_factor` beyond it.
    The sequence length decides, as in Transformers: `seq_len > L` takes `long_factor`,
    anything else (and no `seq_len`) `short_factor`. Transformers switches the whole set
    when the input grows past $L$ (`dynamic_rope_update`); keys already in a cache keep the
    rotation they were given.

    Parameters
    ----------
    head_dim : int
        Size of each query and key vector.
    short_factor, long_factor : sequence of float
        One factor per rotated pair (`rotary_dim // 2` of them), each finite and `> 0`.
    original_max_position_embeddings : int
        The trained length $L$, `>= 1`, where the lists switch.
    seq_len : int, optional
        Current sequence length (largest position + 1), `>= 1`.
    base : float, default 10000.0
        `rope_theta`.
    rotary_dim : int, optional
        Rotated dimensions with partial rotary.

    Returns
    -------
    ndarray
        Shape `(rotary_dim // 2,)`, float64.

    Raises
    ------
    TypeError, ValueError
        As `rotary_frequencies`; if a list has the wrong length or a factor that is not a
        finite number `> 0`, or a length is not an integer `>= 1`.

    References
    ----------
    - Y. Ding et al., "LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens", 2024,
      arXiv:2402.13753, section 3 (the per-dimension rescale factors $\lambda_i$ and their
      search).
    - Hugging Face Transformers 5.24, `src/transformers/modeling_rope_utils.py`,
      `_compute_longrope_parameters` and `dynamic_rope_update` (`longrope_frequency_update`).

    Examples
    --------
    >>> from posenc.rope_scaling import longrope_frequencies
    >>> lists = {"short_factor": [1.0, 1.0], "long_factor": [1.0, 4.0]}
    >>> print(longrope_frequencies(4, **lists, original_max_position_embeddings=4096))
    [1.   0.01]
    >>> print(longrope_frequencies(4, **lists, original_max_position_embeddings=4096,
    ...                            seq_len=4097))
    [1.     0.0025]
    """
    length = check_integer(
        "original_max_position_embeddings", original_max_position_embeddings, minimum=1
    )
    theta = rotary_frequencies(head_dim, base=base, rotary_dim=rotary_dim)
    if seq_len is not None and check_integer("seq_len", seq_len, minimum=1) > length:
        name, factors = "long_factor", long_factor
    else:
        name, factors = "short_factor", short_factor
    for key, values in (("short_factor", short_factor), ("long_factor", long_factor)):
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise TypeError(f"{key} must be a list of numbers, got {type(values).__name__}")
        if len(values) != theta.size:
            raise ValueError(
                f"{key} must have one factor per rotated pair, {theta.size}, got {len(values)}"
            )
    scale = np.array([check_positive_real(f"{name}[{i}]", f) for i, f in enumerate(factors)])
    scaled: np.ndarray = theta / scale
    return scaled


def longrope_attention_factor(factor: float, original_max_position_embeddings: int) -> float:
    r"""LongRoPE's default attention factor, $\sqrt{1 + \ln s / \ln L}$ (1 for $s \le 1$).

    Transformers applies it to cos and sin, so the scores get its square. Phi-3's
    configurations give no `factor`: Transformers then takes
    `max_position_embeddings / original_max_position_embeddings` for $s$.

    Parameters
    ----------
    factor : float
        The extension factor $s$, finite and `> 0`.
    original_max_position_embeddings : int
        The trained length $L$, `>= 2` (its logarithm divides).

    Returns
    -------
    float

    Raises
    ------
    TypeError, ValueError
        If `factor` is not a finite number `> 0` or the length not an integer `>= 2`.

    References
    ----------
    - Y. Ding et al., "LongRoPE", 2024, arXiv:2402.13753, section 3 (attention scaling,
      following YaRN).
    - Hugging Face Transformers 5.24, `src/transformers/modeling_rope_utils.py`,
      `_compute_longrope_parameters`.

    Examples
    --------
    >>> from posenc.rope_scaling import longrope_attention_factor
    >>> round(longrope_attention_factor(131072 / 4096, 4096), 4)  # Phi-3-mini-128k
    1.1902
    """
    factor = check_positive_real("factor", factor)
    length = check_integer(
        "original_max_position_embeddings", original_max_position_embeddings, minimum=2
    )
    if factor <= 1.0:
        return 1.0
    return math.sqrt(1.0 + math.log(factor) / math.log(length))


def proportional_frequencies(
    head_dim: int,
    *,
    partial_rotary_factor: float = 1.0,
    factor: float = 1.0,
    base: float = 10000.0,
) -> np.ndarray:
    r"""Proportional RoPE (`rope_type="proportional"`, Gemma 4): a zero tail, `head_dim` kept.

    The first `int(partial_rotary_factor * head_dim // 2)` pairs get
    $\theta_i = b^{-2i/d}$ with $d$ = `head_dim` itself, not the rotated size: they are the
    fastest pairs of full RoPE, unchanged. The remaining pairs get frequency 0, so they do
    not rotate. Partial rotary (`rotary_frequencies(..., rotary_dim=...)`) instead spreads
    the exponents over the rotated size, and returns fewer frequencies. Every frequency is
    then divided by `factor`.

    Parameters
    ----------
    head_dim : int
        Size of each query and key vector, even.
    partial_rotary_factor : float, default 1.0
        Fraction of the pairs that rotate, in `(0, 1]`.
    factor : float, default 1.0
        Divisor of every frequency, finite and `> 0`.
    base : float, default 10000.0
        `rope_theta`.

    Returns
    -------
    ndarray
        Shape `(head_dim // 2,)`, float64; the last pairs are 0.

    Raises
    ------
    TypeError, ValueError
        As `rotary_frequencies`; if `partial_rotary_factor` is not in `(0, 1]` or `factor`
        not a finite number `> 0`.

    References
    ----------
    - Hugging Face Transformers 5.24, `src/transformers/modeling_rope_utils.py`,
      `_compute_proportional_rope_parameters`; Gemma 4's full-attention layers use it
      (`src/transformers/models/gemma4/configuration_gemma4.py`, `partial_rotary_factor`
      0.25).

    Examples
    --------
    >>> from posenc.rope_scaling import proportional_frequencies
    >>> print(proportional_frequencies(8, partial_rotary_factor=0.5))
    [1.  0.1 0.  0. ]
    """
    head_dim = check_head_dim(head_dim)
    fraction = check_positive_real("partial_rotary_factor", partial_rotary_factor)
    if fraction > 1.0:
        raise ValueError(f"partial_rotary_factor must be in (0, 1], got {fraction!r}")
    factor = check_positive_real("factor", factor)
    rotated = int(fraction * head_dim // 2)
    inv_freq = np.zeros(head_dim // 2)
    inv_freq[:rotated] = rotary_frequencies(head_dim, base=base)[:rotated]
    scaled: np.ndarray = inv_freq / factor
    return scaled
