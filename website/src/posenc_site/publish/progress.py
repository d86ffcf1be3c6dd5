"""The markup of the reader's progress, written at build in the page's language.

The progress itself lives in the reader's browser and is shown by ``docs/assets/posenc.js``
(its progress part): these are the parts it fills in, hidden until it does, so that a page
without the script, or without storage, shows none of them.

- Each lesson gets a "Mark this lesson as done" toggle button before its last section, the
  references (``with_done_button``, from the posenc plugin's ``on_page_content``).
- The home page's line ``<!-- posenc: progress -->`` becomes the box that offers to continue
  where the reader left off and to forget the progress: ``posenc_site.i18n.progress_box``, a
  table of ``posenc_site.i18n.placeholders`` like the glossary.

The words are the ``progress`` section of the strings file (``strings/<code>.yml``).
"""

import re
from collections.abc import Mapping
from html import escape

from posenc_site.transforms.signposts import LESSONS

# The opening tag of a section heading of the page's content: the toc extension gives each an
# id; the printed answer key's heading, last on a lesson, has none (quiz/print_key.py).
_H2 = re.compile(r'<h2 id="')


def done_button(words: Mapping[str, str]) -> str:
    """The "done" toggle button of a lesson, hidden until the script shows it.

    Once it is pressed, its tick and a line that says so show (styled in posenc.css); screen
    readers say "pressed" instead: the button's own words stay the same (a toggle button's
    name must not change with its state).

    Examples
    --------
    >>> words = {"done": "Mark this lesson as done", "done_status": "Done."}
    >>> done_button(words)[:56]
    '<div class="pe-done" data-search-exclude hidden><button '
    """
    return (
        '<div class="pe-done" data-search-exclude hidden><button type="button"'
        ' class="md-button pe-done__button" aria-pressed="false">'
        '<span class="pe-done__tick" aria-hidden="true">✓ </span>'
        f"{escape(words['done'])}</button>"
        f'<span class="pe-done__status" aria-hidden="true">{escape(words["done_status"])}</span>'
        "</div>\n"
    )


def with_done_button(html: str, src_uri: str, words: Mapping[str, str]) -> str:
    r"""A lesson's ``html`` with its "done" button before its last section (the references).

    Parameters
    ----------
    html : str
        The page's content, as Markdown made it.
    src_uri : str
        The page's source path: only lessons (``lessons/...``) get the button.
    words : Mapping[str, str]
        The ``progress`` strings of the page's language.

    Returns
    -------
    str
        ``html``, with the button before its last section heading (``<h2 id=...>``; at its end
        if it has none) when the page is a lesson; unchanged otherwise.

    Examples
    --------
    >>> words = {"done": "Done", "done_status": "Marked."}
    >>> page = '<h2 id="next">Next</h2><p>On.</p><h2 id="references">References</h2>'
    >>> before, after = with_done_button(page, "lessons/rotary.md", words).split("\n")
    >>> before.startswith('<h2 id="next">Next</h2><p>On.</p><div class="pe-done"'), after
    (True, '<h2 id="references">References</h2>')
    >>> with_done_button(page, "glossary.md", words) == page
    True
    """
    if not src_uri.startswith(LESSONS):
        return html
    headings = list(_H2.finditer(html))
    at = headings[-1].start() if headings else len(html)
    return html[:at] + done_button(words) + html[at:]
