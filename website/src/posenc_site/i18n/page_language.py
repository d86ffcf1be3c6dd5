"""Tell the parts that render a page which language it is in.

mkdocs-static-i18n builds each language in turn, but some renderers are configured once:
- Python-Markdown's toc has one permalink title for every page; MkDocs builds a new Markdown
  instance per page from ``mdx_configs``, so the title is set there for each page, and so is
  the ``language`` option of the site's own extensions (``configure_markdown``);
- mkdocstrings takes its locale from the theme at the first language's ``on_config`` only
  (mkdocs-static-i18n does not run it again): its handlers read the private ``_locale``
  attribute at render time, which is set here (tests/site/test_pinned_internals.py pins it),
  and its templates get the API labels of the page's language from the strings files (see
  ``templates/python/material/language.html.jinja``).
"""

from collections.abc import Mapping

from mkdocs.config.defaults import MkDocsConfig

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


def start_page(config: MkDocsConfig, languages: Languages) -> Language:
    """Set up the page about to be converted in the build's language; return that language.

    Parameters
    ----------
    config : MkDocsConfig
        The build's configuration; mkdocs-static-i18n has set its theme's language.
    languages : Languages
        The site's languages.

    Returns
    -------
    Language
        The language of the page (``of_build``).
    """
    language = of_build(config, languages)
    configure_markdown(config, language)
    mkdocstrings = config.plugins.get("mkdocstrings")
    if mkdocstrings is not None:
        mkdocstrings.handlers._locale = language.code
    return language


# The extensions of mkdocs.yml's markdown_extensions that take the page's language as an option.
LANGUAGE_OPTION = ("posenc_site.transforms.figure_numbers", "posenc_site.transforms.quiz")


def configure_markdown(config: MkDocsConfig, language: Language) -> None:
    """Give the Markdown extensions the language of the page about to be converted.

    MkDocs builds a new Markdown instance for each page from ``config.mdx_configs``, and
    markdown-exec and mkdocstrings build theirs from the same dict: options set here reach
    every conversion of the page. Sets toc's ``permalink_title``, the ``language`` of the
    extensions in ``LANGUAGE_OPTION`` and the quiz's ``docs_dir`` (the build's docs folder).

    Parameters
    ----------
    config : MkDocsConfig
        The build's configuration; its ``mdx_configs`` is changed in place.
    language : Language
        The page's language.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from posenc_site.i18n.languages import load_strings
    >>> config = SimpleNamespace(mdx_configs={"toc": {"permalink": True}}, docs_dir="/s/docs")
    >>> configure_markdown(config, Language("tr", "Türkçe", False, load_strings("tr")))
    >>> config.mdx_configs["toc"]
    {'permalink': True, 'permalink_title': 'Kalıcı bağlantı'}
    >>> config.mdx_configs["posenc_site.transforms.quiz"]
    {'language': 'tr', 'docs_dir': '/s/docs'}
    """
    configs = config.mdx_configs
    configs.setdefault("toc", {})["permalink_title"] = language.strings["permalink_title"]
    for name in LANGUAGE_OPTION:
        configs.setdefault(name, {})["language"] = language.code
    configs["posenc_site.transforms.quiz"]["docs_dir"] = config.docs_dir


def of_build(config: MkDocsConfig, languages: Languages) -> Language:
    """The language of the build under way: mkdocs-static-i18n sets the theme's per build."""
    return languages.get(config.theme["language"])
