"""The turnstile of support.quiet: a measurement waits for the test under way in another
worker, and no test starts while it runs."""

import multiprocessing
import time
import uuid
from types import SimpleNamespace

from support import quiet

WAIT = 0.4  # seconds: long enough for a process that could take a lock to have taken it


def _config(run: str) -> SimpleNamespace:
    return SimpleNamespace(workerinput={"testrunuid": run})


def _test(run: str, started, release, log) -> None:
    with quiet.shared(_config(run)):
        log.put(("test starts", time.monotonic()))
        started.set()
        release.wait(10)
        log.put(("test ends", time.monotonic()))


def _measurement(run: str, log) -> None:
    with quiet.shared(_config(run)), quiet.alone(_config(run)):
        log.put(("measurement starts", time.monotonic()))
        time.sleep(WAIT)
        log.put(("measurement ends", time.monotonic()))


def _events(log, count: int) -> list[str]:
    return [
        name for name, _ in sorted((log.get(timeout=10) for _ in range(count)), key=lambda e: e[1])
    ]


def test_a_measurement_waits_for_the_test_under_way_and_the_next_test_for_it():
    context = multiprocessing.get_context("fork")
    run = uuid.uuid4().hex
    log = context.Queue()
    first_started, release, second_started = context.Event(), context.Event(), context.Event()
    first = context.Process(target=_test, args=(run, first_started, release, log))
    first.start()
    assert first_started.wait(10)
    measurement = context.Process(target=_measurement, args=(run, log))
    measurement.start()
    time.sleep(WAIT)
    second = context.Process(target=_test, args=(run, second_started, release, log))
    second.start()
    time.sleep(WAIT)
    # The first test still runs: neither the measurement nor the second test has started.
    assert log.get(timeout=10)[0] == "test starts"
    assert log.empty()
    release.set()
    for process in (first, measurement, second):
        process.join(10)
        assert process.exitcode == 0
    assert _events(log, 5) == [
        "test ends",
        "measurement starts",
        "measurement ends",
        "test starts",
        "test ends",
    ]


def test_outside_xdist_nothing_waits():
    config = SimpleNamespace()
    start = time.monotonic()
    with quiet.shared(config), quiet.alone(config):
        pass
    assert time.monotonic() - start < 0.1


def _measuring_test(run: str, log) -> None:
    with quiet.shared(_config(run)):
        time.sleep(WAIT / 2)  # both tests under way before either measures
        with quiet.alone(_config(run)):
            log.put(("measures", time.monotonic()))
            time.sleep(WAIT / 2)
        log.put(("test ends", time.monotonic()))


def test_two_measurements_in_two_workers_take_turns():
    # Each waits for the other's test while holding its own: without letting go of its own
    # shared lock first, each would wait for the other for ever.
    context = multiprocessing.get_context("fork")
    run, log = uuid.uuid4().hex, context.Queue()
    workers = [context.Process(target=_measuring_test, args=(run, log)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(10)
        assert worker.exitcode == 0
    assert sorted(name for name, _ in (log.get(timeout=1) for _ in range(4))) == [
        "measures",
        "measures",
        "test ends",
        "test ends",
    ]
