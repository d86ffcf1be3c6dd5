"""The ``quiz`` fence: multiple choice, fill in the blank, matching and complete-the-code.

Hooked into Markdown by ``pymdownx.superfences`` (``custom_fences`` in mkdocs.yml). Why our own:
the maintained quiz plugin has no matching questions, no blanks inside code and no Turkish
strings, and it adds ~64 KB to every page. The page's language and the docs folder come from
the MkDocs hook (``configure``), since a fence formatter is not told which page it is on.
"""

from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

from posenc_site.quiz.render import render_question
from posenc_site.quiz.schema import QuizError, answer_key, parse_quiz
from posenc_site.quiz.strings import strings_for

__all__ = ["QuizError", "QuizFenceError", "answer_key", "configure", "fence_format", "parse_quiz"]


class QuizFenceError(SuperFencesException, PluginError):
    """A malformed quiz: superfences lets it through, MkDocs prints it without a traceback."""


_context: dict[str, Any] = {"language": "en", "docs_dir": Path("docs"), "count": 0}


def configure(*, language: str, docs_dir: Path) -> None:
    """Set the language and docs folder of the page about to be converted."""
    _context.update(language=language, docs_dir=Path(docs_dir), count=0)


def fence_format(src: str, language: str, class_name: str, options: dict, md: Any, **_: Any) -> str:
    """Superfences formatter: the quiz in ``src`` as HTML; a malformed quiz stops the build."""
    try:
        questions = parse_quiz(src, docs_dir=_context["docs_dir"])
        strings = strings_for(_context["language"])
    except (QuizError, ValueError) as error:
        # Superfences swallows other exceptions and leaves the fence as plain code.
        raise QuizFenceError(str(error)) from error
    html = []
    for number, question in enumerate(questions, start=1):
        _context["count"] += 1  # ids stay unique when a page has several quiz fences
        html.append(render_question(question, number, f"quiz-{_context['count']}", strings))
    return '<div class="pe-quizzes">\n' + "\n".join(html) + "\n</div>"
