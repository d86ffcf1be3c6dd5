"""Collect the Markdown pages under docs/ as tests (see tests/docblocks.py)."""

from docblocks import parse_blocks
from sybil import Sybil
from sybil.parsers.markdown import SkipParser

pytest_collect_file = Sybil(
    parsers=[SkipParser(), parse_blocks],
    patterns=["*.md"],
    path="docs",
).pytest()
