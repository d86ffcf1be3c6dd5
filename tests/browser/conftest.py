"""The browser tier: Chromium (Debian's, through Playwright) on the built site, served locally."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from support import hosting, page_weight
from support.builds import classroom, once
from support.fixture_project import WORDS_LESSON, small_build
from support.tools import CHROMIUM, CHROMIUM_ARGS, missing

__all__ = ["classroom"]  # a fixture of this tier, shared with the build tier


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
            # Nor does the page store more as it goes (the progress it notes on pagehide).
            tab.evaluate(
                "() => { localStorage.clear(); sessionStorage.clear();"
                " Storage.prototype.setItem = () => {}; }"
            )
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


@pytest.fixture(scope="session")
def words_site_url(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Iterator[str]:
    """The small project with ``WORDS_LESSON`` as its Turkish lesson, built once per run and
    served by each worker that asks for it."""
    root = once(tmp_path_factory, worker_id, "words", small_build(WORDS_LESSON))
    with page_weight.serve(root / "site") as url:
        yield url
