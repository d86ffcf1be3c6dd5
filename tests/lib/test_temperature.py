"""Llama 4's attention temperature for NoPE layers: 1 on short inputs, then slow steps up."""

import math

import numpy as np
import pytest

from posenc import llama4_attention_scale


def test_one_below_the_first_block():
    scale = llama4_attention_scale(np.arange(8191))  # p + 1 < 8192
    np.testing.assert_array_equal(scale, 1.0)


def test_the_first_rise_is_at_floor_scale_minus_one():
    scale = llama4_attention_scale([8190, 8191, 8192, 2 * 8192 - 2, 2 * 8192 - 1])
    expected = [1.0, 1 + 0.1 * math.log(2), 1 + 0.1 * math.log(2), 1 + 0.1 * math.log(2)]
    np.testing.assert_allclose(scale[:4], expected, rtol=1e-15)
    np.testing.assert_allclose(scale[4], 1 + 0.1 * math.log(3), rtol=1e-15)


def test_monotone_in_steps_of_floor_scale():
    positions = np.arange(0, 300_000)
    scale = llama4_attention_scale(positions)
    steps = np.diff(scale)
    assert np.all(steps >= 0)
    rises = np.flatnonzero(steps > 0) + 1  # the positions where a new value starts
    np.testing.assert_array_equal(rises, np.arange(8191, 300_000, 8192))
    assert np.all(np.diff(steps[rises - 1]) < 0)  # each step smaller than the one before


def test_values_a_lesson_shows():
    scale = llama4_attention_scale([0, 8191, 65536, 1_000_000])
    np.testing.assert_array_equal(np.round(scale, 4), [1.0, 1.0693, 1.2197, 1.4812])
    # 1e6 tokens: floor(1_000_001 / 8192) = 122 blocks, 1 + 0.1 ln 123.
    np.testing.assert_allclose(scale[-1], 1 + 0.1 * math.log(123), rtol=1e-15)


def test_other_parameters_and_shapes():
    position_ids = np.array([[0, 1, 2, 3], [4, 5, 6, 7]])
    scale = llama4_attention_scale(position_ids, floor_scale=3, attn_scale=0.5)
    blocks = np.array([[0, 0, 1, 1], [1, 2, 2, 2]])  # floor((p + 1) / 3)
    np.testing.assert_allclose(scale, 1 + 0.5 * np.log1p(blocks), rtol=1e-15)
    np.testing.assert_array_equal(llama4_attention_scale(position_ids, attn_scale=0), 1.0)
    assert llama4_attention_scale(np.int64(10**9)).shape == ()
    assert llama4_attention_scale(np.arange(3, dtype=np.int32)).dtype == np.float64


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        (([0, -1],), {}, ValueError, "position_ids must be integers >= 0"),
        (([0.0, 1.0],), {}, TypeError, "position_ids must hold integers"),
        (([True],), {}, TypeError, "position_ids"),
        (([0],), {"floor_scale": 0}, ValueError, "floor_scale"),
        (([0],), {"floor_scale": np.inf}, ValueError, "floor_scale"),
        (([0],), {"attn_scale": -0.1}, ValueError, "attn_scale"),
        (([0],), {"attn_scale": "0.1"}, TypeError, "attn_scale"),
    ],
)
def test_bad_input_names_the_parameter(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        llama4_attention_scale(*args, **kwargs)
