"""A lesson's downloads, as a reader gets them: the starter file, a script, a notebook.

They hold the lesson's copyable blocks (see ``posenc_site.blocks``) that run with NumPy and
posenc alone; :func:`write` puts them beside the lesson's page in the built site.
"""

import re
from collections.abc import Sequence
from pathlib import Path

import nbformat
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from posenc_site import context
from posenc_site.blocks import Block, needs_torch, page_blocks, runnable, split_page
from posenc_site.languages import load_strings

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_ADMONITION = re.compile(r'^(?P<indent> *)(?:!!!|\?\?\?\+?) *[a-z]+(?: +"(?P<title>[^"]*)")?\s*$')
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


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


def downloadable(block: Block) -> bool:
    """A copyable block that runs with NumPy and posenc alone."""
    return block.copyable and not needs_torch(block.source)


def script(blocks: list[Block], title: str, language: str = "en") -> str:
    """Every copyable block of a page, one after the other, as one runnable Python file."""
    cells = [runnable(block).rstrip("\n") for block in blocks if downloadable(block)]
    words = load_strings(language)["downloads"]["script_header"]
    header = "".join(f"# {line}\n" for line in [title, *words.splitlines()])
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
                torch_note = load_strings(language)["downloads"]["torch_note"]
                note = f"{torch_note}\n\n```python\n{part.source}```"
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


def write(page: Page, config: MkDocsConfig) -> None:
    """Write a lesson page's downloads into its folder of the built site.

    A lesson is a page with an exercise solution (a block with ``id="exercise-solution"``);
    other pages get nothing. The files are ``model.py`` (the exercise's starter, when there
    is one), ``<lesson>.py`` and ``<lesson>.ipynb``, in the language being built.

    Parameters
    ----------
    page
        The page just rendered (MkDocs' ``on_post_page``).
    config
        The build's configuration: its site folder and the snippets' base paths.
    """
    snippet_paths = [Path(p) for p in config.mdx_configs["pymdownx.snippets"]["base_path"]]
    source = Path(str(page.file.abs_src_path))
    blocks = page_blocks(source, snippet_paths)
    if not any(block.attributes.get("id") == "exercise-solution" for block in blocks):
        return
    folder = Path(config.site_dir) / page.url
    folder.mkdir(parents=True, exist_ok=True)
    name = page.url.rstrip("/").rsplit("/", 1)[-1]
    starter_block = starter(blocks)
    if starter_block is not None:
        (folder / "model.py").write_text(starter_block.source, encoding="utf-8")
    title = page.title or name
    language = context.current.page_language.code
    (folder / f"{name}.py").write_text(script(blocks, title, language), encoding="utf-8")
    book = notebook(source.read_text(encoding="utf-8"), snippet_paths, language)
    (folder / f"{name}.ipynb").write_text(nbformat.writes(book) + "\n", encoding="utf-8")
