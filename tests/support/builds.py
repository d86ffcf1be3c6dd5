"""Builds that the tests of a run share: the site's, in the background, and those done once.

``SiteBuild`` is the one ``mkdocs build --strict`` of the site in a run; ``once`` runs another
build once per run, whichever xdist worker asks first; ``classroom_build`` makes the classroom
copy as the README says.
"""

import json
import os
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

from posenc_site.publish import classroom as classroom_copy
from support.project import ROOT, SITE_URL


def once(
    tmp_path_factory: pytest.TempPathFactory,
    worker_id: str,
    name: str,
    build: Callable[[Path], subprocess.CompletedProcess[str]],
) -> Path:
    """``build(out)`` once per test run, shared by the xdist workers; return ``out``.

    The first worker to take the lock builds, the others wait and read it (pytest-xdist's
    documented pattern for session fixtures that must run once).
    """
    if worker_id == "master":  # not under xdist
        root = tmp_path_factory.mktemp(f"{name}-build")
    else:
        root = tmp_path_factory.getbasetemp().parent
    out, log = root / name, root / f"{name}-build.log"
    with FileLock(str(root / f"{name}-build.lock")):
        if not log.exists():
            result = build(out)
            status = "ok" if result.returncode == 0 else "failed"
            log.write_text(f"{status}\n{result.stdout}{result.stderr}", encoding="utf-8")
    status, _, output = log.read_text(encoding="utf-8").partition("\n")
    assert status == "ok", output
    return out


# Work that runs in the background from the start of the run (the site build, the fresh runs
# of the pages' blocks), while the tests that do not need it run (they come first, see
# tests/conftest.py); then every xdist worker reads what it made. The process records its
# outcome in a file when it ends, so that any worker, not only the one that started it, can
# wait for it. It runs its commands one after the other and stops at the first that fails.
_RECORD = """
import json, subprocess, sys
from pathlib import Path

commands, log = json.loads(Path(sys.argv[1]).read_text("utf-8")), Path(sys.argv[2])
status, output = "ok", ""
for command in commands:
    result = subprocess.run(**command, capture_output=True, text=True, check=False)
    output += result.stdout + result.stderr
    if result.returncode != 0:
        status = "failed"
        break
partial = log.with_suffix(".partial")
partial.write_text(f"{status}\\n{output}", encoding="utf-8")
partial.replace(log)
"""


class BackgroundRun:
    """Commands that run once per test run, in the background, for every xdist worker.

    ``commands`` (for ``subprocess.run``: ``args``, ``cwd``, ``env``) is called by the worker
    that starts the run; ``wait`` returns once they have ended, and fails with their output if
    one failed.
    """

    name = "run"

    def __init__(self, root: Path) -> None:
        self.root = root
        self.log = root / f"{self.name}.log"
        self._lock = FileLock(str(root / f"{self.name}.lock"))
        self._pid = root / f"{self.name}.pid"
        self._process: subprocess.Popen[bytes] | None = None

    def commands(self) -> list[dict[str, object]]:
        """The commands to run: keyword arguments of ``subprocess.run``."""
        raise NotImplementedError

    def start(self) -> None:
        """Start the commands unless a worker of this run has started them already."""
        with self._lock:
            if self._pid.exists():
                return
            job = self.root / f"{self.name}-commands.json"
            job.write_text(json.dumps(self.commands()), encoding="utf-8")
            self._process = subprocess.Popen(
                [sys.executable, "-c", _RECORD, str(job), str(self.log)]
            )
            self._pid.write_text(str(self._process.pid), encoding="utf-8")

    def wait(self, timeout: float = 900) -> None:
        """Return once the commands have ended; fail with their output if one failed."""
        self.start()
        self.settle(timeout)
        status, _, output = self.log.read_text(encoding="utf-8").partition("\n")
        assert status == "ok", output

    def settle(self, timeout: float = 900) -> None:
        """Wait until the commands have ended, if a worker of this run has started them."""
        if self._process is not None:
            self._process.wait(timeout)
        if not self._pid.exists():
            return
        pid = int(self._pid.read_text(encoding="utf-8"))
        deadline = time.monotonic() + timeout
        while not self.log.exists():
            if not _running(pid):  # ended, or killed before it could record anything
                assert self.log.exists(), f"the {self.name} (process {pid}) ended without a log"
            assert time.monotonic() < deadline, f"the {self.name} took more than {timeout} s"
            time.sleep(0.1)

    def reap(self, timeout: float = 900) -> None:
        """Wait for the commands if this worker started them: another may still need them.

        (Ctrl-C reaches them too: they run in the process group of the tests.)
        """
        if self._process is not None:
            self._process.wait(timeout)


class SiteBuild(BackgroundRun):
    """The one ``mkdocs build --strict`` of the site that the workers of a run share."""

    name = "site-build"

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.out = root / "site"

    def commands(self) -> list[dict[str, object]]:
        """``mkdocs build --strict`` into ``out``, for the address the tests serve it at."""
        args = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(self.out)]
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "POSENC_SITE_URL": SITE_URL}
        return [{"args": args, "cwd": str(ROOT), "env": env}]

    def site(self, timeout: float = 900) -> Path:
        """The built site, once the build has ended; the build's output if it failed."""
        self.wait(timeout)
        return self.out


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def classroom_build(out: Path) -> subprocess.CompletedProcess[str]:
    """The README's command for the classroom copy, then the zip unpacked into ``out``."""
    out.mkdir()
    zip_file = out / "posenc-classroom.zip"
    command = [sys.executable, "-m", "posenc_site.publish.classroom", "--output", str(zip_file)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if result.returncode == 0:
        with zipfile.ZipFile(zip_file) as archive:
            archive.extractall(out)
    return result


@pytest.fixture(scope="session")
def classroom(
    tmp_path_factory: pytest.TempPathFactory, worker_id: str, site_build: SiteBuild
) -> Path:
    """The classroom copy (``python -m posenc_site.publish.classroom``), unzipped: its top folder.

    Built once the shared site build has ended (when the run has one, whatever its outcome):
    the code blocks have run then, and this build takes their outputs from the exec cache
    (``posenc_site.execute.cache``) rather than running every block a second time beside it.
    A fixture of the build and browser tiers (imported by their conftest.py).
    """
    site_build.settle()
    out = once(tmp_path_factory, worker_id, "classroom", classroom_build)
    return out / classroom_copy.FOLDER
