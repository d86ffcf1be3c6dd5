import importlib
import os
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from filelock import FileLock
from playwright.sync_api import Browser, BrowserContext, Page
from support import page_weight

import hosting
from posenc_site import context
from posenc_site.i18n import languages, translations
from posenc_site.publish import classroom as classroom_copy

ROOT = Path(__file__).resolve().parent.parent
SITE = languages.from_file(ROOT / "mkdocs.yml")
TURKISH = SITE.get("tr")  # the site's second language: URL prefix and page suffix from here
# The tests build the site as the publishing workflow does for a GitHub project page: under a
# sub-path, which the browser tests serve it under (tests/hosting.py).
SITE_URL = f"https://example.github.io{hosting.PREFIX}"


_BUILD_FIXTURES = {
    "site",
    "small_project",
    "small_site",
    "site_url",
    "compressed_site_url",
    "classroom",
    "words_site_url",
}
_OWN_BUILD_FIXTURES = _BUILD_FIXTURES - {"site", "site_url", "compressed_site_url"}
_BROWSER_FIXTURES = {
    "page",
    "tab",
    "uncached_tab",
    "worker_context",
    "browser",
    "browser_context",
    "context",
}


_AFTER_SITE = {"site", "classroom"}  # fixtures that wait for the shared site build
_ORACLE_FIXTURES = {"torch", "transformers"}


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its tier, from the fixtures it uses (see pyproject's markers).

    The tests that import torch (``torch``, ``transformers``) form one xdist group, for one
    worker to pay for the import.

    Then order the run, slowest first in each part: the tests that do not read the shared site
    run while it builds in the background (see ``SiteBuild``), those that read it last, and
    with them those of the classroom copy, which is built after it (see ``classroom``). The
    slow ones build something of their own (marked ``build`` by hand, or using a fixture that
    builds). Every xdist worker sorts the same.
    """
    builds_own = {
        item.nodeid
        for item in items
        if item.get_closest_marker("build") or _fixtures(item) & _OWN_BUILD_FIXTURES
    }
    for item in items:
        if _fixtures(item) & _BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if _fixtures(item) & _BUILD_FIXTURES:
            item.add_marker(pytest.mark.build)
        if _fixtures(item) & _ORACLE_FIXTURES:
            item.add_marker(pytest.mark.xdist_group("torch"))
    items.sort(
        key=lambda item: (bool(_fixtures(item) & _AFTER_SITE), item.nodeid not in builds_own)
    )


def _fixtures(item: pytest.Item) -> set[str]:
    return set(getattr(item, "fixturenames", ()))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print what the Lighthouse tests measured (recorded as ``lighthouse`` properties).

    The tests may run in xdist workers, whose output pytest does not show; their reports
    carry the recorded properties to this process.
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


# torch and transformers are optional extras, and CI installs them (.ci/run): the tests that
# compare with them take these fixtures rather than importing them at the top of their module,
# which every xdist worker would do while collecting (some 6 s of processor time each).
EXTRAS = {"torch": "torch", "transformers": "oracle"}  # pyproject's extra that installs each


def oracle(name: str) -> object:
    """Import ``name``; skip where it is missing, fail in CI (``CI=true``), which has it."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        missing(f"{name} is not installed: python -m pip install -e '.[{EXTRAS[name]}]'")


@pytest.fixture(scope="session")
def torch() -> object:
    """The ``torch`` module (see ``oracle``)."""
    return oracle("torch")


@pytest.fixture(scope="session")
def transformers(torch: object) -> object:
    """Hugging Face Transformers (see ``oracle``), offline: nothing may be downloaded."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # read when transformers is imported
    return oracle("transformers")


def mkdocs_build(project: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` for the project at ``project`` into ``site``."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "POSENC_SITE_URL": SITE_URL},
        check=False,
    )


def _once(
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


# The site build runs in the background from the start of the run, while the tests that do not
# read the site run (they come first, see pytest_collection_modifyitems); then the shared build
# is read by every xdist worker. The process records its outcome in a file when it ends, so
# that any worker, not only the one that started it, can wait for it.
_RECORD_BUILD = """
import subprocess, sys
from pathlib import Path

command, log = sys.argv[1:-1], Path(sys.argv[-1])
result = subprocess.run(command, capture_output=True, text=True, check=False)
status = "ok" if result.returncode == 0 else "failed"
partial = log.with_suffix(".partial")
partial.write_text(f"{status}\\n{result.stdout}{result.stderr}", encoding="utf-8")
partial.replace(log)
"""


class SiteBuild:
    """The one ``mkdocs build --strict`` of the site that the workers of a run share."""

    def __init__(self, root: Path) -> None:
        self.out = root / "site"
        self.log = root / "site-build.log"
        self._lock = FileLock(str(root / "site-build.lock"))
        self._pid = root / "site-build.pid"
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the build unless a worker of this run has started it already."""
        with self._lock:
            if self._pid.exists():
                return
            command = [sys.executable, "-m", "mkdocs", "build", "--strict"]
            command += ["--site-dir", str(self.out)]
            self._process = subprocess.Popen(
                [sys.executable, "-c", _RECORD_BUILD, *command, str(self.log)],
                cwd=ROOT,
                env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "POSENC_SITE_URL": SITE_URL},
            )
            self._pid.write_text(str(self._process.pid), encoding="utf-8")

    def wait(self, timeout: float = 900) -> Path:
        """The built site, once the build has ended; the build's output if it failed."""
        self.start()
        self.settle(timeout)
        status, _, output = self.log.read_text(encoding="utf-8").partition("\n")
        assert status == "ok", output
        return self.out

    def settle(self, timeout: float = 900) -> None:
        """Wait until the build has ended, if a worker of this run has started it."""
        if self._process is not None:
            self._process.wait(timeout)
        if not self._pid.exists():
            return
        pid = int(self._pid.read_text(encoding="utf-8"))
        deadline = time.monotonic() + timeout
        while not self.log.exists():
            if not _running(pid):  # ended, or killed before it could record anything
                assert self.log.exists(), f"the site build (process {pid}) ended without a log"
            assert time.monotonic() < deadline, f"the site build took more than {timeout} s"
            time.sleep(0.1)

    def reap(self, timeout: float = 900) -> None:
        """Wait for the build if this worker started it: another may still need it.

        (Ctrl-C reaches the build too: it runs in the process group of the tests.)
        """
        if self._process is not None:
            self._process.wait(timeout)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


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


@pytest.fixture(scope="session", autouse=True)
def _site_build_starts_early(request: pytest.FixtureRequest, site_build: SiteBuild) -> None:
    """Start the site build with the run when any selected test reads the site."""
    if any("site" in getattr(item, "fixturenames", ()) for item in request.session.items):
        site_build.start()


@pytest.fixture(scope="session")
def site(site_build: SiteBuild) -> Path:
    """The site, built once per test run with ``mkdocs build --strict``."""
    return site_build.wait()


def _classroom_build(out: Path) -> subprocess.CompletedProcess[str]:
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
    """
    site_build.settle()
    out = _once(tmp_path_factory, worker_id, "classroom", _classroom_build)
    return out / classroom_copy.FOLDER


@pytest.fixture
def build_context() -> Iterator[context.BuildContext]:
    """The build context of this site (docs folder, languages, English page), restored after."""
    with context.building(ROOT / "docs", languages.from_file(ROOT / "mkdocs.yml")):
        yield context.current


THEME = ROOT / "website/src/posenc_site/theme"  # mkdocs.yml's theme.custom_dir
# The mkdocs.yml of the fixture projects that tests build: this site's extensions, plugins and
# hooks, in the languages a test asks for.
_PROJECT_CONFIG = """
site_name: {name}
site_url: https://{name}.example.org/
theme: {{name: material, language: en, font: false{custom_dir}}}
{nav}
markdown_extensions:
  - admonition
  - toc: {{permalink: true}}
  - pymdownx.arithmatex: {{generic: true}}
  - pymdownx.snippets: {{base_path: [docs, src]}}
  - pymdownx.superfences:
      custom_fences:
        - name: quiz
          class: quiz
          format: !!python/name:posenc_site.transforms.quiz.fence_format
plugins:
  - search
  - i18n:
      docs_structure: suffix
      fallback_to_default: false
      reconfigure_search: false
      languages:
{languages}
  - markdown-exec
{api}
hooks:
  - {hooks}
validation:
  omitted_files: warn
  absolute_links: warn
  unrecognized_links: warn
  anchors: warn
  not_found: warn
"""
_LANGUAGE_ENTRIES = {
    "en": "{locale: en, name: English, default: true, build: true}",
    "tr": "{locale: tr, name: Türkçe, build: true, "
    "nav_translations: {Home: Ana sayfa, Lesson: Ders}}",
    "de": "{locale: de, name: Deutsch, build: true}",
}
_SMALL_NAV = "nav:\n  - Home: index.md\n  - Lesson: lesson.md"
_API = """  - mkdocstrings:
      custom_templates: website/src/posenc_site/templates
      handlers: {python: {paths: [src], options: {docstring_style: numpy, heading_level: 2}}}"""


def project_config(
    name: str,
    languages: list[str],
    hooks: str,
    nav: bool = True,
    api: bool = False,
    theme: Path | None = None,
) -> str:
    """The mkdocs.yml of a fixture project: ``hooks`` is the path of posenc_site's hooks module;
    with ``nav`` the two pages of the small project; with ``api`` mkdocstrings reads ``src``;
    ``theme`` is the theme's custom_dir."""
    return _PROJECT_CONFIG.format(
        name=name,
        custom_dir=f", custom_dir: {theme.as_posix()}" if theme else "",
        nav=_SMALL_NAV if nav else "",
        languages="\n".join(f"        - {_LANGUAGE_ENTRIES[code]}" for code in languages),
        api=_API if api else "",
        hooks=hooks,
    )


SMALL_CONFIG = project_config(
    "small", ["en", "tr"], (ROOT / "website/src/posenc_site/hooks.py").as_posix(), theme=THEME
)

SMALL_PAGES = {
    "index": ("# {home}\n\nSee [the lesson](lesson.md) and [its formula](lesson.md#eq-sum).\n"),
    "lesson": """# {lesson}

$$
a + b = \\sqrt{{d}}
\\label{{sum}}
$$

```python exec="on" source="above" result="text"
import numpy as np
from posenc import sinusoidal_encoding

print(np.round(sinusoidal_encoding(2, 4), 3))
```

```quiz
- type: choice
  question: Pick one.
  options:
    - text: right
      correct: true
    - text: wrong
      explanation: Why.
  explanation: Because.
```
""",
}


def write_small_project(root: Path, turkish_lesson: str | None = None) -> Path:
    """Write the small project (``small_project``) into ``root``; return ``root``.

    ``turkish_lesson`` replaces the Turkish twin of its lesson page.
    """
    (root / "mkdocs.yml").write_text(SMALL_CONFIG, encoding="utf-8")
    docs = root / "docs"
    docs.mkdir()
    titles = {
        "en": {"home": "Home", "lesson": "Lesson"},
        "tr": {"home": "Ana sayfa", "lesson": "Ders"},
    }
    for language in SITE.all:
        for name, text in SMALL_PAGES.items():
            page = docs / f"{name}{language.page_suffix}"
            page.write_text(text.format(**titles[language.code]), encoding="utf-8")
    if turkish_lesson is not None:
        (docs / f"lesson{TURKISH.page_suffix}").write_text(turkish_lesson, encoding="utf-8")
    for name in SMALL_PAGES:  # the translations are reviewed: no outdated banner
        translations.mark_reviewed(SITE.twin(docs / f"{name}.md", TURKISH), SITE)
    return root


@pytest.fixture
def small_project(tmp_path: Path) -> Path:
    """A two-page site in both languages, built with the site's hooks, that a test may break.

    Build-failure tests use it rather than a copy of the whole site: a build takes a second.
    """
    return write_small_project(tmp_path)


@pytest.fixture(scope="session")
def small_site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The small project as written (``small_project``), built once per run: the site."""
    return _once(tmp_path_factory, worker_id, "small", _small_build()) / "site"


# Turkish words whose search the site's pages cannot show: "Işık" written with a capital I,
# "ışık" in lower case, and two words that differ only by ı and i ("sınır", limit; "sinir",
# nerve). Each in a section of its own, under titles that share none of these words.
WORDS_LESSON = """# Ders

$$
a + b = \\sqrt{d}
\\label{sum}
$$

## Birinci bölüm

Işık, boşlukta en hızlı yayılan şeydir.

## İkinci bölüm

Gölge, ışık olmayan yerdir.

## Üçüncü bölüm

Her tablonun bir sınırı vardır.

## Dördüncü bölüm

Bu bir sinir hücresidir.
"""


def _small_build(
    turkish_lesson: str | None = None,
) -> Callable[[Path], subprocess.CompletedProcess[str]]:
    """Build the small project, with ``turkish_lesson`` if given, into ``out``/site."""

    def build(out: Path) -> subprocess.CompletedProcess[str]:
        out.mkdir()
        write_small_project(out, turkish_lesson=turkish_lesson)
        return mkdocs_build(out, out / "site")

    return build


@pytest.fixture(scope="session")
def words_site_url(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Iterator[str]:
    """The small project with ``WORDS_LESSON`` as its Turkish lesson, built once per run and
    served by each worker that asks for it."""
    root = _once(tmp_path_factory, worker_id, "words", _small_build(WORDS_LESSON))
    with page_weight.serve(root / "site") as url:
        yield url


# The npm packages some browser tests use (Lighthouse, axe-core), pinned by the lock file there.
NPM = ROOT / "tests/npm"
NPM_INSTALL = "npm ci --prefix tests/npm"


def missing(message: str) -> NoReturn:
    """Skip the test for a missing tool, or fail it in CI (``CI=true``), which has every tool."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def npm_file(path: str) -> Path:
    """``path`` in the installed npm packages; a skip (a failure in CI) where it is missing."""
    found = NPM / "node_modules" / path
    if not found.exists():
        missing(f"{found} not found (install the packages with: {NPM_INSTALL})")
    return found


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Launch Debian's Chromium (pytest-playwright fixture); in CI a missing browser fails."""
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} not found (install it with: apt-get install -y chromium)")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def worker_context(browser: Browser, browser_context_args: dict) -> Iterator[BrowserContext]:
    """The browser context of this xdist worker's ``tab``, and of pages that tests share."""
    context = browser.new_context(**browser_context_args)
    yield context
    context.close()


@pytest.fixture(scope="session")
def _worker_tab(worker_context: BrowserContext) -> Page:
    """The one browser tab of this worker that ``tab`` lends to each test in turn."""
    return worker_context.new_page()


@pytest.fixture
def tab(_worker_tab: Page) -> Iterator[Page]:
    """A browser tab for a test that opens its pages with ``goto``, as a reader in one tab.

    Each ``goto`` makes a new document (fresh markup and scripts, no state of the quizzes or
    the search box), in a tab that has opened pages before: the browser's cache is warm and
    its renderer is running, so a long lesson opens in a third of the time a new context
    takes (pytest-playwright's ``page``). Afterwards the tab forgets the test: the site's
    storage is cleared, the tab leaves the page, its size and permissions are restored.
    Tests that count requests (an empty cache), listen to events or route requests take a
    ``page`` of their own.
    """
    tab = _worker_tab
    yield tab
    if not tab.is_closed():
        if tab.url.startswith("http"):
            tab.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        tab.goto("about:blank")
        tab.set_viewport_size(_VIEWPORT)
        tab.context.clear_permissions()


_VIEWPORT = {"width": 1280, "height": 720}  # Playwright's default, which ``page`` has


@pytest.fixture
def uncached_tab(tab: Page) -> Iterator[Page]:
    """The worker's tab with its cache off (DevTools' "Disable cache"), as on a first visit.

    Every file of a page is requested from the server: the same responses as in a new
    context, on every page of both languages (compared after warm loads in the same tab), for
    a third of the processor time (0.5 s instead of 1.9 s on the longest lesson).
    """
    devtools = tab.context.new_cdp_session(tab)
    devtools.send("Network.enable")
    devtools.send("Network.setCacheDisabled", {"cacheDisabled": True})
    yield tab
    devtools.send("Network.setCacheDisabled", {"cacheDisabled": False})
    devtools.detach()


@pytest.fixture(scope="session")
def site_url(site: Path) -> Iterator[str]:
    """The built site as GitHub Pages serves a project's site: under /posenc/, root 404 page.

    Every browser test that uses it runs the site under a sub-path.
    """
    with hosting.serve(site, hosting.PREFIX, not_found="root") as url:
        yield url


@pytest.fixture(scope="session")
def compressed_site_url(site: Path) -> Iterator[str]:
    """The built site served as web hosts serve it, text gzipped (posenc_site.page_weight)."""
    with page_weight.serve(site) as url:
        yield url
