"""The quiz fence: parsing, every malformed-quiz error, escaping, and the lesson's quizzes."""

import re
import textwrap
from pathlib import Path

import markdown
import pytest
from pymdownx.superfences import SuperFencesException

from posenc_site.execute.blocks import split_page
from posenc_site.transforms import quiz
from posenc_site.transforms.quiz import QuizError, answer_key, parse_quiz
from posenc_site.transforms.quiz.render import inline, plain
from posenc_site.transforms.quiz.schema import Blank, Choice, Complete, Match, shuffled_order
from support.docblocks import DOCS, SNIPPET_PATHS, Block, quizzes_of

LESSONS = sorted(DOCS.glob("lessons/positional-encoding*.md"))
EVERY_LESSON = sorted(DOCS.glob("lessons/*.md"))


QUIZ_FENCE = {"name": "quiz", "class": "quiz", "format": quiz.fence_format}


def on_page(text: str, language: str = "en", md: markdown.Markdown | None = None) -> str:
    """``text``, a page's Markdown, converted with the quiz fence on a page in ``language``."""
    md = md or markdown.Markdown(
        extensions=["pymdownx.superfences", "posenc_site.transforms.quiz"],
        extension_configs={
            "pymdownx.superfences": {"custom_fences": [QUIZ_FENCE]},
            "posenc_site.transforms.quiz": {"language": language, "docs_dir": DOCS},
        },
    )
    return md.convert(text)


def fence(yaml_text: str, language: str = "en") -> str:
    """One quiz fence holding ``yaml_text``, as HTML."""
    return on_page(f"```quiz\n{yaml_text.strip()}\n```\n", language)


def parse(yaml_text: str, docs_dir: Path = DOCS):
    return parse_quiz(textwrap.dedent(yaml_text), docs_dir=docs_dir)


CHOICE = """
- type: choice
  question: Pick one.
  options:
    - text: right
      correct: true
    - text: wrong
      explanation: because
  explanation: Why.
"""


def test_choice_question():
    [question] = parse(CHOICE)
    assert isinstance(question, Choice)
    assert [o.correct for o in question.options] == [True, False]
    assert question.options[1].explanation == "because"
    assert answer_key(question) == ("choice", 2, (0,), False)


def test_multiple_choice_with_several_right_answers():
    [question] = parse(
        CHOICE.replace("text: wrong", "text: also right\n      correct: true").replace(
            "question: Pick one.", "question: Pick two.\n  multiple: true"
        )
    )
    assert answer_key(question) == ("choice", 2, (0, 1), True)


def test_blank_question_accepts_lists_of_answers():
    [question] = parse("""
        - type: blank
          question: Fill.
          code: "a[____] = b[____]"
          answers: [["0", " 0 "], 1]
          explanation: Why.
        """)
    assert isinstance(question, Blank)
    assert question.answers == (("0", "0"), ("1",))


def test_match_order_is_deterministic_and_moves_every_item():
    yaml_text = """
        - type: match
          question: Match.
          pairs: [[a, "1"], [b, "2"], [c, "3"], [d, "4"]]
          explanation: Why.
        """
    [first], [second] = parse(yaml_text), parse(yaml_text)
    assert isinstance(first, Match)
    assert first.order == second.order
    assert sorted(first.order) == [0, 1, 2, 3]
    assert all(row != pair for row, pair in enumerate(first.order))


@pytest.mark.parametrize("n", range(2, 9))
def test_shuffled_order_is_a_derangement(n):
    order = shuffled_order(n, f"seed-{n}")
    assert sorted(order) == list(range(n))
    assert all(k != i for k, i in enumerate(order))


@pytest.mark.parametrize("number", range(1, 9))
@pytest.mark.parametrize("n", range(3, 7))
def test_a_match_question_is_never_answered_in_reverse_order(number, n):
    # The seeds the quizzes use; "match-4-4" gave d-c-b-a on five lessons.
    assert shuffled_order(n, f"match-{number}-{n}") != tuple(range(n - 1, -1, -1))


COMPLETE_CODE = """
    - type: complete
      question: Complete.
      file: code.py
      blanks:
        - find: "x * 3"
        - find: "1 + 2"
          answers: ["1 + 2", {answer}]
      explanation: Why.
    """


def test_complete_question_cuts_blanks_out_of_the_file(tmp_path):
    (tmp_path / "code.py").write_text("x = 1 + 2\ny = x * 3\n")
    [question] = parse(COMPLETE_CODE.format(answer='"2 + 1"'), docs_dir=tmp_path)
    assert isinstance(question, Complete)
    assert [question.code[a:b] for a, b in question.spans] == ["1 + 2", "x * 3"]
    # blanks in the file's order; a second answer that keeps the file Python is accepted
    assert question.answers == (("1 + 2", "2 + 1"), ("x * 3",))


@pytest.mark.parametrize("answer", ['"1 +"', '"(1 + 2"', '"1 + 2\\nprint(x"'])
def test_an_answer_that_breaks_the_python_of_the_file_stops_the_build(tmp_path, answer):
    (tmp_path / "code.py").write_text("x = 1 + 2\ny = x * 3\n")
    with pytest.raises(QuizError, match=r"blank 2: the answer .* leaves code\.py invalid"):
        parse(COMPLETE_CODE.format(answer=answer), docs_dir=tmp_path)


def test_answers_in_a_file_that_is_not_python_are_not_parsed(tmp_path):
    (tmp_path / "code.txt").write_text("x = 1 + 2\ny = x * 3\n")
    text = COMPLETE_CODE.format(answer='"1 +"').replace("code.py", "code.txt")
    [question] = parse(text, docs_dir=tmp_path)
    assert question.answers == (("1 + 2", "1 +"), ("x * 3",))


MALFORMED = [
    ("not: a list", "quiz must be a non-empty YAML list"),
    ("- [unclosed", "quiz is not valid YAML"),
    ("- type: essay\n  question: Q\n  explanation: E", "question 1: 'type' must be one of"),
    (CHOICE.replace("correct: true", "correct: false"), "no option is marked correct"),
    (CHOICE.replace("explanation: because", "correct: true"), "2 options are marked correct"),
    (CHOICE.replace("correct: true", "correct: yes please"), "'correct' must be true or false"),
    (
        CHOICE.replace("explanation: Why.", "explanation: Why.\n  hint: no"),
        "unknown key(s) ['hint']",
    ),
    (
        CHOICE.replace("      explanation: because", "      why: because"),
        "option 2: unknown key(s) ['why']",
    ),
    (CHOICE.replace("  explanation: Why.\n", ""), "'explanation' must be a non-empty text"),
    (CHOICE.replace("question: Pick one.", "question: ''"), "'question' must be a non-empty text"),
    (
        "- type: blank\n  question: Q\n  code: 'a[____] = ____'\n"
        "  answers: ['0']\n  explanation: E",
        "'code' has 2 blank(s) but 1 answer(s)",
    ),
    (
        "- type: blank\n  question: Q\n  code: 'a[0]'\n  answers: []\n  explanation: E",
        "has no blank",
    ),
    (
        "- type: match\n  question: Q\n  pairs: [[a, '1'], [b, '1']]\n  explanation: E",
        "not one-to-one, the meaning '1' appears twice",
    ),
    (
        "- type: match\n  question: Q\n  pairs: [[a, '1'], [a, '2']]\n  explanation: E",
        "not one-to-one, the concept 'a' appears twice",
    ),
    ("- type: match\n  question: Q\n  pairs: [[a, '1', x], [b, '2']]\n  explanation: E", "pair 1"),
    (
        "- type: complete\n  question: Q\n  file: nowhere.py\n"
        "  blanks: [{find: x}]\n  explanation: E",
        "'file' must name a file under docs/",
    ),
    (
        "- type: complete\n  question: Q\n  file: lessons/positional-encoding/solution.py\n"
        "  blanks: [{find: self_attention}]\n  explanation: E",
        "'self_attention' occurs 5 times",
    ),
]


@pytest.mark.parametrize(("yaml_text", "message"), MALFORMED)
def test_malformed_quizzes_are_rejected_with_the_question_named(yaml_text, message):
    with pytest.raises(QuizError, match=re.escape(message)):
        parse(yaml_text)


def test_math_reads_as_text_in_labels():
    assert plain(r"by $\sqrt{d}$ and $X X^\top$, $a \cdot b$") == "by √d and X Xᵀ, a · b"


def test_fence_raises_the_error_superfences_does_not_swallow():
    with pytest.raises(SuperFencesException, match=r"question 1 .*no option is marked correct"):
        fence(CHOICE.replace("correct: true", "correct: false"))


def test_unknown_language_is_an_error():
    with pytest.raises(SuperFencesException, match="language 'xx' has no strings file"):
        fence(CHOICE, "xx")  # a page in a language the site does not have


def test_a_fence_without_the_quiz_extension_is_an_error():
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [QUIZ_FENCE]}},
    )
    with pytest.raises(SuperFencesException, match=r"needs the extension posenc_site\.transforms"):
        on_page(f"```quiz\n{CHOICE.strip()}\n```\n", md=md)


def test_quiz_text_is_escaped():
    html = fence(
        CHOICE.replace("text: right", "text: <script>alert(1)</script> `a<b` $x<y$").replace(
            "explanation: Why.", "explanation: <img src=x onerror=alert(1)>"
        )
    )
    assert "<script>" not in html
    assert "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<code>a&lt;b</code>" in html
    assert '<span class="arithmatex">\\(x&lt;y\\)</span>' in html


def test_math_only_labels_get_an_accessible_name():
    html = fence(CHOICE.replace("text: right", r"text: $\sqrt{d}$"))
    assert 'aria-label="A. √d"' in html


def test_form_ids_run_on_across_a_pages_fences_and_restart_on_the_next_page():
    page = f"```quiz\n{CHOICE.strip()}\n```\n\nText.\n\n```quiz\n{CHOICE.strip()}\n```\n"
    md = markdown.Markdown(
        extensions=["pymdownx.superfences", "posenc_site.transforms.quiz"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [QUIZ_FENCE]}},
    )
    form_ids = re.compile(r'<form class="pe-quiz" id="([^"]+)"')
    assert form_ids.findall(on_page(page, md=md)) == ["quiz-1", "quiz-2"]
    md.reset()  # a new document: what MkDocs does with a new Markdown instance per page
    assert form_ids.findall(on_page(page, md=md)) == ["quiz-1", "quiz-2"]


def test_inline_keeps_code_and_math_only():
    assert inline("**b** `c` $m$") == (
        '**b** <code>c</code> <span class="arithmatex">\\(m\\)</span>'
    )


@pytest.mark.parametrize(
    ("language", "check", "correct", "answer"),
    [("en", "Check", "Correct!", "Answer"), ("tr", "Kontrol et", "Doğru!", "Cevap")],
)
def test_the_strings_follow_the_language_option(language, check, correct, answer):
    html = fence(CHOICE, language)
    assert f">{check}</button>" in html
    assert f'data-msg-correct="{correct}"' in html
    assert f"<summary>{answer}</summary>" in html


@pytest.mark.parametrize("md_page", EVERY_LESSON, ids=lambda p: p.name)
def test_lesson_has_the_three_question_types_and_the_complete_mode(md_page):
    kinds = [type(q).__name__ for q in quizzes_of(md_page)]
    assert kinds[:1] == ["Complete"], kinds
    assert sorted(set(kinds[1:])) == ["Blank", "Choice", "Match"], kinds
    [complete] = [q for q in quizzes_of(md_page) if isinstance(q, Complete)]
    assert complete.file == f"lessons/{md_page.name.split('.')[0]}/solution.py"
    assert 3 <= len(complete.spans) <= 5
    # posenc.js opens the example solution that directly follows the form.
    parts = split_page(md_page.read_text(encoding="utf-8"), SNIPPET_PATHS)
    at = next(k for k, p in enumerate(parts) if isinstance(p, Block) and p.language == "quiz")
    prose, solution = parts[at + 1 : at + 3]
    assert isinstance(prose, str)
    assert prose.lstrip().startswith("??? example"), prose[:80]
    assert isinstance(solution, Block)
    assert solution.attributes.get("id") == "exercise-solution"


@pytest.mark.parametrize("md_page", LESSONS, ids=lambda p: p.name)
def test_filled_blanks_give_lines_of_the_real_solution(md_page):
    solution = (DOCS / "lessons/positional-encoding/solution.py").read_text()
    for question in quizzes_of(md_page):
        if isinstance(question, Blank):
            filled = question.code
            for accepted in question.answers:
                filled = re.sub(r"_{4,}", accepted[0], filled, count=1)
            assert filled in solution
        if isinstance(question, Complete):
            pieces, end = [], 0
            for (start, stop), accepted in zip(question.spans, question.answers, strict=True):
                pieces += [question.code[end:start], accepted[0]]
                end = stop
            assert "".join(pieces) + question.code[end:] == solution
