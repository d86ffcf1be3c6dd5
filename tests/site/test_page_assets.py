from posenc_site.publish import page_assets
from support import page_weight

HEAD = (
    '<head><link rel="stylesheet" href="../../assets/_mkdocstrings.css">'
    '<link rel="stylesheet" href="../../assets/posenc.css">'
    '<link rel="stylesheet" href="../../assets/stylesheets/main.css"></head>'
    '<body>{content}<script src="../../assets/posenc.js"></script></body>'
)


def test_a_page_keeps_only_the_assets_its_content_uses():
    content = '<p>Text <math><mi>x</mi></math></p><div class="pe-quiz">'
    output = page_assets.remove_unused(HEAD.format(content=content), content)
    assert "_mkdocstrings.css" not in output
    assert "posenc.css" in output
    assert "posenc.js" in output  # quizzes, figures and progress: every page
    assert "main.css" in output  # Material's own: every page


def test_a_page_of_docstrings_keeps_mkdocstrings_stylesheet_only():
    content = '<div class="doc doc-object doc-function">'
    output = page_assets.remove_unused(HEAD.format(content=content), content)
    assert "_mkdocstrings.css" in output
    assert "posenc.css" not in output
    assert "posenc.js" in output


def test_responses_are_sorted_by_kind():
    kinds = [
        page_weight.kind_of("http://h/lessons/rotary/"),
        page_weight.kind_of("http://h/assets/posenc.css"),
        page_weight.kind_of("http://h/assets/javascripts/bundle.1.min.js"),
        page_weight.kind_of("http://h/assets/fonts/noto.woff2"),
        page_weight.kind_of("http://h/tr/search/search_index.json"),
        page_weight.kind_of("http://h/assets/images/favicon.png"),
    ]
    assert kinds == list(page_weight.KINDS)


def test_the_deferred_script_stays_on_a_page_without_quizzes_or_figures():
    # Its progress part shows on every page: the nav's ticks of the lessons done.
    head = HEAD.replace("<script src=", "<script defer src=")
    output = page_assets.remove_unused(head.format(content="<p>Text</p>"), "<p>Text</p>")
    assert '<script defer src="../../assets/posenc.js">' in output
    assert "posenc.css" not in output
