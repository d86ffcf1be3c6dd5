"""What the page transforms share: they rewrite a page's finished HTML inside Python-Markdown.

The page's first paragraph for its description (`posenc_site.publish.descriptions`), formulas
(`posenc_site.transforms.formulas`), figure numbers (`posenc_site.transforms.figure_numbers`)
and the search exclusion (`posenc_site.transforms.search_exclude`) are Python-Markdown
extensions, not MkDocs hooks, so that any builder that runs Python-Markdown extensions (MkDocs,
Zensical) runs them. Each is a postprocessor that works on the page's whole HTML, because much
of a page reaches Markdown's tree only as stashed raw HTML: the outputs of markdown-exec's code
blocks (figures, printed results), the quiz fences (`posenc_site.transforms.quiz`) and
mkdocstrings' API reference (formulas from docstrings). Python-Markdown puts them back in its
``raw_html`` postprocessor (priority 30), and its ``amp_substitute`` one (20) restores escaped
ampersands; the transforms run after both, in the order of this module's priorities, on the
HTML that MkDocs then hands to its ``on_page_content`` event. Treeprocessors (toc, attr_list,
autorefs, mkdocstrings' heading processors) all run before the first postprocessor.

Postprocessors also run on parts of a page: Python-Markdown's toc runs them on each heading's
HTML, its ``data-toc-label`` and the table of contents, and MkDocs on the page's title. Those
runs happen while the tree is processed, so the transforms act only once every treeprocessor
has run (`whole_page`), and the table of contents and the title stay as they were when these
were MkDocs hooks (a formula in a heading stays LaTeX there). A build that ran the transforms
on those parts too wrote the first paragraph's note into all 35 entries of the API page's
table of contents. And markdown-exec and mkdocstrings convert their parts with Markdown
instances of their own, built from the same extension list; those nested conversions are left
alone (`nested`), so that the page's own instance numbers equations and figures once, in page
order.

Why our own: Python-Markdown has no hook for "the whole page, once, after the stash is
restored" (a postprocessor is the nearest), and nothing in pymdown-extensions does this.
"""

from collections.abc import Iterable
from typing import ClassVar

import markdown
import markdown_exec
import mkdocstrings
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from mkdocs.exceptions import PluginError

# Postprocessor priorities, in the order the transforms run (a higher priority runs first): the
# page's first paragraph is read with its formulas still LaTeX, formulas become MathML, figures
# get their numbers, then code, formulas and quizzes are marked for the search index.
FIRST_PARAGRAPH = 15
FORMULAS = 14
FIGURE_NUMBERS = 13
SEARCH_EXCLUSION = 12

# The treeprocessors that markdown-exec and mkdocstrings add to the Markdown instances they
# convert parts of a page with (both classes are in the packages' public API).
_NESTED_MARKS = (
    markdown_exec.IdPrependingTreeprocessor.name,
    mkdocstrings.IdPrependingTreeprocessor.name,
)
# MkDocs collects the page's anchors for its link check with this treeprocessor, before the
# postprocessors; ids a transform writes are added to its set (tests/site/test_figure_numbers.py
# checks that MkDocs still reads them).
_MKDOCS_ANCHORS = "mkdocs_extract_anchors"


class TransformError(PluginError):
    """A page a transform cannot render as written (a bad formula, a figure without caption).

    MkDocs reports an error raised while a page renders as ``Error reading page '<page>':``
    followed by this message, without a traceback (a ``PluginError``).
    """


def nested(md: markdown.Markdown) -> bool:
    """Whether ``md`` converts a part of a page for another instance (markdown-exec, mkdocstrings).

    Parameters
    ----------
    md : markdown.Markdown
        A Markdown instance, at conversion time (the marks are registered after the extensions).

    Returns
    -------
    bool
        True for markdown-exec's conversion of a code block's output and mkdocstrings' of a
        docstring: their HTML reaches the page's own conversion through its stash.
    """
    return any(name in md.treeprocessors for name in _NESTED_MARKS)


def add_anchors(md: markdown.Markdown, ids: Iterable[str]) -> None:
    """Tell MkDocs' link check about ids that a postprocessor wrote into the page.

    Parameters
    ----------
    md : markdown.Markdown
        The page's Markdown instance; outside MkDocs it has no anchor collector, and nothing
        is done.
    ids : iterable of str
        The new ids (``eq-1``, ``fig-2``): links to them are then checked like any other.
    """
    if _MKDOCS_ANCHORS in md.treeprocessors:
        collector = md.treeprocessors[_MKDOCS_ANCHORS]
        collector.present_anchor_ids.update(ids)


class _Started(Preprocessor):  # type: ignore[misc]
    """First of all preprocessors: a conversion starts, its tree is not processed yet."""

    def run(self, lines: list[str]) -> list[str]:
        self.md.posenc_whole_page = False
        return lines


class _TreeDone(Treeprocessor):  # type: ignore[misc]
    """Last of all treeprocessors: from here on, postprocessors get the whole page."""

    def run(self, root: object) -> None:
        self.md.posenc_whole_page = True


def whole_page(md: markdown.Markdown) -> bool:
    """Whether ``md``'s postprocessors now run on the page's whole HTML.

    Parameters
    ----------
    md : markdown.Markdown
        A Markdown instance that a `PageTransform` is registered on.

    Returns
    -------
    bool
        True once every treeprocessor has run; False while toc and MkDocs run postprocessors
        on headings, the table of contents or the title.
    """
    return bool(getattr(md, "posenc_whole_page", False))


class PageTransform(Postprocessor):  # type: ignore[misc]
    """A postprocessor that rewrites the page's HTML once, in the page's own conversion.

    Subclasses set ``name`` and ``priority`` (one of this module's constants) and implement
    `transform`.
    """

    name: ClassVar[str]
    priority: ClassVar[int]

    def register(self) -> None:
        """Register this postprocessor on its Markdown instance, and what `whole_page` needs."""
        md = self.md
        if "posenc_started" not in md.preprocessors:
            md.preprocessors.register(_Started(md), "posenc_started", 1000)
            md.treeprocessors.register(_TreeDone(md), "posenc_tree_done", -100)
        md.postprocessors.register(self, self.name, self.priority)

    def run(self, text: str) -> str:
        """``text`` transformed if it is the page's whole HTML in the page's own conversion."""
        return self.transform(text) if whole_page(self.md) and not nested(self.md) else text

    def transform(self, html: str) -> str:
        """The page's HTML, transformed."""
        raise NotImplementedError
