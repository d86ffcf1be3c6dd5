"""What a page costs its reader on a first visit: requests, and bytes as a web host sends them.

``serve`` serves a built site the way hosts do, text gzipped (level 6, zlib's default);
``first_load`` opens a page in a browser with an empty cache and counts every response with
the bytes it took on the wire, sorted by kind; ``first_search`` counts what the first focus of
the search box adds (the search index, which a first load does not fetch).
``benchmarks/page_weight.py`` prints these numbers for every lesson, and the browser tests
hold the longest lesson to its budget.
"""

import functools
import gzip
import http.server
import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from playwright.sync_api import Page, Request

KINDS = ("HTML", "CSS", "JS", "fonts", "search index", "other")
_COMPRESSED = ("text/", "application/javascript", "application/json", "image/svg+xml")


class _GzipHandler(http.server.SimpleHTTPRequestHandler):
    """Python's file server, gzipping text when the browser accepts it, as hosts do.

    http.server has no compression of its own, and a host's compression is what a reader
    downloads: the page weight is measured with it.
    """

    def send_head(self) -> io.BytesIO | None:
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        if not path.is_file():
            return super().send_head()  # type: ignore[return-value]  # redirects and 404s
        body = path.read_bytes()
        content_type = self.guess_type(str(path))
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        accepted = self.headers.get("Accept-Encoding", "")
        if content_type.startswith(_COMPRESSED) and "gzip" in accepted:
            body = gzip.compress(body, compresslevel=6, mtime=0)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the measurements are the output."""


@contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve the built ``site`` on 127.0.0.1 in a thread; yield its root URL."""
    handler = functools.partial(_GzipHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def kind_of(url: str) -> str:
    """One of ``KINDS`` for a URL of the site, from its path."""
    path = urlsplit(url).path
    if path.endswith(("/", ".html")):
        return "HTML"
    if path.endswith("search_index.json"):
        return "search index"
    suffixes = {".css": "CSS", ".js": "JS", ".woff2": "fonts", ".woff": "fonts", ".ttf": "fonts"}
    return next((kind for suffix, kind in suffixes.items() if path.endswith(suffix)), "other")


@dataclass(frozen=True)
class Response:
    """One response of a page load: what was asked for and what it cost."""

    url: str
    kind: str
    status: int
    size: int  # bytes of the body on the wire, compressed where the server compressed it


@dataclass(frozen=True)
class PageLoad:
    """Every response of one page's first load."""

    responses: tuple[Response, ...]

    @property
    def requests(self) -> int:
        """How many requests the page made."""
        return len(self.responses)

    @property
    def size(self) -> int:
        """Bytes on the wire, all responses together."""
        return sum(response.size for response in self.responses)

    def size_of(self, kind: str) -> int:
        """Bytes on the wire of one kind of response."""
        return sum(response.size for response in self.responses if response.kind == kind)

    def count_of(self, kind: str) -> int:
        """Requests of one kind."""
        return sum(response.kind == kind for response in self.responses)


class _Traffic:
    """The responses of a page, recorded from its network events until ``stop``."""

    def __init__(self, page: "Page") -> None:
        self.page = page
        self.responses: list[Response] = []
        self.pending: set[Request] = set()
        page.on("request", self._start)
        page.on("requestfinished", self._record)
        page.on("requestfailed", self._fail)

    def _start(self, request: "Request") -> None:
        self.pending.add(request)

    def _fail(self, request: "Request") -> None:
        self.pending.discard(request)

    def _record(self, request: "Request") -> None:
        self.pending.discard(request)
        response = request.response()
        if response is None or request.url.startswith("data:"):
            return
        length = response.all_headers().get("content-length", "0")
        url = request.url
        self.responses.append(Response(url, kind_of(url), response.status, int(length)))

    def settle(self, *, indexed: bool) -> None:
        """Wait until no request has been under way for ``_QUIET`` steps, for up to 10 s.

        With ``indexed``, the quiet steps count only once the search index has come.
        """
        quiet = 0
        for _ in range(_MAX_WAIT):
            done = not indexed or any(r.kind == "search index" for r in self.responses)
            quiet = quiet + 1 if done and not self.pending else 0
            if quiet == _QUIET:
                return
            self.page.wait_for_timeout(_STEP_MS)

    def stop(self) -> PageLoad:
        """Stop recording; the responses so far."""
        self.page.remove_listener("request", self._start)
        self.page.remove_listener("requestfinished", self._record)
        self.page.remove_listener("requestfailed", self._fail)
        return PageLoad(tuple(self.responses))


def first_load(page: "Page", url: str) -> PageLoad:
    """Open ``url`` in ``page`` (a fresh browser context: an empty cache) and count its load.

    The load is over when each of the events that ask for files has come, and every request
    they made has ended: the page's load event (its stylesheets, scripts and images), Material's
    bundle has run (it starts the search worker as it runs), the page is laid out and its
    fonts are ready; then no request may start for ``_QUIET`` steps. (Playwright's
    "networkidle", half a second without a request, was that wait's fixed cost on each load;
    the files counted are the same.) The reader has not searched: the search index is not part
    of it (see the theme's ``partials/search-on-demand.html``).
    """
    traffic = _Traffic(page)
    page.goto(url, wait_until="load")
    page.wait_for_function(_BUNDLE_RAN)
    # Lay the page out now (reading a size does) and wait for the fonts that asks for.
    page.evaluate("document.body.offsetHeight && document.fonts.ready.then(() => null)")
    traffic.settle(indexed=False)
    return traffic.stop()


def first_search(page: "Page") -> PageLoad:
    """Focus the search box of the page open in ``page`` and count what that downloads.

    Over when the search index has come and then no request has been under way for
    ``_QUIET`` steps, or after 10 s.
    """
    traffic = _Traffic(page)
    page.focus(SEARCH_BOX)
    traffic.settle(indexed=True)
    return traffic.stop()


SEARCH_BOX = "[data-md-component=search-query]"
# Material's bundle publishes its observables on window as its last step.
_BUNDLE_RAN = "() => window.component$ !== undefined"
_STEP_MS = 50
_QUIET = 4  # steps: 0.2 s without a request under way, after the events above
_MAX_WAIT = 200  # steps: 10 s
