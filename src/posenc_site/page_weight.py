"""What a page costs its reader on a first visit: requests, and bytes as a web host sends them.

``serve`` serves a built site the way hosts do, text gzipped (level 6, zlib's default);
``first_load`` opens a page in a browser with an empty cache and counts every response with
the bytes it took on the wire, sorted by kind. ``benchmarks/page_weight.py`` prints these
numbers for every lesson, and the browser tests hold the longest lesson to its budget.
"""

import functools
import gzip
import http.server
import io
import threading
import time
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


def first_load(page: "Page", url: str) -> PageLoad:
    """Open ``url`` in ``page`` (a fresh browser context: an empty cache) and count its load.

    The load is over when Material's search has fetched its index, the fonts that the page's
    layout uses have come, and then no request has been under way for half a second.
    """
    responses: list[Response] = []
    pending: set[Request] = set()
    last_activity = [time.monotonic()]  # when a request last started or ended

    def start(request: "Request") -> None:
        pending.add(request)
        last_activity[0] = time.monotonic()

    def fail(request: "Request") -> None:
        pending.discard(request)
        last_activity[0] = time.monotonic()

    def record(request: "Request") -> None:
        pending.discard(request)
        last_activity[0] = time.monotonic()
        response = request.response()
        if response is None or request.url.startswith("data:"):
            return
        length = response.all_headers().get("content-length", "0")
        responses.append(Response(request.url, kind_of(request.url), response.status, int(length)))

    page.on("request", start)
    page.on("requestfinished", record)
    page.on("requestfailed", fail)
    # Playwright's "networkidle" alone can come too early on a busy machine: the network
    # falls idle while the browser still runs Material's script, before it asks for the index.
    page.goto(url, wait_until="networkidle")
    # Lay the page out now (reading a size does) and wait for the fonts that asks for.
    page.evaluate("document.body.offsetHeight && document.fonts.ready.then(() => null)")
    for _ in range(_MAX_WAIT):
        indexed = any(response.kind == "search index" for response in responses)
        quiet = time.monotonic() - last_activity[0] >= _QUIET_S
        if indexed and quiet and not pending:  # mostly at once: network-idle was quiet too
            break
        page.wait_for_timeout(_STEP_MS)
    page.remove_listener("request", start)
    page.remove_listener("requestfinished", record)
    page.remove_listener("requestfailed", fail)
    return PageLoad(tuple(responses))


_STEP_MS = 100
_QUIET_S = 0.5  # seconds without a request under way
_MAX_WAIT = 100  # steps: a page without search is measured after 10 s
