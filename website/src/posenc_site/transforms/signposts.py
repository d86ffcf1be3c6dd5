"""The course's signposts, computed from the nav and the pages: nothing here is typed twice.

- A link whose text holds ``{n}`` to a lesson gets the lesson's number in the nav:
  ``[lesson {n}](rotary.md)`` reads "lesson 3" while rotary is third.
- Each lesson opens with its number ("Lesson 3 of 8"), its reading time, its goals and what
  it builds on (front matter ``goals`` and ``requires``), and a link to its functions in the
  API reference; ``<!-- posenc: next -->`` becomes the way on, or the end of the course.
- The home page's ``<!-- posenc: course-path -->`` becomes the list of lessons, in nav order,
  each with its number, its ``teaser`` (front matter, in the page's language) and reading time.

The words come from the ``signposts`` section of the strings files, in the page's language.
"""

from __future__ import annotations

import math
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import PluginError
from mkdocs.utils.meta import get_data

from posenc_site.i18n.languages import Language, Languages

if TYPE_CHECKING:
    from mkdocs.structure.nav import Navigation

LESSONS = "lessons/"
API = "reference/api.md"  # its groups' ids are the lessons' file names
# Brysbaert (2019), "How many words do we read per minute? A review and meta-analysis of
# reading rate", Journal of Memory and Language 109, 104047: adults read English non-fiction
# silently at 238 words a minute; in another language, the rate follows the number of words
# the language needs for the same message. A translation says what its source says, so both
# twins show the time of the English text.
WORDS_PER_MINUTE = 238

_NUMBERED_LINK = re.compile(r"\[(?P<text>[^\]\n]*\{n\}[^\]\n]*)\]\((?P<target>[^)\s]+)\)")
_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})[^\n]*\n.*?^(?P=fence)[ \t]*$", re.M | re.S)
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
# Fenced blocks and code spans.
_CODE = re.compile(
    r"^(?P<fence>`{3,}|~{3,})[^\n]*\n.*?^(?P=fence)[ \t]*$|(?P<ticks>`+).+?(?P=ticks)",
    re.M | re.S,
)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
_TAG = re.compile(r"<[^>\n]+>")
_LINK_TARGET = re.compile(r"\]\([^)]*\)|\{[:#.][^}\n]*\}")
_WORD = re.compile(r"\w+(?:['\u2019-]\w+)*")
_H1 = re.compile(r"^# .+\n", re.M)
NEXT = "<!-- posenc: next -->"
COURSE_PATH = "<!-- posenc: course-path -->"


@dataclass(frozen=True)
class Lesson:
    """A lesson of the course: its source path (``lessons/x.md``), nav title and number."""

    src_uri: str
    title: str
    number: int
    teaser: str = ""  # what the home page says of it
    minutes: int = 0
    has_api: bool = True  # its group of the API reference documents functions

    @property
    def stem(self) -> str:
        """The file's name without ``.md``: the id of its group in the API reference."""
        return posixpath.splitext(posixpath.basename(self.src_uri))[0]


def reading_minutes(markdown: str) -> int:
    r"""Minutes to read the prose of ``markdown`` at ``WORDS_PER_MINUTE``, at least 1.

    Code blocks, formulas, HTML tags and comments, link targets and front matter are not
    counted: the time is the prose's.

    Examples
    --------
    >>> reading_minutes("---\nx: 1\n---\n# Title\n\n" + "word " * 476)
    3
    >>> reading_minutes("```python\n" + "x = 1\n" * 900 + "```\n")
    1
    """
    text = _FRONT_MATTER.sub("", markdown)
    for pattern in (_FENCE, _COMMENT, _MATH, _TAG, _LINK_TARGET):
        text = pattern.sub(" ", text)
    return max(1, math.ceil(len(_WORD.findall(text)) / WORDS_PER_MINUTE))


def lesson_of(src_uri: str, lessons: Sequence[Lesson]) -> Lesson | None:
    """The lesson whose source (with or without a language suffix) is ``src_uri``."""
    return next((lesson for lesson in lessons if lesson.src_uri == src_uri), None)


def number_links(markdown: str, src_uri: str, lessons: Sequence[Lesson]) -> str:
    """``markdown`` with ``{n}`` in the text of each link to a lesson replaced by its number.

    Raises
    ------
    PluginError
        A link holding ``{n}`` leads to a page that is not a lesson; the message names both.

    Examples
    --------
    >>> course = [Lesson("lessons/a.md", "A", 1), Lesson("lessons/b.md", "B", 2)]
    >>> number_links("See [lesson {n}](b.md#x).", "lessons/a.md", course)
    'See [lesson 2](b.md#x).'
    >>> number_links("[{n}. derste](lessons/a.md)", "index.md", course)
    '[1. derste](lessons/a.md)'
    """

    def number(match: re.Match[str]) -> str:
        target = match["target"].split("#", 1)[0]
        path = posixpath.normpath(posixpath.join(posixpath.dirname(src_uri), target))
        lesson = lesson_of(path, lessons)
        if lesson is None:
            raise PluginError(
                f"{src_uri}: the link '{match[0]}' holds {{n}}, the number of a lesson, "
                f"but {target!r} is not a lesson of the nav"
            )
        return match[0].replace("{n}", str(lesson.number), 1)

    # Code shows the syntax as it is written (the contributor guide's example): left alone.
    out, at = [], 0
    for code in _CODE.finditer(markdown):
        out += [_NUMBERED_LINK.sub(number, markdown[at : code.start()]), code[0]]
        at = code.end()
    return "".join([*out, _NUMBERED_LINK.sub(number, markdown[at:])])


def _link(src_uri: str, lesson: Lesson) -> str:
    """The relative link from page ``src_uri`` to ``lesson``'s source."""
    return posixpath.relpath(lesson.src_uri, posixpath.dirname(src_uri) or ".")


def lesson_header(
    lesson: Lesson,
    lessons: Sequence[Lesson],
    meta: Mapping[str, Any],
    words: Mapping[str, str],
) -> str:
    """The block that opens ``lesson``: number, reading time, goals, what it builds on, API.

    Raises
    ------
    PluginError
        The front matter lacks ``goals`` (a list of 1 to 6 texts) or ``requires`` (a list of
        lessons before this one, maybe empty), or names a page that is not an earlier lesson.
    """
    goals = meta.get("goals")
    requires = meta.get("requires")
    where = lesson.src_uri
    if not (isinstance(goals, list) and 1 <= len(goals) <= 6 and all(map(_text, goals))):
        raise PluginError(f"{where}: front matter 'goals' must be a list of 1 to 6 texts")
    if not (isinstance(requires, list) and all(map(_text, requires))):
        raise PluginError(
            f"{where}: front matter 'requires' must be a list of lesson files ([] for none)"
        )
    earlier = []
    for name in requires:
        path = posixpath.normpath(posixpath.join(posixpath.dirname(where), name))
        required = lesson_of(path, lessons)
        if required is None or required.number >= lesson.number:
            raise PluginError(f"{where}: 'requires' names {name!r}, not an earlier lesson")
        earlier.append(required)
    meta_line = words["lesson_of"].format(number=lesson.number, total=len(lessons))
    time = words["minutes"].format(minutes=lesson.minutes)
    if earlier:
        before = ", ".join(
            f"[{words['lesson_title'].format(number=r.number, title=r.title)}]({_link(where, r)})"
            for r in earlier
        )
    else:
        before = f"[{words['course_start']}](../index.md#{words['prerequisites_id']})"
    goal_items = "\n".join(f"- {goal}" for goal in goals)
    api = f" [{words['api']}](../reference/api.md#{lesson.stem})." if lesson.has_api else ""
    return (
        '<div class="pe-signpost" markdown>\n\n'
        f'<p class="pe-signpost__meta"><strong>{meta_line}</strong> · {time}</p>\n\n'
        f"**{words['goals']}**\n\n{goal_items}\n\n"
        f"**{words['requires']}** {before}.{api}\n\n"
        "</div>\n"
    )


def _text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def with_header(markdown: str, header: str) -> str:
    """``markdown`` with ``header`` right after its title (the first ``# `` line)."""
    match = _H1.search(markdown)
    if match is None:
        return header + "\n" + markdown
    return f"{markdown[: match.end()]}\n{header}\n{markdown[match.end() :]}"


def next_step(lesson: Lesson, lessons: Sequence[Lesson], words: Mapping[str, str]) -> str:
    """The way on from ``lesson``: the next lesson, or for the last one the course's end."""
    if lesson.number < len(lessons):
        following = lessons[lesson.number]
        title = words["lesson_title"].format(number=following.number, title=following.title)
        return f"{words['next']} [{title}]({_link(lesson.src_uri, following)})"
    first = lessons[0]
    return words["course_end"].format(
        first=_link(lesson.src_uri, first),
        glossary="../glossary.md",
        api="../reference/api.md",
    )


def course_path(lessons: Sequence[Lesson], words: Mapping[str, str]) -> str:
    """The home page's list of the lessons: number, link, teaser, reading time."""
    items = []
    for lesson in lessons:
        time = words["minutes"].format(minutes=lesson.minutes)
        items.append(
            f"{lesson.number}. [{lesson.title}]({lesson.src_uri}): {lesson.teaser} "
            f'<span class="pe-signpost__time">({time})</span>'
        )
    return "\n".join(items) + "\n"


def fill(
    markdown: str,
    src_uri: str,
    meta: Mapping[str, Any],
    lessons: Sequence[Lesson],
    words: Mapping[str, str],
) -> str:
    """A page's Markdown with its signposts.

    Numbered links; a lesson's header and next step; the course path where the page asks.

    Raises
    ------
    PluginError
        A lesson's front matter lacks its goals or what it requires; ``<!-- posenc: next -->``
        is on a page that is not a lesson; a link holding ``{n}`` leads elsewhere.
    """
    markdown = number_links(markdown, src_uri, lessons)
    lesson = lesson_of(src_uri, lessons)
    if lesson is not None:
        markdown = with_header(markdown, lesson_header(lesson, lessons, meta, words))
        markdown = _line(NEXT).sub(lambda _: next_step(lesson, lessons, words), markdown)
    elif _line(NEXT).search(markdown):
        raise PluginError(f"{src_uri}: '{NEXT}' is for lessons only")
    return _line(COURSE_PATH).sub(lambda _: course_path(lessons, words), markdown)


def _line(marker: str) -> re.Pattern[str]:
    """A line that is ``marker`` alone (the marker within a sentence or code is text)."""
    return re.compile(rf"^{re.escape(marker)}$", re.M)


def source_of(src_uri: str, languages: Languages) -> str:
    """The default language's source of a page: ``lessons/x.tr.md`` -> ``lessons/x.md``."""
    for language in languages.all:
        if not language.default and src_uri.endswith(language.page_suffix):
            return src_uri[: -len(language.page_suffix)] + ".md"
    return src_uri


def course(
    nav: Navigation, docs_dir: Path, language: Language, languages: Languages
) -> tuple[Lesson, ...]:
    """The lessons of ``nav`` in its order.

    With their nav titles (in ``language``), numbers, the teasers of their pages in
    ``language``, the reading times of their sources and whether the API reference has a group
    of their functions.
    """
    lessons: list[Lesson] = []
    reference = docs_dir / API
    api = (
        _groups_with_functions(reference.read_text(encoding="utf-8"))
        if reference.is_file()
        else set()
    )
    for page in nav.pages:
        source = source_of(page.file.src_uri, languages)
        if not source.startswith(LESSONS):
            continue
        own = docs_dir / (source[: -len(".md")] + language.page_suffix)
        teaser = _front_matter(own).get("teaser")
        if not _text(teaser):
            raise PluginError(
                f"{own.name}: front matter 'teaser' (the home page's line) is missing"
            )
        minutes = reading_minutes((docs_dir / source).read_text(encoding="utf-8"))
        title = page.title or source
        stem = posixpath.splitext(posixpath.basename(source))[0]
        lessons.append(Lesson(source, title, len(lessons) + 1, str(teaser), minutes, stem in api))
    return tuple(lessons)


def _groups_with_functions(api: str) -> set[str]:
    """The ids of the API reference's groups (``## Title {#id}``) that document an object."""
    groups = re.split(r"^## ", api, flags=re.M)[1:]
    return {
        match["id"]
        for group in groups
        if (match := re.search(r"\{#(?P<id>[\w-]+)\}", group.split("\n", 1)[0]))
        and re.search(r"^::: ", group, re.M)
    }


def _front_matter(path: Path) -> dict[str, Any]:
    return get_data(path.read_text(encoding="utf-8"))[1]
