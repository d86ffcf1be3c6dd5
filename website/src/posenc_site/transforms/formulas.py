r"""Formulas to MathML at build time, so pages need no JavaScript and no network to show them.

``pymdownx.arithmatex`` (in its ``generic`` mode) finds the ``$...$`` and ``$$...$$`` formulas
and wraps them in ``<span class="arithmatex">`` / ``<div class="arithmatex">``; this module turns
those wrappers into MathML with ``latex2mathml``. Browsers render MathML Core natively. Display
formulas are numbered per page and get an id (``eq-1`` or the name given by ``\label{...}``)
so that text can link to them.

A formula renders as written or raises `FormulaError`. ``latex2mathml`` gets upright names
wrong without a word (``\operatorname{atan2}`` becomes an empty operator and italic letters,
``\mathrm{d}`` an italic d), so this module writes the MathML of ``\operatorname``,
``\mathrm``, ``\mathup``, ``\mathbf``, ``\text`` and of LaTeX's named functions (``\sin``,
``\max``, ...) itself: each is swapped for a placeholder before the conversion and the
placeholder for its MathML after. What ``latex2mathml`` still leaves broken (unknown commands,
empty tokens, words set as operators, letter-by-letter names, ``mathvariant`` values MathML
Core ignores) is an error.

`FormulasExtension` (``posenc_site.transforms.formulas`` in mkdocs.yml's ``markdown_extensions``)
does this on each page's finished HTML (see `posenc_site.transforms.page_html`): display formulas
are numbered in page order, and the API page's formulas come from docstrings that mkdocstrings
converts with Markdown instances of its own, so only the whole page has them all, in order.
"""

import html
import re
from dataclasses import dataclass
from xml.etree import ElementTree

from latex2mathml.converter import convert
from markdown import Markdown
from markdown.extensions import Extension

from posenc_site.transforms.page_html import FORMULAS, PageTransform, TransformError, add_anchors

_INLINE = re.compile(r'<span class="arithmatex">\\\((?P<tex>.*?)\\\)</span>', re.DOTALL)
_DISPLAY = re.compile(r'<div class="arithmatex">\\\[(?P<tex>.*?)\\\]</div>', re.DOTALL)
_LABEL = re.compile(r"\\label\{(?P<name>[A-Za-z0-9:_-]+)\}")
_UNESCAPED_BRACE = re.compile(r"(?<!\\)[{}]")
_EQUATION_ID = re.compile(r'<div class="pe-equation" id="([^"]+)"')

# The commands whose MathML this module writes. LaTeX's named functions are among them, set like
# \operatorname{name}: latex2mathml makes some <mi>, others <mo> (spaced as operators: a gap
# before every bracket) and does not know \arg.
_UPRIGHT = re.compile(
    r"\\(?P<command>operatorname|mathrm|mathup|mathbf|text)\s*\{(?P<body>[^{}]*)\}"
    r"|\\(?P<function>arccos|arcsin|arctan|arg|cos|cosh|cot|coth|csc|deg|det|dim|exp|gcd|hom"
    r"|inf|ker|lg|lim|liminf|limsup|ln|log|max|min|Pr|sec|sin|sinh|sup|tan|tanh)(?![A-Za-z])"
)
# Whatever _UPRIGHT did not take: \operatorname*, nested braces, an argument without braces.
_UPRIGHT_LEFT = re.compile(
    r"\\(?:operatorname|mathrm|mathup|mathbf|text)(?![A-Za-z])\*?(?!\{@\d+@\})"
)
_NAME = re.compile(r"(?:[A-Za-z0-9 ]|\\,)*[A-Za-z0-9](?:[A-Za-z0-9 ]|\\,)*")
# A prime after a letter, a digit or a command (L', \theta'_i, f''). latex2mathml makes it a
# superscript, <msup><mi>L</mi><mi>&#x02032;</mi></msup>; but U+2032 is already a raised
# glyph, and raised again it is a small tick far above the letter (s = L'/L reads L/L).
# TeX and MathJax draw it at the letter's height, before the letter's subscript or superscript.
_PRIMED = re.compile(r"(?P<base>\\[A-Za-z]+|[A-Za-z0-9])\s*(?P<primes>'+)")
_PRIME_SIGNS = "\u2032\u2033\u2034\u2057"  # one to four primes
_TEXT = re.compile(r"(?:[^\\$&%#^_~]|\\[_&%#$])+")
# latex2mathml sets \text{@3@} as <mtext>@3@</mtext>, wherever it stands (base, script, ...).
_PLACEHOLDER = re.compile(r"<mtext>(?P<key>@\d+@)</mtext>")
# TeX puts a thin space between an operator name and an ordinary symbol after it in the same
# row (\sin x, \max_i x, \sin^2 x), none before a bracket; MathML leaves that to the author.
_THIN_SPACE = '<mspace width="0.1667em"></mspace>'
_NS = "{http://www.w3.org/1998/Math/MathML}"
_SCRIPTED = {_NS + tag for tag in ["msub", "msup", "msubsup", "munder", "mover", "munderover"]}
_ROWS = {
    _NS + tag
    for tag in ["math", "mrow", "mstyle", "mtd", "msqrt", "mpadded", "mphantom", "menclose"]
}
_ORDINARY = {_NS + tag for tag in ["mi", "mn", "mtext"]}
_TAG = re.compile(r"<(?P<close>/)?[a-z]+\b[^>]*?(?P<empty>/)?>")

# What latex2mathml gets wrong, found in its output.
_EMPTY_TOKEN = re.compile(
    # an empty <mi /> opens the right-hand cell of align* on purpose (spacing of "&="), and an
    # empty fence is \left. or \right.
    r'(?<!<mtd columnalign="left">)<mi\s*(?:/>|></mi>)|<mn\s*(?:/>|></mn>)'
    r'|<mo\b(?![^>]*fence="true")[^>]*(?:/>|></mo>)'
)
_WORD_OPERATOR = re.compile(r"<mo\b[^>]*(?<!/)>(?:<|(?:&#x[0-9A-Fa-f]+;|[^<&A-Za-z])*[A-Za-z])")
_LETTER_BY_LETTER = re.compile(r'(?:<mi mathvariant="normal">[^<]*</mi>){2,}')
_NOT_IN_CORE = re.compile(r'mathvariant="(?!normal")(?P<variant>[^"]*)"')
_TEX_LEFT = re.compile(r"\\[A-Za-z]*")
# TeX sets capital Greek upright; MathML Core slants every one-letter <mi>.
_CAPITAL_GREEK = re.compile(r"<mi>(&#x003(?:9[1-9A-F]|A[0-9]);)</mi>")
# MathML Core has no named widths such as "negativethinmathspace" (from \!).
_NAMED_WIDTHS = {
    "thinmathspace": "0.1667em",
    "thickmathspace": "0.2778em",
    "negativethinmathspace": "-0.1667em",
    "negativemediummathspace": "-0.2222em",
    "negativethickmathspace": "-0.2778em",
}


class FormulaError(ValueError):
    """A formula that cannot be rendered; the message quotes it."""


@dataclass
class _Numbering:
    count: int = 0


def _entities(text: str) -> str:
    """Escape ``text`` for MathML, non-ASCII as numeric references like latex2mathml's."""
    escaped = html.escape(text, quote=False)
    return "".join(c if c.isascii() else f"&#x{ord(c):05X};" for c in escaped)


def _bold(char: str) -> str:
    """The Mathematical Bold letter or digit for an ASCII one (MathML Core has no bold)."""
    if char.isdigit():
        return chr(0x1D7CE + int(char))
    if char.isalpha():
        return chr((0x1D400 if char.isupper() else 0x1D41A) + ord(char.lower()) - ord("a"))
    return char


def _upright(match: re.Match[str], formula: str) -> tuple[str, bool]:
    """MathML for one match of _UPRIGHT, and whether it is an operator name."""
    command, body = match.group("command"), match.group("body")
    if command is None:
        # a named function is an operator name; \liminf and \limsup are two words
        command, body = "operatorname", re.sub(r"^lim(?=inf|sup)", r"lim\\,", match["function"])
    if command == "text":
        if not _TEXT.fullmatch(body):
            raise FormulaError(
                f"\\text{{{body}}}: only plain text (and \\_ \\& \\% \\# \\$) is supported: "
                f"{formula!r}"
            )
        # MathML trims and collapses spaces in a token: keep them as no-break spaces.
        text = re.sub(r"\s+", " ", re.sub(r"\\(.)", r"\1", body))
        return f"<mtext>{_entities(text).replace(' ', '&#x000A0;')}</mtext>", False
    if not _NAME.fullmatch(body):
        raise FormulaError(
            f"\\{command}{{{body}}}: a name holds only letters, digits and \\,: {formula!r}"
        )
    name = body.replace(" ", "").replace("\\,", "\u2009")  # \, is a thin space
    text = _entities("".join(map(_bold, name)) if command == "mathbf" else name)
    if name.replace("\u2009", "").isdigit():
        return f"<mn>{text}</mn>", False
    # One plain letter would be italic: MathML Core slants one-letter <mi>s unless told not to.
    if len(name) == 1 and command != "mathbf":
        return f'<mi mathvariant="normal">{text}</mi>', command == "operatorname"
    return f"<mi>{text}</mi>", command == "operatorname"


def _check(mathml: str, formula: str) -> None:
    """Raise FormulaError where latex2mathml's output does not show what the formula says."""
    if "<mi>&</mi>" in mathml:
        raise FormulaError(f"'&' outside a supported environment (use align*): {formula!r}")
    left = _TEX_LEFT.search(mathml)
    if left:
        what = f"unknown command {left.group()}" if left.group() != "\\" else "unconverted TeX"
        raise FormulaError(f"{what} in formula: {formula!r}")
    problems = [
        (_NOT_IN_CORE, "mathvariant {variant!r} is not MathML Core, browsers ignore it"),
        (_EMPTY_TOKEN, "a part of it comes out empty"),
        (_WORD_OPERATOR, r"a word is set as an operator (write \operatorname{{...}})"),
        (_LETTER_BY_LETTER, r"an upright name is set letter by letter (write \mathrm{{...}})"),
    ]
    for pattern, message in problems:
        found = pattern.search(mathml)
        if found:
            raise FormulaError(f"{message.format(**found.groupdict())}: {formula!r}")


def _check_primes(mathml: str, formula: str) -> None:
    """Raise FormulaError for a prime set as a superscript (see _PRIMED)."""
    for node in ElementTree.fromstring(mathml).iter():
        if node.tag in _SCRIPTED:
            scripts = "".join("".join(script.itertext()) for script in list(node)[1:])
            if any(sign in scripts for sign in _PRIME_SIGNS):
                raise FormulaError(
                    f"a prime set as a superscript, drawn far above its letter (write the "
                    f"prime right after a letter or a command, as in L' or \\theta'_i): "
                    f"{formula!r}"
                )


def _space_operators(mathml: str, operators: set[str], formula: str) -> str:
    """Put a thin space after each operator name that an ordinary symbol follows in its row."""
    try:  # parsing also guards against malformed markup, which a browser would silently mend
        tree = ElementTree.fromstring(mathml)
    except ElementTree.ParseError as error:
        raise FormulaError(f"malformed MathML ({error}) from formula: {formula!r}") from error
    parents = {child: node for node in tree.iter() for child in node}
    ends = []
    for node in tree.iter(_NS + "mtext"):
        if node.text not in operators:
            continue
        end = mathml.index(f"<mtext>{node.text}</mtext>") + len(f"<mtext>{node.text}</mtext>")
        levels = 0
        while node in parents and parents[node].tag in _SCRIPTED and parents[node][0] is node:
            node, levels = parents[node], levels + 1  # the operator with its scripts: \max_i x
        row = parents.get(node)
        if row is None or row.tag not in _ROWS:
            continue  # e.g. the numerator of \frac: nothing beside it in a row
        siblings = list(row)
        after = siblings[siblings.index(node) + 1 :][:1]
        while after and after[0].tag in _SCRIPTED:
            after = after[0][:1]  # \sin \theta_i: the symbol is the base
        if after and after[0].tag in _ORDINARY:
            for tag in _TAG.finditer(mathml, end):  # to the end of the scripts' element
                if levels == 0:
                    break
                levels += 0 if tag.group("empty") else -1 if tag.group("close") else 1
                end = tag.end()
            ends.append(end)
    for end in sorted(ends, reverse=True):
        mathml = mathml[:end] + _THIN_SPACE + mathml[end:]
    return mathml


def _to_mathml(tex: str, *, display: str) -> str:
    formula = tex.strip()
    depth = 0
    for brace in _UNESCAPED_BRACE.finditer(tex):
        depth += 1 if brace.group() == "{" else -1
        if depth < 0:
            break
    if depth != 0:
        raise FormulaError(f"unbalanced braces in formula: {formula!r}")
    parts: list[tuple[str, bool]] = []

    def placeholder(match: re.Match[str]) -> str:
        parts.append(_upright(match, formula))
        return f"\\text{{@{len(parts) - 1}@}}"

    tex = _UPRIGHT.sub(placeholder, tex)

    def primed(match: re.Match[str]) -> str:
        signs = _PRIME_SIGNS[len(match["primes"]) - 1 : len(match["primes"])]
        if not signs:
            raise FormulaError(f"more than four primes in a row: {formula!r}")
        parts.append((f'<mo lspace="0" rspace="0">{_entities(signs)}</mo>', False))
        # braced with its base, so that a subscript or superscript follows the prime
        return f"{{{match['base']}\\text{{@{len(parts) - 1}@}}}}"

    tex = _PRIMED.sub(primed, tex)
    left = _UPRIGHT_LEFT.search(tex)
    if left:
        raise FormulaError(
            f"unsupported {left.group()} (write it with one braced argument, no braces inside): "
            f"{formula!r}"
        )
    try:
        mathml = convert(tex, display=display)
    except Exception as error:  # latex2mathml raises many unrelated exception types
        raise FormulaError(f"cannot convert formula {formula!r}: {error!r}") from error
    _check(mathml, formula)
    operators = {f"@{index}@" for index, (_, operator) in enumerate(parts) if operator}
    mathml = _space_operators(mathml, operators, formula)
    mathml = _PLACEHOLDER.sub(lambda m: parts[int(m.group("key").strip("@"))][0], mathml)
    _check_primes(mathml, formula)
    mathml = _CAPITAL_GREEK.sub(r'<mi mathvariant="normal">\1</mi>', mathml)
    for name, length in _NAMED_WIDTHS.items():
        mathml = mathml.replace(f'width="{name}"', f'width="{length}"')
    return mathml


def _display(match: re.Match[str], numbering: _Numbering) -> str:
    tex = html.unescape(match.group("tex"))
    numbering.count += 1
    label = _LABEL.search(tex)
    anchor = f"eq-{label.group('name').replace(':', '-')}" if label else f"eq-{numbering.count}"
    mathml = _to_mathml(_LABEL.sub("", tex), display="block")
    number = numbering.count
    return (
        # The formula scrolls in a box of its own, so that its number stays in sight; a span,
        # so that no </div> ends the search's exclusion of the whole
        # (posenc_site.transforms.search_exclude),
        # which takes the focus, so that a keyboard can scroll it (as Material's code blocks do).
        f'<div class="pe-equation" id="{anchor}">'
        f'<span class="pe-equation__body" tabindex="0">{mathml}</span>'
        f'<a class="pe-equation-number" href="#{anchor}">({number})</a></div>'
    )


def render_math(page_html: str) -> str:
    """Replace the arithmatex wrappers in a page by MathML.

    Parameters
    ----------
    page_html : str
        The HTML of a page, with formulas wrapped by ``pymdownx.arithmatex`` (generic mode).

    Returns
    -------
    str
        The same HTML with each formula as a ``<math>`` element; display formulas numbered.

    Raises
    ------
    FormulaError
        If a formula cannot be rendered as written; the message quotes it.
    """
    numbering = _Numbering()
    page_html = _DISPLAY.sub(lambda m: _display(m, numbering), page_html)
    return _INLINE.sub(
        lambda m: _to_mathml(html.unescape(m.group("tex")), display="inline"), page_html
    )


class _Formulas(PageTransform):
    name = "posenc_formulas"
    priority = FORMULAS

    def transform(self, html: str) -> str:
        try:
            html = render_math(html)
        except FormulaError as error:
            raise TransformError(str(error)) from error
        # MkDocs collected the page's anchors before; tell it about these, so that links to
        # them are checked like any other.
        add_anchors(self.md, _EQUATION_ID.findall(html))
        return html


class FormulasExtension(Extension):  # type: ignore[misc]
    r"""Python-Markdown extension: the page's formulas as MathML, display formulas numbered.

    Needs ``pymdownx.arithmatex`` with ``generic: true``, whose wrappers it replaces.

    Raises
    ------
    TransformError
        While a page converts, if one of its formulas cannot be rendered (see `render_math`);
        MkDocs names the page before the message.

    Examples
    --------
    >>> import markdown
    >>> html = markdown.markdown(
    ...     "$$\\sqrt{d}$$",
    ...     extensions=["pymdownx.arithmatex", "posenc_site.transforms.formulas"],
    ...     extension_configs={"pymdownx.arithmatex": {"generic": True}},
    ... )
    >>> html.startswith('<div class="pe-equation" id="eq-1">')
    True
    """

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Register the postprocessor (see `posenc_site.transforms.page_html`)."""
        _Formulas(md).register()


def makeExtension(**kwargs: object) -> FormulasExtension:  # noqa: N802 (Python-Markdown's name)
    """The extension, for ``posenc_site.transforms.formulas`` in a list of extensions."""
    return FormulasExtension(**kwargs)
