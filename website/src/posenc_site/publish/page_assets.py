"""Each page links only the stylesheets and scripts that it uses.

MkDocs puts every ``extra_css`` and ``extra_javascript`` file into the head of every page,
and mkdocstrings adds its stylesheet, ``assets/_mkdocstrings.css``, to ``extra_css`` in its
``on_config`` with no option to limit it to the pages that render docstrings. Only the API
reference renders docstrings and only the lessons hold quizzes; on the other pages these files
would be requests for rules and code that match nothing. The same holds for the site's own
stylesheet on pages without formulas, figures, quizzes or console sessions. This removes their
tags from pages whose content lacks the markup they serve.

A script that shows words of its own (the figures' lightbox) reads them from its tag, written
there in the page's language from the strings file (``strings/<code>.yml``, see ``WORDS``); the
figures' "Enlarge figure" buttons are written into the page in the same words.
"""

import html
import re

from posenc_site.figures.markup import with_enlarge_buttons
from posenc_site.i18n import languages

# File (relative to the site root) -> markup of the page content that it serves (any of them).
USED_BY = {
    "assets/_mkdocstrings.css": ('class="doc ',),  # mkdocstrings' objects: class="doc doc-...
    "assets/quiz.js": ('class="pe-quiz',),  # posenc_site.transforms.quiz's forms
    "assets/lightbox.js": ('<figure class="pe-figure',),  # an "Enlarge figure" button each
    # Formulas, figures, quizzes; the prompts and output of console sessions (pycon), which
    # the copy button leaves out; tables, which show that they scroll.
    "assets/posenc.css": ('class="pe-', "<math", 'class="gp"', 'class="go"', "<table"),
}


def _tag(path: str) -> re.Pattern[str]:
    # Relative from a page (../../assets/x.css), or absolute from the site's path on its host
    # (/posenc/assets/x.css), as MkDocs links them from the 404 pages.
    href = rf'(?:(?:\.\./)*|/(?:[^"/]+/)*){re.escape(path)}(?:\?[^"]*)?'
    return re.compile(
        rf'\s*<link rel="stylesheet" href="{href}">|\s*<script (?:defer )?src="{href}"></script>'
    )


_TAGS = {path: _tag(path) for path in USED_BY}
# Script -> the section of the strings file whose words its tag carries, as data-<key>.
WORDS = {"assets/lightbox.js": "lightbox"}
_LANGUAGE = re.compile(r'<html lang="([^"]+)"')


def remove_unused(output: str, content: str) -> str:
    """The page's HTML ``output`` without the tags of files its ``content`` does not use.

    The scripts it keeps that show words carry them in the page's language (``WORDS``).
    """
    for path, markups in USED_BY.items():
        if not any(markup in content for markup in markups):
            output = _TAGS[path].sub("", output)
        elif path in WORDS:
            output = _with_words(output, path, WORDS[path])
    return output


def _with_words(output: str, path: str, section: str) -> str:
    """``output`` with the tag of script ``path`` carrying the words of ``section``."""
    language = _LANGUAGE.search(output)
    if language is None:
        return output
    words = languages.load_strings(language.group(1))[section]
    if section == "lightbox":
        output = with_enlarge_buttons(output, words["enlarge"])
    data = "".join(f' data-{key}="{html.escape(value)}"' for key, value in words.items())
    return _TAGS[path].sub(
        lambda tag: tag.group(0).replace("></script>", f"{data}></script>"), output
    )
