"""Collect the Markdown pages under docs/ as tests (see tests/docblocks.py)."""

import importlib.util
import os

from hypothesis import settings
from sybil import Sybil

from docblocks import parse_blocks

# Lesson code files under docs/ are run by the page tests, not imported as modules.
# A per-example deadline is a timing assertion: on a busy machine it fails tests whose results
# are right. Speed is measured by the scripts under benchmarks/, not by tests.
settings.register_profile("posenc", deadline=None)
settings.load_profile("posenc")

collect_ignore_glob = ["docs/**/*.py"]
# posenc.torch imports torch, an optional extra; CI installs it, so there it is collected.
if importlib.util.find_spec("torch") is None and os.environ.get("CI") != "true":
    collect_ignore_glob.append("src/posenc/torch.py")

pytest_collect_file = Sybil(
    parsers=[parse_blocks],
    patterns=["*.md"],
    path="docs",
).pytest()
