"""The library tier: posenc alone, against NumPy, and against PyTorch and Transformers."""

import os

import pytest

from support.tools import oracle


@pytest.fixture(scope="session")
def torch() -> object:
    """The ``torch`` module (see ``support.tools.oracle``)."""
    return oracle("torch")


@pytest.fixture(scope="session")
def transformers(torch: object) -> object:
    """Hugging Face Transformers (see ``support.tools.oracle``), offline: nothing downloaded."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # read when transformers is imported
    return oracle("transformers")
