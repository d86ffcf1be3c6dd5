"""Turkish pages: the same structure as their English source, and the glossary's terms."""

import re
from pathlib import Path

import pytest
import yaml

from conftest import SITE, TURKISH
from docblocks import DOCS
from posenc_site.glossary import load

ENGLISH_PAGES = sorted(p for p in DOCS.rglob("*.md") if SITE.of_page(p).default)
TURKISH_PAGES = sorted(DOCS.rglob(f"*{TURKISH.page_suffix}"))

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_FENCE = re.compile(r"^( *)(`{3,}|~{3,}).*?^\1\2[ \t]*$", re.DOTALL | re.MULTILINE)
_DISPLAY_MATH = re.compile(r"\$\$(.*?)\$\$", re.DOTALL)
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)([^$\n]+?)\$")
_INLINE_CODE = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"\]\(([^)\s]+)\)|<(https?://[^>]+)>")
_HEADING = re.compile(r"^(#{1,6}) ", re.MULTILINE)
_ADMONITION = re.compile(r"^ *(!!!|\?\?\?\+?) *([a-z]+)", re.MULTILINE)
# A Turkish sentence that starts with "0. satır" becomes a numbered list: count list items.
_LIST_ITEM = re.compile(r"^ *(?:[-*+]|\d+\.) ", re.MULTILINE)


def blank_out(pattern: re.Pattern[str], text: str) -> str:
    """Replace matches by spaces, keeping line numbers and offsets."""
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def prose(path: Path) -> str:
    text = blank_out(_FRONT_MATTER, path.read_text(encoding="utf-8"))
    text = blank_out(_FENCE, text)
    return blank_out(_INLINE_CODE, text)


def structure(path: Path) -> list[tuple[str, str, int]]:
    """(kind, value, line) for each heading, formula, admonition and link, in page order."""
    text = prose(path)
    items = []
    for kind, pattern, value in [
        ("heading", _HEADING, lambda m: f"level {len(m.group(1))}"),
        ("display formula", _DISPLAY_MATH, lambda m: " ".join(m.group(1).split())),
        ("inline formula", _INLINE_MATH, lambda m: "$…$"),
        ("admonition", _ADMONITION, lambda m: f"{m.group(1)} {m.group(2)}"),
        # Heading anchors are translated with their headings: compare the page, not the anchor.
        ("link", _LINK, lambda m: (m.group(1) or m.group(2)).split("#")[0]),
        ("list item", _LIST_ITEM, lambda m: "•"),
    ]:
        source = text if kind != "inline formula" else blank_out(_DISPLAY_MATH, text)
        for match in pattern.finditer(source):
            items.append(
                (match.start(), kind, value(match), text.count("\n", 0, match.start()) + 1)
            )
    return [(kind, value, line) for _, kind, value, line in sorted(items)]


def twin(page: Path) -> Path:
    return SITE.twin(page, TURKISH)


@pytest.mark.parametrize("md_page", ENGLISH_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_turkish_twin_has_the_same_structure(md_page):
    english, turkish = structure(md_page), structure(twin(md_page))
    for kind in ("heading", "display formula", "inline formula", "admonition", "link", "list item"):
        en = [(value, line) for k, value, line in english if k == kind]
        tr = [(value, line) for k, value, line in turkish if k == kind]
        if kind == "link":  # a translation may mention the same targets in another order
            en, tr = sorted(en), sorted(tr)
        for (en_value, en_line), (tr_value, tr_line) in zip(en, tr, strict=False):
            assert en_value == tr_value, (
                f"first difference in {kind}s: {md_page.name}:{en_line} has {en_value!r}, "
                f"{twin(md_page).name}:{tr_line} has {tr_value!r}"
            )
        assert len(en) == len(tr), (
            f"{md_page.name} has {len(en)} {kind}s, {twin(md_page).name} has {len(tr)}"
        )


def test_structure_sees_what_it_compares():
    lesson = structure(DOCS / "lessons/positional-encoding.md")
    kinds = {kind for kind, _, _ in lesson}
    assert kinds == {
        "heading",
        "display formula",
        "inline formula",
        "admonition",
        "link",
        "list item",
    }


GLOSSARY = load(DOCS)
CHECKED = [term for term in GLOSSARY if term.check]


def test_glossary_entries_are_complete_and_distinct():
    assert len(GLOSSARY) >= 20
    for term in GLOSSARY:
        assert all([term.en, term.tr, term.notes["en"], term.notes["tr"]]), term
    assert len({t.en for t in GLOSSARY}) == len({t.tr for t in GLOSSARY}) == len(GLOSSARY)


def stray_english(path: Path) -> list[str]:
    """English glossary terms in a Turkish page's prose, outside code, math, quotes and ()."""
    text = prose(path)
    for pattern in (
        _DISPLAY_MATH,
        _INLINE_MATH,
        re.compile(r'"[^"]{0,300}"'),
        re.compile(r"\([^)]*\)"),
    ):
        text = blank_out(pattern, text)
    text = blank_out(re.compile(r"<[^>]+>|\]\([^)]*\)"), text)
    found = []
    for term in CHECKED:
        match = re.search(rf"(?i)\b{re.escape(term.en)}s?\b", text)
        if match:
            line = text.count("\n", 0, match.start()) + 1
            name = path.relative_to(DOCS) if path.is_relative_to(DOCS) else path.name
            found.append(f"{name}:{line}: '{term.en}' (use '{term.tr}')")
    return found


@pytest.mark.parametrize("md_page", TURKISH_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_turkish_pages_use_the_glossary_terms(md_page):
    assert stray_english(md_page) == []


@pytest.mark.parametrize("md_page", TURKISH_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_turkish_descriptions_use_the_glossary_terms(md_page, tmp_path):
    # The prose check leaves the front matter out; its description is prose too.
    front = _FRONT_MATTER.match(md_page.read_text(encoding="utf-8"))
    assert front, md_page
    description = yaml.safe_load(front.group().strip("-\n"))["description"]
    probe = tmp_path / md_page.name
    probe.write_text(description, encoding="utf-8")
    assert stray_english(probe) == []


def test_the_glossary_check_finds_a_stray_term(tmp_path):
    page = tmp_path / "glossary-check.tr.md"
    page.write_text('Bu embedding "embedding" `embedding` (embedding) gömmedir.\n', "utf-8")
    assert stray_english(page) == ["glossary-check.tr.md:1: 'embedding' (use 'gömme')"]


def test_turkish_glossary_is_in_turkish_alphabetical_order():
    from posenc_site.glossary import turkish_sort_key

    words = ["öz-dikkat", "dış değerleme", "çarpım", "ışık", "iç", "döner", "kısa", "konum"]
    words += ["kodlayıcı", "kod çözücü"]
    assert sorted(words, key=turkish_sort_key) == [
        "çarpım",
        "dış değerleme",
        "döner",
        "ışık",
        "iç",
        "kısa",
        "kod çözücü",  # word by word, as in a dictionary
        "kodlayıcı",
        "konum",
        "öz-dikkat",
    ]


@pytest.mark.usefixtures("build_context")
def test_turkish_glossary_table_puts_the_turkish_term_first():
    from posenc_site.glossary import glossary_table, turkish_sort_key

    rows = glossary_table("tr", DOCS).splitlines()
    assert rows[0] == "| Türkçe | İngilizce | Not |"
    cells = [row.split(" | ") for row in rows[2:]]
    turkish = [cell[0].removeprefix("| ") for cell in cells]
    assert turkish == sorted((t.tr for t in GLOSSARY), key=turkish_sort_key)
    assert ["| konum kodlaması", "positional encoding"] in [cell[:2] for cell in cells]
    assert glossary_table("en", DOCS).splitlines()[0] == "| English | Turkish | Note |"


# A 0-based index written as a Turkish ordinal is off by one: "3. başlık" is the third head,
# index 2. An index takes "numaralı" ("3 numaralı başlık"); a true ordinal is written in words
# ("üçüncü başlık"). The words below are those the lessons index from 0, with any suffix
# (başlık softens to başlığ- before a vowel: "3. başlığında").
_INDEXED = "başlı[kğ]|kova|konum|satır|sütun|boyut|indis|sıra|çift"
_ORDINAL_INDEX = re.compile(rf"(?<![\w.,])(\d+)\. ((?:{_INDEXED})\w*)")
_QUIZ = re.compile(r"^( *)(`{3,}|~{3,})quiz[^\n]*\n(.*?)^\1\2[ \t]*$", re.DOTALL | re.MULTILINE)


def turkish_text(path: Path) -> str:
    """The page's prose and the text of its quizzes, without code, math or front matter."""
    raw, text = path.read_text(encoding="utf-8"), prose(path)
    for quiz in _QUIZ.finditer(raw):  # quiz questions and answers are prose too
        start, end = quiz.span(3)
        text = text[:start] + blank_out(_INLINE_CODE, raw[start:end]) + text[end:]
    text = blank_out(_DISPLAY_MATH, text)
    return blank_out(_INLINE_MATH, text)


def ordinal_indices(path: Path) -> list[str]:
    """Every "<number>. <indexed word>" in a Turkish page, with its line and the fix."""
    text = turkish_text(path)
    quizzes = [quiz.span(3) for quiz in _QUIZ.finditer(path.read_text(encoding="utf-8"))]
    name = path.relative_to(DOCS) if path.is_relative_to(DOCS) else path.name
    found = []
    for match in _ORDINAL_INDEX.finditer(text):
        starts_line = not text[text.rfind("\n", 0, match.start()) + 1 : match.start()].strip()
        in_quiz = any(start <= match.start() < end for start, end in quizzes)
        if starts_line and not in_quiz:
            continue  # "3. başlık 0'ın ..." at the start of a line: item 3 of a numbered list
        line = text.count("\n", 0, match.start()) + 1
        number, word = match.groups()
        found.append(f'{name}:{line}: "{match.group()}" -> "{number} numaralı {word}"')
    return found


@pytest.mark.parametrize("md_page", TURKISH_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_turkish_pages_do_not_write_indices_as_ordinals(md_page):
    found = ordinal_indices(md_page)
    assert found == [], (
        'a 0-based index written as an ordinal reads one too far ("3. başlık" is the third '
        'head, index 2); write "3 numaralı başlık", or the ordinal in words:\n' + "\n".join(found)
    )


def test_the_ordinal_check_finds_an_index_written_as_an_ordinal(tmp_path):
    page = tmp_path / "ordinal-check.tr.md"
    page.write_text(
        "---\ntitle: 3. başlık\n---\n"
        "8 başlıklı bir modelin 3. başlığında eğim 1/8'dir.\n"
        "Uzak anahtarlar 15. kovaya düşer; `pe[0]` 0. satırdır, $2. boyut$ değil.\n"
        "```python\nx = 1  # 0. konum\n```\n"
        "```quiz\n- type: choice\n  question: 600. konumdaki belirtece ne olur?\n"
        "  explanation: >-\n    0. konumda her açı 0'dır.\n```\n",
        "utf-8",
    )
    assert ordinal_indices(page) == [
        'ordinal-check.tr.md:4: "3. başlığında" -> "3 numaralı başlığında"',
        'ordinal-check.tr.md:5: "15. kovaya" -> "15 numaralı kovaya"',
        'ordinal-check.tr.md:5: "0. satırdır" -> "0 numaralı satırdır"',
        'ordinal-check.tr.md:11: "600. konumdaki" -> "600 numaralı konumdaki"',
        'ordinal-check.tr.md:13: "0. konumda" -> "0 numaralı konumda"',
    ]


def test_the_ordinal_check_accepts_numaralı_and_other_numbers(tmp_path):
    page = tmp_path / "ordinal-ok.tr.md"
    page.write_text(
        "8 başlıklı bir modelin 3 numaralı başlığında eğim 0.125'tir; üçüncü başlık 2 "
        "numaralı başlıktır. Eğitimde görülen en uzun girdi 512. Konumlar bunu aşınca tablo "
        "biter.\n"
        "Şunları yazdır:\n\n1. eğimleri;\n2. başlık 0'ın son satırını.\n",
        "utf-8",
    )
    assert ordinal_indices(page) == []
