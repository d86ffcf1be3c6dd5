"""Page heads without hreflang links, which Material would mistake for site roots.

mkdocs-static-i18n points each ``<link rel="alternate" hreflang>`` at the same page in the
other language, while Material's script takes them for site roots and requests
``<page>/sitemap.xml``: a 404 on every page view. The sitemap keeps the alternates for search
engines, and the language switcher has its own links.
"""

import re

_HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')


def remove(output: str) -> str:
    """The page's HTML without its hreflang ``<link>`` tags."""
    return _HEAD_ALTERNATE.sub("", output)
