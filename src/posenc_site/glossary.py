"""The bilingual glossary: read from docs/glossary.yml, shown as a table on the glossary pages."""

from dataclasses import dataclass
from pathlib import Path

import yaml

from posenc_site import context


@dataclass(frozen=True)
class Term:
    """One glossary entry."""

    en: str
    tr: str
    note_en: str
    note_tr: str
    check: bool


def load(docs_dir: Path | None = None) -> list[Term]:
    """The terms of ``docs/glossary.yml``, in file order."""
    path = (docs_dir or context.current.docs_dir) / "glossary.yml"
    return [Term(**entry) for entry in yaml.safe_load(path.read_text(encoding="utf-8"))]


_TURKISH_ALPHABET = "abcçdefgğhıijklmnoöprsştuüvyz"


def turkish_sort_key(text: str) -> list[int]:
    """Sort key in Turkish alphabetical order (ç after c, ı before i, ş after s, ...).

    Word by word, as in a dictionary: "kod çözücü" comes before "kodlayıcı".
    """
    lowered = text.replace("I", "ı").replace("İ", "i").lower()
    return [
        -1 if c == " " else _TURKISH_ALPHABET.find(c) if c in _TURKISH_ALPHABET else 100 + ord(c)
        for c in lowered
    ]


def glossary_table(language: str | None = None, docs_dir: Path | None = None) -> str:
    """The glossary as a Markdown table in ``language`` (default: the page's).

    The page's language comes first: its term in the first column, its notes, its alphabetical
    order (Turkish order on the Turkish page).
    """
    language = language or context.current.language
    rows = {
        "en": ["| English | Turkish | Note |"],
        "tr": ["| Türkçe | İngilizce | Not |"],
    }[language] + ["| --- | --- | --- |"]
    if language == "en":
        for term in sorted(load(docs_dir), key=lambda t: t.en.casefold()):
            rows.append(f"| {term.en} | {term.tr} | {term.note_en} |")
    else:
        for term in sorted(load(docs_dir), key=lambda t: turkish_sort_key(t.tr)):
            rows.append(f"| {term.tr} | {term.en} | {term.note_tr} |")
    return "\n".join(rows)
