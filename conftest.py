"""Collect the Markdown pages under docs/ as tests (see tests/docblocks.py)."""

from sybil import Sybil
from sybil.parsers.markdown import SkipParser

from docblocks import parse_blocks

# Lesson code files under docs/ are run by the page tests, not imported as modules.
collect_ignore_glob = ["docs/**/*.py"]

pytest_collect_file = Sybil(
    parsers=[SkipParser(), parse_blocks],
    patterns=["*.md"],
    path="docs",
).pytest()
