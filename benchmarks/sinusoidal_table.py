"""Time `posenc.sinusoidal_encoding` against the seed lesson's formula, side by side.

Run from the repository root: ``python benchmarks/sinusoidal_table.py`` (NumPy only). The
`posenc` of this checkout is benchmarked, installed or not. Both functions are timed in the
same run, alternately, best of a few repetitions each; what carries over to another machine
is the ratio, not the seconds. Peak memory is traced with `tracemalloc` in separate calls
(tracing slows a call down) and given relative to the size of the output table.
"""

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from posenc import sinusoidal_encoding


def seed_formula(n, d):
    """The seed lesson's formula, the baseline, as the lesson wrote it."""
    pos = np.arange(n)[:, None]
    i = np.arange(0, d, 2)
    angle = pos / 10000 ** (i / d)
    PE = np.zeros((n, d))
    PE[:, 0::2] = np.sin(angle)
    PE[:, 1::2] = np.cos(angle)
    return PE


def best_times(functions, repeat):
    """Best wall-clock time of each function, calling them in turn `repeat` times."""
    best = {name: float("inf") for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def peak_memory(function):
    """Peak memory traced by tracemalloc during one call, in bytes."""
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def long_double_error(table, n, d, rows):
    """Largest error of `table` on `rows` against long double sin and cos of its angles.

    The angles are the float64 ones of the formula; None where long double is no more
    precise than float64.
    """
    if np.finfo(np.longdouble).eps >= np.finfo(np.float64).eps:
        return None
    angles = (rows[:, None] / 10000 ** (np.arange(0, d, 2) / d)).astype(np.longdouble)
    exact = np.empty((rows.size, d), dtype=np.longdouble)
    exact[:, 0::2] = np.sin(angles)
    exact[:, 1::2] = np.cos(angles)
    return float(np.abs(table[rows].astype(np.longdouble) - exact).max())


def main():
    """Time, trace and compare both functions; print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=65536)
    parser.add_argument("--d-model", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    n, d = args.positions, args.d_model
    functions = {
        "seed formula": lambda: seed_formula(n, d),
        "sinusoidal_encoding": lambda: sinusoidal_encoding(n, d),
    }

    times = best_times(functions, args.repeat)
    output = n * d * np.dtype(np.float64).itemsize
    peaks = {name: peak_memory(function) for name, function in functions.items()}

    seed, fast = seed_formula(n, d), sinusoidal_encoding(n, d)
    # By slices of rows, so that the difference needs no third table.
    difference = max(
        float(np.abs(fast[i : i + 4096] - seed[i : i + 4096]).max()) for i in range(0, n, 4096)
    )
    rows = np.unique(np.linspace(0, n - 1, 64).astype(np.int64))
    errors = {"seed formula": long_double_error(seed, n, d, rows)}
    errors["sinusoidal_encoding"] = long_double_error(fast, n, d, rows)
    del seed, fast

    print(f"sinusoidal table {n} x {d}, float64, output {output / 2**20:.1f} MiB")
    print(f"best of {args.repeat} calls each, taken in turn, in one run\n")
    print(f"{'':22}{'time (s)':>10}{'peak memory / output':>24}{'error vs long double':>24}")
    for name in functions:
        error = "n/a" if errors[name] is None else f"{errors[name]:.1e}"
        print(f"{name:22}{times[name]:>10.3f}{peaks[name] / output:>24.3f}{error:>24}")
    print(
        f"\nspeed-up (seed time / sinusoidal_encoding time): "
        f"{times['seed formula'] / times['sinusoidal_encoding']:.2f}x"
    )
    print(f"max abs difference over all {n * d} entries: {difference:.1e}")
    print(f"(error vs long double: sin and cos of the same float64 angles on {rows.size} rows)")


if __name__ == "__main__":
    main()
