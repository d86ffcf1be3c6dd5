"""Checks a lesson's exercise: what the reader's code prints, against the expected output.

A lesson's starter file, ``model.py``, ends with a check that runs when the file is run, and
its notebook has a cell that runs the same check: the reader's code runs once more with what it
prints caught, and the text is compared line by line with what the lesson's example solution
printed. Within a line, numbers are compared with a tolerance, shapes and booleans exactly,
and the rest as text, whatever the spacing.
"""

import contextlib
import io
import math
import re
import runpy
from dataclasses import dataclass
from os import PathLike
from typing import Any, Literal

__all__ = ["ExerciseCheck", "check_exercise", "check_output"]

Status = Literal["passed", "not yet", "different"]

_TOKEN = re.compile(
    r"""
    (?P<shape>\(\s*\d+\s*(?:,\s*\d+\s*)*,?\s*\))     # (4, 6), (16,)
    | (?P<number>(?<![\w.])[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf|nan)(?![\w.]))
    | (?P<word>\w+)
    | (?P<mark>\S)
    """,
    re.VERBOSE,
)

# What the check says, in each language of the course. A line is counted from 1.
_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "line": "1 line",
        "lines": "{n} lines",
        "passed": "Correct: your code prints the expected output, {lines}.",
        "not yet": (
            "Not yet: your code prints nothing.\n"
            "Write it under “# write here” and run it again: it should print {lines}."
        ),
        "different": (
            "Not quite: line {line} of the output differs: {difference}.\n"
            "  yours:    {printed}\n"
            "  expected: {expected}"
        ),
        "missing": (
            "Not quite: your code prints {printed_lines}, the expected output has "
            "{expected_lines}.\nLine {line} is missing:\n"
            "  expected: {expected}"
        ),
        "extra": (
            "Not quite: your code prints {printed_lines}, the expected output has "
            "{expected_lines}.\nLine {line} is one too many:\n"
            "  yours:    {printed}"
        ),
        "raised": "Not quite: your code raised {error}.",
        "number": "number {index} is {printed}, expected {expected}",
        "count": "it holds {printed} numbers, expected {expected}",
        "shape": "the shape is {printed}, expected {expected}",
        "boolean": "boolean {index} is {printed}, expected {expected}",
        "value": "it has “{printed}” where “{expected}” is expected",
        "text": "the text differs",
    },
    "tr": {
        "line": "1 satır",
        "lines": "{n} satır",
        "passed": "Doğru: kodun beklenen çıktıyı yazdırıyor, {lines}.",
        "not yet": (
            "Henüz değil: kodun hiçbir şey yazdırmıyor.\n"
            "Kodunu “# buraya yaz” satırının altına yaz ve yeniden çalıştır: {lines} "
            "yazdırmalı."
        ),
        "different": (
            "Henüz doğru değil: çıktının {line}. satırı farklı: {difference}.\n"
            "  seninki:  {printed}\n"
            "  beklenen: {expected}"
        ),
        "missing": (
            "Henüz doğru değil: kodun {printed_lines} yazdırıyor, beklenen çıktı "
            "{expected_lines}.\n{line}. satır eksik:\n"
            "  beklenen: {expected}"
        ),
        "extra": (
            "Henüz doğru değil: kodun {printed_lines} yazdırıyor, beklenen çıktı "
            "{expected_lines}.\n{line}. satır fazla:\n"
            "  seninki:  {printed}"
        ),
        "raised": "Henüz doğru değil: kodun bir hata verdi: {error}.",
        "number": "{index}. sayı {printed}, beklenen {expected}",
        "count": "satırda {printed} sayı var, beklenen {expected}",
        "shape": "boyut (shape) {printed}, beklenen {expected}",
        "boolean": "{index}. mantıksal değer {printed}, beklenen {expected}",
        "value": "beklenen “{expected}” yerine “{printed}” var",
        "text": "metin farklı",
    },
}


@dataclass(frozen=True, repr=False)
class ExerciseCheck:
    """The result of checking an exercise: whether it passed, and what to tell the reader.

    Shown in a notebook, or printed, it is its message.

    Attributes
    ----------
    status : {"passed", "not yet", "different"}
        ``"passed"``: the output is the expected one. ``"not yet"``: the code printed
        nothing (the starter file as downloaded). ``"different"``: it printed something else,
        or raised.
    message : str
        What to tell the reader, in the language asked for: with a difference, the first line
        that differs, how, and the two versions of that line.
    line : int or None
        The first line (counted from 1) that differs or is missing or one too many; None if
        the check passed, nothing was printed, or the code raised.
    """

    status: Status
    message: str
    line: int | None = None

    @property
    def passed(self) -> bool:
        """Whether the output is the expected one."""
        return self.status == "passed"

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return self.message


@dataclass(frozen=True)
class _Token:
    kind: str  # "shape", "number", "boolean", or "word" (a word or a mark)
    text: str

    def same(self, other: "_Token", rtol: float, atol: float) -> bool:
        if self.kind == "number":
            return _close(float(self.text), float(other.text), rtol, atol)
        if self.kind == "shape":
            return _ints(self.text) == _ints(other.text)
        return self.text == other.text


def _close(value: float, expected: float, rtol: float, atol: float) -> bool:
    """NumPy's ``isclose`` for one pair, NaN equal to NaN."""
    if math.isnan(value) or math.isnan(expected):
        return math.isnan(value) and math.isnan(expected)
    if math.isinf(value) or math.isinf(expected):
        return value == expected
    return abs(value - expected) <= atol + rtol * abs(expected)


def _ints(shape: str) -> list[int]:
    return [int(number) for number in re.findall(r"\d+", shape)]


def _tokens(line: str) -> list[_Token]:
    tokens = []
    for match in _TOKEN.finditer(line):
        kind = match.lastgroup or "word"
        text = match.group()
        if kind == "word" and text in ("True", "False"):
            kind = "boolean"
        tokens.append(_Token("word" if kind == "mark" else kind, text))
    return tokens


def _difference(
    printed: str, expected: str, words: dict[str, str], rtol: float, atol: float
) -> str | None:
    """How ``printed`` differs from ``expected``, in ``words``; None if it does not."""
    mine, theirs = _tokens(printed), _tokens(expected)
    if len(mine) == len(theirs):
        counts = {"number": 0, "boolean": 0}
        for token, wanted in zip(mine, theirs, strict=True):
            if wanted.kind in counts:
                counts[wanted.kind] += 1
            if token.kind == wanted.kind and token.same(wanted, rtol, atol):
                continue
            values = {"printed": _shown(token), "expected": _shown(wanted)}
            if token.kind == wanted.kind and wanted.kind in counts:
                return words[wanted.kind].format(index=counts[wanted.kind], **values)
            if token.kind == wanted.kind == "shape":
                return words["shape"].format(**values)
            return words["value"].format(**values)
        return None
    numbers = [sum(t.kind == "number" for t in tokens) for tokens in (mine, theirs)]
    others = [[t.text for t in tokens if t.kind != "number"] for tokens in (mine, theirs)]
    if numbers[0] != numbers[1] and others[0] == others[1]:
        return words["count"].format(printed=numbers[0], expected=numbers[1])
    return words["text"]


def _shown(token: _Token) -> str:
    """A token as a message shows it: ``1.`` as ``1.0``, so no full stop follows its point."""
    return f"{token.text}0" if token.kind == "number" and token.text.endswith(".") else token.text


def _lines(text: str) -> list[str]:
    """The lines of ``text``, without the spaces that end them and the empty lines at the end."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _words(language: str) -> dict[str, str]:
    if language not in _WORDS:
        known = ", ".join(repr(code) for code in _WORDS)
        raise ValueError(f"language must be one of {known}, got {language!r}")
    return _WORDS[language]


def _count(n: int, words: dict[str, str]) -> str:
    return words["line"] if n == 1 else words["lines"].format(n=n)


def check_output(
    printed: str,
    expected: str,
    *,
    language: str = "en",
    rtol: float = 1e-6,
    atol: float = 1e-8,
) -> ExerciseCheck:
    r"""Compare what the reader's code printed with the expected output of an exercise.

    Lines are compared one by one, without the spaces that end them and the empty lines at
    the end of the text. Within a line, the numbers are compared with a tolerance, as NumPy's
    ``isclose`` does (NaN equals NaN), a shape such as ``(4, 6)`` and the booleans ``True``
    and ``False`` exactly, and the rest word by word, whatever the spacing between them: NumPy
    may align the same array with other spaces.

    Parameters
    ----------
    printed : str
        What the reader's code printed. Nothing printed, or only spaces, means the exercise
        is not done yet.
    expected : str
        The expected output: what the lesson's example solution printed.
    language : {"en", "tr"}, default "en"
        The language of the message.
    rtol, atol : float, default 1e-6, 1e-8
        Relative and absolute tolerance of a number: ``x`` matches the expected ``y`` if
        ``|x - y| <= atol + rtol * |y|``.

    Returns
    -------
    ExerciseCheck
        ``"passed"`` if every line matches, ``"not yet"`` if nothing was printed, else
        ``"different"``, with the first line that differs (or is missing, or one too many)
        and a message that says how.

    Raises
    ------
    ValueError
        If ``language`` is not one of the course's languages.

    Examples
    --------
    >>> from posenc import check_output
    >>> expected = "(4, 6)\n[0.841 0.54  0.046]\nTrue False\n"
    >>> check_output("(4, 6)\n[0.8410000001 0.54 0.046]\nTrue False\n", expected).passed
    True
    >>> check_output("", expected)
    Not yet: your code prints nothing.
    Write it under “# write here” and run it again: it should print 3 lines.
    >>> result = check_output("(4, 6)\n[0.841 0.54  0.047]\nTrue False\n", expected)
    >>> result.status, result.line
    ('different', 2)
    >>> print(result)
    Not quite: line 2 of the output differs: number 3 is 0.047, expected 0.046.
      yours:    [0.841 0.54  0.047]
      expected: [0.841 0.54  0.046]
    >>> wrong = "(4, 6)\n[0.841 0.54  0.046]\nTrue True\n"
    >>> print(check_output(wrong, expected, language="tr"))
    Henüz doğru değil: çıktının 3. satırı farklı: 2. mantıksal değer True, beklenen False.
      seninki:  True True
      beklenen: True False
    """
    words = _words(language)
    mine, theirs = _lines(printed), _lines(expected)
    if not mine:
        return ExerciseCheck("not yet", words["not yet"].format(lines=_count(len(theirs), words)))
    for number, (line, wanted) in enumerate(zip(mine, theirs, strict=False), start=1):
        difference = _difference(line, wanted, words, rtol, atol)
        if difference is not None:
            message = words["different"].format(
                line=number, difference=difference, printed=line, expected=wanted
            )
            return ExerciseCheck("different", message, number)
    if len(mine) != len(theirs):
        number = min(len(mine), len(theirs)) + 1
        counts = {
            "printed_lines": _count(len(mine), words),
            "expected_lines": _count(len(theirs), words),
        }
        if len(mine) < len(theirs):
            message = words["missing"].format(line=number, expected=theirs[number - 1], **counts)
        else:
            message = words["extra"].format(line=number, printed=mine[number - 1], **counts)
        return ExerciseCheck("different", message, number)
    return ExerciseCheck("passed", words["passed"].format(lines=_count(len(theirs), words)))


def check_exercise(
    expected: str,
    *,
    path: str | PathLike[str] | None = None,
    language: str = "en",
) -> ExerciseCheck:
    """Run the reader's code of an exercise again, catching what it prints, and check it.

    The starter file of a lesson calls it at its end, when it is run as a script, with its own
    path; a lesson's notebook calls it in the cell after the exercise's cell, without one.

    Parameters
    ----------
    expected : str
        The expected output (see :func:`check_output`).
    path : str or path-like, optional
        The reader's script, run again under another ``__name__`` than ``"__main__"`` (so its
        ``if __name__ == "__main__":`` block, which calls this function, does not run again).
        Without it, in IPython or Jupyter, the code of the last cell run before the current
        one, other than a cell that calls this function, runs again in the notebook's
        namespace.
    language : {"en", "tr"}, default "en"
        The language of the message.

    Returns
    -------
    ExerciseCheck
        As :func:`check_output` returns it; ``"different"`` without a line if the code
        raised an exception, which the message names.

    Raises
    ------
    RuntimeError
        If no ``path`` is given outside IPython.
    ValueError
        If ``language`` is not one of the course's languages.
    """
    words = _words(language)
    shell = _shell() if path is None else None
    if path is None and shell is None:
        raise RuntimeError("check_exercise needs the path of the script outside IPython")
    caught = io.StringIO()
    try:
        with contextlib.redirect_stdout(caught):
            if path is not None:
                runpy.run_path(str(path), run_name="__exercise__")
            else:
                _run_last_cell(shell)
    except Exception as error:  # raised by the reader's code: the check's answer
        return ExerciseCheck("different", words["raised"].format(error=_named(error)))
    return check_output(caught.getvalue(), expected, language=language)


def _named(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _shell() -> Any:
    """The running IPython shell, or None."""
    try:
        from IPython import get_ipython  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    return get_ipython()


def _run_last_cell(shell: Any) -> None:
    """Run again the last cell run before this one that is not a check, in its namespace."""
    history: list[str] = shell.user_ns.get("In", [])  # its last entry is the running cell
    code = next((cell for cell in reversed(history[:-1]) if "check_exercise" not in cell), "")
    exec(compile(code, "<exercise>", "exec"), shell.user_ns)
