"""Run one executed Python block: what it prints, or markdown-exec's ``ExecutionError``.

markdown-exec's Python formatter is its public ``base_format`` with a runner of its own, which
is private. The build passes :func:`run_python` to ``base_format`` instead (see
``posenc_site.execute``), for three reasons: the execution cache stores what a block printed,
the run-ahead worker must run a block exactly as the build does (the same function, imported
from here), and a block that raises must be recorded for its page, which markdown-exec only
logs. It runs a block as markdown-exec 1.12 does:

- in a fresh namespace (a session's own, for the blocks of a ``session``), whose ``__name__``
  is also a module in ``sys.modules`` (``dataclasses`` looks the module up);
- with ``print`` writing to a buffer: ``" ".join(str(text) for text in texts) + end``, so
  ``sep`` and ``file`` are ignored, and what a block writes past ``print`` is not captured;
- named ``<code block: n1>`` (``id x``, ``session s; n2``, ``...; title t``) in tracebacks;
- on failure, raising ``ExecutionError`` holding the traceback as a fenced ``python`` block
  (``markdown_exec.code_block``, with the fence's extra options such as ``title``), which
  ``base_format`` shows in the page in place of the output.

Two differences in the traceback: it starts at the block (markdown-exec's shows two frames of
its own runner first, with their paths on the build machine), and the lines of the block are
looked up through ``linecache``, so the ``^^^`` marks stand under the failing expression
(markdown-exec sets the lines without their newline, and Python then draws the marks one column
to the right).
"""

import linecache
import re
import sys
import traceback
from collections.abc import Mapping
from io import StringIO
from types import ModuleType
from typing import Any

import markdown_exec


def label(
    number: int, *, id: str = "", session: str | None = None, title: str | None = None
) -> str:
    """The file name of a block in its tracebacks, as markdown-exec names it.

    Parameters
    ----------
    number : int
        The block's number among the blocks run so far (of its session, if any), from 1.
    id : str, optional
        The fence's ``id`` option: it names the block alone.
    session : str, optional
        The fence's ``session`` option.
    title : str, optional
        The fence's ``title`` option.

    Returns
    -------
    str
        ``<code block: ...>``.

    Examples
    --------
    >>> label(3)
    '<code block: n3>'
    >>> label(2, session="s", title="model.py")
    '<code block: session s; n2; title model.py>'
    >>> label(1, id="exercise-solution", title="model.py")
    '<code block: id exercise-solution>'
    """
    if id:
        name = f"id {id}"
    else:
        name = f"session {session}; n{number}" if session else f"n{number}"
        if title:
            name = f"{name}; title {title}"
    return f"<code block: {name}>"


def run_python(
    code: str,
    name: str,
    namespace: dict[str, Any] | None = None,
    options: Mapping[str, str] | None = None,
) -> str:
    r"""What ``code`` prints, run as markdown-exec runs an executed Python block.

    Parameters
    ----------
    code : str
        The block's code.
    name : str
        Its file name in tracebacks (:func:`label`).
    namespace : dict, optional
        The globals to run in: a session's, kept between its blocks. A fresh one by default.
    options : mapping of str to str, optional
        The fence's extra options (``title``, ...), written on the fence of a traceback.

    Returns
    -------
    str
        Everything the block passed to ``print``.

    Raises
    ------
    markdown_exec.ExecutionError
        The block raised; the message is the traceback as a fenced ``python`` block.

    Examples
    --------
    >>> run_python('print("x", 1)\nprint(2, end="")', label(1))
    'x 1\n2'
    >>> try:
    ...     run_python("x = 1\nx / 0", label(4), options={"title": "model.py"})
    ... except markdown_exec.ExecutionError as error:
    ...     print(error)
    ````````python title="model.py"
    Traceback (most recent call last):
      File "<code block: n4>", line 2, in <module>
        x / 0
        ~~^~~
    ZeroDivisionError: division by zero
    <BLANKLINE>
    ````````
    """
    globals_ = {} if namespace is None else namespace
    # Libraries expect functions to have a module, found in sys.modules (dataclasses does).
    module = re.sub(r"[^a-zA-Z\d]+", "_", name)
    globals_["__name__"] = module
    sys.modules[module] = ModuleType(module)
    buffer = StringIO()

    def print_(*texts: object, end: str = "\n", **_: object) -> None:
        buffer.write(" ".join(str(text) for text in texts) + end)

    globals_["print"] = print_
    try:
        # dont_inherit: none of this module's __future__ flags (markdown-exec's runner has none).
        exec(compile(code, name, "exec", dont_inherit=True), globals_)
    except Exception as error:
        raise markdown_exec.ExecutionError(_traceback(error, code, name, options or {})) from error
    return buffer.getvalue()


def _traceback(error: Exception, code: str, name: str, options: Mapping[str, str]) -> str:
    """The traceback of ``error`` from the block's first frame on, as a fenced block."""
    lines = [f"{line}\n" for line in code.split("\n")]  # as compile() counts lines
    linecache.cache[name] = (len(code), None, lines, name)
    try:
        # tb_next: from the block on, without this module's frame that ran it.
        trace = traceback.TracebackException(
            type(error), error, error.__traceback__.tb_next if error.__traceback__ else None
        )
    finally:
        linecache.cache.pop(name, None)
    block: str = markdown_exec.code_block("python", "".join(trace.format()), **options)
    return block
