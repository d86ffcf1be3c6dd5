"""The fenced code blocks of a Markdown page.

A block is *copyable* when the page shows its source: a ``python`` block that is not executed,
or an executed one with ``source=...``. Executed blocks without a source (figures, generated
tables) only show their output.

Why a scanner of our own: the build cannot depend on the test tools (sybil), and
Python-Markdown does not expose fenced blocks before rendering them. The tests check that this
scanner and sybil's lexer find the same blocks on every page.
"""

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import markdown

_FENCE_OPEN = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>[^`\n]*)$")
_NEEDS_TORCH = re.compile(r"^\s*(?:import torch|from torch\b|from posenc\.torch\b)", re.MULTILINE)


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


def needs_torch(code: str) -> bool:
    """Whether ``code`` imports torch (an optional extra: such blocks stay out of downloads)."""
    return bool(_NEEDS_TORCH.search(code))


def parse_info(info: str) -> tuple[str, dict[str, str]]:
    """Split an info string such as ``python exec="on" id="x"`` into language and attributes."""
    words = shlex.split(info.strip())
    if not words:
        return "", {}
    attributes = dict(word.split("=", 1) if "=" in word else (word, "") for word in words[1:])
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


def split_page(text: str, base_paths: Sequence[Path]) -> list[str | Block]:
    """The page as a list of prose chunks (str) and code blocks (Block), in order."""
    lines = text.split("\n")
    parts: list[str | Block] = []
    prose: list[str] = []
    k = 0
    while k < len(lines):
        opening = _FENCE_OPEN.match(lines[k])
        if not opening:
            prose.append(lines[k])
            k += 1
            continue
        indent, fence = opening.group("indent"), opening.group("fence")
        closing = re.compile(rf"^{indent}{fence[0]}{{{len(fence)},}}\s*$")
        end = next((j for j in range(k + 1, len(lines)) if closing.match(lines[j])), len(lines))
        body = [line.removeprefix(indent) for line in lines[k + 1 : end]]
        language, attributes = parse_info(opening.group("info"))
        source = expand_snippets("\n".join(body) + "\n", base_paths)
        parts.append("\n".join(prose))
        parts.append(Block(language, attributes, source, k + 1))
        prose = []
        k = end + 1
    parts.append("\n".join(prose))
    return parts


def page_blocks(path: Path, base_paths: Sequence[Path]) -> list[Block]:
    """Every fenced code block of the Markdown page at ``path``."""
    text = path.read_text(encoding="utf-8")
    return [part for part in split_page(text, base_paths) if isinstance(part, Block)]


def runnable(block: Block) -> str:
    """The code a reader runs: a pycon session without its prompts and outputs."""
    if block.language != "pycon":
        return block.source
    lines = []
    for line in block.source.splitlines():
        if line.startswith((">>> ", "... ")) or line in (">>>", "..."):
            lines.append(line[4:])
    return "\n".join(lines) + "\n"
