"""Run code blocks each in a fresh process, as a reader who copies one block would.

``python -I [-S] fresh_interpreter.py JOB RESULTS``: JOB is a JSON file holding ``path`` (folders
put first on ``sys.path``), ``preload`` (modules to import first), ``timeout`` (seconds per
block) and ``blocks`` (``name``, ``code``, ``folder``); RESULTS receives, by block name, its exit
code, stdout and stderr.

The interpreter imports the ``preload`` modules once and then forks one child per block: each
child starts from an interpreter that has run no other block (no imports, globals, print
options or random state of another block), and pays a fork instead of NumPy's import. Each
child runs its block as a script (``__name__ == "__main__"``, empty globals) in its own
folder, with its output going to files, as ``python block.py`` would. Only the standard
library is used here, so that ``-S`` keeps site-packages out.
"""

import builtins
import importlib
import json
import os
import signal
import sys
import traceback
from pathlib import Path


def _run_child(code: str, name: str, folder: Path, timeout: int) -> None:
    """In the forked child: run ``code`` with fds 1 and 2 on files, then exit. Never returns."""
    status = 1
    try:
        os.chdir(folder)
        for fd, stream in ((1, "stdout"), (2, "stderr")):
            handle = os.open(folder / stream, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(handle, fd)
            os.close(handle)
        signal.alarm(timeout)
        exec(compile(code, name, "exec"), {"__name__": "__main__", "__builtins__": builtins})
        status = 0
    except SystemExit as exit:  # as the interpreter treats a script's sys.exit()
        if exit.code is None or isinstance(exit.code, int):
            status = exit.code or 0
        else:
            print(exit.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def run(code: str, name: str, folder: Path, timeout: int) -> dict[str, object]:
    """Exit code, stdout and stderr of ``code`` run in a forked child."""
    folder.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _run_child(code, name, folder, timeout)
    _, wait_status = os.waitpid(pid, 0)
    returncode = os.waitstatus_to_exitcode(wait_status)
    stdout, stderr = ((folder / s).read_text(encoding="utf-8") for s in ("stdout", "stderr"))
    if returncode == -signal.SIGALRM:
        stderr += f"\ntimed out after {timeout} s\n"
    return {"returncode": returncode, "stdout": stdout, "stderr": stderr}


def main(job_file: str, results_file: str) -> None:
    job = json.loads(Path(job_file).read_text(encoding="utf-8"))
    sys.path[:0] = job["path"]
    for module in job["preload"]:
        importlib.import_module(module)
    results = {
        block["name"]: run(block["code"], block["name"], Path(block["folder"]), job["timeout"])
        for block in job["blocks"]
    }
    Path(results_file).write_text(json.dumps(results), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
