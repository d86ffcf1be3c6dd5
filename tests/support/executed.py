"""Executed code blocks converted in this process, as a page of a build converts them.

``Executions`` makes ``posenc_site.execute.Execution`` objects for a test and undoes what they
did: markdown-exec's Python formatters restored, their worker processes stopped.
"""

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import markdown
import markdown_exec

from posenc_site.execute import PYTHON, Execution
from support.project import ROOT

# The languages of the test pages: page.md and page.tr.md.
SUFFIXES = {"en": ".md", "tr": ".tr.md"}
_EXEC_ID = re.compile(r"exec-(\d+)--")
# markdown-exec's own Python formatter, taken when the tests are collected, before any build or
# test of this process has installed an Execution's.
MARKDOWN_EXECS_OWN = markdown_exec.formatters["python"]


def python_fence() -> dict[str, Any]:
    """The fence markdown-exec's plugin registers for ``python`` blocks."""
    return {
        "name": "python",
        "class": "python",
        "validator": markdown_exec.validator,
        "format": markdown_exec.formatter,
    }


def fake_config(docs: Path) -> SimpleNamespace:
    """What ``Execution.install`` reads of a configuration: the fences of ``mdx_configs``."""
    fences = {"custom_fences": [python_fence()]}
    return SimpleNamespace(
        config_file_path=str(ROOT / "mkdocs.yml"),
        docs_dir=str(docs),
        mdx_configs={"pymdownx.superfences": fences},
    )


def converter() -> markdown.Markdown:
    """Python-Markdown with the extensions executed blocks use on the site's pages."""
    return markdown.Markdown(
        extensions=["toc", "pymdownx.superfences", "pymdownx.tabbed"],
        extension_configs={
            "pymdownx.superfences": {"custom_fences": [python_fence()]},
            "pymdownx.tabbed": {"alternate_style": True},
        },
    )


def convert(
    execution: Execution | None, text: str, page: str = "page.md", language: str = "en"
) -> tuple[str, list[dict[str, Any]]]:
    """``text`` converted as the page ``page`` in ``language``: its HTML and its toc's tokens.

    Without ``execution``, by the formatter ``markdown_exec.formatters`` holds.

    markdown-exec numbers the ids of what blocks print (``exec-<n>--``) across a process; here
    they are renumbered from 1 at the page's first block, as on the first page of a build.
    """
    if execution is not None:
        execution.start_page(page, language)
    md = converter()
    html = md.convert(text)
    numbers = [int(n) for n in _EXEC_ID.findall(html)]
    start = min(numbers, default=1) - 1

    def renumbered(text: str) -> str:
        return _EXEC_ID.sub(lambda match: f"exec-{int(match[1]) - start}--", text)

    toc = json.loads(renumbered(json.dumps(md.toc_tokens)))  # type: ignore[attr-defined]
    return renumbered(html), toc


class Executions:
    """Makes ``Execution`` objects over ``docs`` and a cache folder, and undoes them at the end."""

    def __init__(self, docs: Path, cache: Path) -> None:
        self.docs, self.cache = docs, cache
        self.made: list[Execution] = []

    def __call__(self, **settings: Any) -> Execution:
        """An installed ``Execution``; ``settings`` replace the defaults (no run ahead)."""
        arguments: dict[str, Any] = {
            "config_file": ROOT / "mkdocs.yml",
            "docs_dir": self.docs,
            "cache_dir": self.cache,
            "run_ahead": False,
            "snippet_base_paths": [self.docs],
            "page_suffixes": SUFFIXES,
            **settings,
        }
        execution = Execution(**arguments)
        execution.install(fake_config(self.docs))  # type: ignore[arg-type]
        self.made.append(execution)
        return execution

    @contextmanager
    def active(self) -> Iterator["Executions"]:
        """Restore markdown-exec's formatters and stop the workers on the way out."""
        saved = {name: markdown_exec.formatters[name] for name in PYTHON}
        try:
            yield self
        finally:
            for execution in self.made:
                execution.close()
            markdown_exec.formatters.update(saved)


def counting_block(runs: Path, code: str = 'print("hello")', options: str = "") -> str:
    """A python fence that appends a line to ``runs`` each time it runs, then runs ``code``."""
    options = options or 'source="above" result="text"'
    return (
        f'```python exec="on" {options}\n'
        f"with open({str(runs)!r}, 'a') as f: f.write('ran\\n')\n"
        f"{code}\n```\n"
    )


def runs(path: Path) -> int:
    """How many times the blocks of ``counting_block(path)`` ran."""
    return len(path.read_text().splitlines()) if path.exists() else 0
