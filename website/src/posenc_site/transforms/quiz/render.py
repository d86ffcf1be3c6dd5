"""Quiz questions to HTML, through the Jinja template ``templates/quiz.html``.

The template is rendered with autoescape on, so every text from the quiz source is escaped.
Two inline forms are understood: `code` and $math$ (the math becomes an arithmatex wrapper,
turned into MathML later with the rest of the page).
"""

import re
from collections.abc import Mapping, Sequence
from functools import cache

import jinja2
from markupsafe import Markup, escape

from posenc_site.transforms.quiz.fingerprint import fingerprint
from posenc_site.transforms.quiz.schema import Question

# A tag of the markup (the blanks' inputs), and where a line of code may wrap besides its
# spaces: after a dot before a name, and after an opening bracket or a comma before more code.
_TAG = re.compile(r"(<[^>]*>)")
_BREAK = re.compile(r"(?<=\.)(?=[A-Za-z_])|(?<=[(\[,])(?=[^\s)\]])")
_INLINE = re.compile(r"`(?P<code>[^`]+)`|\$(?P<math>[^$]+)\$")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def inline(text: str) -> Markup:
    """Escape ``text``, keeping `code` spans and $math$.

    Parameters
    ----------
    text
        A text from the quiz source.

    Returns
    -------
    Markup
        The text as HTML: `code` becomes ``<code>``, $math$ an arithmatex span.
    """
    out, end = [], 0
    for match in _INLINE.finditer(text):
        out.append(escape(text[end : match.start()]))
        if match.group("code") is not None:
            out.append(Markup("<code>{}</code>").format(match["code"]))
        else:
            out.append(Markup('<span class="arithmatex">\\({}\\)</span>').format(match["math"]))
        end = match.end()
    out.append(escape(text[end:]))
    return Markup("").join(out)


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
    r"""A text for screen readers and select options: `$\sqrt{d}$` becomes ``√d``.

    Parameters
    ----------
    text
        A text from the quiz source.

    Returns
    -------
    str
        The text without the `code` and $math$ marks, not escaped.
    """
    return _INLINE.sub(lambda m: m.group("code") or _tex_as_text(m.group("math")), text)


def code_lines(html: Markup) -> Markup:
    """Code with blanks, one ``<span class="pe-quiz__line">`` a line, its indent as a style.

    The code wraps on a narrow screen (a blank must not sit past its edge): a wrapped line
    then continues under its own indent plus four more columns, not at the left margin, so
    that the reader still sees which lines belong to which block. A ``<wbr>`` after each
    ``.`` before a name and each ``(``, ``[`` and ``,`` lets a long expression wrap there
    rather than inside a name (``np.random.default_rng(0).n`` / ``ormal(...)``).

    Parameters
    ----------
    html
        The block's markup: escaped code with an ``<input>`` in place of each blank; no tag
        spans a line break.

    Returns
    -------
    Markup
        The same markup, each line wrapped; an empty line keeps its height.

    Examples
    --------
    >>> html = str(code_lines(Markup("x = np.zeros((2, 3))[0]")))
    >>> html.removeprefix('<span class="pe-quiz__line" style="--indent: 0ch">')
    'x = np.<wbr>zeros(<wbr>(<wbr>2, 3))[<wbr>0]</span>'
    """
    wrapped = []
    for line in str(html).split("\n"):
        text = line.lstrip(" ")
        indent = len(line) - len(text)
        text = "".join(
            part if part.startswith("<") else _BREAK.sub("<wbr>", part) for part in _TAG.split(text)
        )
        wrapped.append(
            f'<span class="pe-quiz__line" style="--indent: {indent}ch">{text or " "}</span>'
        )
    return Markup("".join(wrapped))


@cache
def environment() -> jinja2.Environment:
    """The Jinja environment of the quiz template.

    Why not the theme's environment: the template uses Jinja's built-in filters and this
    module's only; the 16 quiz fences of the lessons, in both languages, rendered to the same
    bytes through an overlay of Material's theme environment as through this one.

    Returns
    -------
    jinja2.Environment
        An environment that loads this package's templates, escapes every value it prints
        (autoescape on), and has the ``inline``, ``plain`` and ``code_lines`` filters.
    """
    env = jinja2.Environment(
        # In the package, not a theme custom_dir: the fence and tests need it without a theme.
        loader=jinja2.PackageLoader("posenc_site.transforms.quiz"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(inline=inline, plain=plain, code_lines=code_lines)
    return env


def render_quiz(questions: Sequence[Question], first_id: int, strings: Mapping[str, str]) -> str:
    """The questions of one quiz fence as HTML, one form each.

    Parameters
    ----------
    questions
        The parsed questions of the fence.
    first_id
        The first question's form is ``quiz-<first_id>``, the next ``quiz-<first_id + 1>``.
    strings
        The interface strings of the page's language (``posenc_site.transforms.quiz.strings``).

    Returns
    -------
    str
        ``<div class="pe-quizzes">`` holding the forms, each with its question's fingerprint
        (``posenc_site.transforms.quiz.fingerprint``).
    """
    template = environment().get_template("quiz.html")
    forms = []
    for k, question in enumerate(questions):
        form_id = f"quiz-{first_id + k}"
        forms.append((question, form_id, fingerprint(question, form_id)))
    return template.render(forms=forms, t=strings, letters=LETTERS)
