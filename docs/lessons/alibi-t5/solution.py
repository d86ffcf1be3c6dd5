import numpy as np

n_heads = 8
n = 5


def slopes(n_heads):
    start = 2 ** (-8 / n_heads)
    return start ** np.arange(1, n_heads + 1)


def alibi(n_heads, n):
    distance = np.arange(n)[:, None] - np.arange(n)[None, :]
    bias = slopes(n_heads)[:, None, None] * -distance
    return np.where(distance < 0, -np.inf, bias)


print(1 / slopes(n_heads))
print(alibi(n_heads, n).shape)
print(alibi(n_heads, n)[0])
