"""MkDocs hooks of the posenc site (``hooks:`` in mkdocs.yml): wiring only.

Each job lives in a module named for it; this file connects MkDocs events to them.
"""

from pathlib import Path
from typing import Any

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from posenc_site import context
from posenc_site.execute import cache as exec_cache
from posenc_site.execute import failures as exec_failures
from posenc_site.execute import snippet_paths
from posenc_site.i18n import languages, outdated_banner, page_language
from posenc_site.publish import (
    alternate_links,
    descriptions,
    downloads,
    not_found,
    offline,
    page_assets,
    search_split,
    social,
    social_card,
)
from posenc_site.transforms import figure_numbers as figures
from posenc_site.transforms import math_pages, quiz, search_exclude


def _site() -> languages.Languages:
    site = context.current.languages
    assert site is not None  # set by on_config
    return site


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Start the build: absolute snippet folders, a fresh context, the API labels, the cache."""
    snippet_paths.make_absolute(config)
    site_languages = languages.from_config(config)
    context.start_build(Path(config.docs_dir), site_languages, config.theme.get_env())
    page_language.register_api_labels(config, site_languages)
    exec_cache.install(config)  # hooks run after plugins: markdown-exec's fences are there
    offline.use_local_shim(config)  # after Material's offline plugin has added the CDN's
    return config


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Start a page: its language, no failures or quiz ids of the last one; banner if due."""
    exec_failures.start_page()
    page_language.start_page(config)
    quiz.start_page()
    return outdated_banner.add(markdown, page)


def on_page_content(html: str, page: Page, **_: object) -> str:
    """Stop on a raising code block, a bad formula or an uncaptioned figure, naming the page.

    Formulas become MathML, figures get their numbers. The page's description comes first: a
    first paragraph still holds its formulas' LaTeX. Then code, formulas and quizzes are
    marked to stay out of the search index.
    """
    exec_failures.check(page.file.src_uri)
    descriptions.describe(page, html)
    return search_exclude.mark(figures.number(math_pages.render(html, page), page))


def on_env(env: jinja2.Environment, config: MkDocsConfig, files: Files) -> jinja2.Environment:
    """Write this language's card image (each language build runs this once, after cleaning)."""
    social_card.write(Path(config.site_dir), page_language.of_build(config, _site()))
    return env


def on_page_context(
    template_context: dict[str, Any], page: Page, config: MkDocsConfig, **_: object
) -> dict[str, Any]:
    """Give the page's template its Open Graph and Twitter card values."""
    template_context["posenc_social"] = social.tags(page, config, _site())
    return template_context


def on_template_context(
    template_context: dict[str, Any], template_name: str, config: MkDocsConfig
) -> dict[str, Any]:
    """Give the 404 page of this language build its words and links."""
    if template_name == not_found.TEMPLATE:
        language = page_language.of_build(config, _site())
        not_found.add_context(template_context, config, language, _site())
    return template_context


def on_post_template(output: str, template_name: str, config: MkDocsConfig) -> str:
    """Put each language's 404 page under its own root."""
    if template_name != not_found.TEMPLATE:
        return output
    return not_found.place(output, config, page_language.of_build(config, _site()))


def on_post_page(output: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Write the lesson's downloads; clean the head; point Material's search at its language."""
    output = downloads.relink(output, page, downloads.write(page, config))
    output = page_assets.remove_unused(alternate_links.remove(output), page.content or "")
    site = context.current.languages
    assert site is not None
    return search_split.point_search_at_root(output, page.url, site.of_url(page.url))


@event_priority(-110)  # after mkdocs-static-i18n (-100) has written the merged index
def on_post_build(config: MkDocsConfig) -> None:
    """One search index per language; in the offline variant, each also as a script."""
    site = context.current.languages
    assert site is not None
    search_split.split(Path(config.site_dir), site)
    offline.write(Path(config.site_dir), site, config)
