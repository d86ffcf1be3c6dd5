"""Page weight of every lesson in every language: requests and gzipped KB by kind.

    python benchmarks/page_weight.py               # builds the site into a temporary folder
    python benchmarks/page_weight.py --site DIR    # measures a site already built in DIR

Each page is opened in Chromium (/usr/bin/chromium) with an empty cache, from a server that
gzips text as web hosts do (tests/support/page_weight.py), and every response of its first load is
counted. KB are 1000 bytes. The search index is not part of a first load: it comes when
the reader first focuses the search box, and the last column gives what that focus downloads.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from posenc_site.i18n import languages

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the traffic counter the browser tests use
from support import page_weight  # noqa: E402

CHROMIUM = "/usr/bin/chromium"


def build(site: Path) -> None:
    """Build the site with ``mkdocs build --strict`` into ``site``."""
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=ROOT,
        check=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def lesson_pages(site: Path) -> list[str]:
    """URL paths of every lesson in every language of the site in ``ROOT``."""
    lessons = sorted(p.parent.name for p in (site / "lessons").glob("*/index.html"))
    site_languages = languages.from_file(ROOT / "mkdocs.yml")
    return [
        f"{language.url_prefix}lessons/{lesson}/"
        for language in site_languages.all
        for lesson in lessons
    ]


def measure(site: Path) -> None:
    """Print the table for the site built in ``site``."""
    columns = page_weight.KINDS
    header = f"{'page':40} {'requests':>8} " + " ".join(f"{k:>12}" for k in columns)
    print(header + f" {'total':>8} {'first search':>12}")
    with page_weight.serve(site) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for path in lesson_pages(site):
            context = browser.new_context()  # an empty cache for every page
            page = context.new_page()
            load = page_weight.first_load(page, url + path)
            search = page_weight.first_search(page)
            context.close()
            sizes = " ".join(
                f"{load.count_of(k):>3} {load.size_of(k) / 1000:>7.1f}" for k in columns
            )
            searched = f"{search.requests:>3} {search.size / 1000:>8.1f}"
            print(f"{path:40} {load.requests:>8} {sizes} {load.size / 1000:>8.1f} {searched}")
        browser.close()


def main() -> None:
    """Measure the site given with ``--site``, or a fresh build."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one)")
    arguments = parser.parse_args()
    if arguments.site is not None:
        measure(arguments.site)
        return
    with tempfile.TemporaryDirectory() as folder:
        build(Path(folder))
        measure(Path(folder))


if __name__ == "__main__":
    main()
