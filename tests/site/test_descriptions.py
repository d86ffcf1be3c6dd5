"""Page descriptions: the front matter's, else the first paragraph; bad ones name the page."""

from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from posenc_site.publish import descriptions


def fake_page(meta: dict) -> SimpleNamespace:
    return SimpleNamespace(meta=meta, file=SimpleNamespace(src_uri="lessons/x.tr.md"))


def test_the_front_matter_description_is_used_and_escaped():
    page = fake_page({"description": 'A "quoted" <b>word</b>\n  over two lines.'})
    description = descriptions.describe(page, "<p>First paragraph.</p>")
    assert str(description) == "A &#34;quoted&#34; &lt;b&gt;word&lt;/b&gt; over two lines."
    assert page.meta["description"] == description


def test_without_one_the_first_paragraph_is_used_formulas_as_latex():
    content = (
        '<h1 id="x">Title</h1>\n<div class="admonition"><p class="admonition-title">Note</p>\n'
        '<p>The <em>model</em> adds <span class="arithmatex">\\(PE_{pos}\\)</span> &amp; more.</p>'
    )
    page = fake_page({})
    assert descriptions.describe(page, content) == "The model adds PE_{pos} &amp; more."


def test_a_long_first_paragraph_is_cut_at_a_word():
    words = " ".join(f"word{n}," for n in range(60))
    text = descriptions.first_paragraph(f"<p>{words}</p>")
    assert text is not None
    assert len(text) <= descriptions.FALLBACK_LENGTH
    assert text.endswith("…")
    assert text[:-1].split()[-1].startswith("word")
    assert not text[:-1].endswith(",")


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        ({"description": ["a", "list"]}, "must be text, got ['a', 'list']"),
        ({"description": "  "}, "must be text"),
        ({"description": "x" * 201}, "has 201 characters; keep it to 200 at most"),
        ({}, "no description: add 'description:' to its front matter"),
    ],
)
def test_a_bad_or_missing_description_names_the_page(meta, message):
    content = "<h1>Only a title</h1>" if not meta else "<p>text</p>"
    with pytest.raises(PluginError, match=r"lessons/x\.tr\.md: ") as error:
        descriptions.describe(fake_page(meta), content)
    assert message in str(error.value)
