"""The API reference groups posenc's names by the lesson that introduces them, in both languages.

A name's lesson is the first, in the nav's order, whose code blocks import it from posenc or
call it as ``posenc.<name>``; its group is headed by the lesson's nav title, has the lesson's
file stem as id (``## Rotary position embedding {#rotary}``) and links to the lesson with a
number the build fills in (``[lesson {n}](../lessons/rotary.md)``). After the lessons comes one
group for what no lesson teaches: the names of ``posenc.__all__`` no lesson's code uses, and the
two modules beyond it, the figures (``posenc.plotting``) and the PyTorch modules
(``posenc.torch``), which the lessons use to draw and to show, not to teach.
"""

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import griffe
import pytest
import yaml

import posenc
from posenc_site.execute.blocks import runnable
from support.docblocks import blocks_of
from support.project import DOCS, ROOT, SITE

API = DOCS / "reference" / "api.md"
HELPERS = "helpers"  # the id of the last group, which is no lesson's
EXTRA_MODULES = ("posenc.plotting", "posenc.torch")  # public beyond posenc.__all__
_HEADING = re.compile(r"^## (?P<title>.+?) \{#(?P<id>[\w-]+)\}$")
_LINK = re.compile(r"\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)\)")


class _IgnoreTags(yaml.SafeLoader):
    """Reads mkdocs.yml without importing what its ``!!python/name:`` tags name."""


_IgnoreTags.add_multi_constructor("", lambda loader, suffix, node: None)


@dataclass(frozen=True)
class Lesson:
    """A lesson of the nav: its file stem and its title in each language."""

    stem: str
    titles: dict[str, str]


@dataclass(frozen=True)
class Group:
    """A ``##`` section of the API page: its id, title, prose and ``:::`` blocks."""

    id: str | None  # None: the text before the first group
    title: str
    prose: list[str]  # its lines outside the blocks
    blocks: list[tuple[str, dict]]  # (identifier, options)

    @property
    def links(self) -> list[tuple[str, str]]:
        """(text, target) of each Markdown link of its prose, a link broken over lines too."""
        text = "\n".join(self.prose)
        return [(" ".join(m["text"].split()), m["target"]) for m in _LINK.finditer(text)]


@cache
def lessons() -> list[Lesson]:
    """The lessons in nav order, titled as mkdocs.yml's nav and nav_translations title them."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_IgnoreTags)
    translations = {
        entry["locale"]: entry.get("nav_translations", {})
        for plugin in config["plugins"]
        if isinstance(plugin, dict) and "i18n" in plugin
        for entry in plugin["i18n"]["languages"]
    }
    found = []
    for title, path in _nav_pages(config["nav"]):
        if path.startswith("lessons/"):
            titles = {
                language.code: title
                if language.default
                else translations[language.code].get(title, title)
                for language in SITE.all
            }
            found.append(Lesson(Path(path).stem, titles))
    return found


def _nav_pages(entries: list) -> Iterator[tuple[str, str]]:
    """(title, path) of every page of a nav, depth first."""
    for entry in entries:
        for title, value in entry.items():
            if isinstance(value, list):
                yield from _nav_pages(value)
            else:
                yield title, value


def _dotted(node: ast.expr) -> str | None:
    """``posenc.plotting.line_plot`` for that attribute chain, None if not a plain chain."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (base := _dotted(node.value)):
        return f"{base}.{node.attr}"
    return None


_FENCED = re.compile(r"^(`{3,}|~{3,}).*?^\1", re.M | re.S)
_CODE_SPAN = re.compile(r"`(?P<name>[A-Za-z_]\w*)(?:\(\))?`")


def named_in_prose(page: Path) -> set[str]:
    """The names of ``posenc.__all__`` that the page's prose names as code (`name`)."""
    prose = _FENCED.sub("", page.read_text(encoding="utf-8"))
    return {
        f"posenc.{match['name']}"
        for match in _CODE_SPAN.finditer(prose)
        if match["name"] in posenc.__all__
    }


def used_names(page: Path) -> set[str]:
    """The dotted names from posenc that the page's Python code imports or reads, and those
    its prose names as code (a function a lesson presents without calling it)."""
    used = named_in_prose(page)
    for block in blocks_of(page):
        if block.language not in ("python", "pycon"):
            continue
        for node in ast.walk(ast.parse(runnable(block))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("posenc"):
                used |= {f"{node.module}.{alias.name}" for alias in node.names}
            elif isinstance(node, ast.Attribute) and (name := _dotted(node)):
                used.add(name)
    return used


@cache
def public_names() -> list[str]:
    """posenc.__all__, then the public names of the modules beyond it, as mkdocstrings sees them."""
    package = griffe.load("posenc", search_paths=[str(ROOT / "src")])
    names = [f"posenc.{name}" for name in posenc.__all__]
    for module in EXTRA_MODULES:
        members = package[module.removeprefix("posenc.")].members
        names += [f"{module}.{name}" for name, member in members.items() if member.is_public]
    return names


@cache
def expected_groups() -> dict[str, str]:
    """Each public name's group: the first lesson whose code uses it, else the helpers'."""
    first: dict[str, str] = {}
    for lesson in lessons():
        for name in sorted(used_names(DOCS / "lessons" / f"{lesson.stem}.md")):
            first.setdefault(name, lesson.stem)
    taught = {f"posenc.{name}" for name in posenc.__all__}
    return {
        name: first.get(name, HELPERS) if name in taught else HELPERS for name in public_names()
    }


def groups(page: Path) -> list[Group]:
    """The page's groups, in order; the first holds what comes before the first ``##``."""
    text = page.read_text(encoding="utf-8").split("---\n", 2)[2]  # without the front matter
    found = [Group(None, "", [], [])]
    lines = text.splitlines()
    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        if line.startswith("## "):
            heading = _HEADING.match(line)
            assert heading, f"{page.name}: a group without an id: {line!r}"
            found.append(Group(heading["id"], heading["title"], [], []))
        elif line.startswith("::: "):
            options = []  # its indented lines, YAML
            while number < len(lines) and lines[number].startswith(" "):
                options.append(lines[number])
                number += 1
            settings = yaml.safe_load("\n".join(options)) or {}
            found[-1].blocks.append(
                (line.removeprefix("::: ").strip(), settings.get("options", {}))
            )
        else:
            found[-1].prose.append(line)
    return found


def documented(page: Path) -> dict[str, list[str | None]]:
    """Each name the page's ``:::`` blocks render, with the group of each block that does."""
    where: dict[str, list[str | None]] = {}
    for group in groups(page):
        for identifier, options in group.blocks:
            if identifier in EXTRA_MODULES:
                # A module's block renders the members it lists (all public ones if none).
                prefix = f"{identifier}."
                default = [
                    name.removeprefix(prefix) for name in public_names() if name.startswith(prefix)
                ]
                names = [prefix + member for member in options.get("members", default)]
            else:
                names = [identifier]
            for name in names:
                where.setdefault(name, []).append(group.id)
    return where


PAGES = {language.code: SITE.twin(API, language) for language in SITE.all}


@pytest.mark.parametrize("language", PAGES)
def test_groups_are_the_lessons_in_nav_order_then_the_helpers(language):
    found = groups(PAGES[language])
    assert found[0].blocks == [], "a block before the first group"
    assert [group.id for group in found[1:]] == [lesson.stem for lesson in lessons()] + [HELPERS]
    titles = [group.title for group in found[1:-1]]
    assert titles == [lesson.titles[language] for lesson in lessons()]


@pytest.mark.parametrize("language", PAGES)
def test_each_lesson_group_links_to_its_lesson_with_the_number_left_to_the_build(language):
    for group in groups(PAGES[language])[1:-1]:
        targets = [target for text, target in group.links if "{n}" in text]
        assert targets == [f"../lessons/{group.id}.md"], (group.id, group.links)


@pytest.mark.parametrize("language", PAGES)
def test_every_public_name_is_documented_once_under_the_lesson_that_introduces_it(language):
    expected = {name: [group] for name, group in expected_groups().items()}
    assert documented(PAGES[language]) == expected


def test_the_twins_have_the_same_groups_with_the_same_blocks():
    english = [(group.id, group.blocks) for group in groups(PAGES[SITE.default.code])]
    for language in SITE.translations:
        assert [(group.id, group.blocks) for group in groups(PAGES[language.code])] == english


def test_the_lessons_code_is_read():
    """The reading of the lessons finds what they plainly teach, so the mapping is not empty."""
    found = expected_groups()
    assert found["posenc.sinusoidal_encoding"] == "positional-encoding"
    assert found["posenc.apply_rotary"] == "rotary"  # used again by later lessons
    assert found["posenc.alibi_slopes"] == "alibi-t5"
    assert found["posenc.plotting.line_plot"] == HELPERS  # draws figures from lesson 3 on
