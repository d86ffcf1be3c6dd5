"""Which Turkish pages are up to date with their English source, and marking them reviewed.

Each Turkish page ``page.tr.md`` records in its front matter a hash of the English
``page.md`` it translates::

    ---
    l10n:
      source_hash: 3f1a9c0d2b7e4a55
    ---

A page is *up to date* when that hash is the hash of the English file now, *outdated* when the
English file has changed since, and *missing* when there is no Turkish file. Run::

    python -m posenc_site.translations status
    python -m posenc_site.translations review docs/lessons/positional-encoding.tr.md
"""

import argparse
import hashlib
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from posenc_site import context

UP_TO_DATE, OUTDATED, MISSING = "up to date", "outdated", "missing"
_FRONT_MATTER = re.compile(r"\A---\n(?P<yaml>.*?\n)---\n", re.DOTALL)
_LABELS = {
    "en": {
        "page": "Page",
        "state": "Turkish translation",
        UP_TO_DATE: "up to date",
        OUTDATED: "outdated",
        MISSING: "missing",
    },
    "tr": {
        "page": "Sayfa",
        "state": "Türkçe çeviri",
        UP_TO_DATE: "güncel",
        OUTDATED: "güncel değil",
        MISSING: "yok",
    },
}


@dataclass(frozen=True)
class PageStatus:
    """The state of one English page's Turkish translation."""

    english: Path
    turkish: Path
    state: str
    recorded: str | None
    current: str


def source_hash(english: Path) -> str:
    """The hash that identifies a version of an English page (16 hex digits of SHA-256)."""
    return hashlib.sha256(english.read_bytes()).hexdigest()[:16]


def turkish_twin(english: Path) -> Path:
    """``page.md`` -> ``page.tr.md``."""
    return english.with_name(english.name.removesuffix(".md") + ".tr.md")


def english_source(turkish: Path) -> Path:
    """``page.tr.md`` -> ``page.md``."""
    return turkish.with_name(turkish.name.removesuffix(".tr.md") + ".md")


def recorded_hash(turkish: Path) -> str | None:
    """The source hash recorded in a Turkish page's front matter, if any."""
    match = _FRONT_MATTER.match(turkish.read_text(encoding="utf-8"))
    if not match:
        return None
    meta = yaml.safe_load(match.group("yaml")) or {}
    value = (meta.get("l10n") or {}).get("source_hash")
    return str(value) if value is not None else None


def page_status(english: Path) -> PageStatus:
    """The state of the translation of ``english``."""
    turkish, current = turkish_twin(english), source_hash(english)
    if not turkish.exists():
        return PageStatus(english, turkish, MISSING, None, current)
    recorded = recorded_hash(turkish)
    state = UP_TO_DATE if recorded == current else OUTDATED
    return PageStatus(english, turkish, state, recorded, current)


def english_pages(docs_dir: Path) -> list[Path]:
    """Every English page under ``docs_dir``, sorted."""
    return sorted(p for p in docs_dir.rglob("*.md") if not p.name.endswith(".tr.md"))


def status(docs_dir: Path) -> list[PageStatus]:
    """The state of every page's translation."""
    return [page_status(english) for english in english_pages(docs_dir)]


def mark_reviewed(turkish: Path) -> str:
    """Record the English source's current hash in ``turkish``; return the hash."""
    current = source_hash(english_source(turkish))
    text = turkish.read_text(encoding="utf-8")
    match = _FRONT_MATTER.match(text)
    meta = yaml.safe_load(match.group("yaml")) if match else {}
    meta = meta or {}
    meta.setdefault("l10n", {})["source_hash"] = current
    front = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False)
    body = text[match.end() :] if match else text
    turkish.write_text(f"---\n{front}---\n{body}", encoding="utf-8")
    return current


def status_table(language: str | None = None, docs_dir: Path | None = None) -> str:
    """A Markdown table of every page and its translation state (default: page language)."""
    root = docs_dir or context.current.docs_dir
    labels = _LABELS[language or context.current.language]
    rows = [f"| {labels['page']} | {labels['state']} |", "| --- | --- |"]
    for page in status(root):
        name = page.english.relative_to(root).as_posix()
        rows.append(f"| `{name}` | {labels[page.state]} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``status`` lists the pages, ``review`` marks Turkish pages reviewed."""
    parser = argparse.ArgumentParser(prog="python -m posenc_site.translations")
    parser.add_argument("--docs", type=Path, default=Path("docs"), help="the docs folder")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("status", help="list every page as up to date, outdated or missing")
    check.add_argument("--check", action="store_true", help="exit 1 unless all are up to date")
    review = commands.add_parser("review", help="mark Turkish pages as reviewed")
    review.add_argument("pages", nargs="+", type=Path, help="Turkish pages (page.tr.md)")
    args = parser.parse_args(argv)

    if args.command == "status":
        pages = status(args.docs)
        for page in pages:
            print(f"{page.state:10}  {page.english.relative_to(args.docs).as_posix()}")
        return int(args.check and any(page.state != UP_TO_DATE for page in pages))
    for turkish in args.pages:
        if not turkish.name.endswith(".tr.md") or not english_source(turkish).exists():
            parser.error(f"{turkish} is not a Turkish page next to its English source")
        print(f"{turkish}: source_hash {mark_reviewed(turkish)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
