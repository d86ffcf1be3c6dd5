"""The figures' part of the site's script (posenc.js): its tag carries the words of the page's
language, and each figure gets its "Enlarge figure" button (posenc_site.publish.page_assets);
the browser tier opens figures with it.
"""

import pytest

from posenc_site.publish import page_assets
from support.project import SITE

WORDS = {language.code: language.strings["lightbox"] for language in SITE.all}
PAGE = '<html lang="{lang}"><body>{content}<script defer src="../../assets/posenc.js"></script>'


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_the_script_tag_carries_the_words_of_the_page_language(language):
    content = '<figure class="pe-figure" data-search-exclude><svg role="img"></svg></figure>'
    output = page_assets.remove_unused(PAGE.format(lang=language, content=content), content)
    words = WORDS[language]
    assert f'<script defer src="../../assets/posenc.js" data-close="{words["close"]}" ' in output
    assert f"<span>{words['enlarge']}</span></button></figure>" in output


def test_a_page_that_only_shows_figure_markup_as_code_gets_no_button():
    # The API reference quotes a figure's markup in a docstring's example.
    content = "<code>'&lt;figure class=\"pe-figure\" data-search-exclude&gt;'</code>"
    output = page_assets.remove_unused(PAGE.format(lang="en", content=content), content)
    assert "pe-figure__enlarge" not in output
