"""The library tier: posenc alone, with NumPy (and matplotlib for posenc.plotting).

The tests against PyTorch and Transformers, and those of posenc.torch, are in tests/oracle.
"""
