import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from posenc_site import context, languages, page_weight

ROOT = Path(__file__).resolve().parent.parent
SITE = languages.from_file(ROOT / "mkdocs.yml")
TURKISH = SITE.get("tr")  # the site's second language: URL prefix and page suffix from here


_BUILD_FIXTURES = {"site", "project_copy", "site_url", "compressed_site_url"}
_BROWSER_FIXTURES = {"page", "browser", "browser_context", "context"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its tier, from the fixtures it uses (see pyproject's markers)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & _BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if fixtures & _BUILD_FIXTURES:
            item.add_marker(pytest.mark.build)


def mkdocs_build(project: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` for the project at ``project`` into ``site``."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once per test session with ``mkdocs build --strict``."""
    out = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT, out)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


@pytest.fixture
def build_context() -> Iterator[context.BuildContext]:
    """The build context of this site (docs folder, languages, English page), restored after."""
    with context.building(ROOT / "docs", languages.from_file(ROOT / "mkdocs.yml")):
        yield context.current


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """A copy of the site sources that a test may break."""
    for name in ("docs", "src"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    return tmp_path


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
        message = f"{CHROMIUM} not found (install it with: apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def site_url(site: Path) -> Iterator[str]:
    """The built site, served on 127.0.0.1 for the browser tests."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", str(site)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 10
    while True:
        try:
            urllib.request.urlopen(url, timeout=1).close()
            break
        except OSError:
            if time.monotonic() > deadline:
                server.kill()
                raise
            time.sleep(0.05)
    yield url
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture(scope="session")
def compressed_site_url(site: Path) -> Iterator[str]:
    """The built site served as web hosts serve it, text gzipped (posenc_site.page_weight)."""
    with page_weight.serve(site) as url:
        yield url
