import numpy as np

from posenc import (
    alibi_slopes,
    embed_positions,
    learned_position_table,
    relative_position_bucket,
    sinusoidal_encoding,
)

max_positions, position = 512, 600

table = learned_position_table(max_positions, 16)
try:
    embed_positions(table, [position])
    print("learned: ok")
except ValueError:
    print("learned: no row")
print("sinusoidal:", sinusoidal_encoding(position + 1, 16)[position].shape)
print("alibi:", -alibi_slopes(8)[3] * position)
print("t5 bucket:", int(relative_position_bucket(np.array([-position]))[0]))
