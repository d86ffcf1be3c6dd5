"""The bilingual glossary: read from docs/glossary.yml, shown as a table on the glossary pages.

The pages hold the placeholder ``<!-- posenc: glossary -->``, which the posenc plugin replaces
with ``glossary_table`` in the page's language (``posenc_site.plugin``).
"""

from dataclasses import dataclass
from pathlib import Path

import yaml

from posenc_site.i18n.languages import Languages


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


def load(docs_dir: Path) -> list[Term]:
    """The terms of ``glossary.yml`` in the docs folder ``docs_dir``, in file order."""
    path = docs_dir / "glossary.yml"
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


def glossary_table(language: str, docs_dir: Path, languages: Languages) -> str:
    """The glossary as a Markdown table for a reader of ``language``.

    The reader's language comes first: its term in the first column, then the other languages'
    terms, then its note; rows in its alphabetical order (Turkish order for Turkish).

    Parameters
    ----------
    language : str
        The code of the reader's language, one of ``languages``.
    docs_dir : Path
        The docs folder, which holds ``glossary.yml``.
    languages : Languages
        The site's languages: the table has a column for each.

    Returns
    -------
    str
        A Markdown table, a line per row, without a final newline.

    Raises
    ------
    LanguageError
        ``language`` is not one of the site's.
    KeyError
        A term lacks the term or note of one of the site's languages.

    Examples
    --------
    >>> from posenc_site.i18n.languages import from_file
    >>> site = from_file(Path("mkdocs.yml"))
    >>> glossary_table("tr", Path("docs"), site).splitlines()[0]
    '| Türkçe | İngilizce | Not |'
    """
    reader = languages.get(language)
    order = [reader, *(lang for lang in languages.all if lang != reader)]
    note = reader.strings["glossary"]["note"]
    head = [*(languages.name_of(lang, reader) for lang in order), note]
    rows = [f"| {' | '.join(head)} |", "|" + " --- |" * len(head)]
    sort_key = turkish_sort_key if reader.code == "tr" else str.casefold
    for term in sorted(load(docs_dir), key=lambda t: sort_key(t.terms[reader.code])):
        cells = [term.terms[lang.code] for lang in order] + [term.notes[reader.code]]
        rows.append(f"| {' | '.join(cells)} |")
    return "\n".join(rows)
