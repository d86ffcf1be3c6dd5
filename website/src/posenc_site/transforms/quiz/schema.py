"""Quiz questions: read from YAML, checked, and reduced to language-free answer keys.

A quiz fence holds a YAML list of questions. Each question is a mapping with ``type`` and
``question`` and ``explanation``, and, by type:

- ``choice``: ``options``, a list of ``{text, correct?, explanation?}``; ``multiple: true``
  when more than one option is right (checkboxes), otherwise exactly one must be right;
- ``blank``: ``code`` with one ``____`` (four or more underscores) per blank, and ``answers``,
  one entry per blank, each a string or a list of accepted strings;
- ``match``: ``pairs``, a list of ``[concept, meaning]``; both sides must be distinct;
- ``complete``: ``file`` (a code file under docs/) and ``blanks``, a list of ``{find, answers?}``:
  each ``find`` is cut out of the file (it must occur exactly once) and becomes a blank; in a
  Python file, each accepted answer put in place of its ``find`` must leave valid Python.

Any other key is an error. The questions are frozen pydantic models; pydantic's validation
errors become a QuizError whose message names the question and the key at fault.
"""

import ast
import random
import re
from collections.abc import Mapping
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Any, Literal, Self, get_args

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictStr,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

BLANK = re.compile(r"_{4,}")


class QuizError(ValueError):
    """A malformed quiz; the message names the question."""


class _CheckError(ValueError):
    """A check across fields failed; ``part`` is the option or blank at fault, if any."""

    def __init__(self, message: str, part: str | None = None) -> None:
        super().__init__(message)
        self.part = part


def _rstrip_nonempty(code: str) -> str:
    code = code.rstrip()
    if not code:
        raise ValueError("empty")
    return code


def _number_as_text(value: object) -> object:
    # An answer written as 2 or 0.5 in YAML is meant as the text the reader types.
    return str(value) if isinstance(value, int | float) else value


def _as_list(value: object) -> object:
    return value if isinstance(value, list) else [value]


Text = Annotated[StrictStr, StringConstraints(strip_whitespace=True, min_length=1)]
Answer = Annotated[Text, BeforeValidator(_number_as_text)]
Accepted = Annotated[tuple[Answer, ...], BeforeValidator(_as_list), Field(min_length=1)]


class _Struct(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Question(_Struct):
    question: Text
    explanation: Text


class Option(_Struct):
    """One answer of a choice question."""

    text: Text
    correct: StrictBool = False
    explanation: Text | None = None

    @field_validator("explanation", mode="before")
    @classmethod
    def _not_left_empty(cls, value: object) -> object:
        # None is for an option without the key; `explanation:` with nothing after is a slip.
        if value is None:
            raise ValueError("empty")
        return value


class Choice(_Question):
    """A multiple-choice question (radio buttons, or checkboxes when `multiple`)."""

    type: Literal["choice"]
    options: Annotated[tuple[Option, ...], Field(min_length=2)]
    multiple: StrictBool = False

    @property
    def right(self) -> tuple[int, ...]:
        """The indices of the right options."""
        return tuple(k for k, option in enumerate(self.options) if option.correct)

    @model_validator(mode="after")
    def _right_count(self) -> Self:
        if not self.right:
            raise _CheckError("no option is marked correct")
        if len(self.right) > 1 and not self.multiple:
            raise _CheckError(f"{len(self.right)} options are marked correct; set 'multiple: true'")
        return self


class Blank(_Question):
    """A line of code with blanks to fill in."""

    type: Literal["blank"]
    code: Annotated[StrictStr, AfterValidator(_rstrip_nonempty)]
    answers: tuple[Accepted, ...]

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """Where each blank (``____``) is in ``code``, in order."""
        return tuple(match.span() for match in BLANK.finditer(self.code))

    @model_validator(mode="after")
    def _one_answer_per_blank(self) -> Self:
        if not self.spans:
            raise _CheckError("'code' has no blank (write ____)")
        if len(self.spans) != len(self.answers):
            raise _CheckError(
                f"'code' has {len(self.spans)} blank(s) but {len(self.answers)} answer(s)"
            )
        return self


class Match(_Question):
    """Concepts to pair with meanings."""

    type: Literal["match"]
    pairs: Annotated[tuple[tuple[Text, Text], ...], Field(min_length=2)]
    _order: tuple[int, ...] = PrivateAttr()

    @property
    def order(self) -> tuple[int, ...]:
        """The meanings as shown: ``order[k]`` is the pair index of row ``k``."""
        return self._order

    @model_validator(mode="after")
    def _one_to_one(self, info: ValidationInfo) -> Self:
        for side, name in ((0, "concept"), (1, "meaning")):
            seen = [pair[side] for pair in self.pairs]
            repeated = sorted({s for s in seen if seen.count(s) > 1})
            if repeated:
                raise _CheckError(f"not one-to-one, the {name} {repeated[0]!r} appears twice")
        seed = f"match-{_context(info)['number']}-{len(self.pairs)}"
        self._order = shuffled_order(len(self.pairs), seed)
        return self


class Find(_Struct):
    """A blank of a complete question: a piece of the file, and what else is accepted."""

    find: Text
    answers: Accepted | None = None


class Complete(_Question):
    """A code file with some of its parts cut out as blanks."""

    type: Literal["complete"]
    file: StrictStr
    blanks: Annotated[tuple[Find, ...], Field(min_length=1)]
    _code: str = PrivateAttr()
    _spans: tuple[tuple[int, int], ...] = PrivateAttr()
    _answers: tuple[tuple[str, ...], ...] = PrivateAttr()

    @property
    def code(self) -> str:
        """The file, whole."""
        return self._code

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """Where each blank is cut out of ``code``, in order."""
        return self._spans

    @property
    def answers(self) -> tuple[tuple[str, ...], ...]:
        """The accepted answers of each blank, in the order of ``spans``."""
        return self._answers

    @model_validator(mode="after")
    def _cut(self, info: ValidationInfo) -> Self:
        path = _context(info)["docs_dir"] / self.file
        if not path.is_file():
            raise _CheckError(f"'file' must name a file under docs/, got {self.file!r}")
        code = path.read_text(encoding="utf-8")
        spans = []
        for k, blank in enumerate(self.blanks, start=1):
            count = code.count(blank.find)
            if count != 1:
                raise _CheckError(
                    f"{blank.find!r} occurs {count} times in {self.file}; it must occur once",
                    part=f"blank {k}",
                )
            start = code.index(blank.find)
            spans.append((start, start + len(blank.find)))
        order = sorted(range(len(spans)), key=lambda k: spans[k])
        if any(spans[a][1] > spans[b][0] for a, b in pairwise(order)):
            raise _CheckError("two blanks overlap")
        if path.suffix == ".py":
            _check_answers_parse(self.file, code, self.blanks, spans)
        self._code = code
        self._spans = tuple(spans[k] for k in order)
        self._answers = tuple(self.blanks[k].answers or (self.blanks[k].find,) for k in order)
        return self


def _syntax_error(code: str) -> str | None:
    """Why ``code`` is not valid Python, or None when it is."""
    try:
        ast.parse(code)
    except SyntaxError as error:
        return f"{error.msg}, line {error.lineno}"
    return None


def _check_answers_parse(
    file: str, code: str, blanks: tuple[Find, ...], spans: list[tuple[int, int]]
) -> None:
    """Each accepted answer, put in place of its blank (the others as in the file), parses."""
    for k, (blank, (start, stop)) in enumerate(zip(blanks, spans, strict=True), start=1):
        for answer in blank.answers or ():
            error = _syntax_error(code[:start] + answer + code[stop:])
            if error:
                raise _CheckError(
                    f"the answer {answer!r} in place of {blank.find!r} leaves {file} invalid"
                    f" Python ({error})",
                    part=f"blank {k}",
                )


Question = Annotated[Choice | Blank | Match | Complete, Field(discriminator="type")]
_QUESTION: TypeAdapter[Question] = TypeAdapter(Question)
_KINDS = sorted(
    get_args(model.model_fields["type"].annotation)[0] for model in (Choice, Blank, Match, Complete)
)


def shuffled_order(n: int, seed: str) -> tuple[int, ...]:
    """A deterministic order of ``range(n)``: no item in its place, not the reverse order.

    No item keeps its place for n >= 2, and for n >= 3 the order is not the reverse one
    either: a reader would soon learn to answer d-c-b-a without reading.

    Parameters
    ----------
    n
        How many items.
    seed
        Seeds the random order, so that every build shows the same one.

    Returns
    -------
    tuple[int, ...]
        A permutation of ``range(n)``.
    """
    rng = random.Random(seed)
    order = list(range(n))
    reverse = list(range(n - 1, -1, -1))
    while n >= 2 and (any(k == i for k, i in enumerate(order)) or (n >= 3 and order == reverse)):
        rng.shuffle(order)
    return tuple(order)


# What a key must hold, as told to the author whatever pydantic found wrong with it.
_KEY_MESSAGES = {
    "question": "'question' must be a non-empty text",
    "explanation": "'explanation' must be a non-empty text",
    "text": "'text' must be a non-empty text",
    "find": "'find' must be a non-empty text",
    "code": "'code' must be a non-empty text",
    "correct": "'correct' must be true or false",
    "multiple": "'multiple' must be true or false",
    "options": "'options' must be a list of at least 2 options",
    "answers": "'answers' must be a list, one entry per blank",
    "pairs": "'pairs' must be a list of at least 2 [concept, meaning] pairs",
    "blanks": "'blanks' must be a non-empty list of {{find, answers}}",
    "file": "'file' must name a file under docs/, got {value!r}",
}
# How an item of a list is named in a message, and what it must be.
_ITEMS = {
    "options": ("option", "must be a mapping with 'text'"),
    "pairs": ("pair", "must be [concept, meaning], two texts"),
    "answers": ("blank", "an answer must be a text or a list of texts, got {value!r}"),
    "blanks": ("blank", "must be a mapping with 'find' and optional 'answers'"),
}


def _unknown_keys(unknown: list[Any], first: Any) -> str:
    keys = sorted(str(p["loc"][-1]) for p in unknown if p["loc"][:-1] == first["loc"][:-1])
    return f"unknown key(s) {keys}"


def _context(info: ValidationInfo) -> dict[str, Any]:
    """The validation context ``parse_quiz`` passes: the question's number and the docs folder."""
    assert info.context is not None, "questions are validated by parse_quiz"
    return dict(info.context)


def _message(error: ValidationError, raw: Mapping[str, Any], where: str) -> str:
    """The QuizError message for the first problem pydantic found in one question."""
    problems = error.errors()
    unknown = [p for p in problems if p["type"] == "extra_forbidden"]
    first = unknown[0] if unknown else problems[0]
    check = first.get("ctx", {}).get("error")
    if isinstance(check, _CheckError):
        return f"{where}{', ' + check.part if check.part else ''}: {check}"
    # The location is the question's type (the union's tag), then key, index, key, index.
    _, raw_key, *rest = first["loc"]
    key = str(raw_key)
    if not rest:
        if unknown:
            return f"{where}: {_unknown_keys(unknown, first)}"
        return f"{where}: " + _KEY_MESSAGES[key].format(value=raw.get(key))
    raw_index, *rest = rest
    index = int(raw_index)
    name, must = _ITEMS[key]
    at, item = f"{where}, {name} {index + 1}", raw[key][index]
    if key == "options" and rest:
        problem = _unknown_keys(unknown, first) if unknown else _KEY_MESSAGES[str(rest[0])]
        return f"{at}: {problem}"
    if key == "blanks" and rest[:1] == ["find"]:
        return f"{at}: {_KEY_MESSAGES['find']}"
    if key == "blanks" and rest[:1] == ["answers"]:
        must, item = _ITEMS["answers"][1], item["answers"]
    return f"{at}: " + must.format(value=item)


def parse_quiz(source: str, *, docs_dir: Path) -> list[Question]:
    """Read and check the YAML of one quiz fence.

    Parameters
    ----------
    source
        The fence's content, a YAML list of questions.
    docs_dir
        The docs folder, where a ``complete`` question's ``file`` is looked up.

    Returns
    -------
    list[Question]
        The questions, in order.

    Raises
    ------
    QuizError
        The quiz is malformed; the message names the question and what is wrong with it.
    """
    try:
        data = yaml.safe_load(source)
    except yaml.YAMLError as error:
        raise QuizError(f"quiz is not valid YAML: {error}") from None
    if not isinstance(data, list) or not data:
        raise QuizError("quiz must be a non-empty YAML list of questions")
    questions: list[Question] = []
    for number, raw in enumerate(data, start=1):
        where = f"quiz question {number}"
        if not isinstance(raw, dict):
            raise QuizError(f"{where}: must be a mapping")
        kind = raw.get("type")
        if kind not in _KINDS:
            raise QuizError(f"{where}: 'type' must be one of {_KINDS}, got {kind!r}")
        text = str(raw.get("question", ""))
        where = f"{where} ({kind}: {text[:60] + '…' if len(text) > 60 else text!r})"
        try:
            question = _QUESTION.validate_python(
                raw, context={"docs_dir": docs_dir, "number": number}
            )
        except ValidationError as error:
            raise QuizError(_message(error, raw, where)) from None
        questions.append(question)
    return questions


def answer_key(question: Question) -> tuple[object, ...]:
    """What must not change between languages: the type and the right answers.

    Parameters
    ----------
    question
        A parsed question.

    Returns
    -------
    tuple[object, ...]
        The question's type followed by what decides its right answers.
    """
    if isinstance(question, Choice):
        return ("choice", len(question.options), question.right, question.multiple)
    if isinstance(question, Blank):
        return ("blank", question.code, question.answers)
    if isinstance(question, Match):
        return ("match", len(question.pairs), question.order)
    return ("complete", question.code, question.spans, question.answers)
