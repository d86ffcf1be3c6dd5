"""A built site served as a static host serves it: under a sub-path, with its 404 pages.

GitHub Pages serves a project's site under ``/<repository>/`` and answers every missing
address with the root ``404.html`` (rule ``"root"``); Cloudflare Pages, and nginx or Netlify
when told to, answer with the nearest ``404.html`` up the path (rule ``"nearest"``). Python's
http.server does neither, so the browser tests use this handler.
"""

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit

PREFIX = "/posenc/"  # the path of a GitHub project page, /<repository>/


class _Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, site: Path, prefix: str, not_found: str, **kwargs):
        self.site, self.prefix, self.not_found = site, prefix, not_found
        super().__init__(*args, directory=str(site), **kwargs)

    def translate_path(self, path: str) -> str:
        if not urlsplit(path).path.startswith(self.prefix):
            return str(self.site / "no such file")
        return super().translate_path("/" + path.removeprefix(self.prefix))

    def _error_page(self) -> Path:
        if self.not_found == "nearest":
            folder = self.site / unquote(urlsplit(self.path).path).removeprefix(self.prefix)
            for candidate in [folder, *folder.parents]:
                if candidate.is_relative_to(self.site) and (candidate / "404.html").is_file():
                    return candidate / "404.html"
        return self.site / "404.html"

    def send_error(self, code: int, message: str | None = None, explain: str | None = None):
        page = self._error_page()
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@contextmanager
def serve(site: Path, prefix: str = PREFIX, not_found: str = "root") -> Iterator[str]:
    """Serve ``site`` under ``prefix`` on 127.0.0.1 in a thread; yield the site's URL."""
    assert not_found in ("root", "nearest"), not_found
    handler = functools.partial(_Handler, site=site, prefix=prefix, not_found=not_found)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
