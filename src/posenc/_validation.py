"""Argument checks shared by the public functions.

Each check names the parameter and the allowed range, so a caller never meets a NumPy
broadcasting error raised from deep inside a computation.
"""

import math
import numbers
import operator

import numpy as np


def check_integer(name: str, value: object, *, minimum: int, maximum: int | None = None) -> int:
    """Return ``value`` as an ``int`` in ``[minimum, maximum]``; raise otherwise."""
    allowed = f">= {minimum}" if maximum is None else f"in [{minimum}, {maximum}]"
    if isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be an integer {allowed}, got the bool {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            f"{name} must be an integer {allowed}, got {type(value).__name__} {value!r}"
        ) from None
    if number < minimum or (maximum is not None and number > maximum):
        raise ValueError(f"{name} must be an integer {allowed}, got {number}")
    return number


def check_positive_real(name: str, value: object) -> float:
    """Return ``value`` as a ``float`` if it is a finite real number ``> 0``; raise otherwise."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a finite real number > 0, got {type(value).__name__} {value!r}"
        )
    number = float(value)
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be a finite real number > 0, got {number!r}")
    return number


def as_real_array(name: str, value: object) -> np.ndarray:
    """Return ``value`` as a float array: float dtypes are kept, integers become float64."""
    array = np.asarray(value)
    is_real = np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
    if array.dtype == np.bool_ or not is_real:
        raise TypeError(f"{name} must hold real numbers, got an array of dtype {array.dtype}")
    if not np.issubdtype(array.dtype, np.floating):
        array = array.astype(np.float64)
    return array
