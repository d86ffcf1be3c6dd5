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


def check_real(name: str, value: object, *, minimum: float, inclusive: bool = True) -> float:
    """Return ``value`` as a finite ``float`` ``>= minimum`` (``> minimum`` if not inclusive)."""
    allowed = f"{'>=' if inclusive else '>'} {minimum:g}"
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a finite real number {allowed}, got {type(value).__name__} {value!r}"
        )
    number = float(value)
    fits = number >= minimum if inclusive else number > minimum
    if not (math.isfinite(number) and fits):
        raise ValueError(f"{name} must be a finite real number {allowed}, got {number!r}")
    return number


def check_head_dim(head_dim: object, *, even: bool = True) -> int:
    """Return ``head_dim`` as an ``int >= 2``, even unless ``even`` is False."""
    number = check_integer("head_dim", head_dim, minimum=2)
    if even and number % 2:
        raise ValueError(f"head_dim must be even (pairs of dimensions rotate), got {number}")
    return number


def check_rotary_dim(rotary_dim: object, head_dim: int) -> int:
    """Return the rotated size: ``head_dim`` for None, else an even number in [2, head_dim]."""
    if rotary_dim is None:
        if head_dim % 2:
            raise ValueError(
                f"head_dim must be even (pairs of dimensions rotate), got {head_dim}; "
                "with an odd head_dim pass an even rotary_dim"
            )
        return head_dim
    number = check_integer("rotary_dim", rotary_dim, minimum=2, maximum=head_dim)
    if number % 2:
        raise ValueError(
            f"rotary_dim must be even and in [2, head_dim={head_dim}] (pairs of dimensions "
            f"rotate), got {number}"
        )
    return number


def check_choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices``; raise a ValueError listing them otherwise."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def check_query_start(n_queries: int, n_keys: int, query_start: object) -> int:
    """Return the position of the first query; by default the queries are the last keys.

    With a key/value cache the ``n_queries`` new tokens are the last ``n_queries`` of the
    ``n_keys`` positions, so the default is ``n_keys - n_queries`` (bottom-right alignment).
    """
    if query_start is None:
        if n_queries > n_keys:
            raise ValueError(
                f"query_start defaults to n_keys - n_queries (the queries are the last "
                f"positions), which needs n_queries <= n_keys, got n_queries={n_queries} and "
                f"n_keys={n_keys}; pass query_start"
            )
        return n_keys - n_queries
    return check_integer("query_start", query_start, minimum=0)


def check_finite_real(name: str, value: object) -> float:
    """Return ``value`` as a ``float`` if it is a finite real number; raise otherwise."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a finite real number, got {type(value).__name__} {value!r}"
        )
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite real number, got {number!r}")
    return number


def as_integer_array(name: str, value: object) -> np.ndarray:
    """Return ``value`` as an array of integers (bools refused); raise a TypeError otherwise."""
    array = np.asarray(value)
    if array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer):
        raise TypeError(f"{name} must hold integers, got an array of dtype {array.dtype}")
    return array
