"""Tables the build writes into pages: a line ``<!-- posenc: <name> -->`` becomes one.

The glossary (``glossary``) and the state of the translations (``translation-status``) are made
from files of the docs folder, in the language of the page that shows them. The posenc plugin
fills them in at ``on_page_markdown``, where it knows the page, its language and the docs
folder; the table is then Markdown of the page like any other. Before, the pages ran
``posenc_site`` in markdown-exec blocks, which needed the build's state in a module global
and a cache key of their own covering every file of the docs folder.
"""

import re
from collections.abc import Callable
from pathlib import Path

from mkdocs.exceptions import PluginError

from posenc_site.i18n.glossary import glossary_table
from posenc_site.i18n.languages import Languages
from posenc_site.i18n.progress_box import home_box
from posenc_site.i18n.translations import status_table

PLACEHOLDER = re.compile(r"^<!-- posenc: (?P<name>[\w-]+) -->$", re.MULTILINE)
TABLES: dict[str, Callable[[str, Path, Languages], str]] = {
    "glossary": glossary_table,
    "translation-status": status_table,
    "progress": home_box,  # the home page's box of the reader's progress
}


def fill(markdown: str, src_uri: str, language: str, docs_dir: Path, languages: Languages) -> str:
    r"""``markdown`` with each placeholder line replaced by its table.

    Parameters
    ----------
    markdown : str
        A page's Markdown.
    src_uri : str
        The page's path in the docs folder, for the error message.
    language : str
        The code of the page's language: the table's words and order follow it.
    docs_dir : Path
        The docs folder the tables are made from.
    languages : Languages
        The site's languages.

    Returns
    -------
    str
        ``markdown`` with every ``<!-- posenc: <name> -->`` line replaced by ``TABLES[name]``'s
        table.

    Raises
    ------
    PluginError
        A placeholder names no table of ``TABLES``; the message names the page.

    Examples
    --------
    >>> from posenc_site.i18n.languages import from_file
    >>> site = from_file(Path("mkdocs.yml"))
    >>> page = "# Glossary\n\n<!-- posenc: glossary -->\n"
    >>> fill(page, "glossary.md", "en", Path("docs"), site).splitlines()[5]
    '## A { #letter-a data-search-exclude }'
    """

    def table(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in TABLES:
            known = ", ".join(TABLES)
            raise PluginError(
                f"{src_uri}: no table {name!r} for '<!-- posenc: {name} -->' ({known})"
            )
        return TABLES[name](language, docs_dir, languages)

    return PLACEHOLDER.sub(table, markdown)
