"""Code on the pages fits a phone: no line longer than 79 characters.

Most readers read on a phone, where a longer line scrolls sideways and hides its end, often
the comment that carries the point. Checked, in both languages: every line of every fenced
block (python, pycon, text, bash, markdown, ...); of a quiz fence, whose YAML the page does not
show, the code of its fill-in questions; and the files the pages include with ``--8<--``
(pymdownx.snippets): a lesson's own file under ``docs/lessons/`` whole, since it is also a
download, a file from ``src/`` only in the lines the page shows.
"""

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
import yaml
from mkdocs.utils.yaml import get_yaml_loader

from posenc_site.execute.blocks import Block, expand_snippets, fenced_blocks
from posenc_site.transforms import quiz
from support.docblocks import DOCS, SNIPPET_PATHS
from support.project import ROOT

LIMIT = 79
PAGES = sorted(DOCS.rglob("*.md"))
_SNIPPET = re.compile(r'^\s*-{1,}8<-{1,}\s+"(?P<name>[^"]+)"\s*$')


def _custom_fences() -> dict[str, object]:
    """The fences that superfences renders with a function of ours (mkdocs.yml), by name."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), get_yaml_loader())
    for extension in config["markdown_extensions"]:
        if isinstance(extension, dict) and "pymdownx.superfences" in extension:
            fences = extension["pymdownx.superfences"].get("custom_fences", [])
            return {fence["name"]: fence["format"] for fence in fences}
    return {}


CUSTOM_FENCES = _custom_fences()


def fences(page: Path) -> Iterator[tuple[Block, list[tuple[int, str]]]]:
    """Each fenced block of the page, with its lines as shown: (line number, text)."""
    text = page.read_text(encoding="utf-8")
    for fenced in fenced_blocks(text, SNIPPET_PATHS):
        opening, *body = text[fenced.start : fenced.end].split("\n")
        indent = opening[: len(opening) - len(opening.lstrip(" "))]
        if body and body[-1].strip() and set(body[-1].strip()) <= {"`", "~"}:
            body.pop()  # the closing fence
        start = fenced.block.line + 1
        yield fenced.block, [(start + k, line.removeprefix(indent)) for k, line in enumerate(body)]


def questions(block: Block) -> list:
    """The questions of a quiz fence; none for any other block."""
    if CUSTOM_FENCES.get(block.language) is not quiz.fence_format:
        return []
    return quiz.parse_quiz(block.source, docs_dir=DOCS)


def shown_code(page: Path) -> Iterator[tuple[int, str]]:
    """Each line of code the page shows, with its line number; included files aside.

    A quiz shows the code of its fill-in questions, numbered with the quiz's first line.
    """
    for block, lines in fences(page):
        if block.language in CUSTOM_FENCES:
            for question in questions(block):
                if question.type == "blank":
                    yield from ((block.line, line) for line in question.code.splitlines())
            continue
        yield from ((n, line) for n, line in lines if not _SNIPPET.match(line))


def snippet_file(name: str) -> Path:
    """The file a ``--8<--`` name points at (``path``, ``path:section``, ``path:1:13``)."""
    path = name.split(":", 1)[0]
    return next(base / path for base in SNIPPET_PATHS if (base / path).is_file())


def _included() -> list[str]:
    """Every name the pages include, and every file a quiz cuts blanks into."""
    names = set()
    for page in PAGES:
        for block, lines in fences(page):
            names.update(m["name"] for _, line in lines if (m := _SNIPPET.match(line)))
            names.update(q.file for q in questions(block) if q.type == "complete")
    # A lesson's own file is checked whole, once, whatever part of it a page shows.
    return sorted({_whole(name) for name in names})


def _whole(name: str) -> str:
    path = name.split(":", 1)[0]
    return path if snippet_file(path).is_relative_to(DOCS) else name


INCLUDED = _included()


def too_long(where: str, lines: Iterable[tuple[int, str]]) -> list[str]:
    """``where:line: length`` for each line longer than LIMIT."""
    return [f"{where}:{n}: {len(line)} characters" for n, line in lines if len(line) > LIMIT]


def test_the_pages_have_code_and_includes():
    assert sum(len(lines) for page in PAGES for _, lines in fences(page)) > 1000
    assert any(name.startswith("lessons/") for name in INCLUDED)
    assert quiz.fence_format in CUSTOM_FENCES.values()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_code_lines_fit_a_phone(page):
    found = too_long(str(page.relative_to(ROOT)), shown_code(page))
    assert not found, f"longer than {LIMIT} characters:\n" + "\n".join(found)


@pytest.mark.parametrize("name", INCLUDED)
def test_included_lines_fit_a_phone(name):
    path = snippet_file(name)
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.is_relative_to(DOCS):  # a lesson's own file, whole: it is also a download
        numbered = list(enumerate(lines, start=1))
    else:  # library code: the lines the page shows
        shown = expand_snippets(f'--8<-- "{name}"\n', SNIPPET_PATHS).splitlines()
        numbered = [(lines.index(line) + 1, line) for line in shown]
    found = too_long(str(path.relative_to(ROOT)), numbered)
    assert not found, f"longer than {LIMIT} characters:\n" + "\n".join(found)


def test_a_long_line_is_reported_with_its_place():
    assert too_long("page.md", [(3, "x" * 79), (4, "y" * 80)]) == ["page.md:4: 80 characters"]
