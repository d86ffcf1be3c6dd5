"""The code of a lesson page, as a reader gets it: copyable blocks, a script, a notebook.

A block is *copyable* when the page shows its source: a ``python`` block that is not executed,
or an executed one with ``source=...``. Executed blocks without a source (figures, generated
tables) only show their output and are left out.

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
import nbformat

_FENCE_OPEN = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>[^`\n]*)$")
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_ADMONITION = re.compile(r'^(?P<indent> *)(?:!!!|\?\?\?\+?) *[a-z]+(?: +"(?P<title>[^"]*)")?\s*$')
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
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


def starter(blocks: list[Block]) -> Block | None:
    """The exercise's starter file: the non-executed block titled ``model.py``."""
    return next(
        (
            b
            for b in blocks
            if b.attributes.get("title") == "model.py" and "exec" not in b.attributes
        ),
        None,
    )


_SCRIPT_HEADER = {
    "en": "Every code block of the lesson, in page order. Each one runs on its own\n"
    "# with NumPy and posenc; the PyTorch examples, which need torch, are on the page.",
    "tr": "Dersin bütün kod blokları, sayfadaki sırasıyla. Her biri NumPy ve posenc ile\n"
    "# kendi başına çalışır; torch isteyen PyTorch örnekleri sayfadadır.",
}
_TORCH_NOTE = {
    "en": "This example needs PyTorch (`python -m pip install torch`):",
    "tr": "Bu örnek PyTorch ister (`python -m pip install torch`):",
}


def downloadable(block: Block) -> bool:
    """A copyable block that runs with NumPy and posenc alone."""
    return block.copyable and not needs_torch(block.source)


def script(blocks: list[Block], title: str, language: str = "en") -> str:
    """Every copyable block of a page, one after the other, as one runnable Python file."""
    cells = [runnable(block).rstrip("\n") for block in blocks if downloadable(block)]
    header = f"# {title}\n# {_SCRIPT_HEADER[language]}\n"
    return header + "".join(f"\n\n# %%\n{cell}\n" for cell in cells)


def _prose_for_notebook(chunk: str) -> str:
    """Prose as plain Markdown: no comments, admonitions as a bold title and their text."""
    chunk = _COMMENT.sub("", chunk)
    out = []
    for line in chunk.split("\n"):
        admonition = _ADMONITION.match(line)
        if admonition:
            title = admonition.group("title")
            out.append(f"**{title}**" if title else "")
            continue
        out.append(line[4:] if line.startswith("    ") else line)
    return "\n".join(out).strip()


def notebook(text: str, base_paths: Sequence[Path], language: str = "en") -> nbformat.NotebookNode:
    """The page as a Jupyter notebook (nbformat 4): prose cells and its copyable code."""
    text = _FRONT_MATTER.sub("", text)
    cells = []
    for part in split_page(text, base_paths):
        if isinstance(part, Block):
            if downloadable(part):
                cells.append(nbformat.v4.new_code_cell(runnable(part).rstrip("\n")))
            elif part.copyable:  # shown, not run: the notebook must run with NumPy alone
                note = f"{_TORCH_NOTE[language]}\n\n```python\n{part.source}```"
                cells.append(nbformat.v4.new_markdown_cell(note))
            elif part.language in ("text", "bash"):
                cells.append(nbformat.v4.new_markdown_cell(f"```{part.language}\n{part.source}```"))
            continue
        prose = _prose_for_notebook(part)
        if prose:
            cells.append(nbformat.v4.new_markdown_cell(prose))
    for number, cell in enumerate(cells, start=1):
        cell.id = f"cell-{number}"  # fixed ids: two builds write the same notebook
    book = nbformat.v4.new_notebook(cells=cells)
    book.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    book.metadata["language_info"] = {"name": "python"}
    nbformat.validate(book)
    return book
