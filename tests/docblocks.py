"""Read the fenced code blocks of the Markdown pages, and check what they print.

Sybil reports failures as ``page.md:line``. Its own Markdown parsers only take fences whose
info string is exactly ``python`` and know no ``pycon``, so this module gives it a lexer, the
build's block scanner (``posenc_site.execute.blocks.fenced_blocks``), and a small parser on top:

- a ``python`` block (executed by markdown-exec or not) runs alone in a fresh namespace, the
  way a reader who copies it would run it, and its printed output is kept;
- a ``text`` block that directly follows a ``python`` block is the output the page claims for
  it, and must equal what the block printed;
- a ``pycon`` block is a doctest, also run in a fresh namespace.

The tests and the build thus find the same blocks, nested fences included. ``--8<--`` lines
(pymdownx.snippets) are expanded by the snippets extension itself, with the site's settings, so
a block is checked as the page shows it.
"""

import contextlib
import doctest
import importlib.util
import io
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from sybil import Document, Example, Region

from posenc_site import context
from posenc_site.execute.blocks import Block, fenced_blocks, optional_package, page_blocks
from posenc_site.i18n import languages

DOCS = Path(__file__).resolve().parent.parent / "docs"
SNIPPET_PATHS = [DOCS, DOCS.parent / "src"]  # as pymdownx.snippets' base_path in mkdocs.yml
SITE = languages.from_file(DOCS.parent / "mkdocs.yml")

_DOCTEST_FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def blocks_of(path: Path) -> list[Block]:
    """All fenced code blocks of a Markdown file, in order."""
    return page_blocks(path, SNIPPET_PATHS)


def lex_blocks(document: Document) -> Iterator[Region]:
    """The Sybil lexer: a region per fenced block, from its opening to its closing fence line.

    Its one lexeme, ``block``, is the :class:`Block` the build's scanner found there.
    """
    for fenced in fenced_blocks(document.text, SNIPPET_PATHS):
        yield Region(fenced.start, fenced.end, lexemes={"block": fenced.block})


def run_python(source: str, page: Path | None = None) -> str:
    """Run ``source`` in a fresh namespace and return what it printed.

    With ``page``, it runs as the build runs that page's blocks: in the page's language.
    """
    printed = io.StringIO()
    language = SITE.of_page(page).code if page else None
    with contextlib.redirect_stdout(printed), context.building(DOCS, SITE, language):
        exec(compile(source, "<block>", "exec"), {"__name__": "__main__"})
    return printed.getvalue()


# The extra of pyproject.toml that installs each optional package.
EXTRAS = {"torch": "torch", "ml_dtypes": "docs"}


def skip_without_optional(code: str) -> None:
    """Skip a block whose optional package (torch, ml_dtypes) is missing; in CI, fail."""
    package = optional_package(code)
    if package and importlib.util.find_spec(package) is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{package} is not installed; CI installs it (see .ci/run)")
        pytest.skip(f"{package} is not installed: python -m pip install -e '.[{EXTRAS[package]}]'")


def _evaluate_python(example: Example) -> None:
    skip_without_optional(example.parsed.source)
    example.namespace.setdefault("_printed", {})[example.region.start] = run_python(
        example.parsed.source, Path(example.path)
    )


def _evaluate_expected_output(example: Example) -> str | None:
    expected, python_start, python_source = example.parsed
    printed = example.namespace.get("_printed", {}).get(python_start)
    if printed is None:  # the python block ran elsewhere (another xdist worker) or not yet
        skip_without_optional(python_source)
        printed = run_python(python_source, Path(example.path))
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
    for region in lex_blocks(document):
        block: Block = region.lexemes["block"]
        if block.language == "python":
            yield Region(region.start, region.end, block, _evaluate_python)
        elif block.language == "pycon":
            yield Region(region.start, region.end, block, _evaluate_pycon)
        elif block.language == "text" and previous and previous[1].language == "python":
            parsed = (block.source, previous[0].start, previous[1].source)
            yield Region(region.start, region.end, parsed, _evaluate_expected_output)
        previous = (region, block)
