"""A lesson as a Jupyter notebook (nbformat 4), with the outputs its page shows.

The notebook opens with a cell that installs posenc. Then come the page's prose and its code
blocks that run with NumPy and posenc alone, each code cell with what the page shows under the
block: what the block printed in the build (``posenc_site.execute.Execution.printed``), not a
second run. The page's figures, whose code the page does not show, are cells that show them.
The exercise's starter is followed by a cell that checks the reader's answer against what the
example solution printed in the build (``posenc.check_exercise``), and the example solution
comes after it, folded; sections left empty (a quiz's heading: quizzes are not exported) are
dropped; links lead to the site (``posenc_site.publish.notebook_prose``).
"""

import html
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import nbformat
from nbformat import NotebookNode

from posenc_site.execute.blocks import Block, optional_package, runnable, split_page
from posenc_site.i18n.languages import load_strings
from posenc_site.publish.notebook_prose import Addresses, plain, with_addresses

INSTALL = "%pip install posenc"
SOLUTION = "exercise-solution"  # the id of the exercise's example solution block
STARTER = "model.py"  # the title of the exercise's starter block (the one not run)
# Metadata of a folded code cell: JupyterLab and Notebook 7 hide the source; Colab shows the
# cell as a form, its code hidden too.
FOLDED = {"jupyter": {"source_hidden": True}, "cellView": "form"}
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_FIGURE = re.compile(
    r'<figure class="pe-figure"[^>]*>(?P<svg><svg .*?</svg>)'
    r"(?:<figcaption>(?P<caption>.*?)</figcaption>)?</figure>",
    re.DOTALL,
)
_TITLE = re.compile(r"<title[^>]*>(?P<text>.*?)</title>", re.DOTALL)
_HEADING = re.compile(r"^(?P<marks>#{1,6})\s")
_TRUE = ("1", "on", "true", "yes")
_CHECK_CELL_CALL = """
from posenc import check_exercise

check_exercise(EXPECTED_OUTPUT, language="{language}")
"""
# nbformat's builders have no annotations: called through Any, their results typed here.
_V4: Any = nbformat.v4


class Printed:
    """What a page's executed blocks printed in the build, each taken once, by its code.

    Parameters
    ----------
    printed
        (code, output) pairs in the order the build ran them.
    """

    def __init__(self, printed: Iterable[tuple[str, str]] = ()) -> None:
        self._left = list(printed)

    def take(self, code: str) -> str | None:
        """The output of the first block not taken yet whose code is ``code``, or None."""
        index = self._find(code)
        return None if index is None else self._left.pop(index)[1]

    def peek(self, code: str) -> str | None:
        """What :meth:`take` would return, leaving it to be taken."""
        index = self._find(code)
        return None if index is None else self._left[index][1]

    def _find(self, code: str) -> int | None:
        for index, (ran, _output) in enumerate(self._left):
            if ran.rstrip("\n") == code.rstrip("\n"):
                return index
        return None


def starter(blocks: Iterable[str | Block]) -> Block | None:
    """The exercise's starter file: the block titled ``model.py`` that is not run."""
    return next(
        (
            b
            for b in blocks
            if isinstance(b, Block)
            and b.attributes.get("title") == STARTER
            and "exec" not in b.attributes
        ),
        None,
    )


def expected_output(blocks: Iterable[str | Block], printed: Printed) -> str | None:
    """What the exercise's example solution printed in the build; None without one."""
    solution = next(
        (b for b in blocks if isinstance(b, Block) and b.attributes.get("id") == SOLUTION), None
    )
    return None if solution is None else printed.peek(solution.source)


def text_literal(text: str) -> str:
    r"""``text`` as a Python string literal: a triple-quoted one where it can be.

    Examples
    --------
    >>> text_literal("(4, 6)\nTrue\n") == '"' * 3 + "\\\n(4, 6)\nTrue\n" + '"' * 3
    True
    >>> print(text_literal("a\\b"))
    'a\\b'
    """
    if text.endswith("\n") and '"""' not in text and "\\" not in text:
        return f'"""\\\n{text}"""'
    return repr(text)


def check_code(expected: str, comment: str, call: str) -> str:
    """The code that checks an exercise: ``comment``, the expected output, then ``call``.

    ``comment`` becomes comment lines; ``expected`` is assigned to ``EXPECTED_OUTPUT``, which
    ``call``, the code that runs the check, reads.
    """
    lines = "".join(f"# {line}\n" for line in comment.splitlines())
    return f"{lines}EXPECTED_OUTPUT = {text_literal(expected)}\n{call}"


def downloadable(block: Block) -> bool:
    """A copyable block that runs with NumPy and posenc alone."""
    return block.copyable and optional_package(block.source) is None


def notebook(
    text: str,
    base_paths: Sequence[Path],
    language: str = "en",
    printed: Iterable[tuple[str, str]] = (),
    addresses: Addresses | None = None,
) -> NotebookNode:
    """The page as a Jupyter notebook: the install cell, prose, code and the page's outputs.

    Parameters
    ----------
    text
        The page's Markdown.
    base_paths
        The snippets' folders (see ``posenc_site.execute.blocks.fenced_blocks``).
    language
        The code of the page's language: the words the notebook adds.
    printed
        What the page's executed blocks printed in the build, (code, output) in the order
        run; a block without one gets no output.
    addresses
        Where the page's links lead on the site; None leaves them as they are.

    Returns
    -------
    NotebookNode
        A valid nbformat 4 notebook, the same for the same arguments.
    """
    words = load_strings(language)
    outputs = Printed(printed)
    parts = split_page(_FRONT_MATTER.sub("", text), base_paths)
    expected = expected_output(parts, outputs)
    exercise = starter(parts)
    cells = [
        _V4.new_code_cell(INSTALL),
        _V4.new_markdown_cell(words["downloads"]["install_note"]),
    ]
    figures = 0
    for part in parts:
        if isinstance(part, str):
            prose = plain(part)
            if prose:
                markdown = with_addresses(prose, addresses) if addresses else prose
                cells.append(_V4.new_markdown_cell(markdown))
        elif downloadable(part):
            cells.extend(_code_cells(part, outputs, words, cells))
            if part is exercise and expected is not None:
                cells.append(_check_cell(expected, language, words))
        elif part.copyable:  # shown, not run: the notebook must run with NumPy alone
            cells.append(_package_note(part, outputs, words))
        elif "exec" in part.attributes:  # a figure: its code is not on the page
            for svg, caption in _figures(outputs.take(part.source) or ""):
                figures += 1
                cells.extend(_figure_cells(svg, caption, figures, words))
        elif part.language in ("text", "bash"):
            cells.append(_V4.new_markdown_cell(f"```{part.language}\n{part.source}```"))
    cells = without_empty_sections(cells)
    for number, cell in enumerate(cells, start=1):
        cell.id = f"cell-{number}"  # fixed ids: two builds write the same notebook
    book: NotebookNode = _V4.new_notebook(cells=cells)
    book.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    book.metadata["language_info"] = {"name": "python"}
    nbformat.validate(book)
    return book


def _code_cells(
    block: Block, outputs: Printed, words: Any, cells: list[NotebookNode]
) -> list[NotebookNode]:
    """The block's code cell with its outputs; the solution's folded, after a note."""
    cell = _V4.new_code_cell(runnable(block).rstrip("\n"))
    cell.outputs = _outputs(block, outputs)
    if block.attributes.get("id") != SOLUTION:
        return [cell]
    cell.metadata.update(FOLDED)
    note = words["downloads"]["solution_note"]
    if cells and cells[-1].cell_type == "markdown":  # the solution's title: one cell
        cells[-1].source += f"\n\n{note}"
        return [cell]
    return [_V4.new_markdown_cell(note), cell]


def _check_cell(expected: str, language: str, words: Any) -> NotebookNode:
    """The cell that checks the reader's answer to the exercise: run after the exercise's."""
    call = _CHECK_CELL_CALL.format(language=language)
    code = check_code(expected, words["downloads"]["check_cell"], call)
    cell: NotebookNode = _V4.new_code_cell(code.rstrip("\n"))
    return cell


def _outputs(block: Block, outputs: Printed) -> list[NotebookNode]:
    """What the page shows under a block: its output in the build, or a session's outputs."""
    if "exec" not in block.attributes:
        if block.language != "pycon":
            return []
        return _stream(runnable_output(block.source))
    output = outputs.take(block.source)
    if not output:
        return []
    if block.attributes.get("html", "").lower() in _TRUE:
        return [_V4.new_output("display_data", data={"text/html": output})]
    if block.attributes.get("result"):
        return _stream(output)
    return [_V4.new_output("display_data", data={"text/markdown": output})]


def _stream(text: str) -> list[NotebookNode]:
    return [_V4.new_output("stream", name="stdout", text=text)] if text else []


def runnable_output(session: str) -> str:
    r"""What a pycon session shows as output: its lines without prompts.

    Examples
    --------
    >>> runnable_output(">>> print(1)\n1\n>>> x = 2\n")
    '1\n'
    """
    lines = [
        line
        for line in session.splitlines()
        if not (line.startswith((">>> ", "... ")) or line in (">>>", "..."))
    ]
    return "".join(f"{line}\n" for line in lines)


def _package_note(block: Block, outputs: Printed, words: Any) -> NotebookNode:
    """A block that needs another package: its code and output as Markdown, with a note."""
    package = optional_package(block.source)
    note = words["downloads"]["package_note"].format(package=package)
    text = f"{note}\n\n```python\n{block.source}```"
    output = outputs.take(block.source) if "exec" in block.attributes else None
    if output:
        text += f"\n\n```text\n{output}```"
    cell: NotebookNode = _V4.new_markdown_cell(text)
    return cell


def _figures(output: str) -> list[tuple[str, str]]:
    """The figures of a block's HTML output (``posenc_site.figures``): (SVG, caption HTML)."""
    return [(match["svg"], match["caption"] or "") for match in _FIGURE.finditer(output)]


def _figure_cells(svg: str, caption: str, number: int, words: Any) -> list[NotebookNode]:
    """A cell that shows the figure as the page does, then its numbered caption."""
    title = _TITLE.search(svg)
    alt = html.unescape(title["text"]) if title else ""
    comment = words["downloads"]["figure_cell"].format(number=number)
    cell = _V4.new_code_cell(f"# {comment}")
    # The text is what a notebook shows where it may not show the SVG (JupyterLab does not
    # show an SVG output of a notebook it does not trust).
    data = {"image/svg+xml": svg, "text/plain": alt}
    cell.outputs = [_V4.new_output("display_data", data=data)]
    label = words["figure"]["label"].format(number=number)
    return [cell, _V4.new_markdown_cell(f"**{label}** {caption}".strip())]


def without_empty_sections(cells: list[NotebookNode]) -> list[NotebookNode]:
    r"""``cells`` without the headings whose section is empty in the notebook.

    A heading ends a Markdown cell when its section's content was left out (a quiz); it is
    dropped, and then its parent heading if that is left empty in turn.

    Examples
    --------
    >>> md = nbformat.v4.new_markdown_cell
    >>> cells = [md("# A"), md("Text\n\n## B"), md("### C"), md("## D"), md("x\n\n## E")]
    >>> [cell.source for cell in without_empty_sections(cells)]
    ['# A', 'Text', '## D', 'x']
    """
    cells = list(cells)
    changed = True
    while changed:
        changed = False
        for index, cell in enumerate(cells):
            level = _ending_heading(cell)
            if level is None:
                continue
            following = cells[index + 1] if index + 1 < len(cells) else None
            if following is None or (_opening_heading(following) or 7) <= level:
                lines = cell.source.rstrip().split("\n")
                cell.source = "\n".join(lines[:-1]).strip()
                if not cell.source:
                    del cells[index]
                changed = True
                break
    return cells


def _ending_heading(cell: NotebookNode) -> int | None:
    """The level of the heading on a Markdown cell's last line, if it ends with one."""
    if cell.cell_type != "markdown":
        return None
    heading = _HEADING.match(cell.source.rstrip().rsplit("\n", 1)[-1])
    return len(heading["marks"]) if heading else None


def _opening_heading(cell: NotebookNode) -> int | None:
    """The level of the heading on a Markdown cell's first line, if it opens with one."""
    if cell.cell_type != "markdown":
        return None
    heading = _HEADING.match(cell.source)
    return len(heading["marks"]) if heading else None
