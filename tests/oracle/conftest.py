"""The oracle tier: posenc against PyTorch and Hugging Face Transformers as reference code, and
the tests of posenc.torch. They need torch and transformers (skipped without them, failed in CI).
"""

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
