import numpy as np

head_dim, fraction, base = 512, 0.25, 1_000_000.0
lengths = [3, 2, 4]


def proportional(head_dim, fraction, base):
    rotated = int(fraction * head_dim // 2)
    inv_freq = base ** (-np.arange(0, head_dim, 2) / head_dim)
    inv_freq[rotated:] = 0.0
    return inv_freq


def packed_positions(lengths):
    return np.concatenate([np.arange(n) for n in lengths])


def document_mask(lengths):
    document = np.repeat(np.arange(len(lengths)), lengths)
    causal = np.tril(np.ones((sum(lengths), sum(lengths)), dtype=bool))
    return causal & (document[:, None] == document[None, :])


inv_freq = proportional(head_dim, fraction, base)
print(np.sum(inv_freq == 0), round(2 * np.pi / inv_freq[inv_freq > 0].min()))
print(packed_positions(lengths))
n = sum(lengths)
causal = np.tril(np.ones((n, n), dtype=bool))
print(np.sum(causal & ~document_mask(lengths)))
