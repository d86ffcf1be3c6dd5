"""Keep out of the search index what no reader searches for: code, formulas and quizzes.

A reader waits for its language's whole search index before the first results (a page
fetches it on the first intent to search, see the theme's ``partials/search-on-demand.html``),
so each part of it weighs on every first search. Material's search plugin leaves out an
element that carries a ``data-search-exclude`` attribute (its documented means, "Excluding
content from search"), and removes the attribute from the page once the page is indexed.
This marks, on every page:

- code blocks: lesson code, printed outputs, console sessions, the API reference's examples.
  Material splits words only at whitespace and hyphens, so ``np.random.default_rng(0)`` is a
  single word that no query finds, and an output is numbers; the names a reader looks for
  are in the prose and in the API reference, which stay;
- formulas: their text reads ``PE(pos,2i)=sin(pos100002i/dmodel)``, which nobody types;
- quizzes: their questions ask what the lesson says, and search would show their answers.

Figures mark themselves (``posenc.plotting.to_html``), and the API reference's docstring
template (``templates/python/material/docstring/admonition.html.jinja``) leaves out the
docstrings' Notes (how a function computes) and References (papers the lessons list).

Material's parser ends an exclusion at the first closing tag of the same name, so only
elements that hold no element of their own name are marked: a code block's ``div`` holds a
``pre``, a quiz ``form`` holds no form.

`SearchExclusionExtension` (``posenc_site.transforms.search_exclude`` in mkdocs.yml's
``markdown_extensions``) marks each page's finished HTML, after its formulas became MathML
(see `posenc_site.transforms.page_html`): code blocks and quizzes reach the page as stashed
HTML, which only the whole page has.
"""

import re

from markdown import Markdown
from markdown.extensions import Extension

from posenc_site.transforms.page_html import SEARCH_EXCLUSION, PageTransform

# The opening of each excluded element, up to the end of its tag name or class.
_EXCLUDED = re.compile(
    r'<div class="highlight"'  # code blocks (pymdownx.highlight)
    # display formulas with their number (posenc_site.transforms.formulas)
    r'|<div class="pe-equation"'
    r"|<math(?=[\s>])"  # formulas in running text
    r'|<form class="pe-quiz"'  # quiz questions (posenc_site.transforms.quiz)
)
# The attribute as attr_list writes `{ data-search-exclude }`: with a value, so that
# Material strips it from the page (it strips `data-search-*="..."` only).
_ATTRIBUTE = ' data-search-exclude="data-search-exclude"'


def mark(html: str) -> str:
    """Mark a page's code blocks, formulas and quizzes to stay out of the search index.

    Parameters
    ----------
    html : str
        A page's HTML, formulas as MathML.

    Returns
    -------
    str
        ``html`` with ``data-search-exclude`` on each excluded element's opening tag.

    Examples
    --------
    >>> mark('<p>See <math><mi>x</mi></math>.</p>')
    '<p>See <math data-search-exclude="data-search-exclude"><mi>x</mi></math>.</p>'
    """
    return _EXCLUDED.sub(lambda match: match.group(0) + _ATTRIBUTE, html)


class _SearchExclusion(PageTransform):
    name = "posenc_search_exclusion"
    priority = SEARCH_EXCLUSION

    def transform(self, html: str) -> str:
        return mark(html)


class SearchExclusionExtension(Extension):  # type: ignore[misc]
    """Python-Markdown extension: the page's code, formulas and quizzes left out of search.

    Examples
    --------
    >>> import markdown
    >>> html = markdown.markdown(
    ...     "    x = 1", extensions=["pymdownx.highlight", "posenc_site.transforms.search_exclude"]
    ... )
    >>> html.startswith('<div class="highlight" data-search-exclude="data-search-exclude"><pre>')
    True
    """

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Register the postprocessor (see `posenc_site.transforms.page_html`)."""
        _SearchExclusion(md).register()


def makeExtension(**kwargs: object) -> SearchExclusionExtension:  # noqa: N802 (Python-Markdown's name)
    """The extension, for ``posenc_site.transforms.search_exclude`` in a list of extensions."""
    return SearchExclusionExtension(**kwargs)
