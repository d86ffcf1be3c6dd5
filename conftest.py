"""Collect the ``pycon`` sessions of the Markdown pages under docs/ as tests (Sybil; see
tests/support/docblocks.py), and set what every test of the repository shares."""

import functools
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

DOCS = Path(__file__).resolve().parent / "docs"

# A per-example deadline is a timing assertion: on a busy machine it fails tests whose results
# are right. Speed is measured by the scripts under benchmarks/, not by tests.
settings.register_profile("posenc", deadline=None)
settings.load_profile("posenc")

# Lesson code files under docs/ are run by the page tests, not imported as modules.
# posenc.torch imports torch (an optional extra), which collecting it would do in every xdist
# worker: its docstring examples run in tests/oracle/test_torch.py, on the worker that imports
# torch.
collect_ignore_glob = ["docs/**/*.py", "src/posenc/torch.py"]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A page under docs/, with its pycon sessions as examples."""
    if file_path.suffix != ".md" or not file_path.is_relative_to(DOCS):
        return None
    return _pages()(file_path, parent)


@functools.cache
def _pages() -> Callable[[Path, pytest.Collector], pytest.Collector | None]:
    # Sybil and the page scanner are imported only by runs that collect pages.
    from sybil import Sybil

    from support.docblocks import parse_blocks

    return Sybil(parsers=[parse_blocks], patterns=["*.md"], path=str(DOCS)).pytest()
