"""Read the fenced code blocks of the Markdown pages, and check the ``pycon`` sessions.

Sybil reports failures as ``page.md:line``. Its own Markdown parsers only take fences whose
info string is exactly ``python`` and know no ``pycon``, so this module gives it a lexer, the
build's block scanner (``posenc_site.execute.blocks.fenced_blocks``), and a small parser on top
that makes each ``pycon`` block a doctest, run in a fresh namespace: its prompts and the outputs
it shows are right.

Each block runs once per purpose. ``python`` blocks are not run here: the build runs those it
executes (their output is the page's), and tests/docs/test_standalone.py runs every block a
reader can copy, pycon included, alone in a fresh interpreter and compares what it prints with
the output the page shows.

The tests and the build thus find the same blocks, nested fences included. ``--8<--`` lines
(pymdownx.snippets) are expanded by the snippets extension itself, with the site's settings, so
a block is checked as the page shows it.
"""

import doctest
import importlib.util
import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from sybil import Document, Example, Region

from posenc_site.execute.blocks import Block, fenced_blocks, optional_package, page_blocks
from posenc_site.transforms.quiz import parse_quiz
from posenc_site.transforms.quiz.schema import Question

DOCS = Path(__file__).resolve().parents[2] / "docs"
SNIPPET_PATHS = [DOCS, DOCS.parent / "src"]  # as pymdownx.snippets' base_path in mkdocs.yml

_DOCTEST_FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def blocks_of(path: Path) -> list[Block]:
    """All fenced code blocks of a Markdown file, in order."""
    return page_blocks(path, SNIPPET_PATHS)


def quizzes_of(path: Path) -> list[Question]:
    """The questions of every quiz fence of a Markdown file, in page order."""
    return [
        question
        for block in blocks_of(path)
        if block.language == "quiz"
        for question in parse_quiz(block.source, docs_dir=DOCS)
    ]


def lex_blocks(document: Document) -> Iterator[Region]:
    """The Sybil lexer: a region per fenced block, from its opening to its closing fence line.

    Its one lexeme, ``block``, is the :class:`Block` the build's scanner found there.
    """
    for fenced in fenced_blocks(document.text, SNIPPET_PATHS):
        yield Region(fenced.start, fenced.end, lexemes={"block": fenced.block})


# The extra of pyproject.toml that installs each optional package.
EXTRAS = {"torch": "torch", "ml_dtypes": "docs"}


def skip_without_optional(code: str) -> None:
    """Skip a block whose optional package (torch, ml_dtypes) is missing; in CI, fail."""
    package = optional_package(code)
    if package and importlib.util.find_spec(package) is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{package} is not installed; CI installs it (see .ci/run)")
        pytest.skip(f"{package} is not installed: python -m pip install -e '.[{EXTRAS[package]}]'")


def _evaluate_pycon(example: Example) -> str | None:
    block: Block = example.parsed
    test = doctest.DocTestParser().get_doctest(
        block.source, {}, example.path, example.path, block.line
    )
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=_DOCTEST_FLAGS)
    runner.run(test, out=report.write)
    return report.getvalue() or None


def parse_blocks(document: Document) -> Iterable[Region]:
    """The Sybil parser: one example, a doctest, per pycon block."""
    for region in lex_blocks(document):
        block: Block = region.lexemes["block"]
        if block.language == "pycon":
            yield Region(region.start, region.end, block, _evaluate_pycon)
