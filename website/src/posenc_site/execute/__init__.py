"""Executed code blocks: markdown-exec's fences, run by our runner, cached, run ahead.

markdown-exec renders ``python exec="on"`` fences; its fence formatter (``formatter``) looks
the block's language up in ``markdown_exec.formatters``, and its Python entry is its public
``base_format`` with a private runner. :meth:`Execution.install` puts in that entry
``base_format`` with :meth:`Execution`'s runner, public names only, which

- takes the block's output from the cache (``posenc_site.execute.cache``) when it has it;
- else from the worker processes that run blocks ahead (``posenc_site.execute.ahead``);
- else runs the block here (``posenc_site.execute.run``), records a block that raised for
  :meth:`Execution.check_page`, which stops the build naming the page (markdown-exec only
  logs a warning and shows the traceback in the page, as it still does), and stores the
  output of a block that did not.

The blocks of a ``session`` share their variables for one language build (markdown-exec keeps
them for the whole process, across pages and languages).

Settings arrive as arguments; one object holds the state of an ``mkdocs`` invocation, and
should be kept for all of it (``mkdocs serve``'s rebuilds too): it remembers whether a build
has ended, and which code of posenc it imported.

A store is written only while the build runs the code on disk: under ``mkdocs serve``,
posenc and posenc_site stay imported from one rebuild to the next, and after their source
changes the blocks would run the old code, so from then on nothing is stored (the cache is
read still) until the server restarts. Workers are started only then too, and only in the
first build: under ``mkdocs serve``, a block changed after it runs at once in the server,
which has imported what it needs (or imports it once, where a new worker would each time).
"""

import functools
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import markdown_exec
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from posenc_site.execute import ahead, cache
from posenc_site.execute.run import label, run_python

__all__ = ["Execution"]

# The fence names markdown-exec gives its Python formatter.
PYTHON = ("python", "py")


class Execution:
    r"""Runs, caches and runs ahead the executed Python blocks of a site's builds.

    Parameters
    ----------
    config_file : Path
        The site's ``mkdocs.yml``: its text and the modules it names are in the cache's salt.
    docs_dir : Path
        The docs folder: its pages are read for the blocks to run ahead, its files hashed
        into the salt of the blocks that read the site.
    cache_dir : Path or None
        The folder of the stored outputs; None turns the cache, and the workers, off.
    run_ahead : bool
        Whether blocks without a stored output may run in worker processes from the start.
    snippet_base_paths : sequence of Path
        pymdownx.snippets' ``base_path`` folders, to expand the blocks planned ahead.
    page_suffixes : mapping of str to str
        Each language's code to the ending of its pages (``{"en": ".md", "tr": ".tr.md"}``),
        the default language first: the page language of each block planned ahead.

    Notes
    -----
    The plugin calls :meth:`install` at each ``on_config`` (each language's build),
    :meth:`start_page` at ``on_page_markdown``, :meth:`check_page` at ``on_page_content``,
    and :meth:`close` once the last language's pages are done (``on_post_build`` with a
    priority below mkdocs-static-i18n's -100, which builds the other languages inside its
    own) and at ``on_shutdown`` (which ``mkdocs build`` runs even when the build fails).
    A pool left running at the end of the process would finish every block it was given
    before Python exits.

    Examples
    --------
    >>> import markdown
    >>> execution = Execution(
    ...     config_file=Path("mkdocs.yml"), docs_dir=Path("docs"), cache_dir=None,
    ...     run_ahead=False, snippet_base_paths=[], page_suffixes={"en": ".md"},
    ... )
    >>> fence = {"name": "python", "class": "python", "validator": markdown_exec.validator,
    ...          "format": markdown_exec.formatter}
    >>> md = markdown.Markdown(extensions=["pymdownx.superfences"],
    ...     extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}})
    >>> execution.install_formatter()
    >>> execution.start_page("page.md", "en")
    >>> md.convert('```python exec="on"\nprint("**hi**")\n```')
    '<p><strong>hi</strong></p>'
    >>> _ = md.reset().convert('```python exec="on"\n1 / 0\n```')
    >>> try:
    ...     execution.check_page()
    ... except PluginError as error:
    ...     print(error)
    page.md: 1 executed code block(s) raised. First:
    Traceback (most recent call last):
      File "<code block: n2>", line 1, in <module>
        1 / 0
        ~~^~~
    ZeroDivisionError: division by zero
    <BLANKLINE>
    """

    def __init__(
        self,
        *,
        config_file: Path,
        docs_dir: Path,
        cache_dir: Path | None,
        run_ahead: bool,
        snippet_base_paths: Sequence[Path],
        page_suffixes: Mapping[str, str],
    ) -> None:
        self.config_file = config_file
        self.docs_dir = docs_dir
        self.cache_dir = cache_dir
        self.run_ahead = run_ahead
        self.snippet_base_paths = list(snippet_base_paths)
        self.page_suffixes = dict(page_suffixes)
        # Of the whole invocation:
        self._imported: dict[str, str] = {}  # module -> hash of its files when first seen
        self._built = False  # whether a build has ended (close)
        self._ahead: ahead.RunAhead | None = None
        self._planned_salt = ""  # the salt of the last plan of blocks to run ahead
        # Of one build (install):
        self._store: cache.Store | None = None
        self._salt = ""
        self._site_salt: str | None = None
        self._sessions: dict[str, dict[str, Any]] = {}
        self._numbers: Counter[str | None] = Counter()
        # What each block printed, page (src_uri) by page, in the order run: the notebooks'
        # outputs (posenc_site.publish.downloads).
        self.printed: dict[str, list[tuple[str, str]]] = {}
        # Of one page (start_page):
        self._page = ""
        self._language = ""
        self._failures: list[str] = []

    def install_formatter(self) -> None:
        """Make markdown-exec's Python fences run through this object (``install`` does it)."""
        for name in PYTHON:
            markdown_exec.formatters[name] = self._format

    def install(self, config: MkDocsConfig) -> None:
        """Start a build: this object's formatter, a fresh store and salt, workers if due.

        Parameters
        ----------
        config : MkDocsConfig
            The build's configuration, after markdown-exec's ``on_config`` has added its
            fences (hooks and later plugins run after it). Without a Python fence of
            markdown-exec's, no block will run: no worker is started.
        """
        self.install_formatter()
        self._sessions.clear()
        self._numbers.clear()
        self.printed.clear()
        self._site_salt = None
        if self.cache_dir is None:
            self._store = None
            self._stop_ahead()
            return
        code = cache.code_hashes(self.config_file)
        current = self._runs_current_code({**code, "posenc_site": cache.site_code_hash()})
        self._salt = cache.salt(self.config_file, code)
        self._store = cache.Store(self.cache_dir, writable=current)
        if self._ahead is not None and (self._planned_salt != self._salt or not current):
            self._stop_ahead()
        # Planned once per salt: the next language's build keeps the workers, or has none.
        due = self.run_ahead and current and not self._built and _executes(config)
        if due and self._planned_salt != self._salt:
            self._start_ahead(self._store)

    def start_page(self, src_uri: str, language: str) -> None:
        """Start a page: its blocks' outputs are keyed by ``language``; no failures yet.

        Parameters
        ----------
        src_uri : str
            The page's path in the docs folder, for :meth:`check_page`'s message.
        language : str
            The code of the page's language.
        """
        self._page, self._language = src_uri, language
        self._failures = []

    def check_page(self) -> None:
        """Stop the build if an executed block of the page raised.

        Raises
        ------
        PluginError
            Naming the page, how many of its blocks raised, and the first one's traceback.
        """
        if self._failures:
            raise PluginError(
                f"{self._page}: {len(self._failures)} executed code block(s) raised. "
                f"First:\n{self._failures[0]}"
            )

    def close(self) -> None:
        """End a build (all its languages): stop the workers; later builds start none."""
        self._built = True
        self._stop_ahead()

    def _stop_ahead(self) -> None:
        if self._ahead is not None:
            self._ahead.close()
            self._ahead = None

    def _format(self, **options: Any) -> str:
        """markdown-exec's Python formatter, ``base_format``, with :meth:`_run` as runner."""
        run = functools.partial(
            self._run, width=options.get("width") or 0, workdir=options.get("workdir")
        )
        html: str = markdown_exec.base_format(language="python", run=run, **options)
        return html

    def _run(
        self,
        code: str,
        *,
        width: int,
        workdir: str | None,
        returncode: int | None = None,
        session: str | None = None,
        id: str = "",
        **extra: str,
    ) -> str:
        """What a block prints: stored, from a worker, or run here (see the module)."""
        store, name = self._store, ""
        if store is not None and not session and not workdir:
            salt = self._salt_of_site() if cache.reads_site(code) else self._salt
            name = cache.key(code, self._language, salt, width)
            output = store.read(name)
            if output is not None:
                return self._record(code, output)
        output = self._ahead.output(code) if name and self._ahead and not width else None
        if output is None:
            output = self._run_here(code, session, id, extra)
        if store is not None and name:
            store.write(name, output)
        return self._record(code, output)

    def _record(self, code: str, output: str) -> str:
        """``output``, kept in ``printed`` under the page being built."""
        self.printed.setdefault(self._page, []).append((code, output))
        return output

    def _run_here(self, code: str, session: str | None, id_: str, extra: dict[str, str]) -> str:
        self._numbers[session] += 1
        name = label(self._numbers[session], id=id_, session=session, title=extra.get("title"))
        namespace = self._sessions.setdefault(session, {}) if session else None
        try:
            return run_python(code, name, namespace, extra)
        except markdown_exec.ExecutionError as error:
            lines = str(error).split("\n")
            self._failures.append("\n".join(lines[1:-1]))  # without the fence's lines
            raise

    def _salt_of_site(self) -> str:
        if self._site_salt is None:
            self._site_salt = cache.site_salt(self._salt, self.docs_dir)
        return self._site_salt

    def _runs_current_code(self, code: dict[str, str]) -> bool:
        """Whether the modules this process has imported are those on disk (see the module)."""
        current = True
        for module, digest in code.items():
            if module in sys.modules and module in self._imported:
                current = current and self._imported[module] == digest
            else:  # not imported yet (it will be from these files), or just imported
                self._imported[module] = digest
        return current

    def _start_ahead(self, store: cache.Store) -> None:
        """Start workers on the planned blocks whose output ``store`` lacks, if there are any."""
        self._planned_salt = self._salt
        pages = ahead.pages_in_build_order(self.docs_dir, self.page_suffixes)
        missing = list(  # each code once: it prints the same on every page
            dict.fromkeys(
                code
                for code, language in ahead.planned(pages, self.snippet_base_paths)
                if not store.has(cache.key(code, language, self._salt))
            )
        )
        if not missing:
            return
        try:
            self._ahead = ahead.RunAhead(missing)
        except OSError:  # no process to be had: the blocks run in the build
            self._ahead = None


def _executes(config: MkDocsConfig) -> bool:
    """Whether markdown-exec's fence formatter renders a Python fence of ``config``."""
    superfences = config.mdx_configs.get("pymdownx.superfences", {})
    return any(
        fence.get("name") in PYTHON and fence.get("format") is markdown_exec.formatter
        for fence in superfences.get("custom_fences", [])
    )
