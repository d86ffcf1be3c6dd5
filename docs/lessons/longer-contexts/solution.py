import numpy as np

head_dim, factor, base = 128, 8.0, 10000.0
theta = base ** (-np.arange(0, head_dim, 2) / head_dim)


def position_interpolation(theta, factor):
    return theta / factor


def ntk_aware(head_dim, factor, base=10000.0):
    new_base = base * factor ** (head_dim / (head_dim - 2))
    return new_base ** (-np.arange(0, head_dim, 2) / head_dim)


pi = position_interpolation(theta, factor)
ntk = ntk_aware(head_dim, factor, base)
print(np.round(theta[[0, 32, 63]] / ntk[[0, 32, 63]], 3))
m = 10_000
print(np.allclose(m * pi, (m / factor) * theta))
print(bool(np.isclose(ntk[-1], pi[-1])))
