"""The bilingual glossary: read from docs/glossary.yml, shown as a table on the glossary pages."""

from dataclasses import dataclass
from pathlib import Path

import yaml

from posenc_site import context


@dataclass(frozen=True)
class Term:
    """One glossary entry: the term and a note in each language (``en``, ``note_en``, ...)."""

    terms: dict[str, str]
    notes: dict[str, str]
    check: bool

    @property
    def en(self) -> str:
        """The English term."""
        return self.terms["en"]

    @property
    def tr(self) -> str:
        """The Turkish term."""
        return self.terms["tr"]


def _term(entry: dict[str, str]) -> Term:
    notes = {key.removeprefix("note_"): v for key, v in entry.items() if key.startswith("note_")}
    terms = {key: v for key, v in entry.items() if key != "check" and not key.startswith("note_")}
    return Term(terms, notes, bool(entry.get("check", False)))


def load(docs_dir: Path | None = None) -> list[Term]:
    """The terms of ``docs/glossary.yml``, in file order."""
    path = (docs_dir or context.current.docs_folder) / "glossary.yml"
    return [_term(entry) for entry in yaml.safe_load(path.read_text(encoding="utf-8"))]


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

    The page's language comes first: its term in the first column, then the other languages'
    terms, then its note; rows in its alphabetical order (Turkish order for Turkish).
    """
    site = context.current.languages
    assert site is not None, "the glossary table is made inside a build"
    reader = site.get(language) if language else context.current.page_language
    order = [reader, *(lang for lang in site.all if lang != reader)]
    head = [site.name_of(lang, reader) for lang in order] + [reader.strings["glossary"]["note"]]
    rows = [f"| {' | '.join(head)} |", "|" + " --- |" * len(head)]
    sort_key = turkish_sort_key if reader.code == "tr" else str.casefold
    for term in sorted(load(docs_dir), key=lambda t: sort_key(t.terms[reader.code])):
        cells = [term.terms[lang.code] for lang in order] + [term.notes[reader.code]]
        rows.append(f"| {' | '.join(cells)} |")
    return "\n".join(rows)
