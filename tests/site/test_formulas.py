import re
from pathlib import Path

import markdown
import pytest
from mkdocs.exceptions import PluginError

from posenc_site.transforms import quiz
from posenc_site.transforms.formulas import FormulaError, render_math
from posenc_site.transforms.page_html import TransformError
from support.project import SITE
from support.site_markdown import convert

INLINE = '<p>Take <span class="arithmatex">\\(x^2 &lt; y\\)</span>.</p>'
DISPLAY = '<div class="arithmatex">\\[\na + b \\label{sum}\n\\]</div>'
DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
THIN_SPACE = '<mspace width="0.1667em"></mspace>'


def inline_mathml(tex: str) -> str:
    html = render_math(f'<span class="arithmatex">\\({tex}\\)</span>')
    start = '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow>'
    assert html.startswith(start)
    assert html.endswith("</mrow></math>")
    return html[len(start) : -len("</mrow></math>")]


def test_inline_formula_becomes_inline_mathml():
    html = render_math(INLINE)
    assert 'display="inline"' in html
    assert "<msup><mi>x</mi><mn>2</mn></msup>" in html
    assert "&#x0003C;" in html  # the escaped < came through as the less-than operator
    assert "arithmatex" not in html


def test_display_formulas_are_numbered_and_labelled():
    html = render_math(DISPLAY + '<div class="arithmatex">\\[c\\]</div>')
    assert '<div class="pe-equation" id="eq-sum">' in html
    assert 'href="#eq-sum">(1)</a>' in html
    assert '<div class="pe-equation" id="eq-2">' in html
    assert 'href="#eq-2">(2)</a>' in html
    assert "label" not in html


def test_text_without_formulas_is_unchanged():
    assert render_math("<p>$5 and 10 dollars</p>") == "<p>$5 and 10 dollars</p>"


# Each construct and the whole MathML it must give (inside the formula's <mrow>). MathML Core
# sets a one-letter <mi> in italic unless mathvariant="normal", a longer one upright.
@pytest.mark.parametrize(
    ("tex", "mathml"),
    [
        (
            r"\operatorname{atan2}(y, x)",
            '<mi>atan2</mi><mo stretchy="false">&#x00028;</mo><mi>y</mi><mo>&#x0002C;</mo>'
            '<mi>x</mi><mo stretchy="false">&#x00029;</mo>',
        ),
        (r"\operatorname{arg\,max}_i", "<msub><mi>arg&#x02009;max</mi><mi>i</mi></msub>"),
        (  # an operator name with scripts is still spaced from what follows
            r"\operatorname{arg\,max}_i x",
            f"<msub><mi>arg&#x02009;max</mi><mi>i</mi></msub>{THIN_SPACE}<mi>x</mi>",
        ),
        (r"\operatorname{log2} x", f"<mi>log2</mi>{THIN_SPACE}<mi>x</mi>"),
        (r"\mathrm{log2}", "<mi>log2</mi>"),
        (r"\mathrm{d}x", '<mi mathvariant="normal">d</mi><mi>x</mi>'),
        (r"\mathrm{e}^{x}", '<msup><mi mathvariant="normal">e</mi><mrow><mi>x</mi></mrow></msup>'),
        (r"K^\mathrm{T}", '<msup><mi>K</mi><mi mathvariant="normal">T</mi></msup>'),
        (r"\mathup{T}", '<mi mathvariant="normal">T</mi>'),
        (r"\mathrm{2}", "<mn>2</mn>"),
        (
            r"\mathrm{PE}_{pos}",
            "<msub><mi>PE</mi><mrow><mi>p</mi><mi>o</mi><mi>s</mi></mrow></msub>",
        ),
        (r"\text{max\_positions}", "<mtext>max_positions</mtext>"),
        (r"\text{if } x", "<mtext>if&#x000A0;</mtext><mi>x</mi>"),
        (r"\text{a<b \& c}", "<mtext>a&lt;b&#x000A0;&amp;&#x000A0;c</mtext>"),
        (r"\text{çığ}", "<mtext>&#x000E7;&#x00131;&#x0011F;</mtext>"),
        (r"d_{\text{model}}", "<msub><mi>d</mi><mrow><mtext>model</mtext></mrow></msub>"),
        (r"\sin 0", f"<mi>sin</mi>{THIN_SPACE}<mn>0</mn>"),
        (
            r"\cos m\theta_i",
            f"<mi>cos</mi>{THIN_SPACE}<mi>m</mi><msub><mi>&#x003B8;</mi><mi>i</mi></msub>",
        ),
        (r"\sin^2 x", f"<msup><mi>sin</mi><mn>2</mn></msup>{THIN_SPACE}<mi>x</mi>"),
        (r"\max_i x", f"<msub><mi>max</mi><mi>i</mi></msub>{THIN_SPACE}<mi>x</mi>"),
        (r"\det A", f"<mi>det</mi>{THIN_SPACE}<mi>A</mi>"),
        (r"\arg z", f"<mi>arg</mi>{THIN_SPACE}<mi>z</mi>"),
        (r"\liminf", "<mi>lim&#x02009;inf</mi>"),
        (  # no space before a bracket
            r"\sin(x)",
            '<mi>sin</mi><mo stretchy="false">&#x00028;</mo><mi>x</mi>'
            '<mo stretchy="false">&#x00029;</mo>',
        ),
        (r"\frac{\sin}{x}", "<mfrac><mrow><mi>sin</mi></mrow><mrow><mi>x</mi></mrow></mfrac>"),
        (r"\operatorname{softmax}", "<mi>softmax</mi>"),
        (
            r"\operatorname{softmax}\!\left(x\right)",
            '<mi>softmax</mi><mspace width="-0.1667em" /><mrow>'
            '<mo stretchy="true" fence="true" form="prefix">&#x00028;</mo><mi>x</mi>'
            '<mo stretchy="true" fence="true" form="postfix">&#x00029;</mo></mrow>',
        ),
        (r"\mathbf{q}", "<mi>&#x1D42A;</mi>"),
        (r"\mathbf{W}_Q", "<msub><mi>&#x1D416;</mi><mi>Q</mi></msub>"),
        (r"\mathbf{qk}", "<mi>&#x1D42A;&#x1D424;</mi>"),
        (r"\mathbf{0}", "<mn>&#x1D7CE;</mn>"),
        (
            r"10000^{-2i/d}",
            "<msup><mn>10000</mn><mrow><mo>&#x02212;</mo><mn>2</mn><mi>i</mi>"
            "<mo>&#x0002F;</mo><mi>d</mi></mrow></msup>",
        ),
        (r"\Gamma", '<mi mathvariant="normal">&#x00393;</mi>'),
        (r"\mathbb{R}^{d}", "<msup><mi>&#x0211D;</mi><mrow><mi>d</mi></mrow></msup>"),
        # a prime at the letter's height, before the letter's scripts (TeX draws q'_m so)
        (r"L'", '<mrow><mi>L</mi><mo lspace="0" rspace="0">&#x02032;</mo></mrow>'),
        (
            r"\theta'_i",
            '<msub><mrow><mi>&#x003B8;</mi><mo lspace="0" rspace="0">&#x02032;</mo></mrow>'
            "<mi>i</mi></msub>",
        ),
        (
            r"b'^{2}",
            '<msup><mrow><mi>b</mi><mo lspace="0" rspace="0">&#x02032;</mo></mrow>'
            "<mrow><mn>2</mn></mrow></msup>",
        ),
        (r"f''", '<mrow><mi>f</mi><mo lspace="0" rspace="0">&#x02033;</mo></mrow>'),
        (
            r"\left. x \right|",
            '<mrow><mo stretchy="true" fence="true" form="prefix" /><mi>x</mi>'
            '<mo stretchy="true" fence="true" form="postfix">&#x0007C;</mo></mrow>',
        ),
    ],
)
def test_constructs_give_this_mathml(tex, mathml):
    assert inline_mathml(tex) == mathml


@pytest.mark.parametrize(
    ("tex", "message"),
    [
        ("\\frac{a}{b", "unbalanced braces"),
        ("a}", "unbalanced braces"),
        ("a^", "cannot convert formula"),
        ("\\left( x", "cannot convert formula"),
        ("\\nosuchcommand x", "unknown command \\\\nosuchcommand"),
        ("\\symbf{x}", "unknown command \\\\symbf"),
        ("\\begin{aligned} a &= b \\end{aligned}", "'&' outside a supported environment"),
        ("a & b", "'&' outside a supported environment"),
        # upright names: letters, digits and \, in one braced argument
        ("\\operatorname*{argmax}_i", "unsupported \\\\operatorname\\*"),
        ("\\mathrm{a{b}}", "unsupported \\\\mathrm "),
        ("\\mathrm x", "unsupported \\\\mathrm "),
        ("\\text x", "unsupported \\\\text "),
        ("\\mathrm{x+y}", "a name holds only letters, digits"),
        ("\\operatorname{x_1}", "a name holds only letters, digits"),
        ("\\operatorname{}", "a name holds only letters, digits"),
        ("\\mathbf{\\theta}", "a name holds only letters, digits"),
        ("\\text{}", "only plain text"),
        ("\\text{$x$}", "only plain text"),
        ("\\text{\\alpha}", "only plain text"),
        ("\\text{a_b}", "only plain text"),
        # what latex2mathml would get wrong without a word
        ("\\boldsymbol{\\theta}", "mathvariant 'bold-italic' is not MathML Core"),
        ("\\mathbf{\\Theta}", "a name holds only letters, digits"),
        ("\\mathsf{AB}", "mathvariant 'sans-serif' is not MathML Core"),
        ("\\mathit{softmax}", "mathvariant 'italic' is not MathML Core"),
        ("\\textbf{x}", "mathvariant 'bold' is not MathML Core"),
        ("{\\rm abc}", "an upright name is set letter by letter"),
        ("\\argmax_i", "a word is set as an operator"),
        ("\\mathop{foo}", "a word is set as an operator"),
        ("\\mbox{a<b}", "malformed MathML"),
        # a prime raised as a superscript is a small tick far above its letter
        ("x^{\\prime}", "a prime set as a superscript"),
        ("\\mathrm{d}'", "a prime set as a superscript"),
        ("f'''''", "more than four primes"),
    ],
)
def test_bad_formulas_raise(tex, message):
    with pytest.raises(FormulaError, match=message) as error:
        render_math(f'<span class="arithmatex">\\({tex}\\)</span>')
    assert repr(tex) in str(error.value)  # the message quotes the formula


def test_align_keeps_its_empty_cells():
    html = render_math('<div class="arithmatex">\\[\\begin{align*} a &= b \\end{align*}\\]</div>')
    assert '<mtd columnalign="left"><mi /><mo>&#x0003D;</mo>' in html


def test_function_names_get_a_thin_space_before_a_bare_argument():
    html = render_math('<span class="arithmatex">\\(\\sin 0 + \\cos\\left(x\\right)\\)</span>')
    assert '<mi>sin</mi><mspace width="0.1667em"></mspace><mn>0</mn>' in html
    assert "<mi>cos</mi><mrow>" in html


def test_operator_names_are_identifiers_and_negative_space_is_a_length():
    html = render_math(
        '<span class="arithmatex">\\(\\operatorname{softmax}\\!\\left(x\\right)\\)</span>'
    )
    assert "<mi>softmax</mi>" in html
    assert "<mo>softmax</mo>" not in html
    assert 'width="-0.1667em"' in html


def test_escaped_underscore_in_text_is_an_underscore():
    html = render_math('<span class="arithmatex">\\(\\text{max\\_positions}\\)</span>')
    assert "max_positions" in html
    assert "\\_" not in html


def page_html(page: Path) -> str:
    """The page through the Markdown extensions of mkdocs.yml that find and wrap formulas."""
    return markdown.markdown(
        page.read_text(encoding="utf-8"),
        extensions=[
            "admonition",
            "attr_list",
            "md_in_html",
            "tables",
            "pymdownx.arithmatex",
            "pymdownx.details",
            "pymdownx.snippets",
            "pymdownx.superfences",
            "pymdownx.tabbed",
            "posenc_site.transforms.quiz",
        ],
        extension_configs={
            "pymdownx.arithmatex": {"generic": True},
            "pymdownx.snippets": {"base_path": [str(DOCS), str(DOCS.parent / "src")]},
            "pymdownx.superfences": {
                "custom_fences": [{"name": "quiz", "class": "quiz", "format": quiz.fence_format}]
            },
            "pymdownx.tabbed": {"alternate_style": True},
            "posenc_site.transforms.quiz": {"language": SITE.of_page(page).code, "docs_dir": DOCS},
        },
    )


def test_every_formula_in_the_docs_converts():
    wrapper = re.compile(
        r'<span class="arithmatex">.*?</span>|<div class="arithmatex">.*?</div>', re.DOTALL
    )
    formulas, failures = 0, []
    for page in PAGES:
        for formula in wrapper.findall(page_html(page)):
            formulas += 1
            try:
                render_math(formula)
            except FormulaError as error:
                failures.append(f"{page.relative_to(DOCS)}: {error}")
    assert formulas > 50  # the lessons, their quizzes and the contributor guide
    assert failures == []


# The extension (posenc_site.transforms.formulas) on a page, in this process, without MkDocs.


def with_formulas(text: str) -> str:
    return markdown.markdown(
        text,
        extensions=["pymdownx.arithmatex", "posenc_site.transforms.formulas"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )


def test_the_extension_numbers_display_formulas_in_page_order_stashed_html_included():
    # The middle formula is raw HTML, stashed by Markdown as quizzes and code outputs are.
    text = "Take $x$.\n\n$$\na \\label{sum}\n$$\n\n"
    text += '<div class="arithmatex">\\[b\\]</div>\n\n$$\nc\n$$\n'
    html = with_formulas(text)
    assert re.findall(r'<div class="pe-equation" id="([^"]+)">', html) == ["eq-sum", "eq-2", "eq-3"]
    assert re.findall(r'class="pe-equation-number" href="#eq-[^"]+">\((\d)\)', html) == [
        "1",
        "2",
        "3",
    ]
    assert html.startswith(
        '<p>Take <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow>'
        "<mi>x</mi></mrow></math>.</p>"
    )
    assert "arithmatex" not in html


def test_a_bad_formula_stops_the_conversion_for_mkdocs_to_name_the_page():
    with pytest.raises(TransformError, match=r"^unbalanced braces in formula: '\\\\sqrt\{d'$"):
        with_formulas(r"See $\sqrt{d$.")
    assert issubclass(TransformError, PluginError)  # MkDocs prints it after the page's name


def test_the_sites_extensions_render_formulas_of_a_turkish_page_and_its_quiz():
    quiz_text = "- {type: match, question: $q$, pairs: [[a, '1'], [b, '2']], explanation: E}"
    html = convert(f"$$\nz\n$$\n\n```quiz\n{quiz_text}\n```\n", "tr")
    assert html.count("<math") == 2
    assert "arithmatex" not in html
    assert ">Kontrol et</button>" in html
