import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc import sinusoidal_encoding
from posenc.sinusoidal import _ANGLES_PER_BLOCK, LAYOUTS


def test_first_row_alternates_zero_and_one():
    np.testing.assert_array_equal(sinusoidal_encoding(4, 6)[0], [0, 1, 0, 1, 0, 1])


def test_second_row_matches_the_lesson_for_d_model_6():
    # sin/cos of 1, 1 / 10000**(2/6) and 1 / 10000**(4/6).
    expected = [0.841, 0.54, 0.046, 0.999, 0.002, 1.0]
    np.testing.assert_array_equal(np.round(sinusoidal_encoding(4, 6)[1], 3), expected)


def test_values_follow_the_papers_formula_at_a_far_position():
    pe = sinusoidal_encoding(101, 512)
    pos, i = 100, 37
    angle = pos / 10000 ** (2 * i / 512)
    assert pe[pos, 2 * i] == pytest.approx(math.sin(angle), abs=1e-12)
    assert pe[pos, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-12)


def test_shape_and_dtype():
    pe = sinusoidal_encoding(50, 16)
    assert pe.shape == (50, 16)
    assert pe.dtype == np.float64


def test_zero_positions_gives_an_empty_table():
    pe = sinusoidal_encoding(0, 8)
    assert pe.shape == (0, 8)
    assert pe.dtype == np.float64


def test_odd_d_model_ends_with_a_sine_and_matches_the_even_table():
    odd = sinusoidal_encoding(10, 7)
    assert odd.shape == (10, 7)
    pos = np.arange(10)
    np.testing.assert_allclose(odd[:, 6], np.sin(pos / 10000 ** (6 / 7)))
    # Columns 0..5 of d_model=7 use exponents 2i/7, not 2i/6.
    np.testing.assert_allclose(odd[:, 2], np.sin(pos / 10000 ** (2 / 7)))


def test_d_model_one_is_a_single_sine_column():
    np.testing.assert_allclose(sinusoidal_encoding(5, 1)[:, 0], np.sin(np.arange(5)))


def test_base_changes_the_frequencies():
    pe = sinusoidal_encoding(3, 4, base=100.0)
    assert pe[2, 2] == pytest.approx(math.sin(2 / 100 ** (2 / 4)))


def test_numpy_integers_are_accepted():
    assert sinusoidal_encoding(np.int64(3), np.int32(4)).shape == (3, 4)


def test_rows_are_distinct_fingerprints():
    pe = sinusoidal_encoding(512, 64)
    # |a - b|^2 = |a|^2 + |b|^2 - 2 a.b: one matrix product, not a 512 x 512 x 64 array of
    # differences (the same distances to 2e-14 here).
    squared = np.sum(pe * pe, axis=1)
    distances = np.sqrt(np.maximum(squared[:, None] + squared[None, :] - 2 * pe @ pe.T, 0.0))
    off_diagonal = distances[~np.eye(512, dtype=bool)]
    assert off_diagonal.min() > 0.1


@given(
    n_positions=st.integers(0, 64),
    d_model=st.integers(1, 64),
    base=st.floats(2.0, 1e6),
)
def test_values_are_bounded_and_pairs_lie_on_the_unit_circle(n_positions, d_model, base):
    pe = sinusoidal_encoding(n_positions, d_model, base=base)
    assert pe.shape == (n_positions, d_model)
    assert np.all(np.abs(pe) <= 1.0)
    pairs = pe[:, : d_model - d_model % 2]
    np.testing.assert_allclose(pairs[:, 0::2] ** 2 + pairs[:, 1::2] ** 2, 1.0)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (
            {"n_positions": -1, "d_model": 4},
            ValueError,
            "n_positions must be an integer >= 0, got -1",
        ),
        (
            {"n_positions": 4.0, "d_model": 4},
            TypeError,
            "n_positions must be an integer >= 0, got float",
        ),
        (
            {"n_positions": True, "d_model": 4},
            TypeError,
            "n_positions must be an integer >= 0, got the bool",
        ),
        ({"n_positions": "4", "d_model": 4}, TypeError, "n_positions must be an integer"),
        ({"n_positions": 4, "d_model": 0}, ValueError, "d_model must be an integer >= 1, got 0"),
        ({"n_positions": 4, "d_model": -2}, ValueError, "d_model must be an integer >= 1, got -2"),
        (
            {"n_positions": 4, "d_model": 2.5},
            TypeError,
            "d_model must be an integer >= 1, got float",
        ),
        (
            {"n_positions": 4, "d_model": 4, "base": 0},
            ValueError,
            "base must be a finite real number > 0, got 0.0",
        ),
        (
            {"n_positions": 4, "d_model": 4, "base": -10.0},
            ValueError,
            "base must be a finite real number > 0",
        ),
        (
            {"n_positions": 4, "d_model": 4, "base": float("inf")},
            ValueError,
            "base must be a finite",
        ),
        (
            {"n_positions": 4, "d_model": 4, "base": float("nan")},
            ValueError,
            "base must be a finite",
        ),
        (
            {"n_positions": 4, "d_model": 4, "base": "10000"},
            TypeError,
            "base must be a finite real number",
        ),
        (
            {"n_positions": 4, "d_model": 4, "layout": "half"},
            ValueError,
            r"layout must be one of \('interleaved', 'concatenated'\), got 'half'",
        ),
    ],
)
def test_bad_arguments_raise_a_clear_error(kwargs, error, message):
    with pytest.raises(error, match=message):
        sinusoidal_encoding(**kwargs)


def test_base_must_be_passed_by_keyword():
    with pytest.raises(TypeError):
        sinusoidal_encoding(4, 6, 10000.0)  # type: ignore[misc]


def tensor2tensor_timing_signal(length, channels, max_timescale=1.0e4):
    """tensor2tensor's get_timing_signal_1d (common_attention.py), transcribed one value at a time.

    num_timescales = channels // 2; log_timescale_increment = log(max_timescale) /
    max(num_timescales - 1, 1); inv_timescales[i] = exp(-i * increment); the signal is
    [sin(pos * inv) | cos(pos * inv)], padded with a zero column when channels is odd.
    fairseq's SinusoidalPositionalEmbedding.get_embedding computes the same for channels >= 4.
    """
    num_timescales = channels // 2
    increment = math.log(max_timescale) / max(num_timescales - 1, 1)
    rows = []
    for position in range(length):
        scaled = [position * math.exp(-i * increment) for i in range(num_timescales)]
        row = [math.sin(a) for a in scaled] + [math.cos(a) for a in scaled]
        rows.append(row + [0.0] * (channels % 2))
    return np.array(rows).reshape(length, channels)


@pytest.mark.parametrize(("n_positions", "d_model"), [(5, 8), (3, 7), (4, 2), (2, 1), (50, 64)])
def test_concatenated_layout_is_tensor2tensors_timing_signal(n_positions, d_model):
    np.testing.assert_allclose(
        sinusoidal_encoding(n_positions, d_model, layout="concatenated"),
        tensor2tensor_timing_signal(n_positions, d_model),
        rtol=0,
        atol=1e-12,
    )


def test_concatenated_layout_reference_values():
    # d_model = 6: three frequencies 1, 10000 ** -0.5 = 0.01, 10000 ** -1 = 0.0001, so the
    # slowest column turns at exactly 1 / base, where the paper's layout stops at
    # 10000 ** -(4/6).
    row = sinusoidal_encoding(3, 6, layout="concatenated")[2]
    expected = [math.sin(2), math.sin(0.02), math.sin(0.0002)]
    expected += [math.cos(2), math.cos(0.02), math.cos(0.0002)]
    np.testing.assert_allclose(row, expected, rtol=0, atol=1e-15)
    paper = sinusoidal_encoding(3, 6)[2]
    assert not np.allclose(np.sort(row), np.sort(paper))


def direct_formula(n_positions, d_model, base=10000.0, layout="interleaved"):
    """The table evaluated angle by angle with np.sin and np.cos: the formula as written."""
    positions = np.arange(n_positions, dtype=np.float64)[:, None]
    table = np.zeros((n_positions, d_model))
    if layout == "concatenated":
        half = d_model // 2
        angles = positions * base ** (-np.arange(half) / max(half - 1, 1))
        table[:, :half] = np.sin(angles)
        table[:, half : 2 * half] = np.cos(angles)
        return table
    angles = positions / base ** (np.arange(0, d_model, 2) / d_model)
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles[:, : d_model // 2])
    return table


# The promise: within 1e-12 of the formula evaluated directly. The measured bound of the fast
# method is a few ulps (3.4e-16 over a 65536 x 1024 table); the tests hold it below 1e-15.
PROMISE = 1e-12
FEW_ULPS = 1e-15


def assert_matches_the_direct_formula(n_positions, d_model, base=10000.0, layout="interleaved"):
    fast = sinusoidal_encoding(n_positions, d_model, base=base, layout=layout)
    direct = direct_formula(n_positions, d_model, base, layout)
    assert fast.shape == direct.shape == (n_positions, d_model)
    assert fast.dtype == np.float64
    np.testing.assert_allclose(fast, direct, rtol=0, atol=PROMISE)
    if fast.size:
        assert np.abs(fast - direct).max() <= FEW_ULPS
        assert np.abs(fast).max() <= 1.0


def rows_per_block(d_model):
    return _ANGLES_PER_BLOCK // ((d_model + 1) // 2)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(
    ("n_positions", "d_model"),
    [
        (0, 8),  # no rows
        (0, 1),
        (3, 6),  # fewer rows than a block
        (rows_per_block(1024) - 1, 1024),
        (rows_per_block(1024), 1024),  # exactly one block
        (rows_per_block(1024) + 1, 1024),
        (5 * rows_per_block(512) + 17, 512),  # n_positions not a multiple of the block
        (1000, 7),  # odd d_model
        (3 * rows_per_block(1001) + 2, 1001),
        (10, 1),
        (7, 2),
        (70000, 64),  # large positions: angles up to 69999
    ],
)
def test_fast_table_equals_the_direct_formula(n_positions, d_model, layout):
    assert_matches_the_direct_formula(n_positions, d_model, layout=layout)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("base", [2.0, 0.5, 1e6])
def test_fast_table_equals_the_direct_formula_for_other_bases(base, layout):
    assert_matches_the_direct_formula(3 * rows_per_block(128) + 1, 128, base, layout)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_angles_beyond_the_fast_range_are_computed_directly(layout):
    # base = 1e-12: frequencies up to 1e6, angles up to 1e8 >= 2**26.
    assert_matches_the_direct_formula(100, 4, 1e-12, layout)


@settings(deadline=None)
@given(
    n_positions=st.integers(0, 200),
    d_model=st.integers(1, 2048),
    base=st.floats(0.5, 1e6),
    layout=st.sampled_from(LAYOUTS),
)
def test_fast_table_equals_the_direct_formula_property(n_positions, d_model, base, layout):
    # Up to 2048 columns, so that a table spans several blocks of rows.
    assert_matches_the_direct_formula(n_positions, d_model, base, layout)
