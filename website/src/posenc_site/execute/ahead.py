"""Run the code blocks a build will execute in other processes, ahead of the pages that show them.

Why: on a build without stored outputs (a fresh clone, CI, after an edit of posenc), running
the blocks, the figures above all, with the imports of NumPy and matplotlib, took half of the
build, on one core while the other one idled. Which code the blocks hold is known before any
page is rendered, so worker processes run it from the start of the build, and a page waits
only for the outputs it needs: on 2 cores, a build without stored outputs took 6.0 s this way,
against 8.1 s running the blocks in the build (``benchmarks/build.py``'s builds, best of 4; 4.0 s
without executing them). Nothing in MkDocs or markdown-exec runs blocks in parallel; the
workers are a ``concurrent.futures.ProcessPoolExecutor``.

What runs ahead (:func:`planned`, :func:`runs_ahead`): the ``python`` blocks with ``exec="on"``
of every page, snippets expanded (``posenc_site.execute.blocks``), in the order MkDocs renders
them, but

- blocks of a ``session`` or with a ``workdir``, which depend on more than their own code, and
  blocks with a ``width``, which markdown-exec runs with ``COLUMNS`` set;
- blocks that read the site (``posenc_site.execute.cache.reads_site``), whose output depends
  on the pages being built.

``posenc_site.execute.Execution`` leaves out the blocks whose output is stored already, and
starts workers only when the build runs the code on disk, and in the first build of the
process only: under ``mkdocs serve``, a block changed after it runs at once in the server,
which has imported what it needs.

The workers are started with the ``spawn`` method: fresh interpreters that import posenc from
disk, given the build's ``sys.path``. Submitting to ``spawn`` workers returns at once, where
``forkserver`` blocks the first submission until its server has started and imported the
build's main module, and leaves that server running after the build. A spawned worker
imports the build's main module first too: a script that builds the site in its own process
keeps its work under ``if __name__ == "__main__":`` (``mkdocs``, ``python -m mkdocs`` and
pytest do). Each block runs through ``posenc_site.execute.run.run_python``, the function the
build runs blocks with. A block whose code did not run ahead, that raised there, or whose
worker died runs in the build as before: an error is always reported by the build, naming its
page, never taken from a worker.
"""

import multiprocessing
import os
import signal
import sys
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import BrokenExecutor, CancelledError, Future, ProcessPoolExecutor
from pathlib import Path

from markdown_exec import ExecutionError

from posenc_site.execute.blocks import Block, page_blocks
from posenc_site.execute.cache import reads_site
from posenc_site.execute.run import label, run_python

_FALSE = {"", "no", "off", "false", "0"}  # markdown-exec's own reading of exec="..."


def runs_ahead(block: Block) -> bool:
    """Whether a block may run in a worker: executed Python that depends on its code alone.

    Parameters
    ----------
    block : Block
        A fenced block of a page.

    Returns
    -------
    bool
        False for other languages, blocks not executed, blocks of a session, with a workdir or
        a width, and blocks that read the site.
    """
    attributes = block.attributes
    return (
        block.language == "python"
        and attributes.get("exec", "").lower() not in _FALSE
        and not attributes.get("session")
        and not attributes.get("workdir")
        and attributes.get("width", "0") == "0"
        and not reads_site(block.source)
    )


def pages_in_build_order(
    docs_dir: Path, page_suffixes: Mapping[str, str]
) -> list[tuple[Path, str]]:
    """The Markdown pages under ``docs_dir``, language by language, as MkDocs renders them.

    Parameters
    ----------
    docs_dir : Path
        The docs folder.
    page_suffixes : mapping of str to str
        Each language's code to the ending of its pages, the default language (``.md``) first.

    Returns
    -------
    list of (Path, str)
        Each page and its language's code. Within a language, the files of a folder come
        before its subfolders, by name.
    """
    pages = sorted(docs_dir.rglob("*.md"), key=lambda p: (len(p.relative_to(docs_dir).parts), p))
    (default, *others) = page_suffixes.items()
    other_suffixes = tuple(suffix for _, suffix in others)
    ordered = [(page, default[0]) for page in pages if not page.name.endswith(other_suffixes)]
    for code, suffix in others:
        ordered += [(page, code) for page in pages if page.name.endswith(suffix)]
    return ordered


def planned(pages: Iterable[tuple[Path, str]], base_paths: Sequence[Path]) -> list[tuple[str, str]]:
    """The blocks of ``pages`` that may run ahead, in order, each code once per language.

    Parameters
    ----------
    pages : iterable of (Path, str)
        Pages and their languages' codes (:func:`pages_in_build_order`).
    base_paths : sequence of Path
        The folders of pymdownx.snippets' ``base_path``.

    Returns
    -------
    list of (str, str)
        The code of each block (without trailing newlines) and its page's language.
    """
    found: dict[tuple[str, str], None] = {}
    for page, language in pages:
        for block in page_blocks(page, base_paths):
            if runs_ahead(block):
                found.setdefault((block.source.rstrip("\n"), language), None)
    return list(found)


def _start_worker(path: list[str]) -> None:
    """Set a worker up: the build's ``sys.path``; Ctrl+C ends it at once."""
    sys.path[:] = path
    # Else a KeyboardInterrupt would end only the block under way, and the worker would go on
    # with the next ones while the build stops.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _output(code: str, number: int) -> str | None:
    """What ``code`` prints, run as in the build; None when it raised (the build reports it)."""
    try:
        return run_python(code, label(number))
    except (ExecutionError, SystemExit):
        return None


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class RunAhead:
    r"""Worker processes running ``codes`` in order from now on, and what each printed.

    Parameters
    ----------
    codes : sequence of str
        The blocks' code, in the order the build will need them.
    workers : int, optional
        How many processes; by default one core fewer than this process may use (the build
        keeps one), at least one and at most four (each imports NumPy and matplotlib, about
        100 MB).

    Examples
    --------
    >>> ahead = RunAhead(['print("one")', "1 / 0"])
    >>> ahead.output('print("one")\n'), ahead.output("1 / 0"), ahead.output("print(2)")
    ('one\n', None, None)
    >>> ahead.close()
    """

    def __init__(self, codes: Sequence[str], workers: int | None = None) -> None:
        count = workers or min(4, max(1, _cpus() - 1))
        before = set(multiprocessing.active_children())
        self._pool = ProcessPoolExecutor(
            max_workers=min(count, max(1, len(codes))),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(list(sys.path),),
        )
        self._futures: dict[str, Future[str | None]] = {}
        for number, code in enumerate(codes, start=1):
            key = code.rstrip("\n")
            if key not in self._futures:
                self._futures[key] = self._pool.submit(_output, key, number)
        # The pool's processes exist once the first block is submitted; closing kills them.
        self._workers = [p for p in multiprocessing.active_children() if p not in before]

    def output(self, code: str) -> str | None:
        """What ``code`` printed in a worker, waiting for it.

        Parameters
        ----------
        code : str
            A block's code; trailing newlines do not count.

        Returns
        -------
        str or None
            None when ``code`` was not sent, raised in the worker, or its worker stopped
            (then at once).
        """
        future = self._futures.get(code.rstrip("\n"))
        if future is None:
            return None
        try:
            return future.result()
        except (CancelledError, BrokenExecutor):
            return None

    def close(self) -> None:
        """Stop the workers, the block under way too; outputs not yet given stay missing."""
        running = [future for future in self._futures.values() if not future.cancel()]
        if not all(future.done() for future in running):
            for worker in self._workers:
                worker.kill()
        self._pool.shutdown(wait=True, cancel_futures=True)
