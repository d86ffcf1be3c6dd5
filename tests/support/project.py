"""The project under test: its root folder, its languages, and the address its tests build for."""

from pathlib import Path

from posenc_site.i18n import languages
from support import hosting

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SITE = languages.from_file(ROOT / "mkdocs.yml")
TURKISH = SITE.get("tr")  # the site's second language: URL prefix and page suffix from here
# The tests build the site as the publishing workflow does for a GitHub project page: under a
# sub-path, which the browser tests serve it under (support/hosting.py).
SITE_URL = f"https://example.github.io{hosting.PREFIX}"
