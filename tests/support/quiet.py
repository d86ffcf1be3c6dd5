"""A quiet machine for a measurement: the other xdist workers' tests wait while it runs.

Lighthouse's performance score is computed from the time the page's tasks took, and its
documentation on variability asks for a machine that runs nothing else. The suite runs on
every core: beside the other worker's browsers and builds, the longest lessons measured a
total blocking time of 480-540 ms in CI (performance 81-84) where the same pages measure
100-130 ms (98-99) alone. So every test runs holding a shared lock (``pytest_runtest_protocol``
in tests/conftest.py), and a measurement holds it alone (``alone``): it first closes a gate, so
that no test starts, then waits for the tests under way to finish.

A turnstile of two ``flock`` locks, one file each, named by the run's id (pytest-xdist's
``testrunuid``, the same in every worker of a run): a gate that a test passes through before
it takes the shared lock, and the shared lock. (One lock would not do: ``flock`` grants new
shared holders while an exclusive request waits, so a measurement could wait for ever.)
"""

import contextlib
import fcntl
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

_HELD: dict[str, int] = {}  # lock file -> its descriptor, while this process holds the lock


FOLDER = Path(tempfile.gettempdir()) / "posenc-quiet"
STALE = 24 * 3600  # seconds: the lock files of a run that ended a day ago are removed


def _files(config: pytest.Config) -> tuple[Path, Path] | None:
    """The gate's and the shared lock's files of this run; None outside pytest-xdist."""
    run = getattr(config, "workerinput", {}).get("testrunuid")
    if run is None:
        return None
    FOLDER.mkdir(exist_ok=True)
    return FOLDER / f"{run}.gate", FOLDER / f"{run}.lock"


def remove_stale() -> None:
    """Remove the lock files of runs that ended long ago (a run's own are in use)."""
    if FOLDER.is_dir():
        now = time.time()
        for file in FOLDER.iterdir():
            with contextlib.suppress(FileNotFoundError):
                if now - file.stat().st_mtime > STALE:
                    file.unlink()


def _open(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)


@contextlib.contextmanager
def shared(config: pytest.Config) -> Iterator[None]:
    """Hold the shared lock while a test runs, once the gate lets it pass."""
    files = _files(config)
    if files is None:
        yield
        return
    gate, lock = files
    gate_fd, lock_fd = _open(gate), _open(lock)
    try:
        fcntl.flock(gate_fd, fcntl.LOCK_EX)  # waits while a measurement holds the gate
        fcntl.flock(lock_fd, fcntl.LOCK_SH)
        fcntl.flock(gate_fd, fcntl.LOCK_UN)
        _HELD[str(lock)] = lock_fd
        yield
    finally:
        _HELD.pop(str(lock), None)
        os.close(lock_fd)  # releases the lock
        os.close(gate_fd)


@contextlib.contextmanager
def alone(config: pytest.Config) -> Iterator[None]:
    """Run the block while no test of another worker runs.

    Lets go of this test's shared lock, closes the gate (no test starts), then takes the lock
    alone, which waits for the tests under way in other workers to end; afterwards the test
    holds its shared lock again.
    """
    files = _files(config)
    if files is None:
        yield
        return
    gate, lock = files
    gate_fd = _open(gate)
    own = _HELD.get(str(lock))
    lock_fd = own if own is not None else _open(lock)
    try:
        if own is not None:
            # Let go of this test's own shared lock first: a test of another worker that waits
            # at the gate for a measurement of its own would otherwise wait for this one.
            fcntl.flock(lock_fd, fcntl.LOCK_UN)
        fcntl.flock(gate_fd, fcntl.LOCK_EX)
        fcntl.flock(lock_fd, fcntl.LOCK_EX)
        yield
    finally:
        if own is not None:
            fcntl.flock(lock_fd, fcntl.LOCK_SH)
        else:
            os.close(lock_fd)
        os.close(gate_fd)
