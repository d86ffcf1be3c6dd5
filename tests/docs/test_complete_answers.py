"""Every accepted answer of a complete-the-code form gives the solution's own output.

For each blank and each answer it accepts, the file with that answer in place of the blank (the
other blanks as in the file) runs as ``python solution.py`` would, and must print exactly what
the file prints. A lesson's variants run in one interpreter that forks a fresh process for each
(support/fresh_interpreter.py): each still runs alone, for the price of a fork. English pages
only: tests/docs/test_docs_parity.py makes the Turkish answer keys the same.
"""

import re
from pathlib import Path

import pytest

from posenc_site.transforms.quiz.schema import Complete
from support.docblocks import DOCS, quizzes_of
from support.fresh_runs import run_fresh
from support.project import SITE

LESSONS = sorted(p for p in DOCS.glob("lessons/*.md") if SITE.of_page(p).default)
ORIGINAL = "the file as it is"


def complete_questions(page: Path) -> list[Complete]:
    """The complete-the-code questions of ``page``, in order."""
    return [question for question in quizzes_of(page) if isinstance(question, Complete)]


def variants(question: Complete) -> dict[str, str]:
    """The file with one accepted answer in place of one blank, by name, the file itself first."""
    code = question.code
    found = {ORIGINAL: code}
    for (start, stop), accepted in zip(question.spans, question.answers, strict=True):
        for answer in accepted:
            name = f"{question.file}: {code[start:stop]!r} -> {answer!r}"
            found[name] = code[:start] + answer + code[stop:]
    return found


def normalised(text: str) -> str:
    """An answer as docs/assets/posenc.js compares it: without whitespace."""
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("md_page", LESSONS, ids=lambda p: p.stem)
def test_every_accepted_answer_prints_the_solutions_output(
    md_page: Path, numpy_only: Path, tmp_path: Path
) -> None:
    questions = complete_questions(md_page)
    assert questions, "every lesson has a complete-the-code form"
    for number, question in enumerate(questions):
        for (start, stop), accepted in zip(question.spans, question.answers, strict=True):
            # The reader who types the file's own text is right.
            assert normalised(question.code[start:stop]) in map(normalised, accepted)
        runs = run_fresh(variants(question), tmp_path / f"question-{number}", numpy_only)
        expected = runs.pop(ORIGINAL)
        assert expected.returncode == 0, expected.stderr
        assert expected.stdout
        wrong = [
            f"{name}: exit {run.returncode}, printed {run.stdout!r}\n{run.stderr}"
            for name, run in runs.items()
            if (run.returncode, run.stdout) != (0, expected.stdout)
        ]
        assert not wrong, f"expected {expected.stdout!r}; " + "\n".join(wrong)
