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
    """Sort key in Turkish alphabetical order (ç after c, ı before i, ş after s, ...)."""
    lowered = text.replace("I", "ı").replace("İ", "i").lower()
    return [_TURKISH_ALPHABET.find(c) if c in _TURKISH_ALPHABET else 100 + ord(c) for c in lowered]


def glossary_table(language: str | None = None) -> str:
    """The glossary as a Markdown table, notes in ``language`` (default: the page's)."""
    language = language or context.current.language
    head = {
        "en": "| English | Turkish | Note |",
        "tr": "| İngilizce | Türkçe | Not |",
    }[language]
    rows = [head, "| --- | --- | --- |"]
    key = (lambda t: t.en.casefold()) if language == "en" else (lambda t: turkish_sort_key(t.tr))
    for term in sorted(load(), key=key):
        note = term.note_en if language == "en" else term.note_tr
        rows.append(f"| {term.en} | {term.tr} | {note} |")
    return "\n".join(rows)
