r"""Formulas to MathML at build time, so pages need no JavaScript and no network to show them.

``pymdownx.arithmatex`` (in its ``generic`` mode) finds the ``$...$`` and ``$$...$$`` formulas
and wraps them in ``<span class="arithmatex">`` / ``<div class="arithmatex">``; this module turns
those wrappers into MathML with ``latex2mathml``. Browsers render MathML Core natively. Display
formulas are numbered per page and get an id (``eq-1`` or the name given by ``\label{...}``)
so that text can link to them.
"""

import html
import re
from dataclasses import dataclass

from latex2mathml.converter import convert

_INLINE = re.compile(r'<span class="arithmatex">\\\((?P<tex>.*?)\\\)</span>', re.DOTALL)
_DISPLAY = re.compile(r'<div class="arithmatex">\\\[(?P<tex>.*?)\\\]</div>', re.DOTALL)
_LABEL = re.compile(r"\\label\{(?P<name>[A-Za-z0-9:_-]+)\}")
_UNESCAPED_BRACE = re.compile(r"(?<!\\)[{}]")
# latex2mathml writes \sin x as <mi>sin</mi><mi>x</mi>, which browsers set with no gap; TeX puts
# a thin space between a function name and a bare argument.
_NAMED_OPERATOR = re.compile(r"<mo>([A-Za-z]{2,})</mo>")
_FUNCTION_THEN_ARGUMENT = re.compile(r"(<mi>(?:sin|cos|tan|exp|log|ln|max|min)</mi>)(?=<m[in]>)")


class FormulaError(ValueError):
    """A formula that cannot be rendered; the message quotes it."""


@dataclass
class _Numbering:
    count: int = 0


def _to_mathml(tex: str, *, display: str) -> str:
    braces = [m.group() for m in _UNESCAPED_BRACE.finditer(tex)]
    depth = 0
    for brace in braces:
        depth += 1 if brace == "{" else -1
        if depth < 0:
            break
    if depth != 0:
        raise FormulaError(f"unbalanced braces in formula: {tex.strip()!r}")
    try:
        mathml = convert(tex, display=display)
    except Exception as error:  # latex2mathml raises many unrelated exception types
        raise FormulaError(f"cannot convert formula {tex.strip()!r}: {error!r}") from error
    if "<mi>&</mi>" in mathml:
        raise FormulaError(f"'&' outside a supported environment (use align*): {tex.strip()!r}")
    unknown = re.search(r">(\\[A-Za-z]+)<", mathml)
    if unknown:
        raise FormulaError(f"unknown command {unknown.group(1)} in formula: {tex.strip()!r}")
    mathml = _FUNCTION_THEN_ARGUMENT.sub(r'\1<mspace width="0.1667em"></mspace>', mathml)
    # \operatorname{name} comes out as <mo>name</mo>, which browsers space as an operator
    # (a gap before every bracket); a name is an identifier.
    mathml = _NAMED_OPERATOR.sub(r"<mi>\1</mi>", mathml)
    # MathML Core has no named widths such as "negativethinmathspace" (from \!), and an
    # escaped underscore in \text{...} arrives as "\_".
    mathml = mathml.replace('width="negativethinmathspace"', 'width="-0.1667em"')
    return mathml.replace("\\_", "_")


def _display(match: re.Match[str], numbering: _Numbering) -> str:
    tex = html.unescape(match.group("tex"))
    numbering.count += 1
    label = _LABEL.search(tex)
    anchor = f"eq-{label.group('name').replace(':', '-')}" if label else f"eq-{numbering.count}"
    mathml = _to_mathml(_LABEL.sub("", tex), display="block")
    number = numbering.count
    return (
        f'<div class="pe-equation" id="{anchor}">{mathml}'
        f'<a class="pe-equation-number" href="#{anchor}">({number})</a></div>'
    )


def render_math(page_html: str) -> str:
    """Replace the arithmatex wrappers by MathML; raise FormulaError on a bad formula."""
    numbering = _Numbering()
    page_html = _DISPLAY.sub(lambda m: _display(m, numbering), page_html)
    return _INLINE.sub(
        lambda m: _to_mathml(html.unescape(m.group("tex")), display="inline"), page_html
    )
