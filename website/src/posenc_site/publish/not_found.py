"""A 404 page per language: the default language's at the site's root, the others' under theirs.

MkDocs renders the theme's ``404.html`` once per build into the site's root; mkdocs-static-i18n
builds each language in turn, so the last language's page used to win, with its navigation.
Here each language build's page goes under that language's root (``tr/404.html``), and the
default language's stays at the root (``404.html``).

Which one a reader sees is the server's choice:

- GitHub Pages (and GitLab Pages) serve the root ``404.html`` for every missing address, so
  every 404 page also links the home page of each other language, in that language;
- Cloudflare Pages serves the nearest ``404.html`` up the path, and nginx
  (``location /tr/ { error_page 404 /tr/404.html; }``), Apache (``ErrorDocument 404`` in
  ``tr/.htaccess``) or Netlify (``/tr/* /tr/404.html 404`` in ``_redirects``) can be told to.

A server shows an error page at any depth, so MkDocs gives its links absolute paths from
``site_url``'s path (``/posenc/...``); so does this module. Its markup is the theme's
``404.html``; this gives it the values, points the language switcher at each language's home
page (mkdocs-static-i18n leaves the last page's links there) and the search at the page's own
language's index (see ``posenc_site.publish.search_split``).
"""

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig

from posenc_site.i18n.languages import Language, Languages
from posenc_site.publish import alternate_links, page_assets

TEMPLATE = "404.html"
_CONFIG_SCRIPT = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)')


@dataclass(frozen=True)
class Link:
    """A language's home page, and the words of the 404 page in that language."""

    code: str
    home: str  # absolute path: /posenc/tr/
    strings: dict[str, str]


@dataclass(frozen=True)
class NotFound:
    """What the 404 page of one language shows: its words, its home, the other languages'."""

    strings: dict[str, str]
    home: str
    elsewhere: tuple[Link, ...]


def home(config: MkDocsConfig, language: Language) -> str:
    """The absolute path of ``language``'s home page: ``/posenc/`` or ``/posenc/tr/``."""
    root = urlsplit(config.site_url or "/").path
    return root.rstrip("/") + "/" + language.url_prefix


def add_context(
    context: dict[str, Any], config: MkDocsConfig, language: Language, languages: Languages
) -> None:
    """Give the 404 template of ``language`` its values; point the switcher at home pages."""
    others = tuple(
        Link(other.code, home(config, other), dict(other.strings["not_found"]))
        for other in languages.all
        if other != language
    )
    strings = dict(language.strings["not_found"])
    context["posenc_not_found"] = NotFound(strings, home(config, language), others)
    if "alternate" in config.extra:  # Material's switcher, which the i18n plugin points at
        # each page's twin, as an item and as an attribute (which Jinja reads first)
        switcher = [
            {"name": other.name, "link": home(config, other), "lang": other.code}
            for other in languages.all
        ]
        config.extra["alternate"] = switcher
        setattr(config.extra, "alternate", switcher)  # noqa: B010  # an attribute, not typed


def _search_at(output: str, base: str) -> str:
    """Material's configuration of the page with its ``base`` (where search looks) replaced.

    ``base`` is absolute and ends with a slash: Material resolves ``search/...`` against it.
    """

    def rebase(match: re.Match[str]) -> str:
        settings = json.loads(match.group(2))
        settings["base"] = base
        return match.group(1) + json.dumps(settings) + match.group(3)

    return _CONFIG_SCRIPT.sub(rebase, output, count=1)


def place(output: str, config: MkDocsConfig, language: Language) -> str:
    """Put the 404 page of ``language`` where it belongs; return what MkDocs should write.

    The default language's page is returned, for MkDocs to write at the root; another
    language's is written under its root here, and "" returned (MkDocs then writes nothing).
    """
    output = page_assets.remove_unused(alternate_links.remove(output), "")
    output = _search_at(output, home(config, language))
    if language.default:
        return output
    target = Path(config.site_dir) / language.url_prefix / TEMPLATE
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(output, encoding="utf-8")
    return ""
