"""The fenced code blocks of a Markdown page, found once for the build and the tests.

A block is *copyable* when the page shows its source: a ``python`` block that is not executed,
or an executed one with ``source=...``. Executed blocks without a source (figures, generated
tables) only show their output.

Why a scanner of our own: Python-Markdown does not expose fenced blocks before rendering them.
The tests read the pages through this scanner too (``tests/support/docblocks.py`` turns
:func:`fenced_blocks` into a Sybil lexer), so the build imports nothing from the test tools.
"""

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import markdown

_FENCE_OPEN = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>[^`\n]*)$")
# Packages beyond NumPy and posenc that a block may import, and the modules that bring them in.
# Such blocks are shown on the page and tested, but stay out of the downloads, which run with
# NumPy and posenc alone.
OPTIONAL_PACKAGES = {"torch": ("torch", "posenc.torch"), "ml_dtypes": ("ml_dtypes",)}
_IMPORTS = {
    package: re.compile(
        "|".join(rf"^\s*(?:import|from) {re.escape(module)}\b" for module in modules),
        re.MULTILINE,
    )
    for package, modules in OPTIONAL_PACKAGES.items()
}


@dataclass(frozen=True)
class Block:
    """One fenced code block: language, attributes, code (snippets expanded) and first line."""

    language: str
    attributes: dict[str, str] = field(hash=False)
    source: str
    line: int

    @property
    def copyable(self) -> bool:
        """Whether the page shows this block's source as Python a reader can copy."""
        if self.language not in ("python", "pycon"):
            return False
        return "exec" not in self.attributes or "source" in self.attributes


@dataclass(frozen=True)
class FencedBlock:
    """A block and where it lies in its page's text.

    ``start`` is the offset of the opening fence line's first character; ``end`` is the offset
    just past the closing fence line (before its newline), or the text's length when the fence
    is never closed.
    """

    block: Block
    start: int
    end: int


def optional_package(code: str) -> str | None:
    """The package beyond NumPy and posenc that ``code`` imports (torch, ml_dtypes), or None."""
    for package, imports in _IMPORTS.items():
        if imports.search(code):
            return package
    return None


def parse_info(info: str) -> tuple[str, dict[str, str]]:
    """Split an info string such as ``python exec="on" id="x"`` into language and attributes."""
    words = shlex.split(info.strip())
    if not words:
        return "", {}
    attributes = {}
    for word in words[1:]:
        key, _, value = word.partition("=")
        attributes[key] = value
    return words[0], attributes


def expand_snippets(source: str, base_paths: Sequence[Path]) -> str:
    """``source`` with its ``--8<--`` lines replaced by the files they name (pymdownx.snippets).

    ``base_paths`` are the folders snippets are looked up in, as in mkdocs.yml.
    """
    if "--8<--" not in source:
        return source
    config = {"base_path": [str(path) for path in base_paths], "check_paths": True}
    snippets = markdown.Markdown(
        extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": config}
    ).preprocessors["snippet"]
    return "\n".join(snippets.run(source.splitlines())).strip("\n") + "\n"


def fenced_blocks(text: str, base_paths: Sequence[Path]) -> list[FencedBlock]:
    """Every fenced code block of the Markdown ``text``, in order, with its offsets.

    A fence closes at the next line holding only the same fence character, at least as many
    times, with the same indent; a fence never closed runs to the end of the text. Fences in
    between are the block's text: a longer fence can show a fenced block as an example.

    Parameters
    ----------
    text
        A Markdown page.
    base_paths
        The folders ``--8<--`` snippets are looked up in, as in mkdocs.yml.

    Returns
    -------
    list of FencedBlock
        The blocks, snippets expanded, each with its first line and character offsets.
    """
    lines = text.split("\n")
    found = []
    offset = 0  # of line k
    k = 0
    while k < len(lines):
        opening = _FENCE_OPEN.match(lines[k])
        if not opening:
            offset += len(lines[k]) + 1
            k += 1
            continue
        indent, fence = opening.group("indent"), opening.group("fence")
        closing = re.compile(rf"^{indent}{fence[0]}{{{len(fence)},}}\s*$")
        end = next((j for j in range(k + 1, len(lines)) if closing.match(lines[j])), len(lines))
        body = [line.removeprefix(indent) for line in lines[k + 1 : end]]
        language, attributes = parse_info(opening.group("info"))
        source = expand_snippets("\n".join(body) + "\n", base_paths)
        # The closing line's newline, or len(text) when no newline follows it.
        end_offset = offset + sum(len(line) + 1 for line in lines[k : end + 1]) - 1
        found.append(FencedBlock(Block(language, attributes, source, k + 1), offset, end_offset))
        offset = end_offset + 1
        k = end + 1
    return found


def split_page(text: str, base_paths: Sequence[Path]) -> list[str | Block]:
    """The page as a list of prose chunks (str) and code blocks (Block), in order.

    Parameters
    ----------
    text
        A Markdown page.
    base_paths
        The snippets' folders (see :func:`fenced_blocks`).

    Returns
    -------
    list of str and Block
        Chunk, block, chunk, ..., chunk: a chunk is the lines between two blocks (the
        newlines that end the fence lines left out) and may be empty.
    """
    parts: list[str | Block] = []
    prose_start = 0
    for fenced in fenced_blocks(text, base_paths):
        # No line before the fence (page start, or right after a block): an empty chunk.
        parts.append(text[prose_start : max(fenced.start - 1, prose_start)])
        parts.append(fenced.block)
        prose_start = fenced.end + 1
    parts.append(text[prose_start:])
    return parts


def page_blocks(path: Path, base_paths: Sequence[Path]) -> list[Block]:
    """Every fenced code block of the Markdown page at ``path``, in order."""
    text = path.read_text(encoding="utf-8")
    return [fenced.block for fenced in fenced_blocks(text, base_paths)]


def runnable(block: Block) -> str:
    """The code a reader runs: a pycon session without its prompts and outputs."""
    if block.language != "pycon":
        return block.source
    lines = []
    for line in block.source.splitlines():
        if line.startswith((">>> ", "... ")) or line in (">>>", "..."):
            lines.append(line[4:])
    return "\n".join(lines) + "\n"
