"""MkDocs hooks of the posenc site (``hooks:`` in mkdocs.yml): wiring only.

Each job lives in a module named for it; this file connects MkDocs events to them.
"""

from pathlib import Path

import nbformat
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.pages import Page

from posenc_site import (
    alternate_links,
    context,
    exec_failures,
    languages,
    lesson_code,
    math_pages,
    outdated_banner,
    page_language,
    quiz,
    search_split,
    snippet_paths,
)


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Start the build: absolute snippet folders, a fresh context, the API labels."""
    snippet_paths.make_absolute(config)
    site_languages = languages.from_config(config)
    context.start_build(Path(config.docs_dir), site_languages)
    page_language.register_api_labels(config, site_languages)
    return config


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Start a page: its language, no failures or quiz ids of the last one; banner if due."""
    exec_failures.start_page()
    page_language.start_page(config)
    quiz.start_page()
    return outdated_banner.add(markdown, page)


def on_page_content(html: str, page: Page, **_: object) -> str:
    """Stop on a raising code block or a bad formula, naming the page; formulas to MathML."""
    exec_failures.check(page.file.src_uri)
    return math_pages.render(html, page)


def on_post_page(output: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Write the lesson's downloads; clean the head; point Material's search at its language."""
    _write_downloads(page, config)
    output = alternate_links.remove(output)
    site = context.current.languages
    assert site is not None
    return search_split.point_search_at_root(output, page.url, site.of_url(page.url))


def _write_downloads(page: Page, config: MkDocsConfig) -> None:
    """Write a lesson page's downloads into its folder of the built site."""
    snippet_folders = [Path(p) for p in config.mdx_configs["pymdownx.snippets"]["base_path"]]
    text = Path(page.file.abs_src_path).read_text(encoding="utf-8")
    blocks = lesson_code.page_blocks(Path(page.file.abs_src_path), snippet_folders)
    if not any(block.attributes.get("id") == "exercise-solution" for block in blocks):
        return
    folder = Path(config.site_dir) / page.url
    folder.mkdir(parents=True, exist_ok=True)
    name = page.url.rstrip("/").rsplit("/", 1)[-1]
    starter = lesson_code.starter(blocks)
    if starter is not None:
        (folder / "model.py").write_text(starter.source, encoding="utf-8")
    title = page.title or name
    code = lesson_code.script(blocks, title, context.current.language)
    (folder / f"{name}.py").write_text(code, encoding="utf-8")
    book = lesson_code.notebook(text, snippet_folders, context.current.language)
    (folder / f"{name}.ipynb").write_text(nbformat.writes(book) + "\n", encoding="utf-8")


@event_priority(-110)  # after mkdocs-static-i18n (-100) has written the merged index
def on_post_build(config: MkDocsConfig) -> None:
    """One search index per language."""
    site = context.current.languages
    assert site is not None
    search_split.split(Path(config.site_dir), site)
