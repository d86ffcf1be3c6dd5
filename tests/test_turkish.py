"""Turkish pages: the same structure as their English source, and the glossary's terms."""

import re
from pathlib import Path

import pytest

from docblocks import DOCS
from posenc_site.glossary import load

ENGLISH_PAGES = sorted(p for p in DOCS.rglob("*.md") if not p.name.endswith(".tr.md"))
TURKISH_PAGES = sorted(DOCS.rglob("*.tr.md"))

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
    return page.with_name(page.name.removesuffix(".md") + ".tr.md")


@pytest.mark.parametrize("page", ENGLISH_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_turkish_twin_has_the_same_structure(page):
    english, turkish = structure(page), structure(twin(page))
    for kind in ("heading", "display formula", "inline formula", "admonition", "link", "list item"):
        en = [(value, line) for k, value, line in english if k == kind]
        tr = [(value, line) for k, value, line in turkish if k == kind]
        if kind == "link":  # a translation may mention the same targets in another order
            en, tr = sorted(en), sorted(tr)
        for (en_value, en_line), (tr_value, tr_line) in zip(en, tr, strict=False):
            assert en_value == tr_value, (
                f"first difference in {kind}s: {page.name}:{en_line} has {en_value!r}, "
                f"{twin(page).name}:{tr_line} has {tr_value!r}"
            )
        assert len(en) == len(tr), (
            f"{page.name} has {len(en)} {kind}s, {twin(page).name} has {len(tr)}"
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
        assert all([term.en, term.tr, term.note_en, term.note_tr]), term
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


@pytest.mark.parametrize("page", TURKISH_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_turkish_pages_use_the_glossary_terms(page):
    assert stray_english(page) == []


def test_the_glossary_check_finds_a_stray_term(tmp_path):
    page = tmp_path / "glossary-check.tr.md"
    page.write_text('Bu embedding "embedding" `embedding` (embedding) gömmedir.\n', "utf-8")
    assert stray_english(page) == ["glossary-check.tr.md:1: 'embedding' (use 'gömme')"]


def test_turkish_glossary_is_in_turkish_alphabetical_order():
    from posenc_site.glossary import turkish_sort_key

    words = ["öz-dikkat", "dış değerleme", "çarpım", "ışık", "iç", "döner", "kısa", "konum"]
    assert sorted(words, key=turkish_sort_key) == [
        "çarpım",
        "dış değerleme",
        "döner",
        "ışık",
        "iç",
        "kısa",
        "konum",
        "öz-dikkat",
    ]
