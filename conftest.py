"""Collect the Markdown pages under docs/ as tests (see tests/docblocks.py)."""

import importlib.util
import os

from sybil import Sybil

from docblocks import parse_blocks

# Lesson code files under docs/ are run by the page tests, not imported as modules.
collect_ignore_glob = ["docs/**/*.py"]
# posenc.torch imports torch, an optional extra; CI installs it, so there it is collected.
if importlib.util.find_spec("torch") is None and os.environ.get("CI") != "true":
    collect_ignore_glob.append("src/posenc/torch.py")

pytest_collect_file = Sybil(
    parsers=[parse_blocks],
    patterns=["*.md"],
    path="docs",
).pytest()
