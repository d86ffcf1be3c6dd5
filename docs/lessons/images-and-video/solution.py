import numpy as np

from posenc import mrope_position_ids

segments = [2, (1, 2, 2), 1, (2, 2, 2), 1]


def position_ids(segments):
    parts, start = [], 0
    for segment in segments:
        if isinstance(segment, int):
            parts.append(np.tile(start + np.arange(segment), (3, 1)))
            start += segment
        else:
            t, h, w = segment
            axes = (np.arange(t), np.arange(h), np.arange(w))
            grid = np.meshgrid(*axes, indexing="ij")
            parts.append(start + np.stack(grid).reshape(3, -1))
            start += max(t, h, w)
    return np.concatenate(parts, axis=1)


ids = position_ids(segments)
print(ids)
print(np.array_equal(ids, mrope_position_ids(segments)))
