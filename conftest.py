"""Collect the Markdown pages under docs/ as tests (see tests/docblocks.py)."""

from hypothesis import settings
from sybil import Sybil

from docblocks import parse_blocks

# A per-example deadline is a timing assertion: on a busy machine it fails tests whose results
# are right. Speed is measured by the scripts under benchmarks/, not by tests.
settings.register_profile("posenc", deadline=None)
settings.load_profile("posenc")

# Lesson code files under docs/ are run by the page tests, not imported as modules.
# posenc.torch imports torch (an optional extra), which collecting it would do in every xdist
# worker: its docstring examples run in tests/test_torch.py, on the worker that imports torch.
collect_ignore_glob = ["docs/**/*.py", "src/posenc/torch.py"]

pytest_collect_file = Sybil(
    parsers=[parse_blocks],
    patterns=["*.md"],
    path="docs",
).pytest()
