"""Turkish pages: the same structure as their English source, the glossary's terms, one spelling."""

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from posenc_site.i18n.glossary import load
from support.docblocks import DOCS
from support.project import SITE, TURKISH

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
        re.compile(r"\{#[\w-]+\}"),  # a heading's id: a file stem, the same in every language
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
    from posenc_site.i18n.glossary import turkish_sort_key

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


def test_turkish_glossary_table_puts_the_turkish_term_first():
    from posenc_site.i18n.glossary import glossary_table, turkish_sort_key

    blocks = glossary_table("tr", DOCS, SITE).split("\n\n")
    headings = [block.removeprefix("### ") for block in blocks if block.startswith("### ")]
    turkish = [heading.split(" {#")[0] for heading in headings]
    assert turkish == sorted((t.tr for t in GLOSSARY), key=turkish_sort_key)
    at = blocks.index('### konum kodlaması {#konum-kodlamasi data-term="positional-encoding"}')
    assert blocks[at + 1] == "İngilizce: *positional encoding*{lang=en}"
    assert "Turkish: *konum kodlaması*{lang=tr}" in glossary_table("en", DOCS, SITE)


# A 0-based index written as a Turkish ordinal is off by one: "3. başlık" is the third head,
# index 2. An index takes "numaralı" ("3 numaralı başlık"); a true ordinal is written in words
# ("üçüncü başlık"). The words below are those the lessons index from 0, with any suffix
# (başlık softens to başlığ- before a vowel: "3. başlığında").
_INDEXED = "başlı[kğ]|kova|konum|satır|sütun|boyut|indis|sıra|çift"
_ORDINAL_INDEX = re.compile(rf"(?<![\w.,])(\d+)\. ((?:{_INDEXED})\w*)")
_QUIZ = re.compile(r"^( *)(`{3,}|~{3,})quiz[^\n]*\n(.*?)^\1\2[ \t]*$", re.DOTALL | re.MULTILINE)


def without_math(text: str, *, inline_code: bool = False) -> str:
    """Blank formulas, and inline code unless ``inline_code`` (a `$` in code is no formula)."""
    if inline_code:
        text = _INLINE_CODE.sub(lambda m: m.group().replace("$", " "), text)
    else:
        text = blank_out(_INLINE_CODE, text)
    return blank_out(_INLINE_MATH, blank_out(_DISPLAY_MATH, text))


def turkish_text(path: Path, *, inline_code: bool = False) -> str:
    """The page's prose and the text of its quizzes, without code blocks, math or front matter.

    Inline code is blanked too, unless ``inline_code``. Offsets are those of the file.
    """
    raw = path.read_text(encoding="utf-8")
    text = blank_out(_FENCE, blank_out(_FRONT_MATTER, raw))
    for quiz in _QUIZ.finditer(raw):  # quiz questions and answers are prose too
        start, end = quiz.span(3)
        text = text[:start] + raw[start:end] + text[end:]
    return without_math(text, inline_code=inline_code)


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


# The checks below read every Turkish text of the site: the pages (prose, quizzes and front-matter
# descriptions), the glossary's Turkish terms and notes, and the interface strings.


@dataclass(frozen=True)
class Prose:
    """A Turkish text, where it comes from, and the English it translates."""

    where: str  # "lessons/rotary.tr.md", "glossary.yml (patch)", "tr.yml (quiz.check)"
    text: str  # a page's text keeps the file's offsets, so that a finding has a line number
    english: str
    is_page: bool = False

    def at(self, offset: int) -> str:
        """``page.tr.md:12`` for a page, else the entry's name."""
        if not self.is_page:
            return self.where
        line = self.text.count("\n", 0, offset) + 1
        return f"{self.where}:{line}"


def page_prose(page: Path, english: str, *, inline_code: bool = False) -> Prose:
    name = page.relative_to(DOCS) if page.is_relative_to(DOCS) else page.name
    return Prose(str(name), turkish_text(page, inline_code=inline_code), english, is_page=True)


def description(page: Path) -> str:
    front = _FRONT_MATTER.match(page.read_text(encoding="utf-8"))
    return str(yaml.safe_load(front.group().strip("-\n"))["description"]) if front else ""


def leaves(strings: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(dotted key, text) for every string of an interface strings file."""
    for key, value in strings.items():
        if isinstance(value, Mapping):
            yield from leaves(value, f"{prefix}{key}.")
        elif isinstance(value, str):
            yield f"{prefix}{key}", value


def turkish_prose(*, inline_code: bool = False) -> list[Prose]:
    """Every Turkish text of the site, without code blocks or math, and inline code if asked."""
    texts = []
    for page in TURKISH_PAGES:
        english = SITE.source(page).read_text(encoding="utf-8")
        texts.append(page_prose(page, english, inline_code=inline_code))
        where = f"{page.relative_to(DOCS)} (description)"
        texts.append(Prose(where, description(page), english))
    for term in GLOSSARY:
        turkish = without_math(f"{term.tr}\n{term.notes['tr']}", inline_code=inline_code)
        texts.append(Prose(f"glossary.yml ({term.en})", turkish, f"{term.en}\n{term.notes['en']}"))
    english_strings = dict(leaves(SITE.default.strings))
    for key, text in leaves(TURKISH.strings):
        turkish = without_math(text, inline_code=inline_code)
        texts.append(Prose(f"tr.yml ({key})", turkish, english_strings[key]))
    return texts


# One spelling for each of these: (the other spelling, as a pattern; the site's; why).
SPELLINGS = [
    (r"\bve\s+arkadaşları\b", "ve ark.", "et al."),
    (r"\bve\s+arkadaşlarının\b", "ve ark.'nın", "et al.'s"),
    (r"\b[Dd]ahil", "dâhil", "with the circumflex, as hâlde and hâli on the same pages"),
    (r"\b[Öö]zgün Transformer", "özgün transformer", "lower case, as the English"),
    (r"\bbirebir\b", "bire bir", "two words"),
    (r"\bnumaralı\s+konu\b", "numaralı sorun kaydı", "an issue; 'konu' reads as 'konum'"),
    (r"\bçekme\s+iste[kğ]", "birleştirme isteği", "a pull request, one term on every page"),
]


def other_spellings(prose: Prose) -> list[str]:
    return [
        f"{prose.at(match.start())}: {' '.join(match.group().split())!r} -> {right!r} ({why})"
        for pattern, right, why in SPELLINGS
        for match in re.finditer(pattern, prose.text)
    ]


def test_turkish_texts_use_the_sites_spellings():
    found = [finding for prose in turkish_prose() for finding in other_spellings(prose)]
    assert found == [], "\n".join(found)


def test_the_spelling_check_finds_the_other_spellings(tmp_path):
    page = tmp_path / "spelling-check.tr.md"
    page.write_text(
        "Press ve arkadaşları (2022) ile Shaw ve\narkadaşlarının tablosu, ikisi de dahil.\n"
        "Özgün Transformer'ın kodu `ve arkadaşları`; Press ve ark.'nın özgün transformer'ı.\n",
        "utf-8",
    )
    assert [finding.split(" (")[0] for finding in other_spellings(page_prose(page, ""))] == [
        "spelling-check.tr.md:1: 've arkadaşları' -> 've ark.'",
        "spelling-check.tr.md:1: 've arkadaşlarının' -> \"ve ark.'nın\"",
        "spelling-check.tr.md:2: 'dahil' -> 'dâhil'",
        "spelling-check.tr.md:3: 'Özgün Transformer' -> 'özgün transformer'",
    ]


# A point before a group of three digits: "10.000", "0.473", "1.000.000"; not "1.1386" or "3.4.2".
_POINT_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?![\d.]?\d)")


def thousands_with_points(prose: Prose) -> list[str]:
    """Numbers of a Turkish text that group thousands with a point ("10.000", "500.000'e").

    The Turkish pages write decimals with a point, as the code prints them ("0.473", "2.875",
    "1.1386"), and group thousands with a space ("10 000", "500 000'e"); a point that groups
    thousands would read as a decimal. "3.784" may be either, so a number with a point before
    three digits counts as thousands when
    - it has two such points ("1.000.000"): a decimal has one; or
    - its English text does not have it: English writes a decimal exactly as the Turkish page
      does and thousands with a comma ("10,000"), so every decimal the Turkish text prints is
      in the English, and a number grouped with points is not.
    """
    found = []
    for match in _POINT_GROUPS.finditer(prose.text):
        number = match.group()
        in_english = re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d.]?\d)", prose.english)
        if number.count(".") > 1 or not in_english:
            found.append(f"{prose.at(match.start())}: {number!r} -> {number.replace('.', ' ')!r}")
    return found


def test_turkish_texts_group_thousands_with_a_space():
    found = [finding for prose in turkish_prose() for finding in thousands_with_points(prose)]
    assert found == [], "write thousands with a space, decimals with a point:\n" + "\n".join(found)


# A comma between digits: "0,48", "1,3 milyar", "%8,7". Lists are written "0, 1 ve 2".
_DECIMAL_COMMA = re.compile(r"(?<![\d,])\d+(?:,\d+)+")


def decimal_commas(prose: Prose) -> list[str]:
    """Numbers of a Turkish text written with a decimal comma, or a comma grouping thousands.

    The pages write decimals with a point, as the code prints them, so that a number in the
    text reads the same as in the output beside it; "0,02" beside `std=0.02` reads as two
    numbers.
    """
    return [
        f"{prose.at(match.start())}: {match.group()!r} -> {match.group().replace(',', '.')!r}"
        for match in _DECIMAL_COMMA.finditer(prose.text)
    ]


def test_turkish_texts_write_decimals_with_a_point():
    found = [finding for prose in turkish_prose() for finding in decimal_commas(prose)]
    assert found == [], "write decimals with a point, as the code prints them:\n" + "\n".join(found)


def test_the_decimal_check_tells_decimals_from_lists(tmp_path):
    page = tmp_path / "decimal-check.tr.md"
    page.write_text(
        "Yaklaşık 0,48 ve %8,7; 1,3 milyar.\n0, 1 ve 2 numaralı konumlar; 0.018 ve `0,02`.\n",
        "utf-8",
    )
    assert decimal_commas(page_prose(page, "")) == [
        "decimal-check.tr.md:1: '0,48' -> '0.48'",
        "decimal-check.tr.md:1: '8,7' -> '8.7'",
        "decimal-check.tr.md:1: '1,3' -> '1.3'",
    ]


def test_the_thousands_check_tells_thousands_from_decimals(tmp_path):
    page = tmp_path / "thousands-check.tr.md"
    page.write_text(
        "10.000 belirteçte 0.473 radyan, tabanı 500.000'e çıkarır; 1.1386 ve 3.784, bölüm "
        "3.4.2.\n`10.000` ve $10.000$ kodda ve formülde.\n1.000.000 konum, 10 000 konum.\n",
        "utf-8",
    )
    english = "10,000 tokens at 0.473 radians, raises it to 500,000; 1.1386, section 3.4.2."
    assert thousands_with_points(page_prose(page, english)) == [
        "thousands-check.tr.md:1: '10.000' -> '10 000'",
        "thousands-check.tr.md:1: '500.000' -> '500 000'",
        "thousands-check.tr.md:1: '3.784' -> '3 784'",  # not in the English: no decimal there
        "thousands-check.tr.md:3: '1.000.000' -> '1 000 000'",
    ]


# A suffix after an apostrophe follows the name as it is read, not as it is spelled. How the names
# the pages use are read: tests/turkish_names.yml (its header explains the rules).
NAMES_FILE = Path(__file__).with_name("turkish_names.yml")
READINGS = {
    name.casefold(): reading
    for name, reading in yaml.safe_load(NAMES_FILE.read_text(encoding="utf-8")).items()
}
_VOWELS, _BACK, _VOICELESS = "aeıioöuü", "aıou", "çfhkpsşt"
_FOUR_WAY = dict(zip("aıoueiöü", "ııuuiiüü", strict=True))  # the ı, i, u or ü after each vowel
# `code`'suffix, or name'suffix; a name that ends in a point is an abbreviation (ve ark.'nın).
_SUFFIXED = re.compile(
    r"`([^`\n]+)`'([^\W\d_]+)|(?<![\w.'-])([^\W_](?:[\w.-]*[^\W_])?)'([^\W\d_]+)"
)
_ENGLISH_ENDINGS = {"s", "m", "t", "d", "ll", "re", "ve"}  # BERT's, I'm in English titles


def letter_name(letter: str) -> str:
    """How Turkish reads a letter: a vowel as itself, a consonant with e (L'nin, B'si)."""
    lower = {"I": "ı", "İ": "i"}.get(letter, letter.lower())
    special = {"ğ": "yumuşak ge", "q": "kü", "w": "çift ve", "x": "iks"}
    return lower if lower in _VOWELS else special.get(lower, lower + "e")


def right_suffix(reading: str, suffix: str) -> str:
    """``suffix`` as it is written after a name read as ``reading`` (in Turkish letters).

    After a vowel, a suffix that starts with a vowel needs n, s or y, depending on the case
    (Llama'nın, GPT'yi, B'si): it comes back with "(n/s/y)" in front.
    """
    last, buffer = reading[-1], ""
    if last in _VOWELS and suffix[0] in _VOWELS:
        buffer = "(n/s/y)"
    elif last not in _VOWELS and re.match(r"y[aeıioöuü]|n[ıiuü]n|s[ıiuü](?!z)", suffix):
        suffix = suffix[1:]  # no buffer after a consonant: YaRN'ın, not YaRN'nın
    if suffix[0] in "dtcç":  # t and ç after a voiceless consonant: RoPE'ta, BERT'te
        hard_and_soft = "td" if suffix[0] in "dt" else "çc"
        suffix = hard_and_soft[0 if last in _VOICELESS else 1] + suffix[1:]
    letters, previous = list(suffix), [c for c in reading if c in _VOWELS][-1]
    for i, c in enumerate(letters):
        if c in "ae":
            letters[i] = "a" if previous in _BACK else "e"
        elif c in _FOUR_WAY and letters[i - 1 : i] != ["k"]:  # -ki stays: Face'teki, BERT'inki
            letters[i] = _FOUR_WAY[previous]
        previous = letters[i] if letters[i] in _VOWELS else previous
    return buffer + "".join(letters)


def suffix_errors(prose: Prose) -> list[str]:
    """Each Name'suffix of a text whose suffix does not follow the name's reading.

    The name is the last word before the apostrophe, or of the inline code before it (`forward`
    in `LlamaRotaryEmbedding.forward`'ı). Left out: numbers (2'nin, GPT-2'nin: read as numbers),
    math, code blocks, abbreviations that end in a point (ve ark.'nın), and English endings in
    quoted titles (BERT's). A name missing from the readings table is a finding too.
    """
    found = []
    for match in _SUFFIXED.finditer(prose.text):
        name, suffix = match.group(1, 2) if match.group(1) else match.group(3, 4)
        words = re.findall(r"[^\W_]+", name)
        if suffix in _ENGLISH_ENDINGS or not words or not words[-1][0].isalpha():
            continue
        word = words[-1]
        if word[-1].isdigit():
            continue  # read as a number: GPT-2'nin, Qwen2'de
        reading = letter_name(word) if len(word) == 1 else READINGS.get(word.casefold())
        if reading is None:
            found.append(
                f"{prose.at(match.start())}: {match.group()}: add how {word!r} is read "
                f"to {NAMES_FILE.name}"
            )
        elif right_suffix(reading, suffix) != suffix:
            right = match.group()[: -len(suffix)] + right_suffix(reading, suffix)
            found.append(f"{prose.at(match.start())}: {match.group()} -> {right} ({reading!r})")
    return found


def test_suffixes_after_names_follow_their_reading():
    found = [
        finding for prose in turkish_prose(inline_code=True) for finding in suffix_errors(prose)
    ]
    assert found == [], "\n".join(found)


def test_the_suffix_check_follows_the_reading_not_the_spelling(tmp_path):
    page = tmp_path / "suffix-check.tr.md"
    page.write_text(
        "Mistral'in kodu, `LlamaRotaryEmbedding.forward`'u ve Material'in arama ayarları.\n"
        "Llama'ın, YaRN'nın, RoPE'da, BERT'de, Face'deki, NumPy'ta, Transformer'lerde, L'in.\n"
        "Doğrular: NumPy'ın, YaRN'ın, Llama'nınkinden, RoPE'unu, Face'teki, L'nin, I'yı, "
        "İ'yi, GPT-J'yi, M-RoPE'ta, `d_kv`'dir, Mistral'ın, forward'ı.\n"
        "Sayılar, formüller ve İngilizce: GPT-2'nin, Qwen2'de, 32K'da, `[1, 2]`'ye, $L$'den, "
        "\"BERT's\", Peng ve ark.'nın.\n"
        '```python\nprint("Mistral\'in")\n```\n'
        "Bilinmeyen: Gemma'nın.\n",
        "utf-8",
    )
    assert suffix_errors(page_prose(page, "", inline_code=True)) == [
        "suffix-check.tr.md:1: Mistral'in -> Mistral'ın ('mistral')",
        "suffix-check.tr.md:1: `LlamaRotaryEmbedding.forward`'u -> "
        "`LlamaRotaryEmbedding.forward`'ı ('forvırd')",
        "suffix-check.tr.md:1: Material'in -> Material'ın ('materyal')",
        "suffix-check.tr.md:2: Llama'ın -> Llama'(n/s/y)ın ('lama')",
        "suffix-check.tr.md:2: YaRN'nın -> YaRN'ın ('yarn')",
        "suffix-check.tr.md:2: RoPE'da -> RoPE'ta ('roup')",
        "suffix-check.tr.md:2: BERT'de -> BERT'te ('bert')",
        "suffix-check.tr.md:2: Face'deki -> Face'teki ('feys')",
        "suffix-check.tr.md:2: NumPy'ta -> NumPy'da ('nampay')",
        "suffix-check.tr.md:2: Transformer'lerde -> Transformer'larda ('transformır')",
        "suffix-check.tr.md:2: L'in -> L'(n/s/y)in ('le')",
        "suffix-check.tr.md:8: Gemma'nın: add how 'Gemma' is read to turkish_names.yml",
    ]


def test_name_readings_are_turkish_words_one_per_name():
    names = yaml.safe_load(NAMES_FILE.read_text(encoding="utf-8"))
    assert len(READINGS) == len(names), "two entries differ only in case"
    for name, reading in names.items():
        assert re.fullmatch(r"[a-zçğıöşü ]+", reading), (name, reading)
        assert any(c in _VOWELS for c in reading), (name, reading)
