"""The built site: executed outputs in both languages, no traceback, no off-site request."""

import re
from html import unescape

import pytest

from support.fixture_project import mkdocs_build
from support.project import ROOT, SITE, TURKISH

EXPECTED_LINES = [
    "(4, 6)",
    "[0. 1. 0. 1. 0. 1.]",
    "[0.841 0.54  0.046 0.999 0.002 1.   ]",
    "True False",
]
LESSON = {
    "en": "lessons/positional-encoding/index.html",
    "tr": "tr/lessons/positional-encoding/index.html",
}


def text_of(fragment: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", fragment))


@pytest.mark.parametrize("language", ["en", "tr"])
def test_lesson_shows_the_executed_exercise_output(site, language):
    page = (site / LESSON[language]).read_text(encoding="utf-8")
    # The hidden example solution sits in a <details>; markdown-exec put its printed output there.
    solution = re.search(r'<details class="example">.*?</details>', page, re.DOTALL)
    assert solution, "no example solution found"
    code_blocks = re.findall(r"<code>(.*?)</code>", solution.group(), re.DOTALL)
    outputs = [text_of(block).rstrip("\n").split("\n") for block in code_blocks]
    assert EXPECTED_LINES in outputs


@pytest.mark.parametrize("language", ["en", "tr"])
def test_lesson_shows_the_reversal_demonstration(site, language):
    page = text_of((site / LESSON[language]).read_text(encoding="utf-8"))
    assert "True\nFalse\nTrue\n" in page  # equivariant, not invariant, pooled
    assert "True\nFalse\n" in page


def test_no_page_contains_a_traceback_or_an_unrendered_formula(site):
    pages = list(site.rglob("*.html"))
    assert len(pages) >= 8
    for page in pages:
        html = page.read_text(encoding="utf-8")
        # markdown-exec renders a failed block's traceback, which names "<code block: ...>";
        # the API reference may show a traceback in a docstring example, which is fine.
        assert "&lt;code block" not in html, page
        assert 'class="arithmatex"' not in html, page


def test_formulas_are_mathml_and_numbered(site):
    page = (site / LESSON["tr"]).read_text(encoding="utf-8")
    assert page.count("<math") > 10
    assert 'id="eq-sinusoidal"' in page
    assert '<a class="pe-equation-number" href="#eq-sinusoidal">(2)</a>' in page


def test_no_page_loads_anything_from_another_host(site):
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        for tag in re.findall(r"<(?:script|link|img|iframe)\b[^>]*>", html):
            source = re.search(r'\b(?:src|href)="([^"]*)"', tag)
            if source and not tag.startswith('<link rel="alternate"') and "canonical" not in tag:
                assert not re.match(r"(https?:)?//", source.group(1)), f"{page}: {tag}"


def test_language_switcher_links_the_same_page(site):
    english = (site / LESSON["en"]).read_text(encoding="utf-8")
    turkish = (site / LESSON["tr"]).read_text(encoding="utf-8")
    assert 'href="../../tr/lessons/positional-encoding/" hreflang="tr"' in english
    assert 'href="../../../lessons/positional-encoding/" hreflang="en"' in turkish


def test_turkish_pages_have_turkish_interface_and_navigation(site):
    turkish = (site / LESSON["tr"]).read_text(encoding="utf-8")
    assert '<html lang="tr"' in turkish
    assert "Ana sayfa" in turkish
    assert "Konum kodlaması" in turkish
    assert "Kopyala" in turkish or "Panoya kopyala" in turkish


def test_api_reference_in_both_languages(site):
    for path in ("reference/api/index.html", "tr/reference/api/index.html"):
        html = (site / path).read_text(encoding="utf-8")
        for name in ("softmax", "self_attention", "sinusoidal_encoding"):
            assert f'id="posenc.{name}"' in html, (path, name)
        assert "Vaswani" in html


FIGURE_ALT = {
    "en": ["Heatmap of the encoding table", "Curves of dimensions 4 to 7", "Left: the dot product"],
    "tr": ["Kodlama tablosunun ısı haritası", "4-7 arası boyutların", "Solda: p ve p + k"],
}


@pytest.mark.parametrize("language", ["en", "tr"])
def test_lesson_has_its_figures_with_alt_text_in_its_language(site, language):
    page = (site / LESSON[language]).read_text(encoding="utf-8")
    figure = (
        r'<figure class="pe-figure" data-search-exclude[^>]*>'
        r'<svg class="pe-figure__zoomable" role="img".*?</figure>'
    )
    figures = re.findall(figure, page, re.DOTALL)
    assert len(figures) == 3
    # Each with its "Enlarge figure" button, written into the page in its language.
    enlarge = SITE.get(language).strings["lightbox"]["enlarge"]
    assert all(f"<span>{enlarge}</span></button>" in figure for figure in figures)
    titles = [re.search(r"<title id=[^>]*>(.*?)</title>", figure).group(1) for figure in figures]
    for title, expected in zip(titles, FIGURE_ALT[language], strict=True):
        assert title.startswith(expected)
    other = FIGURE_ALT["tr" if language == "en" else "en"]
    assert not any(text in page for text in other)


@pytest.mark.build  # a build of its own: among the first tests that read the site
def test_two_builds_give_identical_lesson_pages_and_downloads(site, tmp_path):
    again = tmp_path / "again"
    result = mkdocs_build(ROOT, again)
    assert result.returncode == 0, result.stdout + result.stderr
    downloads = ("model.py", "positional-encoding.py", "positional-encoding.ipynb")
    for path in LESSON.values():
        assert (again / path).read_bytes() == (site / path).read_bytes(), path
        folder = path.removesuffix("index.html")
        for name in downloads:
            assert (again / folder / name).read_bytes() == (site / folder / name).read_bytes()


ENGLISH_ONLY = (
    "Made with",
    "text CC BY",
    "Parameters:",
    "Returns:",
    "Switch to",
    "Table of contents",
    "Copy to clipboard",
    "Permanent link",
)


def test_turkish_pages_have_no_english_interface_text(site):
    for page in (site / "tr").rglob("index.html"):
        html = page.read_text(encoding="utf-8")
        for english in ENGLISH_ONLY:
            assert english not in html, (page, english)
    api = (site / "tr/reference/api/index.html").read_text(encoding="utf-8")
    for label in ("Parametreler:", "Dönüş değeri:", "Hatalar:", "Örnekler:", "<summary>Kaynaklar"):
        assert label in api, label
    for verb in ("Döndürür:", "Fırlatır:", "Uyarır:"):  # section titles are nouns
        assert verb not in api, verb
    english_api = (site / "reference/api/index.html").read_text(encoding="utf-8")
    assert "Parameters:" in english_api
    assert "<summary>References" in english_api


def test_turkish_heading_ids_keep_their_letters(site):
    page = (site / LESSON["tr"]).read_text(encoding="utf-8")
    assert '<h1 id="konum-kodlamasi">' in page
    assert '<h2 id="dikkat-sirayi-gormez-maske-yokken">' in page
    assert 'href="#sinus-tabanli-kodlama"' in page


def test_search_index_per_language(site):
    import json

    english = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    turkish = json.loads((site / "tr/search/search_index.json").read_text(encoding="utf-8"))
    assert english["config"]["lang"] == ["en"]
    assert english["config"]["pipeline"] == ["stopWordFilter"]  # Material's, unchanged
    # Turkish is searched without lunr-languages' Turkish module (posenc_site.publish.search_split).
    assert turkish["config"]["lang"] == ["en"]
    assert turkish["config"]["pipeline"] == []
    assert {d["location"] for d in turkish["docs"]} >= {"", "lessons/positional-encoding/"}
    assert any(d["title"] == "Konum kodlaması" for d in turkish["docs"])
    assert not any(d["location"].startswith(TURKISH.url_prefix) for d in english["docs"])
    assert not any(d["title"] == "Konum kodlaması" for d in english["docs"])


def test_figures_stay_out_of_the_search_index(site):
    import json

    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    lesson = [doc for doc in index["docs"] if doc["location"].startswith(LESSON_URL)]
    text = " ".join(doc["text"] for doc in lesson)
    assert "almost constant stripes" not in text  # a figure's alt text
    assert "64 positions × 128 dimensions" not in text  # a figure's title
    assert "chased" in text  # the lesson's prose is indexed


LESSON_URL = "lessons/positional-encoding/"


# What the longest lesson's index entries leave out, in both languages: code, a printed
# output, a formula's text; and in each language a quiz's option, the quiz section's title
# and a sentence of prose, which stay (but the option).
LEFT_OUT = ("default_rng", "0.841", "PE(pos,2i)")
INDEXED_LESSON = {
    "en": ("Softmax is numerically unstable", "Check yourself", "cat chased dog"),
    "tr": ("Softmax sayısal olarak kararsızdır", "Kendini sına", "cat chased dog"),
}


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_search_index_holds_prose_without_code_formulas_or_quizzes(site, language):
    import json

    prefix = SITE.get(language).url_prefix
    index = json.loads((site / prefix / "search/search_index.json").read_text(encoding="utf-8"))
    lesson = [doc for doc in index["docs"] if doc["location"].startswith(LESSON_URL)]
    text = " ".join(doc["text"] for doc in lesson)
    quiz_option, quiz_title, prose = INDEXED_LESSON[language]
    assert prose in text
    assert quiz_title in [doc["title"] for doc in lesson]  # found by its title
    for left_out in (*LEFT_OUT, quiz_option):
        assert left_out not in text
    api = {doc["location"]: doc["text"] for doc in index["docs"]}
    sinusoidal = api["reference/api/#posenc.sinusoidal_encoding"]
    assert "n_positions" in sinusoidal  # parameters
    assert "Dekker" not in sinusoidal  # Notes: how the table is computed
    assert "NeurIPS" not in sinusoidal  # References
    # Material strips the exclusion marks once a page is indexed: the page does not carry them.
    page = (site / LESSON[language]).read_text(encoding="utf-8")
    assert 'data-search-exclude="' not in page
