"""The docs tier: the pages' own text and code, read and run without building the site."""

from support.fresh_runs import fresh_runs, numpy_only

__all__ = ["fresh_runs", "numpy_only"]  # fixtures; fresh_runs is shared with the build tier
