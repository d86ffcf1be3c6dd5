"""A code block that raises while markdown-exec runs it stops the build, naming the page.

markdown-exec itself only logs a warning ("Execution of ... code block ... exited with ...";
``--strict`` turns it into a failure that does not name the page) and puts the traceback into
the page. Its log text is the only signal it gives, so the wording is pinned by a test
(tests/test_pinned_internals.py).
"""

import logging

from mkdocs.exceptions import PluginError

LOGGER = "mkdocs.plugins.markdown_exec"


class _Failures(logging.Handler):
    """Collects markdown-exec's failure warnings of the page being converted."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []
        self.total = 0

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if is_failure(message):
            self.messages.append(message)
            self.total += 1


def is_failure(message: str) -> bool:
    """Whether a markdown-exec log message reports a block that raised."""
    return "Execution of" in message and "code block" in message


_failures = _Failures()
logging.getLogger(LOGGER).addHandler(_failures)


def start_page() -> None:
    """Forget the failures of the previous page."""
    _failures.messages.clear()


def count() -> int:
    """How many failures this process has seen: a block raised if the count grew while it ran."""
    return _failures.total


def check(src_uri: str) -> None:
    """Raise PluginError naming the page if one of its executed blocks raised."""
    if _failures.messages:
        raise PluginError(
            f"{src_uri}: {len(_failures.messages)} executed code block(s) raised. "
            f"First:\n{_failures.messages[0]}"
        )
