"""What the search index holds: prose, without code, formulas or quizzes; per-language settings.

Material's own search plugin indexes the fragments, so the tests see what it leaves out.
"""

import re
from types import SimpleNamespace

import pytest
from material.plugins.search.plugin import SearchIndex

from posenc_site.publish import search_split
from posenc_site.transforms import search_exclude
from support.project import SITE, TURKISH
from support.site_markdown import convert

PAGE = """<h1 id="lesson">Lesson</h1>
<p>Prose about attention.</p>
<div class="highlight"><pre><span></span><code><span class="n">np</span>.round(PE, 3)</code></pre></div>
<div class="highlight"><pre><span></span><code>[[ 0.841  0.54 ]]
</code></pre></div>
<p>A matrix <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mi>Xq</mi></math> of shape.</p>
<div class="pe-equation" id="eq-1"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><mi>softmax</mi></math><a class="pe-equation-number" href="#eq-1">(1)</a></div>
<h2 id="check">Check yourself</h2>
<div class="pe-quizzes">
<form class="pe-quiz" id="quiz-1" data-kind="choice" novalidate><fieldset>
<legend>Which is right?</legend>
<div class="pe-quiz__options"><label class="pe-quiz__option"><span>A. unstable</span></label></div>
<details class="pe-quiz__answer"><summary>Answer</summary><p>Because.</p></details>
</fieldset></form>
</div>
<p>After the quiz.</p>
"""  # noqa: E501


def indexed(html: str) -> str:
    """The titles and texts that Material's search plugin indexes for a page of ``html``."""
    index = SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=[], fields={})
    page = SimpleNamespace(url="page/", content=html, meta={}, toc=[], title="Page")
    index.add_entry_from_context(page)
    return "\n".join(f"{entry['title']}: {entry['text']}" for entry in index.entries)


def test_material_indexes_the_whole_fragment_unmarked():
    text = indexed(PAGE)
    for part in ["np.round", "0.841", "Xq", "softmax", "(1)", "Which is right?", "unstable"]:
        assert part in text


def test_code_formulas_and_quizzes_stay_out_of_the_index():
    text = indexed(search_exclude.mark(PAGE))
    for part in ["np.round", "0.841", "Xq", "softmax", "(1)", "Which is right?", "unstable"]:
        assert part not in text
    # What follows each excluded element is indexed again.
    for part in ["Prose about attention.", "A matrix", "of shape.", "Check yourself", "After"]:
        assert part in text


# A page as the site's extensions convert it (posenc_site.transforms.search_exclude last), with a
# block that markdown-exec runs: its output is converted by a Markdown instance of its own.
SOURCE = """# Lesson

Prose about $Xq$.

$$
\\operatorname{softmax}
$$

```python
np.round(PE, 3)
```

```python exec="on" result="text"
print("[[ 0.841  0.54 ]]")
```

```quiz
- {type: match, question: 'Which is right?', pairs: [[a, unstable], [b, '2']], explanation: E}
```

After the quiz.
"""


def test_the_sites_extensions_mark_each_excluded_element_once():
    html = convert(SOURCE, execute=True)
    marked = re.findall(
        r'<(\w+)(?: class="([^"]*)")? data-search-exclude="data-search-exclude"', html
    )
    assert marked == [
        ("math", ""),  # the inline formula
        ("div", "pe-equation"),  # the display formula with its number
        ("math", ""),  # the display formula itself
        ("div", "highlight"),  # the code block
        ("div", "highlight"),  # the executed block's output
        ("form", "pe-quiz"),
        ("section", "pe-answer-key"),  # printed only (posenc_site.transforms.quiz.print_key)
    ]
    assert html.count('data-search-exclude="data-search-exclude"') == 7  # none twice
    text = indexed(html)
    for part in ["np.round", "0.841", "Xq", "softmax", "(1)", "Which is right?", "unstable"]:
        assert part not in text
    for part in ["Prose about", "After the quiz."]:
        assert part in text


def test_spaces_collapse_outside_preformatted_text():
    text = "<p>one   two</p>   <pre><code>a  =  1\n    b</code></pre> <li>x    y</li>"
    expected = "<p>one two</p> <pre><code>a  =  1\n    b</code></pre> <li>x y</li>"
    assert search_split.collapse_spaces(text) == expected


MATERIAL_DEFAULTS = {"lang": ["en"], "separator": r"[\s\-]+", "pipeline": ["stopWordFilter"]}


def test_english_keeps_materials_search_settings():
    assert search_split.search_config(MATERIAL_DEFAULTS, SITE.default) == MATERIAL_DEFAULTS


def test_turkish_needs_no_lunr_languages_module_for_stop_words_alone():
    config = search_split.search_config(MATERIAL_DEFAULTS, TURKISH)
    # Material's worker loads lunr.tr (and its support module) for lang "tr"; "en" is lunr's.
    assert config == {**MATERIAL_DEFAULTS, "lang": ["en"], "pipeline": []}


@pytest.mark.parametrize("pipeline", [["stemmer"], ["stopWordFilter", "trimmer"]])
def test_turkish_keeps_its_module_where_the_pipeline_stems_or_trims(pipeline):
    config = search_split.search_config({**MATERIAL_DEFAULTS, "pipeline": pipeline}, TURKISH)
    assert config["lang"] == ["tr"]
    assert config["pipeline"] == pipeline
