"""Tools some tests need beyond Python packages: Chromium, the npm packages, optional extras.

Where one is missing, its tests are skipped with the command that installs it; in CI
(``CI=true``), which installs every one (.ci/run), they fail instead.
"""

import importlib
import os
from pathlib import Path
from typing import NoReturn

import pytest

from support.project import ROOT


def missing(message: str) -> NoReturn:
    """Skip the test for a missing tool, or fail it in CI (``CI=true``), which has every tool."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


# torch and transformers are optional extras, and CI installs them (.ci/run): the tests that
# compare with them take fixtures (tests/oracle/conftest.py) rather than importing them at the top
# of their module, which every xdist worker would do while collecting (some 6 s of processor
# time each).
# How to install each: torch is an extra of posenc, Transformers one of posenc-site (website/).
INSTALL = {
    "torch": "python -m pip install -e '.[torch]'",
    "transformers": "python -m pip install -e './website[oracle]'",
}


def oracle(name: str) -> object:
    """Import ``name``; skip where it is missing, fail in CI (``CI=true``), which has it."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        missing(f"{name} is not installed: {INSTALL[name]}")


# The npm packages some browser tests use (Lighthouse, axe-core), pinned by the lock file there.
NPM = ROOT / "tests/npm"
NPM_INSTALL = "npm ci --prefix tests/npm"


def npm_file(path: str) -> Path:
    """``path`` in the installed npm packages; a skip (a failure in CI) where it is missing."""
    found = NPM / "node_modules" / path
    if not found.exists():
        missing(f"{found} not found (install the packages with: {NPM_INSTALL})")
    return found


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
