"""Run the code blocks a build will execute in a second process, ahead of the pages that show them.

Why: on a build without cache entries (a fresh clone, CI, after an edit of posenc) running
the blocks, the figures above all, with the imports of NumPy and matplotlib, took half of the
build, on one core while the other one idled. Which code the blocks hold is known before any
page is rendered, so a worker process runs it from the start of the build, and the page
waits only for the outputs it needs. Nothing in MkDocs or markdown-exec runs blocks in
parallel, hence our own.

What runs ahead (:func:`planned`): the ``python`` blocks with ``exec="on"`` of every page,
snippets expanded (``posenc_site.execute.blocks``), in the order MkDocs renders them, but

- blocks of a session or with a workdir, which depend on more than their own code;
- blocks that use ``posenc_site``, which read the pages being built;
- blocks whose output is stored already: the cache marks the code of every output it stores
  (``exec_cache.Store.mark_ran``), under the salt of the posenc source.

The worker is started only when the build runs the code on disk (``Store.writable``) and its
process has run no block yet: under ``mkdocs serve``, after the first build, a changed block
runs at once in the server, which has imported what it needs.

The worker (``python -m posenc_site.execute.ahead``) gets the build's ``sys.path``, so it imports
the same posenc, and runs each block with markdown-exec's own runner: a fresh namespace and
``print`` captured, as a block run in the build. It writes each output back as soon as it has
it. A block whose code the worker did not run, that raised there, or whose output never came
(the worker stopped) runs in the build as before: an error is reported by the build, naming
its page, and never taken from the worker.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any

from posenc_site.execute.blocks import page_blocks


def code_key(salt: str, code: str) -> str:
    """The key of a block's code under ``salt``: its trailing newlines do not count.

    superfences hands a block to its formatter without its last newline, but a snippet's
    with it; either runs the same.
    """
    return hashlib.sha256(f"{salt}\0{code.rstrip(chr(10))}".encode()).hexdigest()


def runs_ahead(language: str, attributes: dict[str, str], code: str) -> bool:
    """Whether a block may run in the worker: executed Python, on its own, not reading the site."""
    return (
        language == "python"
        and attributes.get("exec", "").lower() in {"on", "1", "true", "yes"}
        and not attributes.get("session")
        and not attributes.get("workdir")
        and "posenc_site" not in code
    )


def pages_in_build_order(docs_dir: Path, page_suffixes: Sequence[str]) -> list[Path]:
    """The Markdown pages under ``docs_dir``, language by language, as MkDocs renders them.

    ``page_suffixes`` are the languages' page endings, the default language's (``.md``) first.
    Within a language, the files of a folder come before its subfolders, by name.
    """
    pages = sorted(docs_dir.rglob("*.md"), key=lambda p: (len(p.relative_to(docs_dir).parts), p))
    others = page_suffixes[1:]
    ordered = []
    for n, suffix in enumerate(page_suffixes):
        ordered += [
            page
            for page in pages
            if (page.name.endswith(suffix) if n else not page.name.endswith(tuple(others)))
        ]
    return ordered


def planned(pages: Iterable[Path], base_paths: Sequence[Path]) -> list[str]:
    """The code of every block of ``pages`` that may run ahead, in order, each code once."""
    codes: dict[str, None] = {}
    for page in pages:
        for block in page_blocks(page, base_paths):
            if runs_ahead(block.language, block.attributes, block.source):
                codes.setdefault(block.source.rstrip("\n"), None)
    return list(codes)


class Ahead:
    """A worker process running ``codes`` in order, and the outputs it sent back.

    :meth:`output` waits for the output of one code; ``None`` when the worker did not run it,
    it raised there, or the worker stopped first.
    """

    def __init__(self, codes: Sequence[str], salt: str) -> None:
        self.salt = salt
        self._index = {code_key(salt, code): n for n, code in enumerate(codes)}
        self._outputs: dict[int, str | None] = {}
        self._done = False
        self._changed = threading.Condition()
        # posenc_site itself from where this process has it; the rest from sys.path, sent below.
        here = str(Path(__file__).resolve().parent.parent)
        python_path = os.pathsep.join([here, *filter(None, [os.environ.get("PYTHONPATH")])])
        self._process = subprocess.Popen(
            [sys.executable, "-m", "posenc_site.execute.ahead"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": python_path},
        )
        atexit.register(self.stop)
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None
        assert stdout is not None
        threading.Thread(target=self._send, args=(stdin, codes), daemon=True).start()
        threading.Thread(target=self._receive, args=(stdout,), daemon=True).start()

    def _send(self, stdin: IO[bytes], codes: Sequence[str]) -> None:
        try:
            with stdin:
                stdin.write(json.dumps({"path": sys.path, "codes": list(codes)}).encode())
        except OSError:  # the worker stopped: every output is missing, the build runs them
            pass

    def _receive(self, outputs: IO[bytes]) -> None:
        with outputs:
            for line in outputs:
                n, output = json.loads(line)
                with self._changed:
                    self._outputs[n] = output
                    self._changed.notify_all()
        with self._changed:
            self._done = True
            self._changed.notify_all()

    def output(self, code: str) -> str | None:
        """What ``code`` printed in the worker, waiting for it; or None (see the class)."""
        n = self._index.get(code_key(self.salt, code))
        if n is None:
            return None
        with self._changed:
            self._changed.wait_for(lambda: n in self._outputs or self._done)
            return self._outputs.get(n)

    def stop(self) -> None:
        """End the worker if it still runs (the build ended or failed before its last block)."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()


def _run(code: str) -> str | None:
    """What ``code`` prints, run as markdown-exec runs a block; None if it raised."""
    from markdown_exec._internal.formatters.python import _run_python

    try:
        output: str = _run_python(code)
    except Exception:  # the build runs it again and reports the error
        return None
    return output


def main() -> None:
    """The worker: read sys.path and the codes on stdin, write ``[n, output]`` lines back.

    The lines go to the standard output it was started with; from then on, the standard
    output is the standard error, so that nothing a block writes past ``print`` (which
    markdown-exec captures) reaches them.
    """
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    request: dict[str, Any] = json.loads(sys.stdin.buffer.read())
    sys.path[:] = request["path"]
    with channel:
        for n, code in enumerate(request["codes"]):
            channel.write(json.dumps([n, _run(code)]) + "\n")
            channel.flush()


if __name__ == "__main__":
    main()
