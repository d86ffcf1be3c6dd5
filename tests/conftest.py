"""What every tier of the suite needs: its marks, the order of a run, the shared site build.

A test's tier is the folder it is in (see pyproject's markers): ``lib``, ``site`` and ``docs``
need no build, ``oracle`` compares posenc with PyTorch and Transformers (and tests posenc.torch),
``style`` runs the linters, ``build`` builds a site and ``browser`` drives Chromium. Each
folder's conftest.py holds the fixtures of its tier; tests/support holds what tests share.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from support import quiet
from support.builds import BackgroundRun, SiteBuild

TESTS = Path(__file__).resolve().parent
# Folders whose tests carry their name as a mark.
MARKED_TIERS = ("build", "browser", "oracle", "style")
_READS_SITE = {"site", "classroom"}  # fixtures that wait for the shared site build
_ORACLE_FIXTURES = {"torch", "transformers"}


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Collect no conftest.py as a module of doctests (``--doctest-modules``).

    They hold none, and each would be imported under the one name ``conftest``, which the
    conftest.py of every tier folder has.
    """
    return True if collection_path.name == "conftest.py" else None


def pytest_sessionstart(session: pytest.Session) -> None:
    """In the main process, clear the lock files that earlier runs left (``support.quiet``)."""
    if not hasattr(session.config, "workerinput"):
        quiet.remove_stale()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Each test runs holding the shared lock of ``support.quiet``: a measurement that needs
    the machine alone (Lighthouse) waits for it, and the next test waits for the measurement."""
    with quiet.shared(item.config):
        return (yield)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print what the Lighthouse tests measured (recorded as ``lighthouse`` properties).

    The tests may run in xdist workers, whose output pytest does not show; their reports
    carry the recorded properties to this process. Here, not in tests/browser/conftest.py:
    under xdist the main process collects nothing and never reads the tiers' conftest files.
    """
    lines = [
        value
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "call"
        for name, value in getattr(report, "user_properties", ())
        if name == "lighthouse"
    ]
    if lines:
        terminalreporter.write_sep("-", "Lighthouse (mobile, simulated throttling)")
        for line in sorted(lines):
            terminalreporter.write_line(line)


def tier(item: pytest.Item) -> str | None:
    """The folder of tests/ that ``item`` is in (None for doctests and pages outside it)."""
    path = Path(item.path)
    return path.relative_to(TESTS).parts[0] if path.is_relative_to(TESTS) else None


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its tier, from its folder; stop the run if a test is outside it.

    The tests that import torch (``torch``, ``transformers``) form one xdist group, for one
    worker to pay for the import.

    Then order the run, slowest first in each part: the tests that do not read the shared site
    run while it builds in the background (see ``SiteBuild``), those that read it last, and
    with them those of the classroom copy, which is built after it. Before them, the tests that
    read the fresh runs of the pages' blocks, which also run in the background (see
    ``support.fresh_runs``). The slow ones are the build tier's tests that build a project of
    their own. Every xdist worker sorts the same.
    """
    wrong = [f"{item.nodeid}: {reason}" for item in items if (reason := misplaced(item))]
    if wrong:
        raise pytest.UsageError("tests outside their tier's folder:\n" + "\n".join(wrong))
    for item in items:
        if (folder := tier(item)) in MARKED_TIERS:
            item.add_marker(getattr(pytest.mark, folder))
        if _fixtures(item) & _ORACLE_FIXTURES:
            item.add_marker(pytest.mark.xdist_group("torch"))
    items.sort(key=_order)


# What only the tests of a folder may use: the shared site build (its pages are built by the
# build tier and opened by the browser tier), and a browser (pytest-playwright's fixtures).
_ONLY_IN = [
    ({"build", "browser"}, {"site", "site_build"}),
    ({"browser"}, {"page", "browser", "context", "browser_context", "browser_type"}),
]


def misplaced(item: pytest.Item) -> str | None:
    """Why ``item`` is not in the folder of its tier, if it is not: it uses the site build
    outside tests/build and tests/browser, or a browser outside tests/browser."""
    callspec = getattr(item, "callspec", None)
    fixtures = _fixtures(item) - set(callspec.params if callspec else ())  # not parameters
    for tiers, names in _ONLY_IN:
        if tier(item) not in tiers and (used := sorted(fixtures & names)):
            where = " or ".join(f"tests/{folder}" for folder in sorted(tiers))
            return f"uses {', '.join(used)}: it belongs in {where}"
    return None


def _order(item: pytest.Item) -> tuple[bool, bool, bool]:
    fixtures = _fixtures(item)
    return (bool(fixtures & _READS_SITE), "fresh_runs" in fixtures, tier(item) != "build")


def _fixtures(item: pytest.Item) -> set[str]:
    return set(getattr(item, "fixturenames", ()))


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """A folder of this run that every xdist worker sees (pytest-xdist's documented pattern for
    work done once per run): the workers' temporary folders' parent."""
    if worker_id == "master":  # not under xdist
        return tmp_path_factory.mktemp("shared")
    return tmp_path_factory.getbasetemp().parent


@pytest.fixture(scope="session")
def site_build(shared_dir: Path) -> Iterator[SiteBuild]:
    """The shared site build of this run."""
    build = SiteBuild(shared_dir)
    yield build
    build.reap()


@pytest.fixture(scope="session")
def fresh_runs_job(shared_dir: Path) -> Iterator[BackgroundRun]:
    """The fresh runs of the pages' blocks in this run (support.fresh_runs)."""
    from support.fresh_runs import FreshRuns  # reads every page: only in runs that use it

    job = FreshRuns(shared_dir)
    yield job
    job.reap()


@pytest.fixture(scope="session", autouse=True)
def _background_starts_early(request: pytest.FixtureRequest) -> None:
    """Start the site build and the fresh runs with the run, when a selected test needs them."""
    needed = set().union(*(_fixtures(item) for item in request.session.items))
    if needed & _READS_SITE:
        request.getfixturevalue("site_build").start()
    if "fresh_runs" in needed:
        request.getfixturevalue("fresh_runs_job").start()


@pytest.fixture(scope="session")
def site(site_build: SiteBuild) -> Path:
    """The site, built once per test run with ``mkdocs build --strict``."""
    return site_build.site()
