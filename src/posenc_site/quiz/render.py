"""Quiz questions to HTML: native form controls that work with a keyboard, and without JavaScript.

Every text from the quiz source is escaped. Two inline forms are understood: `code` and $math$
(the math becomes an arithmatex wrapper, turned into MathML later with the rest of the page).
"""

import re
from collections.abc import Iterator
from html import escape

from posenc_site.quiz.schema import BLANK, Blank, Choice, Match, Question

_INLINE = re.compile(r"`(?P<code>[^`]+)`|\$(?P<math>[^$]+)\$")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def inline(text: str) -> str:
    """Escape ``text``, keeping `code` spans and $math$."""
    out, end = [], 0
    for match in _INLINE.finditer(text):
        out.append(escape(text[end : match.start()]))
        if match.group("code") is not None:
            out.append(f"<code>{escape(match.group('code'))}</code>")
        else:
            out.append(f'<span class="arithmatex">\\({escape(match.group("math"))}\\)</span>')
        end = match.end()
    out.append(escape(text[end:]))
    return "".join(out)


_TEX_WORDS = [
    (re.compile(r"\\sqrt\{([^{}]*)\}"), "√\\1"),
    (re.compile(r"\\(?:cdot)\b"), "·"),
    (re.compile(r"\\times\b"), "×"),
    (re.compile(r"\^\{?\\top\}?"), "ᵀ"),
    (re.compile(r"\\(?:left|right|operatorname|text|mathrm|,|!|;)"), ""),
    (re.compile(r"[\\{}]"), ""),
]


def _tex_as_text(tex: str) -> str:
    for pattern, replacement in _TEX_WORDS:
        tex = pattern.sub(replacement, tex)
    return tex


def plain(text: str) -> str:
    r"""A text for screen readers and select options: `$\sqrt{d}$` becomes ``√d``."""
    return _INLINE.sub(lambda m: m.group("code") or _tex_as_text(m.group("math")), text)


def _label_attributes(text: str, prefix: str = "") -> str:
    # MathML inside a <label> gives Chromium an empty or partial accessible name.
    return f' aria-label="{escape(prefix + plain(text))}"' if "$" in text else ""


def _choice(question: Choice, qid: str, t: dict[str, str]) -> Iterator[str]:
    kind = "checkbox" if question.multiple else "radio"
    right = ",".join(str(k) for k, option in enumerate(question.options) if option.correct)
    yield f'<div class="pe-quiz__options" data-correct="{right}">'
    for k, option in enumerate(question.options):
        yield (
            f'<label class="pe-quiz__option"><input type="{kind}" name="{qid}" value="{k}"'
            f"{_label_attributes(option.text, prefix=f'{LETTERS[k]}. ')}> "
            f"<span>{LETTERS[k]}. {inline(option.text)}</span></label>"
        )
    yield "</div>"


def _choice_answer(question: Choice, t: dict[str, str]) -> Iterator[str]:
    for k, option in enumerate(question.options):
        if option.correct:
            yield f"<p><strong>{LETTERS[k]}.</strong> {inline(option.text)}</p>"
    yield f'<p class="pe-quiz__explanation">{inline(question.explanation)}</p>'
    wrong = [(k, o) for k, o in enumerate(question.options) if o.explanation and not o.correct]
    if wrong:
        yield "<ul>"
        for k, option in wrong:
            why = t["why_not"].format(letter=LETTERS[k])
            explanation = inline(option.explanation)
            yield f'<li data-option="{k}"><strong>{escape(why)}:</strong> {explanation}</li>'
        yield "</ul>"


def _code_with_blanks(code: str, cuts: list[tuple[int, int]], answers, t) -> str:
    """``code`` escaped, with a text input in place of each cut."""
    out, end = [], 0
    for n, ((start, stop), accepted) in enumerate(zip(cuts, answers, strict=True), start=1):
        out.append(escape(code[end:start]))
        size = max(4, *(len(a) for a in accepted)) + 1
        label = escape(t["blank"].format(n=n))
        out.append(
            f'<input class="pe-quiz__blank" type="text" size="{size}" aria-label="{label}" '
            f'autocomplete="off" autocapitalize="off" spellcheck="false" '
            f'data-answers="{escape(chr(31).join(accepted))}">'
        )
        end = stop
    out.append(escape(code[end:]))
    # Not <pre><code>: Material would add a copy button that copies the code without the blanks.
    return f'<div class="pe-quiz__code">{"".join(out)}</div>'


def _blank_answer(answers) -> Iterator[str]:
    yield "<ol>"
    for accepted in answers:
        yield "<li>" + " / ".join(f"<code>{escape(a)}</code>" for a in accepted) + "</li>"
    yield "</ol>"


def _match(question: Match, qid: str, t: dict[str, str]) -> Iterator[str]:
    yield '<div class="pe-quiz__pairs">'
    for k, (concept, _) in enumerate(question.pairs):
        yield (
            f'<label class="pe-quiz__pair"><span>{inline(concept)}</span> '
            f'<select name="{qid}-{k}" data-correct="{k}"{_label_attributes(concept)}>'
            f'<option value="">{escape(t["choose"])}</option>'
        )
        for row, pair_index in enumerate(question.order):
            meaning = question.pairs[pair_index][1]
            label = f"{LETTERS[row].lower()}. {plain(meaning)}"
            yield f'<option value="{pair_index}">{escape(label)}</option>'
        yield "</select></label>"
    yield "</div>"


def _match_answer(question: Match) -> Iterator[str]:
    yield "<ul>"
    for concept, meaning in question.pairs:
        yield f"<li>{inline(concept)} → {inline(meaning)}</li>"
    yield "</ul>"


def render_question(question: Question, number: int, qid: str, t: dict[str, str]) -> str:
    """One question as a self-contained form."""
    if isinstance(question, Choice):
        kind, body, answer = "choice", _choice(question, qid, t), _choice_answer(question, t)
    elif isinstance(question, Match):
        kind, body, answer = "match", _match(question, qid, t), _match_answer(question)
    else:
        if isinstance(question, Blank):
            code = question.code
            cuts = [m.span() for m in BLANK.finditer(code)]
            kind = "blank"
        else:
            code, cuts, kind = question.code, list(question.spans), "complete"
        body = iter([_code_with_blanks(code, cuts, question.answers, t)])
        answer = _blank_answer(question.answers)
    if not isinstance(question, Choice):
        answer = iter(
            [*answer, f'<p class="pe-quiz__explanation">{inline(question.explanation)}</p>']
        )
    messages = " ".join(
        f'data-msg-{key.replace("_", "-")}="{escape(t[key])}"'
        for key in ("correct", "wrong", "empty", "empty_blank", "empty_match", "see_solution")
    )
    legend, check, show = inline(question.question), escape(t["check"]), escape(t["show"])
    return "\n".join(
        [
            f'<form class="pe-quiz" id="{qid}" data-kind="{kind}" {messages} novalidate>',
            "<fieldset>",
            f'<legend><span class="pe-quiz__number">{number}.</span> {legend}</legend>',
            *body,
            '<div class="pe-quiz__actions" hidden>',
            f'<button type="submit" class="md-button md-button--primary">{check}</button>',
            f'<button type="button" class="md-button" data-action="show">{show}</button>',
            "</div>",
            '<p class="pe-quiz__feedback" role="status"></p>',
            f'<details class="pe-quiz__answer"><summary>{escape(t["answer"])}</summary>',
            *answer,
            "</details>",
            "</fieldset>",
            "</form>",
        ]
    )
