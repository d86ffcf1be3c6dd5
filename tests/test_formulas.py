import pytest

from posenc_site.formulas import FormulaError, render_math

INLINE = '<p>Take <span class="arithmatex">\\(x^2 &lt; y\\)</span>.</p>'
DISPLAY = '<div class="arithmatex">\\[\na + b \\label{sum}\n\\]</div>'


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


@pytest.mark.parametrize(
    ("tex", "message"),
    [
        ("\\frac{a}{b", "unbalanced braces"),
        ("a}", "unbalanced braces"),
        ("a^", "cannot convert formula"),
        ("\\left( x", "cannot convert formula"),
        ("\\nosuchcommand x", "unknown command \\\\nosuchcommand"),
        ("\\begin{aligned} a &= b \\end{aligned}", "'&' outside a supported environment"),
    ],
)
def test_bad_formulas_raise(tex, message):
    with pytest.raises(FormulaError, match=message):
        render_math(f'<span class="arithmatex">\\({tex}\\)</span>')


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
