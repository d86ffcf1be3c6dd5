import numpy as np

max_positions, d_model = 8, 4
rng = np.random.default_rng(0)
table = rng.normal(0.0, 0.02, size=(max_positions, d_model))


def lookup(table, positions):
    positions = np.asarray(positions)
    limit = table.shape[0]
    outside = (positions < 0) | (positions >= limit)
    if outside.any():
        first = positions[outside].flat[0]
        raise ValueError(f"positions must be in [0, {limit - 1}], got {first}")
    return table[positions]


print(lookup(table, np.arange(5)).shape)
print(bool(np.array_equal(lookup(table, [2, 2]), table[[2, 2]])))
try:
    lookup(table, np.arange(9))
except ValueError as error:
    print(error)
