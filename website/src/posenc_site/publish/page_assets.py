"""Each page links only the stylesheets and scripts that it uses.

MkDocs puts every ``extra_css`` and ``extra_javascript`` file into the head of every page,
and mkdocstrings adds its stylesheet, ``assets/_mkdocstrings.css``, to ``extra_css`` in its
``on_config`` with no option to limit it to the pages that render docstrings. Only the API
reference renders docstrings and only the lessons hold quizzes; on the other pages these files
would be requests for rules and code that match nothing. The same holds for the site's own
stylesheet on pages without formulas, figures, quizzes or console sessions. This removes their
tags from pages whose content lacks the markup they serve.

The site's own script, ``assets/posenc.js``, serves every page: the reader's progress shows on
each (ticks in the nav), and its parts for quizzes and figures start only on pages that have
them; one script, not one per part, keeps a lesson's first load at one request for all three.
The words it shows (the figures' lightbox, the nav's tick) it reads from its tag, written there
in the page's language from the strings file (``strings/<code>.yml``, see ``WORDS``); the
figures' "Enlarge figure" buttons are written into the page in the same words.
"""

import html
import re
from collections.abc import Mapping
from typing import Any

from posenc_site.figures.markup import with_enlarge_buttons
from posenc_site.i18n import languages

EVERY_PAGE = ("",)  # the markup that every page's content holds
FIGURE = '<figure class="pe-figure'  # an "Enlarge figure" button each
# File (relative to the site root) -> markup of the page content that it serves (any of them).
USED_BY = {
    "assets/_mkdocstrings.css": ('class="doc ',),  # mkdocstrings' objects: class="doc doc-...
    "assets/posenc.js": EVERY_PAGE,  # quizzes, figures, and the progress every page shows
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
# Script -> data-<name> of its tag -> the (section, key) of the strings file it carries.
WORDS = {
    "assets/posenc.js": {
        "close": ("lightbox", "close"),  # the close button of a figure shown full screen
        "done": ("progress", "tick"),  # what screen readers say of a done lesson's tick
    }
}
_LANGUAGE = re.compile(r'<html lang="([^"]+)"')


def remove_unused(output: str, content: str) -> str:
    """The page's HTML ``output`` without the tags of files its ``content`` does not use.

    The scripts it keeps that show words carry them in the page's language (``WORDS``); its
    figures get their "Enlarge figure" buttons.
    """
    language = _LANGUAGE.search(output)
    strings = languages.load_strings(language.group(1)) if language else None
    for path, markups in USED_BY.items():
        if not any(markup in content for markup in markups):
            output = _TAGS[path].sub("", output)
        elif path in WORDS and strings is not None:
            output = _with_words(output, path, WORDS[path], strings)
    if FIGURE in content and strings is not None:
        output = with_enlarge_buttons(output, strings["lightbox"]["enlarge"])
    return output


def _with_words(
    output: str, path: str, words: dict[str, tuple[str, str]], strings: Mapping[str, Any]
) -> str:
    """``output`` with the tag of script ``path`` carrying ``words`` from ``strings``."""
    data = "".join(
        f' data-{name}="{html.escape(strings[section][key])}"'
        for name, (section, key) in words.items()
    )
    return _TAGS[path].sub(
        lambda tag: tag.group(0).replace("></script>", f"{data}></script>"), output
    )
