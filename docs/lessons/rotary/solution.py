import numpy as np

rng = np.random.default_rng(0)
q, k = rng.normal(size=(2, 8))


def rope(x, position, base=10000.0):
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)
    angle = position * theta
    out = np.empty_like(x)
    out[0::2] = x[0::2] * np.cos(angle) - x[1::2] * np.sin(angle)
    out[1::2] = x[0::2] * np.sin(angle) + x[1::2] * np.cos(angle)
    return out


score = rope(q, 7) @ rope(k, 3)
shifted = rope(q, 107) @ rope(k, 103)
print(round(float(score), 4))
print(bool(np.isclose(score, shifted)))
print(bool(np.isclose(np.linalg.norm(rope(q, 7)), np.linalg.norm(q))))
