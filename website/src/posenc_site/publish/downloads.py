"""A lesson's downloads, as a reader gets them: the starter file, a script, a notebook.

They hold the lesson's copyable blocks (see ``posenc_site.execute.blocks``) that run with NumPy and
posenc alone. The starter file ends with a check of the reader's answer, run with the file:
what the reader's code prints against what the example solution printed in the build
(``posenc.check_exercise``). :func:`write` puts them beside the lesson's page in the built
site, and :func:`add` also links the notebook in Colab from the page where the site has a
GitHub repository (``posenc_site.publish.colab``).
"""

from collections.abc import Iterable, Sequence
from pathlib import Path

import nbformat
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from posenc_site.execute.blocks import Block, page_blocks, runnable
from posenc_site.i18n.languages import Language, load_strings
from posenc_site.publish import colab
from posenc_site.publish.notebook import (
    SOLUTION,
    Printed,
    check_code,
    downloadable,
    expected_output,
    notebook,
    starter,
)
from posenc_site.publish.notebook_prose import Addresses

__all__ = [
    "add",
    "checked_starter",
    "downloadable",
    "folder",
    "notebook",
    "relink",
    "script",
    "starter",
    "write",
]

# Run as a script, the starter file checks what the reader's code prints (posenc.exercise).
_CHECK_CALL = """
if __name__ == "__main__":
    from posenc import check_exercise

    result = check_exercise(EXPECTED_OUTPUT, path=__file__, language="{language}")
    print(result)
    raise SystemExit(0 if result.passed else 1)
"""


def checked_starter(source: str, expected: str, language: str) -> str:
    """The starter file's code ``source``, then the check of the reader's answer.

    Parameters
    ----------
    source
        The code of the exercise's starter block.
    expected
        What the exercise's example solution printed in the build.
    language
        The code of the page's language: the words of the check's comment and message.

    Returns
    -------
    str
        ``source``, two empty lines, and the check: a comment that says what it does, the
        expected output, and the ``if __name__ == "__main__":`` block that runs
        ``posenc.check_exercise`` and exits with 0 if the answer is right, 1 if not.
    """
    comment = load_strings(language)["downloads"]["check_comment"]
    call = _CHECK_CALL.format(language=language)
    return f"{source.rstrip()}\n\n\n{check_code(expected, comment, call)}"


def script(blocks: list[Block], title: str, language: str = "en") -> str:
    """Every copyable block of a page, one after the other, as one runnable Python file."""
    strings = load_strings(language)["downloads"]
    header = "".join(f"# {line}\n" for line in [title, *strings["script_header"].splitlines()])
    cells = []
    for block in blocks:
        if not downloadable(block):
            continue
        # The exercise's example solution says what it is: the reader who runs the script
        # top to bottom meets it right after the starter.
        mark = f" {strings['solution_cell']}" if block.attributes.get("id") == SOLUTION else ""
        code = runnable(block).rstrip("\n")
        cells.append(f"\n\n# %%{mark}\n{code}\n")
    return header + "".join(cells)


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


def write(
    page: Page,
    config: MkDocsConfig,
    language: Language,
    printed: Iterable[tuple[str, str]] = (),
) -> list[str]:
    """Write a lesson page's downloads into its folder of the built site; return their names.

    A lesson is a page with an exercise solution (a block with ``id="exercise-solution"``);
    other pages get nothing. The files are ``model.py`` (the exercise's starter, when there
    is one, checked by :func:`checked_starter` against what the solution printed in the
    build), ``<lesson>.py`` and ``<lesson>.ipynb``, in the language being built, in
    ``folder(page)``.

    Parameters
    ----------
    page
        The page just rendered (MkDocs' ``on_post_page``): the notebook is made from its
        Markdown as the plugins' ``on_page_markdown`` left it (``page.markdown``).
    config
        The build's configuration: the snippets' base paths, the site's address.
    language
        The language of the page: the words of the files' headers and notes.
    printed
        What the page's executed blocks printed in the build, (code, output) in the order
        run: the notebook's outputs, and the solution's output the exercise is checked
        against.

    Returns
    -------
    list of str
        The names of the files written, in ``folder(page)``; empty for a page that is not a
        lesson.
    """
    snippet_paths = [Path(p) for p in config.mdx_configs["pymdownx.snippets"]["base_path"]]
    source = Path(str(page.file.abs_src_path))
    blocks = page_blocks(source, snippet_paths)
    if not any(block.attributes.get("id") == SOLUTION for block in blocks):
        return []
    target = folder(page)
    target.mkdir(parents=True, exist_ok=True)
    name = target.name
    files = {}
    printed = list(printed)
    starter_block = starter(blocks)
    expected = expected_output(blocks, Printed(printed))
    if starter_block is not None and expected is not None:
        files["model.py"] = checked_starter(starter_block.source, expected, language.code)
    elif starter_block is not None:  # the solution did not run in this build
        files["model.py"] = starter_block.source
    title = page.title or name
    files[f"{name}.py"] = script(blocks, title, language.code)
    text = page.markdown if page.markdown is not None else source.read_text(encoding="utf-8")
    addresses = Addresses.of_page(page, config.site_url, language) if config.site_url else None
    book = notebook(text, snippet_paths, language.code, printed, addresses)
    files[f"{name}.ipynb"] = nbformat.writes(book) + "\n"
    for file_name, text in files.items():
        (target / file_name).write_text(text, encoding="utf-8")
    return list(files)


def add(
    output: str,
    page: Page,
    config: MkDocsConfig,
    language: Language,
    printed: Iterable[tuple[str, str]] = (),
) -> str:
    """Write a lesson page's downloads (:func:`write`); return its HTML linking them.

    With the site's ``repo_url`` on GitHub, the item of the notebook in the page's list of
    downloads is followed by one that opens it in Colab, from the branch the publishing
    workflow pushes the built notebooks to (``posenc_site.publish.colab``).

    Parameters
    ----------
    output
        The page's HTML (MkDocs' ``on_post_page``).
    page, config, language, printed
        As for :func:`write`.

    Returns
    -------
    str
        ``output``, its links to the downloads pointing at ``folder(page)`` (:func:`relink`),
        and the Colab link where due.
    """
    names = write(page, config, language, printed)
    notebooks = [name for name in names if name.endswith(".ipynb")]
    for name in notebooks:
        path = (folder(page) / name).relative_to(Path(config.site_dir)).as_posix()
        address = colab.address(config.repo_url, path)
        if address is not None:
            words = load_strings(language.code)["downloads"]
            output = colab.with_link(output, name, address, words)
    return relink(output, page, names)
