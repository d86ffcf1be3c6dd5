"""The ``quiz`` fence: multiple choice, fill in the blank, matching and complete-the-code.

Hooked into Markdown by ``pymdownx.superfences`` (``custom_fences`` in mkdocs.yml). Why our own:
the maintained quiz plugin has no matching questions, no blanks inside code and no Turkish
strings, and it adds ~64 KB to every page. The page's language, the docs folder and the theme's
Jinja environment come from ``posenc_site.context``, since a fence formatter is not told which
page it is on.
"""

from typing import Any

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

from posenc_site import context
from posenc_site.transforms.quiz.render import render_quiz
from posenc_site.transforms.quiz.schema import QuizError, answer_key, parse_quiz
from posenc_site.transforms.quiz.strings import strings_for

__all__ = ["QuizError", "QuizFenceError", "answer_key", "fence_format", "parse_quiz", "start_page"]


class QuizFenceError(SuperFencesException, PluginError):  # type: ignore[misc]
    """A malformed quiz: superfences lets it through, MkDocs prints it without a traceback."""


_questions_on_page = [0]


def start_page() -> None:
    """Restart the numbering of form ids for the page about to be converted."""
    _questions_on_page[0] = 0


def fence_format(
    src: str, language: str, class_name: str, options: dict[str, Any], md: Any, **_: Any
) -> str:
    """Superfences formatter: the quiz in ``src`` as HTML; a malformed quiz stops the build.

    Parameters
    ----------
    src
        The fence's content, a YAML list of questions (see ``posenc_site.transforms.quiz.schema``).
    language, class_name, options, md
        Given by superfences to every formatter; the quiz needs none of them.

    Returns
    -------
    str
        ``<div class="pe-quizzes">`` holding one form per question.

    Raises
    ------
    QuizFenceError
        The quiz is malformed, or the page's language has no quiz strings.
    """
    try:
        questions = parse_quiz(src, docs_dir=context.current.docs_folder)
        strings = strings_for(context.current.language or "")
    except (QuizError, ValueError) as error:
        # Superfences swallows other exceptions and leaves the fence as plain code.
        raise QuizFenceError(str(error)) from error
    first_id = _questions_on_page[0] + 1  # ids stay unique when a page has several quiz fences
    _questions_on_page[0] += len(questions)
    return render_quiz(questions, first_id, strings, context.current.jinja_env)
