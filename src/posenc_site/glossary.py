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


def glossary_table(language: str | None = None) -> str:
    """The glossary as a Markdown table, notes in ``language`` (default: the page's)."""
    language = language or context.current.language
    head = {
        "en": "| English | Turkish | Note |",
        "tr": "| İngilizce | Türkçe | Not |",
    }[language]
    rows = [head, "| --- | --- | --- |"]
    for term in sorted(load(), key=lambda t: (t.en if language == "en" else t.tr).casefold()):
        note = term.note_en if language == "en" else term.note_tr
        rows.append(f"| {term.en} | {term.tr} | {note} |")
    return "\n".join(rows)
