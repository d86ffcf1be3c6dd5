"""Open a lesson's notebook in Google Colab: its address, and the link in the page.

Colab opens a notebook from a GitHub repository by its place there,
``https://colab.research.google.com/github/<owner>/<repo>/blob/<branch>/<path>``. The
notebooks are made by the build, not kept in the sources: the publishing workflow
(.github/workflows/publish.yml) pushes the built ones to the branch ``BRANCH``, each at its
path in the built site (``lessons/rotary/rotary.ipynb``, ``tr/lessons/rotary/rotary.ipynb``).
A site whose ``repo_url`` is not on GitHub, or that has none (local builds), gets no link.
"""

import re
from collections.abc import Mapping
from html import escape
from typing import Any

BRANCH = "notebooks"  # the branch of the built notebooks: publish.yml pushes to it
COLAB = "https://colab.research.google.com/github"
_GITHUB = re.compile(r"^https://github\.com/(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+?)(?:\.git)?/?$")


def address(repo_url: str | None, path: str) -> str | None:
    """Colab's address of the built notebook at ``path`` of the site, or None.

    Parameters
    ----------
    repo_url
        The site's ``repo_url`` (mkdocs.yml: ``POSENC_REPO_URL``), or None.
    path
        The notebook's path in the built site, with ``/``.

    Returns
    -------
    str or None
        The address that opens the notebook of ``BRANCH`` in Colab; None without a
        repository on GitHub.

    Examples
    --------
    >>> address("https://github.com/example/posenc", "tr/lessons/rotary/rotary.ipynb")
    'https://colab.research.google.com/github/example/posenc/blob/notebooks/tr/lessons/rotary/rotary.ipynb'
    >>> address(None, "x.ipynb") is None, address("https://gitlab.com/a/b", "x.ipynb") is None
    (True, True)
    """
    repository = _GITHUB.match(repo_url or "")
    if repository is None:
        return None
    return f"{COLAB}/{repository['owner']}/{repository['repo']}/blob/{BRANCH}/{path}"


def with_link(html: str, name: str, href: str, words: Mapping[str, Any]) -> str:
    r"""``html`` with an item that opens ``href`` after the list item linking ``name``.

    Parameters
    ----------
    html
        A lesson page, whose Downloads list links the notebook as ``<a href="name" download>``.
    name
        The notebook's file name.
    href
        Its address in Colab (:func:`address`).
    words
        The page language's ``downloads`` strings: ``colab`` and ``colab_note``.

    Returns
    -------
    str
        The page with the new item, or unchanged if it does not link the notebook.

    Examples
    --------
    >>> page = '<ul>\n<li><a href="x.ipynb" download>x</a>: notebook.</li>\n</ul>'
    >>> words = {"colab": "Open", "colab_note": "run"}
    >>> print(with_link(page, "x.ipynb", "https://c/x", words))
    <ul>
    <li><a href="x.ipynb" download>x</a>: notebook.</li>
    <li><a href="https://c/x">Open</a>: run</li>
    </ul>
    """
    start = html.find(f'href="{name}" download')
    end = html.find("</li>", start) if start >= 0 else -1
    if end < 0:
        return html
    end += len("</li>")
    item = (
        f'\n<li><a href="{escape(href)}">{escape(words["colab"], quote=False)}</a>: '
        f"{escape(words['colab_note'], quote=False)}</li>"
    )
    return html[:end] + item + html[end:]
