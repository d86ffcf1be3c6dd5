"""Each lesson's exercise checks itself, in both languages (posenc.check_exercise, embedded by
posenc_site.publish.downloads and .notebook).

The downloaded starter file, run as it is, says "not yet" and what to do, in the page's
language, and exits with 1; with the example solution written under "# write here" it says the
answer is right and exits with 0; with a mistake it names the first line that differs and how,
and exits with 1. The notebook's cell after the exercise's cell says the same. What the check
compares with is what the example solution printed in the build, and a fresh run of the solution
(``support.fresh_runs``) prints the same.
"""

import ast
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from posenc_site.execute.blocks import Block
from posenc_site.i18n.languages import load_strings
from support.docblocks import DOCS, blocks_of
from support.fresh_runs import case_id
from support.project import SITE

LESSONS = [
    pytest.param(language, page, id=f"{language}-{SITE.source(page).stem}")
    for page in sorted(DOCS.glob("lessons/*.md"))
    for language in [SITE.of_page(page).code]
    if any(b.attributes.get("id") == "exercise-solution" for b in blocks_of(page))
]
WRITE_HERE = {"en": "# write here\n", "tr": "# buraya yaz\n"}
NOT_YET = {
    "en": [
        "Not yet: your code prints nothing.",
        "Write it under “# write here” and run it again: it should print {n} lines.",
    ],
    "tr": [
        "Henüz değil: kodun hiçbir şey yazdırmıyor.",
        "Kodunu “# buraya yaz” satırının altına yaz ve yeniden çalıştır: {n} satır yazdırmalı.",
    ],
}
PASSED = {
    "en": "Correct: your code prints the expected output, {n} lines.",
    "tr": "Doğru: kodun beklenen çıktıyı yazdırıyor, {n} satır.",
}
DIFFERS = {
    "en": ["Not quite: line {line} of the output differs: {how}.", "  yours:    ", "  expected: "],
    "tr": [
        "Henüz doğru değil: çıktının {line}. satırı farklı: {how}.",
        "  seninki:  ",
        "  beklenen: ",
    ],
}
# One mistake in each lesson's example solution: the code, the mistake, the first line of the
# output it changes, and how that line differs, as the check says it in each language.
MISTAKES = {
    "positional-encoding": (
        "PE[:, 1::2] = np.cos(angles)",
        "PE[:, 1::2] = -np.cos(angles)",  # a sign flipped
        2,
        {"en": "number 2 is -1.0, expected 1.0", "tr": "2. sayı -1.0, beklenen 1.0"},
    ),
    "learned-embeddings": (
        "lookup(table, np.arange(5)).shape",
        "lookup(table, np.arange(4)).shape",
        1,
        {
            "en": "the shape is (4, 4), expected (5, 4)",
            "tr": "boyut (shape) (4, 4), beklenen (5, 4)",
        },
    ),
    "rotary": (
        "shifted = rope(q, 107) @ rope(k, 103)",
        "shifted = rope(q, 107) @ rope(k, 104)",  # another offset: not the same score
        2,
        {
            "en": "boolean 1 is False, expected True",
            "tr": "1. mantıksal değer False, beklenen True",
        },
    ),
    "longer-contexts": (
        "head_dim / (head_dim - 2)",
        "head_dim / (head_dim + 2)",
        1,
        {"en": "number 2 is 2.784, expected 2.875", "tr": "2. sayı 2.784, beklenen 2.875"},
    ),
    "todays-models": (
        "np.arange(n) for n in lengths",
        "np.arange(1, n + 1) for n in lengths",  # positions counted from 1
        2,
        {"en": "number 1 is 1, expected 0", "tr": "1. sayı 1, beklenen 0"},
    ),
    "alibi-t5": (
        "np.where(distance < 0, -np.inf, bias)",
        "bias",  # no causal mask: the keys after the query are not masked
        3,
        {"en": "number 2 is 0.5, expected -inf", "tr": "2. sayı 0.5, beklenen -inf"},
    ),
    "comparison": (
        "-alibi_slopes(8)[3] * position",
        "alibi_slopes(8)[3] * position",  # a sign flipped
        3,
        {"en": "number 1 is 37.5, expected -37.5", "tr": "1. sayı 37.5, beklenen -37.5"},
    ),
    "images-and-video": (
        'indexing="ij"',
        'indexing="xy"',  # NumPy's default: rows and columns swapped
        1,
        {"en": "number 10 is 6, expected 5", "tr": "10. sayı 6, beklenen 5"},
    ),
}


def stem(page: Path) -> str:
    return SITE.source(page).stem


def downloaded(site: Path, language: str, page: Path) -> str:
    folder = site / f"{SITE.get(language).url_prefix}lessons/{stem(page)}"
    return (folder / "model.py").read_text(encoding="utf-8")


def starter_block(page: Path) -> Block:
    return next(
        b
        for b in blocks_of(page)
        if b.attributes.get("title") == "model.py" and "exec" not in b.attributes
    )


def solution(page: Path) -> Block:
    [block] = [b for b in blocks_of(page) if b.attributes.get("id") == "exercise-solution"]
    return block


def written_under_the_marker(starter: str, code: str, language: str) -> str:
    """The starter file with the rest of ``code`` (which opens with the starter's lines)
    written under its "# write here" line, as a reader writes an answer."""
    head, marker, check = starter.partition(WRITE_HERE[language])
    given = head.rstrip("\n")
    assert marker
    assert code.startswith(given)
    return f"{head}{marker}{code.removeprefix(given).lstrip()}\n\n{check}"


def run(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "model.py").write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "model.py"], cwd=tmp_path, capture_output=True, text=True, check=False
    )


def expected_output(code: str) -> str:
    """The value the check's code gives ``EXPECTED_OUTPUT``."""
    [value] = [
        node.value
        for node in ast.parse(code).body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "EXPECTED_OUTPUT"
    ]
    return ast.literal_eval(value)


@pytest.mark.parametrize(("language", "page"), LESSONS)
def test_the_starter_as_downloaded_says_not_yet_and_what_to_do(
    site, language, page, tmp_path, fresh_runs
):
    starter = downloaded(site, language, page)
    assert starter.startswith(starter_block(page).source)  # the page's starter, then the check
    printed = fresh_runs[case_id(page, solution(page))].stdout
    assert expected_output(starter) == printed  # what the solution printed in the build
    comment = load_strings(language)["downloads"]["check_comment"].splitlines()
    assert "".join(f"# {line}\n" for line in comment) in starter
    assert f'language="{language}"' in starter
    result = run(tmp_path, starter)
    assert result.returncode == 1, result.stderr
    n = len(printed.splitlines())
    assert result.stdout.splitlines() == [line.format(n=n) for line in NOT_YET[language]]


@pytest.mark.parametrize(("language", "page"), LESSONS)
def test_the_example_solution_passes(site, language, page, tmp_path, fresh_runs):
    code = solution(page).source
    result = run(
        tmp_path, written_under_the_marker(downloaded(site, language, page), code, language)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    printed = fresh_runs[case_id(page, solution(page))].stdout
    n = len(printed.splitlines())
    assert result.stdout == f"{printed}{PASSED[language].format(n=n)}\n"


@pytest.mark.parametrize(("language", "page"), LESSONS)
def test_a_mistake_is_named_by_its_line_and_how_it_differs(
    site, language, page, tmp_path, fresh_runs
):
    right, wrong, line, how = MISTAKES[stem(page)]
    code = solution(page).source
    assert code.count(right) == 1
    starter = downloaded(site, language, page)
    result = run(tmp_path, written_under_the_marker(starter, code.replace(right, wrong), language))
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    heading, yours, theirs = DIFFERS[language]
    at = lines.index(heading.format(line=line, how=how[language]))
    expected = fresh_runs[case_id(page, solution(page))].stdout.splitlines()
    assert lines[at + 1 :] == [yours + lines[line - 1], theirs + expected[line - 1]]
    assert lines[line - 1] != expected[line - 1]
    assert lines[: line - 1] == expected[: line - 1]  # the lines before it are right


def check_cell_of(book: nbformat.NotebookNode, starter: Block) -> nbformat.NotebookNode:
    """The cell right after the exercise's starter cell, which must be a code cell."""
    sources = [cell.source for cell in book.cells]
    cell = book.cells[sources.index(starter.source.rstrip("\n")) + 1]
    assert cell.cell_type == "code"
    return cell


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_the_notebook_checks_the_exercise_in_the_cell_after_it(site, language, fresh_runs):
    """Per lesson: the starter then the check, the solution then the check, a mistake then
    the check, all in one kernel; the check's result is shown as the cell's value."""
    pages = [page for lang, page in (p.values for p in LESSONS) if lang == language]
    assert len(pages) == 8
    comment = load_strings(language)["downloads"]["check_cell"].splitlines()
    cells, wanted = [], []
    for page in pages:
        folder = site / f"{SITE.get(language).url_prefix}lessons/{stem(page)}"
        book = nbformat.read(folder / f"{stem(page)}.ipynb", as_version=4)
        starter = starter_block(page)
        check = check_cell_of(book, starter)
        assert check.outputs == []  # nothing checked yet when the reader opens it
        assert check.source.startswith("".join(f"# {line}\n" for line in comment))
        assert check.source.endswith(f'check_exercise(EXPECTED_OUTPUT, language="{language}")')
        printed = fresh_runs[case_id(page, solution(page))].stdout
        assert expected_output(check.source) == printed
        right, wrong, line, how = MISTAKES[stem(page)]
        code = solution(page).source
        for source in (starter.source, code, code.replace(right, wrong)):
            cells += [nbformat.v4.new_code_cell(source), nbformat.v4.new_code_cell(check.source)]
        n = len(printed.splitlines())
        wanted += [
            "\n".join(NOT_YET[language]).format(n=n),
            PASSED[language].format(n=n),
            DIFFERS[language][0].format(line=line, how=how[language]),
        ]
    book = nbformat.v4.new_notebook(cells=cells)
    NotebookClient(book, timeout=120, kernel_name="python3").execute()
    shown = []
    for cell in book.cells[1::2]:
        [output] = cell.outputs
        assert output.output_type == "execute_result"
        shown.append(output.data["text/plain"])
    assert [
        text.split("\n")[: len(w.split("\n"))] for text, w in zip(shown, wanted, strict=True)
    ] == [w.split("\n") for w in wanted]
