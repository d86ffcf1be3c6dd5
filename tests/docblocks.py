"""Read the fenced code blocks of the Markdown pages, and check what they print.

Sybil finds the blocks and reports failures as ``page.md:line``; its own Markdown parsers
only take fences whose info string is exactly ``python`` and know no ``pycon``, so this module
adds a small parser on top of its fenced-block lexer:

- a ``python`` block (executed by markdown-exec or not) runs alone in a fresh namespace, the
  way a reader who copies it would run it, and its printed output is kept;
- a ``text`` block that directly follows a ``python`` block is the output the page claims for
  it, and must equal what the block printed;
- a ``pycon`` block is a doctest, also run in a fresh namespace.

``--8<--`` lines (pymdownx.snippets) are expanded by the snippets extension itself, with the
site's settings, so a block is checked as the page shows it.
"""

import contextlib
import doctest
import importlib.util
import io
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from sybil import Document, Example, Region
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

from posenc_site.blocks import Block, expand_snippets, needs_torch, page_blocks, parse_info

DOCS = Path(__file__).resolve().parent.parent / "docs"
SNIPPET_PATHS = [DOCS, DOCS.parent / "src"]  # as pymdownx.snippets' base_path in mkdocs.yml

_LEXER = RawFencedCodeBlockLexer(
    info_pattern=re.compile(r"(?P<info>[^\n]*)\n"),
    mapping={"info": "info", "source": "source"},
)
_DOCTEST_FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def blocks_of(path: Path) -> list[Block]:
    """All fenced code blocks of a Markdown file, in order."""
    return page_blocks(path, SNIPPET_PATHS)


def _regions(document: Document) -> Iterator[tuple[Region, Block]]:
    outer_end = -1
    for region in sorted(_LEXER(document), key=lambda r: r.start):
        if region.start < outer_end:
            continue  # a fence shown inside a longer fence is text, not a block
        outer_end = region.end
        language, attributes = parse_info(region.lexemes["info"])
        line = document.text.count("\n", 0, region.start) + 1
        source = expand_snippets(str(region.lexemes["source"]), SNIPPET_PATHS)
        yield region, Block(language, attributes, source, line)


def run_python(source: str) -> str:
    """Run ``source`` in a fresh namespace and return what it printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(source, "<block>", "exec"), {"__name__": "__main__"})
    return printed.getvalue()


def skip_without_torch(code: str) -> None:
    """Skip a block that needs torch where torch is missing, except in CI, where it fails."""
    if needs_torch(code) and importlib.util.find_spec("torch") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("torch is not installed; CI installs it (see .ci/run)")
        pytest.skip("torch is not installed: python -m pip install -e '.[torch]'")


def _evaluate_python(example: Example) -> None:
    skip_without_torch(example.parsed.source)
    example.namespace.setdefault("_printed", {})[example.region.start] = run_python(
        example.parsed.source
    )


def _evaluate_expected_output(example: Example) -> str | None:
    expected, python_start, python_source = example.parsed
    printed = example.namespace.get("_printed", {}).get(python_start)
    if printed is None:  # the python block ran elsewhere (another xdist worker) or not yet
        skip_without_torch(python_source)
        printed = run_python(python_source)
    if printed != expected:
        return f"the page shows:\n{expected}\nbut the code prints:\n{printed}"
    return None


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
    """The Sybil parser: one example per python, pycon and checked text block."""
    previous: tuple[Region, Block] | None = None
    for region, block in _regions(document):
        if block.language == "python":
            yield Region(region.start, region.end, block, _evaluate_python)
        elif block.language == "pycon":
            yield Region(region.start, region.end, block, _evaluate_pycon)
        elif block.language == "text" and previous and previous[1].language == "python":
            parsed = (block.source, previous[0].start, previous[1].source)
            yield Region(region.start, region.end, parsed, _evaluate_expected_output)
        previous = (region, block)


def sybil_blocks(path: Path) -> list[Block]:
    """The blocks as sybil's lexer finds them (to cross-check posenc_site.blocks)."""
    document = Document(path.read_text(encoding="utf-8"), str(path))
    return [block for _, block in _regions(document)]
