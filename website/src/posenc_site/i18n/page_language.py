"""Tell the parts that render a page which language it is in.

mkdocs-static-i18n builds each language in turn, but some renderers are configured once:
- Python-Markdown's toc has one permalink title for every page; MkDocs builds a new Markdown
  instance per page from ``mdx_configs``, so the title is set there for each page;
- mkdocstrings takes its locale from the theme at the first language's ``on_config`` only
  (mkdocs-static-i18n does not run it again): its handlers read the private ``_locale``
  attribute at render time, which is set here (tests/test_pinned_internals.py pins it), and its
  templates get the API labels of the page's language from the strings files (see
  ``templates/python/material/language.html.jinja``).
"""

from collections.abc import Mapping

from mkdocs.config.defaults import MkDocsConfig

from posenc_site import context
from posenc_site.i18n.languages import Language, Languages


def register_api_labels(config: MkDocsConfig, languages: Languages) -> None:
    """Give mkdocstrings' templates ``posenc_api_labels(locale)``: the labels of a language."""
    mkdocstrings = config.plugins.get("mkdocstrings")
    if mkdocstrings is None:
        return

    def labels(locale: str) -> Mapping[str, str]:
        api: Mapping[str, str] = languages.get(locale).strings["api"]
        return api

    mkdocstrings.get_handler("python").env.globals["posenc_api_labels"] = labels


def start_page(config: MkDocsConfig) -> None:
    """Set the language of the page about to be converted (the theme's, per language build)."""
    context.start_page(config.theme["language"])
    language = context.current.page_language
    config.mdx_configs.setdefault("toc", {})["permalink_title"] = language.strings[
        "permalink_title"
    ]
    mkdocstrings = config.plugins.get("mkdocstrings")
    if mkdocstrings is not None:
        mkdocstrings.handlers._locale = language.code


def of_build(config: MkDocsConfig, languages: Languages) -> Language:
    """The language of the build under way: mkdocs-static-i18n sets the theme's per build."""
    return languages.get(config.theme["language"])
