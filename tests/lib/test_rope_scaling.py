"""The RoPE scaling methods against their reference code (transcribed) and their properties.

The comparison with Hugging Face Transformers itself is in tests/oracle/test_transformers_oracle.py.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import (
    dynamic_ntk_frequencies,
    frequencies_from_config,
    linear_frequencies,
    llama3_frequencies,
    ntk_frequencies,
    rotary_frequencies,
    yarn_attention_factor,
    yarn_frequencies,
)
from posenc.rope_scaling import longrope_attention_factor, proportional_frequencies

head_dims = st.integers(2, 64).map(lambda k: 2 * k)
factors = st.floats(1.0, 64.0)
bases = st.sampled_from([10000.0, 500000.0, 1e6])


def yarn_reference(dim, base, factor, original, beta_fast=32, beta_slow=1):
    """jquesnelle/yarn, scaled_rope/LlamaYaRNScaledRotaryEmbedding.py, one value at a time."""

    def find_correction_dim(num_rotations):
        return (dim * math.log(original / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    low = max(math.floor(find_correction_dim(beta_fast)), 0)
    high = min(math.ceil(find_correction_dim(beta_slow)), dim - 1)
    if low == high:
        high += 0.001
    out = []
    for i in range(dim // 2):
        pos_freq = base ** (2 * i / dim)
        ramp = min(max((i - low) / (high - low), 0.0), 1.0)
        mask = 1 - ramp  # inv_freq_mask, extrapolation_factor = 1
        out.append(1 / (factor * pos_freq) * (1 - mask) + 1 / pos_freq * mask)
    return np.array(out)


def llama3_reference(freqs, factor, low_freq_factor, high_freq_factor, old_context_len):
    """Meta's apply_scaling (meta-llama/llama-models, models/llama3/reference_impl/model.py),
    frequency by frequency."""
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    out = []
    for freq in freqs:
        wavelen = 2 * math.pi / freq
        if wavelen < high_freq_wavelen:
            out.append(freq)
        elif wavelen > low_freq_wavelen:
            out.append(freq / factor)
        else:
            smooth = (old_context_len / wavelen - low_freq_factor) / (
                high_freq_factor - low_freq_factor
            )
            out.append((1 - smooth) * freq / factor + smooth * freq)
    return np.array(out)


# --- each method -----------------------------------------------------------------------------


@settings(max_examples=50, deadline=None)
@given(head_dims, factors, bases)
def test_linear_divides_every_frequency(head_dim, factor, base):
    np.testing.assert_allclose(
        linear_frequencies(head_dim, factor=factor, base=base),
        rotary_frequencies(head_dim, base=base) / factor,
        rtol=1e-15,
    )


@settings(max_examples=50, deadline=None)
@given(head_dims, factors, bases)
def test_ntk_keeps_the_fastest_pair_and_divides_the_slowest_by_the_factor(head_dim, factor, base):
    theta = rotary_frequencies(head_dim, base=base)
    scaled = ntk_frequencies(head_dim, factor=factor, base=base)
    assert scaled[0] == 1.0
    assert theta[-1] / scaled[-1] == pytest.approx(factor, rel=1e-12)
    ratio = theta / scaled  # s ** (2i / (d - 2)): grows from 1 to s
    np.testing.assert_allclose(ratio, factor ** (np.arange(head_dim // 2) * 2 / (head_dim - 2)))


def test_ntk_matches_the_yarn_repositorys_base_change():
    # LlamaNTKScaledRotaryEmbedding: base * alpha ** (dim / (dim - 2)), then the usual formula.
    base = 10000.0 * 8.0 ** (128 / 126)
    np.testing.assert_allclose(
        ntk_frequencies(128, factor=8.0), 1.0 / base ** (np.arange(0, 128, 2) / 128), rtol=1e-14
    )


@settings(max_examples=50, deadline=None)
@given(head_dims, factors, st.integers(1, 8192), st.integers(1, 40_000))
def test_dynamic_is_ntk_with_a_length_dependent_factor(head_dim, factor, length, seq_len):
    got = dynamic_ntk_frequencies(
        head_dim, factor=factor, seq_len=seq_len, max_position_embeddings=length
    )
    if seq_len <= length:
        np.testing.assert_array_equal(got, rotary_frequencies(head_dim))
    else:
        scale = factor * seq_len / length - (factor - 1)  # emozilla's formula
        np.testing.assert_allclose(got, ntk_frequencies(head_dim, factor=scale), rtol=1e-14)


@pytest.mark.parametrize(
    ("dim", "base", "factor", "original"),
    [
        (128, 10000.0, 16.0, 4096),
        (64, 10000.0, 4.0, 2048),
        (128, 1e6, 4.0, 32768),
        (8, 10.0, 2, 64),
    ],
)
def test_yarn_matches_the_yarn_repository(dim, base, factor, original):
    got = yarn_frequencies(dim, factor=factor, original_max_position_embeddings=original, base=base)
    np.testing.assert_allclose(got, yarn_reference(dim, base, factor, original), rtol=1e-13)


@settings(max_examples=50, deadline=None)
@given(head_dims, factors, bases, st.integers(256, 200_000), st.booleans())
def test_yarn_keeps_fast_pairs_and_interpolates_slow_ones(head_dim, factor, base, original, trunc):
    theta = rotary_frequencies(head_dim, base=base)
    got = yarn_frequencies(
        head_dim,
        factor=factor,
        original_max_position_embeddings=original,
        base=base,
        truncate=trunc,
    )
    turns = original * theta / (2 * math.pi)  # r = L / wavelength
    np.testing.assert_allclose(got[turns > 33], theta[turns > 33], rtol=1e-14)
    np.testing.assert_allclose(got[turns < 0.9], theta[turns < 0.9] / factor, rtol=1e-14)
    assert np.all(got <= theta * (1 + 1e-15))
    assert np.all(got >= theta / factor * (1 - 1e-15))


def test_yarn_ramp_is_linear_in_the_pair_index_not_in_the_number_of_turns():
    # The difference from the paper's formula that the docstring describes, with truncate=False.
    dim, base, original, factor = 128, 10000.0, 4096, 16.0
    theta = rotary_frequencies(dim, base=base)
    got = yarn_frequencies(
        dim, factor=factor, original_max_position_embeddings=original, truncate=False
    )
    gamma = (got - theta / factor) / (theta - theta / factor)  # 1: kept, 0: interpolated
    turns = original * theta / (2 * math.pi)
    between = (turns > 1) & (turns < 32)
    np.testing.assert_allclose(
        gamma[between], np.log(turns[between]) / np.log(32), rtol=1e-9
    )  # linear in ln r
    paper = (turns[between] - 1) / (32 - 1)
    assert np.abs(gamma[between] - paper).max() > 0.3


def test_yarn_attention_factor_is_the_papers_temperature():
    for s in (1.5, 4.0, 16.0, 40.0):
        assert yarn_attention_factor(s) == pytest.approx(0.1 * math.log(s) + 1.0, rel=1e-15)
    assert yarn_attention_factor(1.0) == 1.0
    # DeepSeek-V2/V3: mscale == mscale_all_dim gives 1; otherwise the ratio of the two.
    assert yarn_attention_factor(40.0, mscale=1.0, mscale_all_dim=1.0) == 1.0
    expected = (0.1 * 0.707 * math.log(40) + 1) / (0.1 * math.log(40) + 1)
    assert yarn_attention_factor(40.0, mscale=0.707, mscale_all_dim=1.0) == pytest.approx(expected)
    # As in transformers, mscale alone (mscale_all_dim missing or 0) is not used.
    assert yarn_attention_factor(40.0, mscale=0.707) == yarn_attention_factor(40.0)


@pytest.mark.parametrize(
    ("head_dim", "base", "factor", "low", "high", "original"),
    [
        (128, 500000.0, 8.0, 1.0, 4.0, 8192),
        (64, 500000.0, 32.0, 1.0, 4.0, 8192),
        (64, 1e4, 4, 2, 8, 2048),
    ],
)
def test_llama3_matches_metas_apply_scaling(head_dim, base, factor, low, high, original):
    theta = rotary_frequencies(head_dim, base=base)
    got = llama3_frequencies(
        head_dim,
        factor=factor,
        low_freq_factor=low,
        high_freq_factor=high,
        original_max_position_embeddings=original,
        base=base,
    )
    np.testing.assert_allclose(
        got, llama3_reference(theta, factor, low, high, original), rtol=1e-15
    )


def test_llama3_1_splits_the_128_dimensions_of_a_head_into_29_6_and_29_pairs():
    theta = rotary_frequencies(128, base=500000.0)
    got = llama3_frequencies(
        128,
        factor=8.0,
        low_freq_factor=1.0,
        high_freq_factor=4.0,
        original_max_position_embeddings=8192,
        base=500000.0,
    )
    wavelength = 2 * np.pi / theta
    assert (got == theta).sum() == (wavelength < 2048).sum() == 29
    assert (got == theta / 8).sum() == (wavelength > 8192).sum() == 29


@settings(max_examples=30, deadline=None)
@given(head_dims, bases, st.integers(64, 100_000))
def test_a_factor_of_one_changes_nothing(head_dim, base, original):
    theta = rotary_frequencies(head_dim, base=base)
    np.testing.assert_array_equal(linear_frequencies(head_dim, factor=1.0, base=base), theta)
    np.testing.assert_allclose(ntk_frequencies(head_dim, factor=1.0, base=base), theta)
    kwargs = {"factor": 1.0, "original_max_position_embeddings": original, "base": base}
    np.testing.assert_allclose(yarn_frequencies(head_dim, **kwargs), theta, rtol=1e-15)
    np.testing.assert_allclose(
        llama3_frequencies(head_dim, low_freq_factor=1.0, high_freq_factor=4.0, **kwargs),
        theta,
        rtol=1e-15,
    )


def test_partial_rotary_scales_the_rotated_pairs_only():
    got = yarn_frequencies(96, factor=4.0, original_max_position_embeddings=2048, rotary_dim=24)
    assert got.shape == (12,)
    np.testing.assert_allclose(got, yarn_reference(24, 10000.0, 4.0, 2048), rtol=1e-13)


# --- configuration dictionaries ----------------------------------------------------------------


def test_config_dispatches_on_rope_type():
    theta = rotary_frequencies(64, base=500000.0)
    cases = [
        ({}, rotary_frequencies(64), 1.0),
        ({"rope_type": "default", "rope_theta": 500000.0}, theta, 1.0),
        ({"type": "linear", "factor": 2.0}, rotary_frequencies(64) / 2, 1.0),  # older key
        (
            {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0}
            | {"high_freq_factor": 4.0, "original_max_position_embeddings": 8192},
            llama3_frequencies(
                64,
                factor=8.0,
                low_freq_factor=1.0,
                high_freq_factor=4.0,
                original_max_position_embeddings=8192,
                base=500000.0,
            ),
            1.0,
        ),
        (
            {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048},
            yarn_frequencies(64, factor=4.0, original_max_position_embeddings=2048),
            0.1 * math.log(4.0) + 1,
        ),
        (
            {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048}
            | {"attention_factor": 0.5, "beta_fast": 16, "beta_slow": 2, "truncate": False},
            yarn_frequencies(
                64,
                factor=4.0,
                original_max_position_embeddings=2048,
                beta_fast=16,
                beta_slow=2,
                truncate=False,
            ),
            0.5,
        ),
    ]
    for params, inv_freq, attention_factor in cases:
        got, factor = frequencies_from_config(64, params, rope_theta=10000.0)
        np.testing.assert_array_equal(got, inv_freq)
        assert factor == pytest.approx(attention_factor, rel=1e-15)


def test_config_lengths_come_from_max_position_embeddings_as_in_transformers():
    # dynamic: its trained length is max_position_embeddings; seq_len defaults to it.
    params = {"rope_type": "dynamic", "factor": 2.0}
    got, _ = frequencies_from_config(
        64, params, max_position_embeddings=2048, seq_len=8192, rope_theta=10000.0
    )
    np.testing.assert_array_equal(
        got,
        dynamic_ntk_frequencies(64, factor=2.0, seq_len=8192, max_position_embeddings=2048),
    )
    at_init, _ = frequencies_from_config(
        64, params, max_position_embeddings=2048, rope_theta=10000.0
    )
    np.testing.assert_array_equal(at_init, rotary_frequencies(64))
    # yarn without a factor: max_position_embeddings / original_max_position_embeddings.
    got, attention_factor = frequencies_from_config(
        64,
        {"rope_type": "yarn", "factor": None, "original_max_position_embeddings": 4096},
        max_position_embeddings=16384,
        rope_theta=10000.0,
    )
    np.testing.assert_array_equal(
        got, yarn_frequencies(64, factor=4.0, original_max_position_embeddings=4096)
    )
    assert attention_factor == yarn_attention_factor(4.0)
    # llama3 without original_max_position_embeddings falls back to max_position_embeddings.
    params = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4}
    got, _ = frequencies_from_config(64, params, max_position_embeddings=8192, rope_theta=10000.0)
    np.testing.assert_array_equal(
        got,
        llama3_frequencies(
            64,
            factor=8.0,
            low_freq_factor=1.0,
            high_freq_factor=4.0,
            original_max_position_embeddings=8192,
        ),
    )


def test_config_partial_rotary_factor_sets_the_rotated_size():
    got, _ = frequencies_from_config(  # Phi-2: 32 of 80
        80, {"partial_rotary_factor": 0.4}, rope_theta=10000.0
    )
    np.testing.assert_array_equal(got, rotary_frequencies(80, rotary_dim=32))


@pytest.mark.parametrize(
    ("params", "kwargs", "error", "message"),
    [
        ({"rope_type": "axial"}, {}, ValueError, r"rope_type must be one of \('default', "),
        ({"rope_type": "linear", "factr": 2.0}, {}, ValueError, r"unknown keys \['factr'\]"),
        ({"rope_type": "linear"}, {}, KeyError, "needs 'factor'"),
        ({"rope_type": "linear", "factor": 0.5}, {}, ValueError, "factor must be .* >= 1"),
        ({"type": "linear", "rope_type": "yarn"}, {}, ValueError, "keep one"),
        ({"rope_type": "dynamic", "factor": 2.0}, {}, ValueError, "needs max_position_embeddings"),
        ({"rope_type": "yarn", "factor": 4.0}, {}, KeyError, "original_max_position_embeddings"),
        (
            {"rope_type": "yarn", "original_max_position_embeddings": 4096},
            {"max_position_embeddings": 16384},
            KeyError,
            "needs 'factor'",
        ),
        (
            {"rope_type": "yarn", "factor": None, "original_max_position_embeddings": 4096},
            {},
            KeyError,
            "factor=None, .* pass max_position_embeddings",
        ),
        (
            {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0}
            | {"high_freq_factor": 1.0, "original_max_position_embeddings": 8192},
            {},
            ValueError,
            "high_freq_factor must be > low_freq_factor",
        ),
        (
            {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048}
            | {"beta_fast": 1.0, "beta_slow": 32.0},
            {},
            ValueError,
            "beta_fast must be >= beta_slow",
        ),
        ({"partial_rotary_factor": 0.3}, {}, ValueError, "it must be even and >= 2"),
        ({"partial_rotary_factor": 1.5}, {}, ValueError, r"must be in \(0, 1\]"),
    ],
)
def test_config_errors_name_the_key_and_the_allowed_values(params, kwargs, error, message):
    with pytest.raises(error, match=message):
        frequencies_from_config(64, params, rope_theta=10000.0, **kwargs)


def test_ntk_needs_two_pairs():
    with pytest.raises(ValueError, match="at least 4 rotated dimensions"):
        ntk_frequencies(2, factor=2.0)


# --- base, LongRoPE, proportional, per-layer-type ---------------------------------------------


@pytest.mark.parametrize(
    "params", [None, {}, {"rope_type": "linear", "factor": 2.0}, {"type": "linear", "factor": 2.0}]
)
def test_config_without_rope_theta_warns_and_names_the_fallback(params):
    with pytest.warns(UserWarning, match=r"no 'rope_theta'.*using 10,000"):
        got, _ = frequencies_from_config(64, params)
    factor = 2.0 if params else 1.0
    np.testing.assert_array_equal(got, rotary_frequencies(64) / factor)


def test_config_rope_theta_argument_is_the_base_unless_the_dictionary_has_one():
    params = {"rope_type": "linear", "factor": 2.0}
    got, _ = frequencies_from_config(64, params, rope_theta=500000.0)  # no warning: errors
    np.testing.assert_array_equal(got, rotary_frequencies(64, base=500000.0) / 2)
    got, _ = frequencies_from_config(64, params | {"rope_theta": 1e6}, rope_theta=500000.0)
    np.testing.assert_array_equal(got, rotary_frequencies(64, base=1e6) / 2)


PHI3 = {  # the shape of Phi-3-mini-128k's rope_scaling, 4 pairs
    "rope_type": "longrope",
    "rope_theta": 10000.0,
    "short_factor": [1.0, 1.5, 2.0, 3.0],
    "long_factor": [1.0, 4.0, 16.0, 64.0],
    "original_max_position_embeddings": 4096,
}


def test_longrope_divides_each_pair_by_the_list_the_length_picks():
    theta = rotary_frequencies(8)
    short = np.array(PHI3["short_factor"])
    long = np.array(PHI3["long_factor"])
    for seq_len, factors in [(None, short), (1, short), (4096, short), (4097, long)]:
        got, attention_factor = frequencies_from_config(
            8, PHI3, max_position_embeddings=131072, seq_len=seq_len
        )
        np.testing.assert_array_equal(got, theta / factors)
        assert attention_factor == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))


def test_longrope_attention_factor_from_factor_or_given():
    _, attention_factor = frequencies_from_config(8, PHI3 | {"factor": 4.0})
    assert attention_factor == pytest.approx(math.sqrt(1 + math.log(4) / math.log(4096)))
    _, attention_factor = frequencies_from_config(8, PHI3 | {"attention_factor": 1.25})
    assert attention_factor == 1.25
    assert longrope_attention_factor(1.0, 4096) == 1.0


def test_longrope_with_partial_rotary_has_one_factor_per_rotated_pair():
    params = PHI3 | {"partial_rotary_factor": 0.5}
    got, _ = frequencies_from_config(16, params, max_position_embeddings=8192, seq_len=5000)
    np.testing.assert_array_equal(
        got, rotary_frequencies(16, rotary_dim=8) / np.array(PHI3["long_factor"])
    )


def test_proportional_keeps_head_dim_as_denominator_and_zeroes_the_tail():
    params = {"rope_type": "proportional", "rope_theta": 1e6, "partial_rotary_factor": 0.25}
    got, attention_factor = frequencies_from_config(256, params)
    theta = rotary_frequencies(256, base=1e6)
    assert got.shape == (128,)
    np.testing.assert_array_equal(got[:32], theta[:32])  # the fastest pairs of full RoPE
    np.testing.assert_array_equal(got[32:], 0.0)
    assert attention_factor == 1.0
    got, _ = frequencies_from_config(256, params | {"factor": 8.0})
    np.testing.assert_array_equal(
        got, proportional_frequencies(256, partial_rotary_factor=0.25, factor=8.0, base=1e6)
    )
    np.testing.assert_array_equal(got[:32], theta[:32] / 8)


GEMMA3 = {
    "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
    "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
}


def test_config_per_layer_type_reads_the_chosen_dictionary():
    full, _ = frequencies_from_config(256, GEMMA3, layer_type="full_attention")
    np.testing.assert_array_equal(full, rotary_frequencies(256, base=1e6) / 8)
    local, _ = frequencies_from_config(256, GEMMA3, layer_type="sliding_attention")
    np.testing.assert_array_equal(local, rotary_frequencies(256))


@pytest.mark.parametrize(
    ("params", "kwargs", "message"),
    [
        (GEMMA3, {}, r"pass layer_type, one of \['full_attention', 'sliding_attention'\]"),
        (GEMMA3, {"layer_type": "chunked"}, r"layer_type must be one of \['full_attention', "),
        (PHI3, {"layer_type": "full_attention"}, "not split by layer type"),
        (GEMMA3 | {"rope_theta": 1.0}, {"layer_type": "full_attention"}, r"flat keys \['rope"),
        (PHI3 | {"short_factor": [1.0]}, {}, "short_factor must have one factor per .*, 4, got 1"),
        (PHI3 | {"long_factor": [1.0, 1.0, 0.0, 1.0]}, {"seq_len": 5000}, r"long_factor\[2\]"),
        ({"rope_type": "proportional", "partial_rotary_factor": 1.5}, {}, r"in \(0, 1\]"),
    ],
)
def test_config_new_forms_refuse_naming_the_key(params, kwargs, message):
    with pytest.raises(ValueError, match=message):
        frequencies_from_config(8, params, rope_theta=10000.0, **kwargs)


def test_longrope_without_factor_or_lengths_needs_max_position_embeddings():
    with pytest.raises(KeyError, match="pass max_position_embeddings"):
        frequencies_from_config(8, PHI3)


def test_longrope_needs_its_own_original_length_and_never_takes_the_trained_one():
    # Phi-3 keeps original_max_position_embeddings beside rope_scaling; max_position_embeddings
    # (131072) in its place would pick the short factors for 8000 tokens, as Transformers
    # does not.
    params = {"rope_type": "longrope", "rope_theta": 1e4, "short_factor": [1.0] * 4}
    params["long_factor"] = [2.0] * 4
    with pytest.raises(KeyError, match="original_max_position_embeddings"):
        frequencies_from_config(8, params, max_position_embeddings=131072, seq_len=8000)


def test_a_rope_theta_argument_of_zero_is_refused_not_replaced():
    with pytest.raises(ValueError, match="rope_theta"):
        frequencies_from_config(8, {"rope_type": "default"}, rope_theta=0.0)


# --- numbers the Longer contexts lesson prints --------------------------------------------------


def test_yarn_on_a_short_input_moves_the_angles_of_40_of_64_pairs():
    # "When to turn YaRN on": Qwen2-7B's RoPE (head_dim 128, base 1e6, L = 32768), YaRN by 4.
    # The ramp of the reference code runs from pair floor(23.6) = 23 to pair ceil(39.6) = 40.
    plain = {"rope_type": "default", "rope_theta": 1e6}
    yarn = plain | {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
    off, _ = frequencies_from_config(128, plain)
    on, attention_factor = frequencies_from_config(128, yarn)
    np.testing.assert_allclose(on, yarn_reference(128, 1e6, 4.0, 32768), rtol=1e-12)
    np.testing.assert_allclose((off / on)[:24], 1.0)  # kept
    np.testing.assert_allclose((off / on)[40:], 4.0)  # interpolated as in PI
    assert np.sum(~np.isclose(on, off)) == 40
    shifts = [distance * (off - on) for distance in (100, 1000, 4000)]
    assert [round(float(shift.max()), 3) for shift in shifts] == [0.052, 0.523, 2.092]
    assert [int(np.sum(shift > 0.1)) for shift in shifts] == [0, 18, 24]
    assert [round(float(np.degrees(shift.max()))) for shift in shifts] == [3, 30, 120]
    assert 24 <= int(np.argmax(shifts[1])) < 40  # the ramp moves most, not the slowest pairs
    assert attention_factor == pytest.approx(0.1 * math.log(4.0) + 1)
    assert round(attention_factor**2, 4) == 1.2965  # on every score, short inputs included


def test_longrope_attention_factor_of_phi3_is_the_square_root_of_17_over_12():
    # ln 32 / ln 4096 = 5 ln 2 / (12 ln 2): 1.1902 on queries and keys, 1.4167 on the scores.
    factor = longrope_attention_factor(131072 / 4096, 4096)
    assert factor**2 == pytest.approx(17 / 12, rel=1e-14)
    assert (round(factor, 4), round(factor**2, 4)) == (1.1902, 1.4167)


# --- a whole configuration (config.to_dict()) ---------------------------------------------------
# Dictionaries shaped like Transformers 5.24's to_dict(), written out; the comparison with each
# model's rotary embedding is in tests/oracle/test_config_oracle.py.

LLAMA31 = {
    "model_type": "llama",
    "num_hidden_layers": 2,
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "head_dim": 128,
    "max_position_embeddings": 131072,
    "rope_parameters": {"rope_type": "llama3", "factor": 8.0, "rope_theta": 500000.0}
    | {"low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192},
}
GEMMA3_CONFIG = {
    "model_type": "gemma3_text",
    "num_hidden_layers": 6,
    "head_dim": 256,
    "sliding_window": 1024,
    "max_position_embeddings": 131072,
    "layer_types": ["sliding_attention"] * 5 + ["full_attention"],
    "rope_parameters": GEMMA3,
}


def test_config_form_reads_what_the_other_form_is_given():
    got, factor = frequencies_from_config(LLAMA31)
    expected, expected_factor = frequencies_from_config(
        128, LLAMA31["rope_parameters"], max_position_embeddings=131072
    )
    np.testing.assert_array_equal(got, expected)
    assert factor == expected_factor == 1.0
    full, _ = frequencies_from_config(GEMMA3_CONFIG, layer_type="full_attention")
    np.testing.assert_array_equal(full, rotary_frequencies(256, base=1e6) / 8)


def test_config_head_dim_falls_back_to_hidden_size_over_heads():
    config = LLAMA31 | {"head_dim": None, "hidden_size": 3072, "num_attention_heads": 32}
    got, _ = frequencies_from_config(config | {"rope_parameters": {"rope_theta": 1e4}})
    np.testing.assert_array_equal(got, rotary_frequencies(96))


def test_config_partial_rotary_factor_at_the_top_and_mrope_keys_inside():
    qwen3_vl = {
        "model_type": "qwen3_vl",
        "text_config": LLAMA31
        | {"partial_rotary_factor": 0.5}
        | {
            "rope_parameters": {"rope_type": "default", "rope_theta": 5e6}
            | {"mrope_section": [24, 20, 20], "mrope_interleaved": True}
        },
    }
    got, _ = frequencies_from_config(qwen3_vl)
    np.testing.assert_array_equal(got, rotary_frequencies(128, base=5e6, rotary_dim=64))


def test_config_phi3_original_length_at_the_top_wins_over_the_dictionary():
    phi3 = {
        "num_hidden_layers": 2,
        "hidden_size": 64,
        "num_attention_heads": 8,  # head_dim 8: PHI3's 4 pairs
        "max_position_embeddings": 131072,
        "original_max_position_embeddings": 4096,
        "rope_parameters": PHI3 | {"original_max_position_embeddings": 100},
    }
    theta = rotary_frequencies(8)
    short, factor = frequencies_from_config(phi3, seq_len=4096)
    np.testing.assert_array_equal(short, theta / np.array(PHI3["short_factor"]))
    assert factor == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)))
    long, _ = frequencies_from_config(phi3, seq_len=4097)
    np.testing.assert_array_equal(long, theta / np.array(PHI3["long_factor"]))


def test_config_llama3_with_equal_frequency_factors_divides_the_slow_pairs_only():
    # Llama 4 Scout: low_freq_factor = high_freq_factor = 1, no band between; Transformers'
    # formula then keeps the pairs shorter than 8192 positions and divides the longer ones.
    scout = {
        "num_hidden_layers": 4,
        "head_dim": 128,
        "max_position_embeddings": 262144,
        "rope_parameters": LLAMA31["rope_parameters"]
        | {"factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0},
    }
    theta = rotary_frequencies(128, base=500000.0)
    got, _ = frequencies_from_config(scout)
    slow = 2 * np.pi / theta > 8192
    assert 0 < slow.sum() < slow.size
    np.testing.assert_array_equal(got, np.where(slow, theta / 16, theta))
    flat, _ = frequencies_from_config(128, scout["rope_parameters"])
    np.testing.assert_array_equal(flat, got)


def test_config_layers_without_rope_are_refused_pointing_to_layer_schedule():
    cohere2 = {
        "model_type": "cohere2",
        "num_hidden_layers": 4,
        "head_dim": 128,
        "sliding_window": 4096,
        "layer_types": ["sliding_attention"] * 3 + ["full_attention"],
        "rope_parameters": {"rope_type": "default", "rope_theta": 50000.0},
    }
    with pytest.raises(ValueError, match=r"'full_attention' \(layers \[3\]\).*NoPE.*layer_sch"):
        frequencies_from_config(cohere2, layer_type="full_attention")
    got, _ = frequencies_from_config(cohere2)  # its rotating layers share one set
    np.testing.assert_array_equal(got, rotary_frequencies(128, base=50000.0))
    llama4 = LLAMA31 | {"num_hidden_layers": 4, "no_rope_layers": [1, 1, 1, 0]}
    llama4["layer_types"] = ["chunked_attention"] * 3 + ["full_attention"]
    llama4["attention_chunk_size"] = 8192
    with pytest.raises(ValueError, match="NoPE"):
        frequencies_from_config(llama4, layer_type="full_attention")
    nowhere = LLAMA31 | {"no_rope_layers": [0, 0]}
    with pytest.raises(ValueError, match="no layer of the configuration applies RoPE"):
        frequencies_from_config(nowhere)
    gemma = GEMMA3_CONFIG | {"rope_parameters": GEMMA3 | {"full_attention": None}}
    with pytest.raises(ValueError, match=r"'full_attention' \(layers \[5\]\).*NoPE"):
        frequencies_from_config(gemma, layer_type="full_attention")


@pytest.mark.parametrize(
    ("config", "kwargs", "error", "message"),
    [
        (GEMMA3_CONFIG, {}, ValueError, r"split by layer type: pass layer_type, one of \['full_"),
        (GEMMA3_CONFIG, {"layer_type": "chunked_attention"}, ValueError, "layer types"),
        (LLAMA31, {"max_position_embeddings": 8192}, TypeError, "max_position_embeddings"),
        (LLAMA31, {"rope_theta": 1e4}, TypeError, r"reads \['rope_theta'\] from the config"),
        (LLAMA31 | {"head_dim": None, "qk_rope_head_dim": 64}, {}, KeyError, "qk_rope_head_dim"),
        (LLAMA31 | {"head_dim": None, "hidden_size": None}, {}, KeyError, "'hidden_size'"),
        (LLAMA31 | {"rope_parameters": {"rope_type": "su"}}, {}, ValueError, "rope_type must be"),
        (
            LLAMA31 | {"per_layer_config": {"1": {"head_dim": 64}}},
            {},
            ValueError,
            "layers 0 and 1 .* differ",
        ),
        (LLAMA31 | {"max_position_embeddings": 0}, {}, ValueError, "max_position_embeddings"),
    ],
)
def test_config_form_refusals_name_the_key(config, kwargs, error, message):
    with pytest.raises(error, match=message):
        frequencies_from_config(config, **kwargs)


def test_config_form_refuses_a_rope_parameters_argument():
    with pytest.raises(TypeError, match=r"reads \['rope_parameters'\]"):
        frequencies_from_config(LLAMA31, {"rope_type": "default"})  # type: ignore[call-overload]


def test_config_form_transformers_4_top_level_rope_theta_or_a_warning():
    old = {
        "num_hidden_layers": 2,
        "head_dim": 64,
        "rope_scaling": {"type": "linear", "factor": 2.0},
    }
    got, _ = frequencies_from_config(old | {"rope_theta": 500000.0})
    np.testing.assert_array_equal(got, rotary_frequencies(64, base=500000.0) / 2)
    with pytest.warns(UserWarning, match=r"configuration has no 'rope_theta'.*using 10,000") as w:
        got, _ = frequencies_from_config(old)
    assert w[0].filename == __file__  # the warning points at the caller
    np.testing.assert_array_equal(got, rotary_frequencies(64) / 2)


def test_mrope_keys_are_accepted_in_the_dictionary_form_too():
    params = {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [16, 24, 24]}
    got, _ = frequencies_from_config(128, params)
    np.testing.assert_array_equal(got, rotary_frequencies(128, base=1e6))
