"""A lesson's first use of each glossary term links to the term's entry, in the page's language
(posenc_site.transforms.glossary_links); the glossary pages give every term an entry with a
unique, stable id (posenc_site.i18n.glossary). Run in this process with mkdocs.yml's Markdown
extensions, without MkDocs: a stand-in for MkDocs' ``relpath`` treeprocessor tells the
extension which page it converts, as MkDocs' own does in a build (pinned below)."""

import copy
import html
import re
from pathlib import Path
from types import SimpleNamespace
from xml.etree.ElementTree import Element, SubElement, tostring

import markdown
import pytest
from markdown.treeprocessors import Treeprocessor
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import _RelativePathTreeprocessor

from posenc_site.i18n import page_language
from posenc_site.i18n.glossary import Term, entry_id, glossary_table, in_order, load
from posenc_site.transforms import glossary_links
from support import site_markdown
from support.docblocks import DOCS
from support.project import SITE

TERMS = load(DOCS)
NOTES = {(term.terms[code], code): term.notes[code] for term in TERMS for code in term.notes}
LESSON = "lessons/lesson.md"
_LINK = re.compile(r'<a href="(?P<href>[^"]*)" title="(?P<title>[^"]*)">(?P<text>.*?)</a>', re.S)


class _Page(Treeprocessor):  # type: ignore[misc]
    """Stands in for MkDocs' ``relpath`` treeprocessor: the page and the build's settings."""

    def __init__(self, md: markdown.Markdown, src_uri: str, language: str) -> None:
        super().__init__(md)
        self.file = SimpleNamespace(src_uri=src_uri)
        entries = [
            {"locale": lng.code, "name": lng.name, "default": lng.default} for lng in SITE.all
        ]
        i18n = SimpleNamespace(config=SimpleNamespace(languages=entries))
        self.config = SimpleNamespace(
            docs_dir=str(DOCS), theme={"language": language}, plugins={"i18n": i18n}
        )

    def run(self, root: Element) -> None:
        return None


def converted(text: str, language: str = "en", src_uri: str = LESSON) -> str:
    """The HTML of the page ``src_uri`` holding ``text``, converted as the site converts it."""
    config = site_markdown.config()
    page_language.configure_markdown(config, SITE.get(language))
    md = markdown.Markdown(
        extensions=config.markdown_extensions, extension_configs=copy.deepcopy(config.mdx_configs)
    )
    md.treeprocessors.register(_Page(md, src_uri, language), "relpath", 0)
    return md.convert(text)


def links(text: str, language: str = "en", src_uri: str = LESSON) -> list[tuple[str, str]]:
    """(link text, entry id) of each glossary link on the page, in page order."""
    found = []
    for match in _LINK.finditer(converted(text, language, src_uri)):
        page, _, anchor = match["href"].partition("#")
        assert page == "../glossary.md", match["href"]
        found.append((match["text"], anchor))
    return found


def test_the_first_use_of_each_term_links_to_its_entry_with_its_note_as_title():
    page = "Attention mixes the tokens.\n\nAttention again, and a token.\n"
    html_text = converted(page)
    assert [m.groups() for m in _LINK.finditer(html_text)] == [
        ("../glossary.md#attention", NOTES["attention", "en"], "Attention"),
        ("../glossary.md#token", NOTES["token", "en"], "tokens"),
    ]
    assert html_text.count("<a ") == 2  # only the first use of each


def test_the_title_is_the_note_as_plain_text():
    (title,) = [m["title"] for m in _LINK.finditer(converted("The half layout."))]
    note = NOTES["half layout", "en"]
    assert "`rotate_half`" in note
    assert html.unescape(title) == note.replace("`rotate_half`", "rotate_half")


def test_turkish_pages_link_turkish_terms_with_their_suffixes():
    page = (
        "Konum kodlamasının belirteçleri, dikkat başlıkları ve İç çarpımları; RoPE'un tabanı,\n"
        "konum\nkodlamaları, dolgu belirtecinin boyutu.\n"
    )
    assert links(page, "tr") == [
        ("Konum kodlamasının", "konum-kodlamasi"),
        ("belirteçleri", "belirtec"),
        ("dikkat başlıkları", "dikkat-basligi"),
        ("İç çarpımları", "ic-carpim"),  # Turkish case: İ is the capital of i
        ("RoPE'un", "doner-konum-gommesi-rope"),
        ("tabanı", "taban"),
        ("dolgu belirtecinin", "dolgu-belirteci"),
        ("boyutu", "boyut"),
    ]
    # English pages link English terms only.
    assert links(page, "en") == [("RoPE", "rotary-position-embedding-rope")]


def test_turkish_case_folding_tells_i_from_dotless_i():
    # "IZGARA" is ızgara in Turkish lower case; "İZGARA" is not a Turkish spelling of it.
    assert links("IZGARA.", "tr") == [("IZGARA", "izgara")]
    assert links("İZGARA.", "tr") == []


def test_whole_words_only_and_the_longest_term_first():
    page = (
        "Subtokens, cross-attention. Tokenizers, the attention heads and self-attention;\n"
        "a code base; positional; queries.\n"
    )
    assert links(page) == [
        ("Tokenizers", "tokenizer"),  # not "token"
        ("attention heads", "attention-head"),  # not "attention"
        ("self-attention", "self-attention"),
        ("queries", "query-key-value"),
    ]
    # A suffix that makes another word: "-lı" (based), a verb in "-la-" (chased).
    assert links("Sinüs tabanlı; kovaladı; kod tabanları; dikkatli.", "tr") == []
    # A word of a term in a phrase that means something else: a standard deviation, a search.
    assert links("The grid search; a bias.") == [("bias", "bias")]
    assert links("Standart sapması 0.01; ızgara araması; T5 sapması.", "tr") == [
        ("sapması", "sapma")
    ]


def test_the_walk_leaves_code_headings_and_links_alone():
    root = Element("div")
    SubElement(root, "h2").text = "Attention"
    paragraph = SubElement(root, "p")
    paragraph.text = "See "
    code = SubElement(paragraph, "code")
    code.text, code.tail = "attention", " and "
    link = SubElement(paragraph, "a", href="x.md")
    link.text, link.tail = "attention", ", then attention and attention."
    glossary = glossary_links.make_glossary(TERMS, "en")
    linked = glossary_links.link_first_uses(root, glossary, lambda _: Element("a", href="g"))
    assert [term.en for term in linked] == ["attention"]
    assert tostring(root, encoding="unicode") == (
        '<div><h2>Attention</h2><p>See <code>attention</code> and <a href="x.md">attention</a>,'
        ' then <a href="g">attention</a> and attention.</p></div>'
    )


QUIZ = """```quiz
- type: choice
  question: What does attention weigh?
  options:
    - text: tokens
      correct: true
    - text: bias
  explanation: Attention.
```"""

SKIPPED = f"""# Attention

## Attention and tokens

`attention`, $\\text{{attention}}$, [attention](other.md), <span>attention</span>,
<a href="model.py" download>the exercise's <code>model.py</code></a>.

```python
attention = "tokens"
```

!!! note "Attention"
    The body.

<figure class="pe-figure"><svg></svg><figcaption>Attention.</figcaption></figure>

{QUIZ}

A token here.

## References

- A. Vaswani et al., "Attention Is All You Need": the causal mask.

## Further

Attention, at last; the causal mask, and the exercise.
"""


def test_nothing_links_in_headings_code_math_links_html_figures_quizzes_or_references():
    assert links(SKIPPED) == [
        ("token", "token"),
        ("Attention", "attention"),
        ("causal mask", "causal-mask"),
        ("exercise", "exercise"),
    ]


def _links_in_lists(page: str, language: str) -> list[str]:
    items = re.findall(r"<li>.*?</li>", converted(page, language), re.S)
    return [match["text"] for item in items for match in _LINK.finditer(item)]


def test_the_references_heading_is_the_one_of_the_pages_language():
    turkish = SKIPPED.replace("## References", "## Kaynaklar")
    assert _links_in_lists(SKIPPED, "en") == []
    assert _links_in_lists(turkish, "en") == ["Attention", "causal mask"]  # no English heading
    turkish = turkish.replace("causal mask", "nedensel maske").replace("token", "belirteç")
    assert _links_in_lists(turkish, "tr") == []
    assert links(turkish, "tr")[:2] == [
        ("belirteç", "belirtec"),
        ("nedensel maske", "nedensel-maske"),
    ]


def test_only_lessons_link_their_terms():
    page = "Attention mixes the tokens.\n"
    assert links(page, src_uri="index.md") == []
    assert links(page, src_uri="reference/api.md") == []
    assert [text for text, _ in links(page, src_uri="lessons/rotary.tr.md")] == [
        "Attention",
        "tokens",
    ]


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_every_term_has_a_unique_id_from_its_own_language(language):
    ids = [entry_id(term, language) for term in TERMS]
    assert len(set(ids)) == len(TERMS) == len(ids)
    assert all(re.fullmatch(r"[a-z0-9]+(?:[-_][a-z0-9]+)*", i) for i in ids), ids


def test_ids_are_the_slugs_of_the_terms():
    by_english = {term.en: term for term in TERMS}
    rope = by_english["rotary position embedding (RoPE)"]
    assert entry_id(rope, "en") == "rotary-position-embedding-rope"
    assert entry_id(rope, "tr") == "doner-konum-gommesi-rope"
    assert entry_id(by_english["self-attention"], "tr") == "oz-dikkat"
    assert entry_id(by_english["key/value cache"], "tr") == "anahtardeger-onbellegi"


def test_two_terms_with_one_id_stop_the_build(tmp_path: Path):
    (tmp_path / "glossary.yml").write_text(
        "- {en: head size, tr: başlık boyu, note_en: A., note_tr: B.}\n"
        "- {en: head-size, tr: başlık-boyu, note_en: C., note_tr: D.}\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match=r"the same id in en: \['head-size'\]"):
        glossary_table("en", tmp_path, SITE)


def test_the_glossary_page_has_an_entry_per_term_under_its_letter():
    lines = glossary_table("tr", DOCS, SITE).split("\n\n")
    headings = [line for line in lines if line.startswith("### ")]
    assert headings == [
        f'### {term.tr} {{#{entry_id(term, "tr")} data-term="{entry_id(term, "en")}"}}'
        for term in in_order(TERMS, "tr")
    ]
    at = lines.index('### konum kodlaması {#konum-kodlamasi data-term="positional-encoding"}')
    assert lines[at + 1] == "İngilizce: *positional encoding*{lang=en}"
    assert lines[at + 2] == NOTES["konum kodlaması", "tr"]
    letters = [line for line in lines if line.startswith("## ")]
    assert letters[:4] == [
        f"## {c} {{ #letter-{low} data-search-exclude }}"
        for c, low in zip("ABÇD", "abçd", strict=True)
    ]
    assert "## I { #letter-ı data-search-exclude }" in letters  # ızgara: the capital of ı is I
    # First, a line of the letters, each a link to its part.
    assert lines[0].split("\n") == [
        " ".join(f"[{c}](#letter-{low})" for c, low in zip(*_letters(lines), strict=True)),
        "{ .pe-letters }",
    ]
    assert glossary_table("en", DOCS, SITE).split("\n\n")[2:4] == [
        '### absolute position {#absolute-position data-term="absolute-position"}',
        "Turkish: *mutlak konum*{lang=tr}",
    ]


def _letters(lines: list[str]) -> tuple[list[str], list[str]]:
    """The letters of the glossary's parts, and their ids' ends, from its headings."""
    found = [re.match(r"## (\S+) \{ #letter-(\S+) ", line) for line in lines]
    return [m[1] for m in found if m], [m[2] for m in found if m]


def test_forms_of_a_term():
    assert glossary_links.forms("vision transformer (ViT)") == [
        "vision transformer (ViT)",
        "vision transformer",
        "ViT",
    ]
    assert glossary_links.forms("section (of M-RoPE)") == ["section (of M-RoPE)"]
    glossary = glossary_links.make_glossary(
        [Term({"en": "section (of M-RoPE)", "tr": "dilim"}, {}, False)], "en"
    )
    assert list(glossary.uses("In this section, see section (of M-RoPE).")) != []
    assert [start for start, _, _ in glossary.uses("In this section.")] == []


def test_mkdocs_relpath_treeprocessor_is_what_the_extension_reads(tmp_path: Path):
    # The extension finds the page it converts in MkDocs' treeprocessor "relpath" (its file and
    # config), and must run before it, which resolves the links it writes and checks their
    # anchors (mkdocs.structure.pages.Page.render registers it on every page's Markdown).
    config = MkDocsConfig()
    config.load_dict({"site_name": "t", "docs_dir": str(tmp_path)})
    file = File("lessons/x.md", str(tmp_path), str(tmp_path / "site"), use_directory_urls=True)
    processor = _RelativePathTreeprocessor(file, Files([file]), config)
    md = markdown.Markdown(extensions=["posenc_site.transforms.glossary_links"])
    processor._register(md)
    assert md.treeprocessors["relpath"] is processor
    assert processor.file.src_uri == "lessons/x.md"
    assert processor.config.docs_dir == str(tmp_path)
    order = [md.treeprocessors.get_index_for_name(n) for n in ("inline", "posenc_glossary_links")]
    assert order[0] < order[1] < md.treeprocessors.get_index_for_name("relpath")


def test_the_lessons_opening_block_links_nothing_and_the_prose_after_it_does():
    text = (
        '<div class="pe-signpost" markdown>\n\n- Build the positional encoding\n\n</div>\n\n'
        "A positional encoding is added.\n"
    )
    block, prose = converted(text).split("</div>")
    assert "<a " not in block
    assert _LINK.search(prose)["text"] == "positional encoding"
