"""The bilingual glossary: read from docs/glossary.yml, shown as one entry per term.

The glossary pages hold the placeholder ``<!-- posenc: glossary -->``, which the posenc plugin
replaces with `glossary_table` in the page's language (``posenc_site.i18n.placeholders``): a
heading per term, with a stable id (`entry_id`), under a heading per letter. Material's search
then finds each term as a result of its own, and the lessons link a term's first use to its
entry (``posenc_site.transforms.glossary_links``).
"""

from dataclasses import dataclass
from pathlib import Path

import yaml

from posenc_site.i18n.languages import Language, Languages
from posenc_site.i18n.slugs import slugify

PAGE = "glossary.md"  # the glossary page, in the docs folder (each language's twin beside it)


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


def lower(text: str, language: str) -> str:
    """``text`` in lower case as ``language`` writes it: Turkish lowers I to ı and İ to i.

    The result has the length of ``text``, letter for letter (``"İ".lower()`` alone would add
    a combining dot), so that a position in one is the same in the other.

    Examples
    --------
    >>> lower("IŞIK İçin", "tr"), lower("RoPE İ", "en")
    ('ışık için', 'rope i')
    """
    text = text.translate(_TURKISH_CAPITALS if language == "tr" else _DOTTED_CAPITAL)
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else "".join(_one_lower(c) for c in text)


_TURKISH_CAPITALS = str.maketrans("Iİ", "ıi")
_DOTTED_CAPITAL = str.maketrans("İ", "i")


def _one_lower(letter: str) -> str:
    lowered = letter.lower()
    return lowered if len(lowered) == 1 else letter


def _upper(letter: str, language: str) -> str:
    if language == "tr":
        letter = {"i": "İ", "ı": "I"}.get(letter, letter)
    return letter.upper()


def entry_id(term: Term, language: str) -> str:
    """The id of ``term``'s entry on the glossary page of ``language``: its term, slugified.

    Examples
    --------
    >>> term = Term({"en": "rotary position embedding (RoPE)", "tr": "döner konum gömmesi"},
    ...             {}, False)
    >>> entry_id(term, "en"), entry_id(term, "tr")
    ('rotary-position-embedding-rope', 'doner-konum-gommesi')
    """
    return slugify(term.terms[language], "-")


def in_order(terms: list[Term], language: str) -> list[Term]:
    """``terms`` in the alphabetical order of ``language`` (Turkish order for Turkish)."""
    if language == "tr":
        return sorted(terms, key=lambda term: turkish_sort_key(term.tr))
    return sorted(terms, key=lambda term: term.terms[language].casefold())


def glossary_table(language: str, docs_dir: Path, languages: Languages) -> str:
    r"""The glossary as Markdown for a reader of ``language``: one entry per term.

    Under a heading per letter, each term of the reader's language is a heading with the id
    `entry_id`, followed by a line with the other languages' terms and by its note; in the
    reader's alphabetical order (Turkish order for Turkish); each entry's heading carries, as
    ``data-term``, its id in the default language. The letters' headings are left
    out of the search index: each term's entry is a result of its own.

    Parameters
    ----------
    language : str
        The code of the reader's language, one of ``languages``.
    docs_dir : Path
        The docs folder, which holds ``glossary.yml``.
    languages : Languages
        The site's languages: each entry names the term in every other one.

    Returns
    -------
    str
        Markdown, without a final newline.

    Raises
    ------
    LanguageError
        ``language`` is not one of the site's.
    KeyError
        A term lacks the term or note of one of the site's languages.
    ValueError
        Two terms of ``language`` have the same id.

    Examples
    --------
    >>> from posenc_site.i18n.languages import from_file
    >>> site = from_file(Path("mkdocs.yml"))
    >>> print("\n".join(glossary_table("tr", Path("docs"), site).splitlines()[3:8]))
    ## A { #letter-a data-search-exclude }
    <BLANKLINE>
    ### ağırlık soğurma {#agirlik-sogurma data-term="weight-absorption"}
    <BLANKLINE>
    İngilizce: *weight absorption*{lang=en}
    """
    reader = languages.get(language)
    others = [lang for lang in languages.all if lang != reader]
    terms = in_order(load(docs_dir), reader.code)
    ids = [entry_id(term, reader.code) for term in terms]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise ValueError(f"glossary.yml: terms with the same id in {language}: {repeated}")
    blocks: list[str] = []
    letters: list[str] = []
    for term, term_id in zip(terms, ids, strict=True):
        first = _upper(lower(term.terms[reader.code], reader.code)[0], reader.code)
        if not letters or first != letters[-1]:
            letters.append(first)
            blocks.append(f"## {first} {{ #{_letter_id(first, reader.code)} data-search-exclude }}")
        # data-term: the entry's id in the default language, the same on every twin page, by
        # which the language menu finds this entry on the other language's glossary, whose
        # order is that of its own alphabet (posenc_site.publish.language_links).
        key = entry_id(term, languages.default.code)
        blocks.append(f'### {term.terms[reader.code]} {{#{term_id} data-term="{key}"}}')
        if others:
            blocks.append(_other_terms(term, others, reader, languages))
        blocks.append(term.notes[reader.code])
    # A line of the letters first, each a link to its part: on a phone the page is long.
    jump = " ".join(f"[{letter}](#{_letter_id(letter, reader.code)})" for letter in letters)
    return "\n\n".join([f"{jump}\n{{ .pe-letters }}", *blocks])


def _letter_id(letter: str, language: str) -> str:
    """``letter-ç``: the id of a letter's heading (its own letter: C and Ç are two parts)."""
    return f"letter-{lower(letter, language)}"


def _other_terms(term: Term, others: list[Language], reader: Language, site: Languages) -> str:
    """``Turkish: *konum kodlaması*{lang=tr}``: the term in each other language, marked as such."""
    return " · ".join(
        f"{site.name_of(other, reader)}: *{term.terms[other.code]}*{{lang={other.code}}}"
        for other in others
    )
