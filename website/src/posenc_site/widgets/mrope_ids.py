"""The explorable figure of M-RoPE's position ids: text, an image, text (lesson images-and-video).

The page's script, ``docs/assets/widgets/mrope-ids.js``, gives every token its (time, height,
width) ids by the rule of `posenc.multimodal.mrope_position_ids` (Qwen2-VL's). It opens on the
lesson's worked example and checks itself against posenc's ids of that example, given here.
"""

from posenc import mrope_position_ids

NAME = "mrope-ids"

# The lesson's worked example: 3 text tokens, an image of 2 x 3 tokens (one frame), 2 tokens.
_BEFORE, _HEIGHT, _WIDTH, _AFTER = 3, 2, 3, 2


def data() -> dict[str, object]:
    """The control ranges of the M-RoPE widget and posenc's ids of its first setting.

    Returns
    -------
    dict
        ``before``, ``after`` (text tokens around the image), ``height`` and ``width`` (the
        image's grid in tokens, after merging patches): each the lowest, highest and first
        value of its slider, the first values being the lesson's worked example; ``example``:
        that example's ``segments`` and posenc's ``ids`` for them (rows time, height, width),
        which the script must reproduce before it draws anything.
    """
    segments: list[int | tuple[int, int, int]] = [_BEFORE, (1, _HEIGHT, _WIDTH), _AFTER]
    return {
        "before": {"min": 0, "max": 6, "value": _BEFORE},
        "height": {"min": 1, "max": 8, "value": _HEIGHT},
        "width": {"min": 1, "max": 8, "value": _WIDTH},
        "after": {"min": 0, "max": 6, "value": _AFTER},
        "example": {
            "segments": segments,  # the image's triple as a JSON list
            "ids": mrope_position_ids(segments).tolist(),
        },
    }
