"""MkDocs hooks of the posenc site (see ``hooks:`` in mkdocs.yml).

- A code block that raises while markdown-exec runs it aborts the build with the page named,
  in every build mode. markdown-exec itself only logs a warning (which ``--strict`` turns into
  a failure without naming the page) and puts the traceback into the page.
- Formulas become MathML (``posenc_site.formulas``).
"""

import logging

from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

from posenc_site.formulas import FormulaError, render_math


class _ExecFailures(logging.Handler):
    """Collects markdown-exec's "Execution of ... code block ... exited with ..." warnings."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "Execution of" in message and "code block" in message:
            self.messages.append(message)


_failures = _ExecFailures()
logging.getLogger("mkdocs.plugins.markdown_exec").addHandler(_failures)


def on_page_markdown(markdown: str, page: Page, **_: object) -> str:
    """Forget failures of the previous page before this one is converted."""
    _failures.messages.clear()
    return markdown


def on_page_content(html: str, page: Page, **_: object) -> str:
    """Fail on a raising code block or a bad formula, naming the page; render formulas."""
    if _failures.messages:
        first = _failures.messages[0]
        raise PluginError(
            f"{page.file.src_uri}: {len(_failures.messages)} executed code block(s) raised. "
            f"First:\n{first}"
        )
    try:
        return render_math(html)
    except FormulaError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from error
