"""The answer key of a page, for print: its exercise's solution and its quizzes' right answers.

On paper the quiz's buttons do nothing and a collapsed answer stays out of sight, so a printed
lesson ends with its answer key: the example solution's code, then, for each quiz fence, its
questions' numbers and right answers, under the heading of the section that holds the fence.
It is made at build time from what the page renders: the questions that the fences parsed
(the models the forms are rendered from) and the code of the page's exercise solution, the
fenced block with ``id="exercise-solution"`` (as the lessons' downloads find it), read once the
snippets are included. The key is shown in print only (``docs/assets/posenc.css`` hides it on
screen, where screen readers skip it too) and stays out of the search index
(``data-search-exclude``, as figures mark themselves).

The key goes after the page's last section, References included: a reader finds it at the
back, as in a textbook, and may leave those pages out when handing the lesson out; it depends
on no heading of the page, whose words and ids differ between languages.

`QuizExtension` registers the two parts: `SolutionReader`, a preprocessor that finds the
solution, and `AnswerKey`, a page transform (see `posenc_site.transforms.page_html`) that
appends the key to the page's whole HTML.
"""

import re
from collections.abc import Callable, Mapping, Sequence

from markdown import Markdown
from markdown.preprocessors import Preprocessor
from markupsafe import Markup

from posenc_site.transforms.page_html import FIRST_PARAGRAPH, PageTransform
from posenc_site.transforms.quiz.render import LETTERS, environment
from posenc_site.transforms.quiz.schema import Question

_OPENING = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})[^`\n]*\bid=\"exercise-solution\"")
# A section's heading as Python-Markdown's toc writes it, its permalink left out.
_HEADING = re.compile(r'<h2 id="[^"]*"[^>]*>(?P<inner>.*?)(?:<a class="headerlink".*?)?</h2>', re.S)

# Fences: (the first question's form number, the fence's questions), in page order.
Fences = Sequence[tuple[int, Sequence[Question]]]


def solution_code(lines: Sequence[str]) -> str | None:
    r"""The code of the exercise solution among a page's Markdown lines, snippets included.

    Parameters
    ----------
    lines
        The page's Markdown, one line each.

    Returns
    -------
    str or None
        The body of the first fenced block with ``id="exercise-solution"``, its fence's indent
        taken off and trailing blank lines dropped; None on a page without one.

    Examples
    --------
    >>> solution_code(['??? example "Solution"', "", '    ```python id="exercise-solution"',
    ...                "    def f():", "        return 1", "    ```", "", "After."])
    'def f():\n    return 1'
    """
    for k, line in enumerate(lines):
        opening = _OPENING.match(line)
        if not opening:
            continue
        indent, fence = opening.group("indent"), opening.group("fence")
        closing = re.compile(rf"^{indent}{fence[0]}{{{len(fence)},}}\s*$")
        body = []
        for text in lines[k + 1 :]:
            if closing.match(text):
                break
            body.append(text.removeprefix(indent))
        return "\n".join(body).rstrip()
    return None


def section_labels(html: str, first_ids: Sequence[int]) -> list[Markup | None]:
    """The heading of the section holding each quiz fence, as the page's HTML writes it.

    Parameters
    ----------
    html
        The page's HTML, its quiz forms included.
    first_ids
        The number of each fence's first form (``quiz-<n>``).

    Returns
    -------
    list of Markup or None
        The inner HTML of the last ``<h2>`` before each fence, its permalink left out; None for
        a fence that no section heading precedes.
    """
    headings = [(match.start(), Markup(match["inner"])) for match in _HEADING.finditer(html)]
    labels = []
    for first in first_ids:
        at = html.find(f'<form class="pe-quiz" id="quiz-{first}"')
        before = [label for start, label in headings if start < at]
        labels.append(before[-1] if at >= 0 and before else None)
    return labels


def render_answer_key(
    solution: str | None,
    groups: Sequence[tuple[Markup | None, Sequence[Question]]],
    strings: Mapping[str, str],
) -> str:
    """The answer key as HTML.

    Parameters
    ----------
    solution
        The exercise solution's code, or None.
    groups
        For each quiz fence, in page order: the heading of its section (or None) and its
        questions.
    strings
        The quiz strings of the page's language (``posenc_site.transforms.quiz.strings``).

    Returns
    -------
    str
        ``<section class="pe-answer-key" data-search-exclude=…>``: the heading, the solution's
        code, then each question's number and right answers: a choice's right options by
        letter, each blank's accepted answers, each matched pair with the meaning's letter.
    """
    template = environment().get_template("answer_key.html")
    return template.render(solution=solution, groups=groups, t=strings, letters=LETTERS)


class SolutionReader(Preprocessor):  # type: ignore[misc]
    """Hands the page's exercise solution, snippets included, to ``found``."""

    # After pymdownx.snippets (32), which includes the solution's file; before the blocks are
    # parsed.
    priority = 31

    def __init__(self, md: Markdown, found: Callable[[str | None], None]) -> None:
        super().__init__(md)
        self.found = found

    def run(self, lines: list[str]) -> list[str]:
        """Give ``found`` the solution's code; the lines unchanged."""
        self.found(solution_code(lines))
        return lines


class AnswerKey(PageTransform):
    """Appends the answer key to the page's HTML, when it has a solution or a quiz.

    ``page`` returns what the page's conversion found: the solution's code, the fences with
    their questions, and the quiz strings of the page's language.
    """

    name = "posenc_answer_key"
    # Before the formulas of `posenc_site.transforms.page_html` become MathML, with the
    # page's: the key's answers may hold math.
    priority = FIRST_PARAGRAPH + 1

    def __init__(
        self,
        md: Markdown,
        page: Callable[[], tuple[str | None, Fences, Mapping[str, str]]],
    ) -> None:
        super().__init__(md)
        self.page = page

    def transform(self, html: str) -> str:
        """The page's HTML with its answer key after the last section."""
        solution, fences, strings = self.page()
        if not solution and not fences:
            return html
        labels = section_labels(html, [first for first, _ in fences])
        groups = [(label, questions) for label, (_, questions) in zip(labels, fences, strict=True)]
        return html + "\n" + render_answer_key(solution, groups, strings)
