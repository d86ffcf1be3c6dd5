"""The ``quiz`` fence: multiple choice, fill in the blank, matching and complete-the-code.

Hooked into Markdown by ``pymdownx.superfences`` (``custom_fences`` in mkdocs.yml, formatter
`fence_format`). Why our own: the maintained quiz plugin has no matching questions, no blanks
inside code and no Turkish strings, and it adds ~64 KB to every page.

A fence formatter is told nothing of the page it is on but the Markdown instance converting
it. `QuizExtension` (``posenc_site.transforms.quiz`` in mkdocs.yml's ``markdown_extensions``)
holds what the fence needs, as options: the page's ``language`` (set per page by
``posenc_site.i18n.page_language.configure_markdown``) and the ``docs_dir`` that
``complete`` questions read their files from; it also counts the page's questions, so that
form ids stay unique when a page has several quiz fences. `fence_format` finds it among the
instance's registered extensions. It also keeps what the page's answer key, printed at the
page's end, is made of: the fences' questions and the exercise's solution
(`posenc_site.transforms.quiz.print_key`).
"""

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.extensions import Extension
from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

from posenc_site.transforms.quiz.print_key import AnswerKey, Fences, SolutionReader
from posenc_site.transforms.quiz.render import render_quiz
from posenc_site.transforms.quiz.schema import Question, QuizError, answer_key, parse_quiz
from posenc_site.transforms.quiz.strings import strings_for

__all__ = [
    "QuizError",
    "QuizExtension",
    "QuizFenceError",
    "answer_key",
    "fence_format",
    "makeExtension",
    "parse_quiz",
]


class QuizFenceError(SuperFencesException, PluginError):  # type: ignore[misc]
    """A malformed quiz: superfences lets it through, MkDocs prints it without a traceback."""


class QuizExtension(Extension):  # type: ignore[misc]
    r"""Python-Markdown extension: the page's settings for its ``quiz`` fences, and their count.

    Parameters
    ----------
    language : str
        The code of the page's language: the fences' interface strings are its.
    docs_dir : str or pathlib.Path
        The folder that ``complete`` questions name their ``file`` in (relative paths are
        relative to the working folder).

    Examples
    --------
    >>> import markdown
    >>> fence = {"name": "quiz", "class": "quiz", "format": fence_format}
    >>> quiz = "- {type: match, question: Q, pairs: [[a, '1'], [b, '2']], explanation: E}"
    >>> html = markdown.markdown(
    ...     f"```quiz\n{quiz}\n```",
    ...     extensions=["pymdownx.superfences", "posenc_site.transforms.quiz"],
    ...     extension_configs={
    ...         "pymdownx.superfences": {"custom_fences": [fence]},
    ...         "posenc_site.transforms.quiz": {"language": "tr"},
    ...     },
    ... )
    >>> '<form class="pe-quiz" id="quiz-1" data-kind="match"' in html, "Kontrol et" in html
    (True, True)
    """

    def __init__(self, **kwargs: object) -> None:
        self.config = {
            "language": ["en", "The code of the page's language."],
            "docs_dir": ["docs", "The folder of the files that complete questions read."],
        }
        super().__init__(**kwargs)
        self.questions = 0
        self.fences: list[tuple[int, list[Question]]] = []
        self.solution: str | None = None

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Register the extension and the parts of the page's answer key.

        Registered, the extension is found by `fence_format` and reset by ``md.reset()``.
        """
        md.registerExtension(self)
        md.preprocessors.register(
            SolutionReader(md, self._found_solution), "posenc_solution", SolutionReader.priority
        )
        AnswerKey(md, self._answer_key_parts).register()

    def reset(self) -> None:
        """Restart the numbering of form ids and forget the answer key: a new document."""
        self.questions = 0
        self.fences = []
        self.solution = None

    def _found_solution(self, code: str | None) -> None:
        self.solution = code

    def _answer_key_parts(self) -> tuple[str | None, Fences, Mapping[str, str]]:
        return self.solution, self.fences, strings_for(str(self.getConfig("language")))


def makeExtension(**kwargs: object) -> QuizExtension:  # noqa: N802 (Python-Markdown's name)
    """The extension, for ``posenc_site.transforms.quiz`` in a list of extensions."""
    return QuizExtension(**kwargs)


def _extension(md: Markdown | None) -> QuizExtension:
    registered = getattr(md, "registeredExtensions", [])
    found = [extension for extension in registered if isinstance(extension, QuizExtension)]
    if not found:
        raise QuizFenceError(
            "the quiz fence needs the extension posenc_site.transforms.quiz in the Markdown"
            " extensions (markdown_extensions in mkdocs.yml)"
        )
    return found[0]


def fence_format(
    src: str, language: str, class_name: str, options: dict[str, Any], md: Markdown, **_: Any
) -> str:
    """Superfences formatter: the quiz in ``src`` as HTML; a malformed quiz stops the build.

    Parameters
    ----------
    src : str
        The fence's content, a YAML list of questions (see ``posenc_site.transforms.quiz.schema``).
    language, class_name, options
        Given by superfences to every formatter; the quiz needs none of them.
    md : markdown.Markdown
        The Markdown instance converting the page; `QuizExtension` must be among its
        extensions.

    Returns
    -------
    str
        ``<div class="pe-quizzes">`` holding one form per question.

    Raises
    ------
    QuizFenceError
        The quiz is malformed, the page's language has no quiz strings, or ``md`` lacks
        `QuizExtension`.
    """
    extension = _extension(md)
    try:
        questions = parse_quiz(src, docs_dir=Path(extension.getConfig("docs_dir")))
        strings = strings_for(str(extension.getConfig("language")))
    except (QuizError, ValueError) as error:
        # Superfences swallows other exceptions and leaves the fence as plain code.
        raise QuizFenceError(str(error)) from error
    first_id = extension.questions + 1
    extension.questions += len(questions)
    extension.fences.append((first_id, questions))
    return render_quiz(questions, first_id, strings)
