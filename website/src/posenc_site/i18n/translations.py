"""Which translations are up to date with their source page, and marking them reviewed.

Each translated page (``page.tr.md``) records in its front matter a hash of the
default-language page (``page.md``) it translates::

    ---
    l10n:
      source_hash: 3f1a9c0d2b7e4a55
    ---

A translation is *up to date* when that hash is the hash of the source file now, *outdated*
when the source has changed since, and *missing* when there is no translated file. Run::

    python -m posenc_site.i18n.translations status
    python -m posenc_site.i18n.translations review docs/lessons/positional-encoding.tr.md
"""

import argparse
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml
from mkdocs.utils.meta import get_data

from posenc_site.i18n.languages import Language, Languages, from_file

UP_TO_DATE, OUTDATED, MISSING = "up to date", "outdated", "missing"


@dataclass(frozen=True)
class PageStatus:
    """The state of one page's translation into one language."""

    source: Path
    translation: Path
    language: Language
    state: str


def source_hash(source: Path) -> str:
    """The hash that identifies a version of a source page (16 hex digits of SHA-256)."""
    return hashlib.sha256(source.read_bytes()).hexdigest()[:16]


def recorded_hash(translation: Path) -> str | None:
    """The source hash recorded in a translated page's front matter, if any."""
    _, meta = get_data(translation.read_text(encoding="utf-8"))
    value = (meta.get("l10n") or {}).get("source_hash")
    return str(value) if value is not None else None


def page_status(source: Path, language: Language, languages: Languages) -> PageStatus:
    """The state of the translation of ``source`` into ``language``."""
    translation = languages.twin(source, language)
    if not translation.exists():
        state = MISSING
    else:
        state = UP_TO_DATE if recorded_hash(translation) == source_hash(source) else OUTDATED
    return PageStatus(source, translation, language, state)


def source_pages(docs_dir: Path, languages: Languages) -> list[Path]:
    """Every default-language page under ``docs_dir``, sorted."""
    return sorted(p for p in docs_dir.rglob("*.md") if languages.of_page(p).default)


def status(docs_dir: Path, languages: Languages) -> list[PageStatus]:
    """The state of every page's translation into every other language."""
    site = languages
    return [
        page_status(source, language, site)
        for source in source_pages(docs_dir, site)
        for language in site.translations
    ]


def mark_reviewed(translation: Path, languages: Languages) -> str:
    """Record the source page's current hash in ``translation``; return the hash."""
    current = source_hash(languages.source(translation))
    body, meta = get_data(translation.read_text(encoding="utf-8"))
    meta.setdefault("l10n", {})["source_hash"] = current
    front = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False)
    translation.write_text(f"---\n{front}---\n{body}", encoding="utf-8")
    return current


def status_table(language: str, docs_dir: Path, languages: Languages) -> str:
    """A Markdown table of every page and the state of each of its translations.

    The posenc plugin puts it where a page holds ``<!-- posenc: translation-status -->``.

    Parameters
    ----------
    language : str
        The code of the reader's language: the table's words are in it.
    docs_dir : Path
        The docs folder whose pages are listed.
    languages : Languages
        The site's languages: a column per language but the default.

    Returns
    -------
    str
        A Markdown table, a row per default-language page (path relative to ``docs_dir``),
        without a final newline.

    Raises
    ------
    LanguageError
        ``language`` is not one of the site's.

    Examples
    --------
    >>> from posenc_site.i18n.languages import from_file
    >>> site = from_file(Path("mkdocs.yml"))
    >>> status_table("en", Path("docs"), site).splitlines()[0]
    '| Page | Turkish translation |'
    """
    site, root = languages, docs_dir
    reader = site.get(language)
    labels = reader.strings["translation_status"]
    columns = [
        labels["translation"].format(language=site.name_of(lang, reader))
        for lang in site.translations
    ]
    rows = [f"| {' | '.join([labels['page'], *columns])} |", "|" + " --- |" * (1 + len(columns))]
    for source in source_pages(root, site):
        states = [labels[page_status(source, lang, site).state] for lang in site.translations]
        rows.append(f"| {' | '.join([f'`{source.relative_to(root).as_posix()}`', *states])} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``status`` lists the pages, ``review`` marks translations reviewed."""
    parser = argparse.ArgumentParser(prog="python -m posenc_site.i18n.translations")
    parser.add_argument("--docs", type=Path, default=Path("docs"), help="the docs folder")
    parser.add_argument(
        "--config", type=Path, default=Path("mkdocs.yml"), help="the site's mkdocs.yml"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("status", help="list every page as up to date, outdated or missing")
    check.add_argument("--check", action="store_true", help="exit 1 unless all are up to date")
    review = commands.add_parser("review", help="mark translated pages as reviewed")
    review.add_argument("pages", nargs="+", type=Path, help="translated pages (page.tr.md)")
    args = parser.parse_args(argv)
    if not args.config.is_file():
        parser.error(f"{args.config} not found: run this in the project folder, or pass --config")
    site = from_file(args.config.resolve())

    if args.command == "status":
        pages = status(args.docs, site)
        for page in pages:
            name = page.source.relative_to(args.docs).as_posix()
            print(f"{page.state:10}  {page.language.code}  {name}")
        return int(args.check and any(page.state != UP_TO_DATE for page in pages))
    for translation in args.pages:
        if site.of_page(translation).default or not site.source(translation).exists():
            parser.error(f"{translation} is not a translated page next to its source")
        print(f"{translation}: source_hash {mark_reviewed(translation, site)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
