"""The headings of every page: one title, and no line of prose that Markdown would read as a
heading by accident (Python-Markdown needs no space after the `#`, so a wrapped line that
starts with an issue number, `#1161).`, becomes a heading and cuts the table of contents)."""

import re
from pathlib import Path

import pytest

from posenc_site.execute.blocks import fenced_blocks
from support.docblocks import DOCS, SNIPPET_PATHS

PAGES = sorted(DOCS.rglob("*.md"))
HEADING = re.compile(r"^(#{1,6})(.*)$")


def _prose_lines(page: Path) -> list[tuple[int, str]]:
    """The lines of the page outside its front matter and fenced blocks, with their numbers."""
    text = page.read_text(encoding="utf-8")
    for block in reversed(fenced_blocks(text, SNIPPET_PATHS)):
        text = (
            text[: block.start]
            + "\n" * text[block.start : block.end].count("\n")
            + text[block.end :]
        )
    lines = text.split("\n")
    start = 0
    if lines and lines[0] == "---":
        start = lines.index("---", 1) + 1
    return [(number, line) for number, line in enumerate(lines, start=1)][start:]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_a_page_has_one_title_and_no_accidental_heading(page):
    headings = [(n, line) for n, line in _prose_lines(page) if HEADING.match(line)]
    accidental = [f"line {n}: {line!r}" for n, line in headings if not re.match(r"#+ \S", line)]
    titles = [n for n, line in headings if line.startswith("# ")]
    assert not accidental, "lines Markdown reads as headings: " + "; ".join(accidental)
    assert len(titles) == 1, f"{len(titles)} level-1 headings, at lines {titles}"
