import numpy as np


def softmax(z, axis=-1):
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def self_attention(x):
    return softmax(x @ x.T / np.sqrt(x.shape[1])) @ x


x = np.random.default_rng(0).normal(size=(4, 6))


def positional_encoding(n_positions, d_model):
    pos = np.arange(n_positions)[:, None]
    two_i = np.arange(0, d_model, 2)
    angles = pos / 10000 ** (two_i / d_model)
    PE = np.zeros((n_positions, d_model))
    PE[:, 0::2] = np.sin(angles)
    PE[:, 1::2] = np.cos(angles)
    return PE


PE = positional_encoding(4, 6)
print(PE.shape)
print(PE[0])
print(np.round(PE[1], 3))
same_without = np.allclose(self_attention(x[::-1]), self_attention(x)[::-1])
same_with = np.allclose(
    self_attention(x[::-1] + PE),
    self_attention(x + PE)[::-1],
)
print(same_without, same_with)
