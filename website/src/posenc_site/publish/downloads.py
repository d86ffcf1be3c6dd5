"""A lesson's downloads, as a reader gets them: the starter file, a script, a notebook.

They hold the lesson's copyable blocks (see ``posenc_site.execute.blocks``) that run with NumPy and
posenc alone; :func:`write` puts them beside the lesson's page in the built site.
"""

import re
from collections.abc import Sequence
from pathlib import Path

import nbformat
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from posenc_site.execute.blocks import Block, optional_package, page_blocks, runnable, split_page
from posenc_site.i18n.languages import Language, load_strings

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
    return block.copyable and optional_package(block.source) is None


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
    """The page as a Jupyter notebook (nbformat 4): how to install, prose and copyable code."""
    text = _FRONT_MATTER.sub("", text)
    header = load_strings(language)["downloads"]["notebook_header"]
    cells = [nbformat.v4.new_markdown_cell(header)]
    for part in split_page(text, base_paths):
        if isinstance(part, Block):
            if downloadable(part):
                cells.append(nbformat.v4.new_code_cell(runnable(part).rstrip("\n")))
            elif part.copyable:  # shown, not run: the notebook must run with NumPy alone
                package = optional_package(part.source)
                words = load_strings(language)["downloads"]["package_note"]
                note = f"{words.format(package=package)}\n\n```python\n{part.source}```"
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


def folder(page: Page) -> Path:
    """The folder of the built site that holds a lesson's downloads.

    With directory URLs (``lessons/rotary/``) it is the page's own folder, and the page links
    its downloads by their bare names. Without them (the classroom copy, ``lessons/rotary.html``)
    the lessons of a folder share it and each has a ``model.py``: the downloads go into a
    folder named after the page, ``lessons/rotary/``, and ``relink`` points the page there.
    """
    destination = Path(page.file.abs_dest_path)
    return destination.parent if page.file.use_directory_urls else destination.with_suffix("")


def relink(output: str, page: Page, names: Sequence[str]) -> str:
    """The page's HTML with its links to the downloads ``names`` pointing at ``folder(page)``."""
    if page.file.use_directory_urls:
        return output
    prefix = folder(page).name + "/"
    for name in names:
        output = output.replace(f'href="{name}"', f'href="{prefix}{name}"')
    return output


def write(page: Page, config: MkDocsConfig, language: Language) -> list[str]:
    """Write a lesson page's downloads into its folder of the built site; return their names.

    A lesson is a page with an exercise solution (a block with ``id="exercise-solution"``);
    other pages get nothing. The files are ``model.py`` (the exercise's starter, when there
    is one), ``<lesson>.py`` and ``<lesson>.ipynb``, in the language being built, in
    ``folder(page)``.

    Parameters
    ----------
    page
        The page just rendered (MkDocs' ``on_post_page``).
    config
        The build's configuration: the snippets' base paths.
    language
        The language of the page: the words of the files' headers and notes.

    Returns
    -------
    list of str
        The names of the files written, in ``folder(page)``; empty for a page that is not a
        lesson.
    """
    snippet_paths = [Path(p) for p in config.mdx_configs["pymdownx.snippets"]["base_path"]]
    source = Path(str(page.file.abs_src_path))
    blocks = page_blocks(source, snippet_paths)
    if not any(block.attributes.get("id") == "exercise-solution" for block in blocks):
        return []
    target = folder(page)
    target.mkdir(parents=True, exist_ok=True)
    name = target.name
    files = {}
    starter_block = starter(blocks)
    if starter_block is not None:
        files["model.py"] = starter_block.source
    title = page.title or name
    files[f"{name}.py"] = script(blocks, title, language.code)
    book = notebook(source.read_text(encoding="utf-8"), snippet_paths, language.code)
    files[f"{name}.ipynb"] = nbformat.writes(book) + "\n"
    for file_name, text in files.items():
        (target / file_name).write_text(text, encoding="utf-8")
    return list(files)
