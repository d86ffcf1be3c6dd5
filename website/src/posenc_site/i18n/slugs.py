"""Heading ids that keep Turkish letters readable: "Konum kodlaması" -> "konum-kodlamasi".

Why our own: Python-Markdown's ``slugify`` drops every letter that has no ASCII decomposition
(ı vanishes: "konum-kodlamas"), and ``pymdownx.slugs`` keeps Unicode but lowercases "İ" to
"i" plus a combining dot. Mapping the six Turkish letters first, then using Python-Markdown's
own ``slugify``, gives ASCII ids that still read as the heading.
"""

from markdown.extensions.toc import slugify as ascii_slugify

_TURKISH_TO_ASCII = str.maketrans("ıİşŞğĞçÇöÖüÜ", "iIsSgGcCoOuU")


def slugify(value: str, separator: str) -> str:
    """Slugify ``value`` like Python-Markdown, transliterating Turkish letters first."""
    slug: str = ascii_slugify(value.translate(_TURKISH_TO_ASCII), separator)
    return slug
