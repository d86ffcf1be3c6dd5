"""Quiz questions: read from YAML, checked, and reduced to language-free answer keys.

A quiz fence holds a YAML list of questions. Each question is a mapping with ``type`` and
``question`` and ``explanation``, and, by type:

- ``choice``: ``options``, a list of ``{text, correct?, explanation?}``; ``multiple: true``
  when more than one option is right (checkboxes), otherwise exactly one must be right;
- ``blank``: ``code`` with one ``____`` (four or more underscores) per blank, and ``answers``,
  one entry per blank, each a string or a list of accepted strings;
- ``match``: ``pairs``, a list of ``[concept, meaning]``; both sides must be distinct;
- ``complete``: ``file`` (a code file under docs/) and ``blanks``, a list of ``{find, answers?}``:
  each ``find`` is cut out of the file (it must occur exactly once) and becomes a blank.
"""

import random
import re
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import yaml

BLANK = re.compile(r"_{4,}")


class QuizError(ValueError):
    """A malformed quiz; the message names the question."""


@dataclass(frozen=True)
class Option:
    """One answer of a choice question."""

    text: str
    correct: bool
    explanation: str | None


@dataclass(frozen=True)
class Choice:
    """A multiple-choice question (radio buttons, or checkboxes when `multiple`)."""

    question: str
    explanation: str
    options: tuple[Option, ...]
    multiple: bool


@dataclass(frozen=True)
class Blank:
    """A line of code with blanks to fill in."""

    question: str
    explanation: str
    code: str
    answers: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Match:
    """Concepts to pair with meanings."""

    question: str
    explanation: str
    pairs: tuple[tuple[str, str], ...]
    order: tuple[int, ...]  # the meanings as shown: order[k] is the pair index of row k


@dataclass(frozen=True)
class Complete:
    """A code file with some of its parts cut out as blanks."""

    question: str
    explanation: str
    code: str  # the file, whole
    spans: tuple[tuple[int, int], ...]  # where each blank is cut out of ``code``, in order
    answers: tuple[tuple[str, ...], ...]


Question = Choice | Blank | Match | Complete

_COMMON = {"type", "question", "explanation"}
_KEYS = {
    "choice": _COMMON | {"options", "multiple"},
    "blank": _COMMON | {"code", "answers"},
    "match": _COMMON | {"pairs"},
    "complete": _COMMON | {"file", "blanks"},
}


def _text(raw: dict[str, Any], key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise QuizError(f"{where}: '{key}' must be a non-empty text")
    return value.strip()


def _accepted(value: object, where: str) -> tuple[str, ...]:
    values = value if isinstance(value, list) else [value]
    if not values or not all(isinstance(v, str | int | float) and str(v).strip() for v in values):
        raise QuizError(f"{where}: an answer must be a text or a list of texts, got {value!r}")
    return tuple(str(v).strip() for v in values)


def shuffled_order(n: int, seed: str) -> tuple[int, ...]:
    """A deterministic order of ``range(n)`` in which no item keeps its place (for n >= 2)."""
    rng = random.Random(seed)
    order = list(range(n))
    while n >= 2 and any(k == i for k, i in enumerate(order)):
        rng.shuffle(order)
    return tuple(order)


def _choice(raw: dict[str, Any], where: str) -> Choice:
    options_raw = raw.get("options")
    if not isinstance(options_raw, list) or len(options_raw) < 2:
        raise QuizError(f"{where}: 'options' must be a list of at least 2 options")
    options = []
    for k, item in enumerate(options_raw, start=1):
        at = f"{where}, option {k}"
        if not isinstance(item, dict):
            raise QuizError(f"{at}: must be a mapping with 'text'")
        unknown = set(item) - {"text", "correct", "explanation"}
        if unknown:
            raise QuizError(f"{at}: unknown key(s) {sorted(unknown)}")
        correct = item.get("correct", False)
        if not isinstance(correct, bool):
            raise QuizError(f"{at}: 'correct' must be true or false")
        why = _text(item, "explanation", at) if "explanation" in item else None
        options.append(Option(_text(item, "text", at), correct, why))
    multiple = raw.get("multiple", False)
    if not isinstance(multiple, bool):
        raise QuizError(f"{where}: 'multiple' must be true or false")
    right = sum(option.correct for option in options)
    if right == 0:
        raise QuizError(f"{where}: no option is marked correct")
    if right > 1 and not multiple:
        raise QuizError(f"{where}: {right} options are marked correct; set 'multiple: true'")
    return Choice(
        _text(raw, "question", where), _text(raw, "explanation", where), tuple(options), multiple
    )


def _blank(raw: dict[str, Any], where: str) -> Blank:
    code = raw.get("code")
    if not isinstance(code, str) or not code.strip():
        raise QuizError(f"{where}: 'code' must be a non-empty text")
    answers = raw.get("answers")
    if not isinstance(answers, list):
        raise QuizError(f"{where}: 'answers' must be a list, one entry per blank")
    blanks = len(BLANK.findall(code))
    if blanks == 0:
        raise QuizError(f"{where}: 'code' has no blank (write ____)")
    if blanks != len(answers):
        raise QuizError(f"{where}: 'code' has {blanks} blank(s) but {len(answers)} answer(s)")
    accepted = tuple(_accepted(a, f"{where}, blank {k}") for k, a in enumerate(answers, 1))
    return Blank(
        _text(raw, "question", where), _text(raw, "explanation", where), code.rstrip(), accepted
    )


def _match(raw: dict[str, Any], where: str, seed: str) -> Match:
    pairs_raw = raw.get("pairs")
    if not isinstance(pairs_raw, list) or len(pairs_raw) < 2:
        raise QuizError(f"{where}: 'pairs' must be a list of at least 2 [concept, meaning] pairs")
    pairs = []
    for k, pair in enumerate(pairs_raw, start=1):
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(s, str) for s in pair)
        ):
            raise QuizError(f"{where}, pair {k}: must be [concept, meaning], two texts")
        pairs.append((pair[0].strip(), pair[1].strip()))
    for side, name in ((0, "concept"), (1, "meaning")):
        seen = [pair[side] for pair in pairs]
        repeated = sorted({s for s in seen if seen.count(s) > 1})
        if repeated:
            raise QuizError(f"{where}: not one-to-one, the {name} {repeated[0]!r} appears twice")
    order = shuffled_order(len(pairs), seed)
    return Match(
        _text(raw, "question", where), _text(raw, "explanation", where), tuple(pairs), order
    )


def _complete(raw: dict[str, Any], where: str, docs_dir: Path) -> Complete:
    file = raw.get("file")
    if not isinstance(file, str) or not (docs_dir / file).is_file():
        raise QuizError(f"{where}: 'file' must name a file under docs/, got {file!r}")
    code = (docs_dir / file).read_text(encoding="utf-8")
    blanks = raw.get("blanks")
    if not isinstance(blanks, list) or not blanks:
        raise QuizError(f"{where}: 'blanks' must be a non-empty list of {{find, answers}}")
    spans, answers = [], []
    for k, blank in enumerate(blanks, start=1):
        at = f"{where}, blank {k}"
        if not isinstance(blank, dict) or set(blank) - {"find", "answers"}:
            raise QuizError(f"{at}: must be a mapping with 'find' and optional 'answers'")
        find = _text(blank, "find", at)
        count = code.count(find)
        if count != 1:
            raise QuizError(f"{at}: {find!r} occurs {count} times in {file}; it must occur once")
        start = code.index(find)
        spans.append((start, start + len(find)))
        answers.append(_accepted(blank.get("answers", find), at))
    order = sorted(range(len(spans)), key=lambda k: spans[k])
    if any(spans[a][1] > spans[b][0] for a, b in pairwise(order)):
        raise QuizError(f"{where}: two blanks overlap")
    return Complete(
        _text(raw, "question", where),
        _text(raw, "explanation", where),
        code,
        tuple(spans[k] for k in order),
        tuple(answers[k] for k in order),
    )


def parse_quiz(source: str, *, docs_dir: Path) -> list[Question]:
    """Read and check the YAML of one quiz fence; raise QuizError naming the bad question."""
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
        if kind not in _KEYS:
            raise QuizError(f"{where}: 'type' must be one of {sorted(_KEYS)}, got {kind!r}")
        text = str(raw.get("question", ""))
        where = f"{where} ({kind}: {text[:60] + '…' if len(text) > 60 else text!r})"
        unknown = set(raw) - _KEYS[kind]
        if unknown:
            raise QuizError(f"{where}: unknown key(s) {sorted(unknown)}")
        if kind == "choice":
            questions.append(_choice(raw, where))
        elif kind == "blank":
            questions.append(_blank(raw, where))
        elif kind == "match":
            questions.append(_match(raw, where, seed=f"match-{number}-{len(raw.get('pairs', []))}"))
        else:
            questions.append(_complete(raw, where, docs_dir))
    return questions


def answer_key(question: Question) -> tuple[object, ...]:
    """What must not change between languages: the type and the right answers."""
    if isinstance(question, Choice):
        right = tuple(k for k, option in enumerate(question.options) if option.correct)
        return ("choice", len(question.options), right, question.multiple)
    if isinstance(question, Blank):
        return ("blank", question.code, question.answers)
    if isinstance(question, Match):
        return ("match", len(question.pairs), question.order)
    return ("complete", question.code, question.spans, question.answers)
