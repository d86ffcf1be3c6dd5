"""MkDocs hooks of the posenc site (see ``hooks:`` in mkdocs.yml).

- A code block that raises while markdown-exec runs it aborts the build with the page named,
  in every build mode. markdown-exec itself only logs a warning (which ``--strict`` turns into
  a failure without naming the page) and puts the traceback into the page.
- Formulas become MathML (``posenc_site.formulas``).
- The quiz fence learns the page's language and renders through the theme's Jinja environment
  (``posenc_site.quiz``).
- The ``<link rel="alternate" hreflang>`` tags leave the page head (see on_post_page).
- Snippet paths are resolved against mkdocs.yml's folder, not the shell's (see on_config).
- A Turkish page whose English source changed since its review gets a banner
  (``posenc_site.translations``).
- Each language gets its own search index (see on_post_build).
- A lesson page gets its downloads beside it: the exercise's starter file, all its code as one
  script, and the lesson as a notebook (``posenc_site.lesson_code``).
"""

import json
import logging
import re
from pathlib import Path

import nbformat
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.pages import Page

from posenc_site import context, lesson_code, quiz, translations
from posenc_site.formulas import FormulaError, render_math


class _ExecFailures(logging.Handler):
    """Collects markdown-exec's "Execution of ... code block ... exited with ..." warnings."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "Execution of" in message and "code block" in message:
            self.messages.append(message)


_EQUATION_ID = re.compile(r'<div class="pe-equation" id="([^"]+)"')
_failures = _ExecFailures()
logging.getLogger("mkdocs.plugins.markdown_exec").addHandler(_failures)


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Make the snippets' base paths absolute; keep the docs folder and the theme's Jinja env.

    Absolute snippet paths let a build work from any working directory.
    """
    root = Path(config.config_file_path).parent
    snippets = config.mdx_configs.get("pymdownx.snippets", {})
    snippets["base_path"] = [str(root / path) for path in snippets.get("base_path", ["."])]
    context.current.docs_dir = Path(config.docs_dir)
    context.current.jinja_env = config.theme.get_env()
    return config


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Forget the previous page's failures; tell the quiz fence this page's language."""
    _failures.messages.clear()
    context.current.language = config.theme["language"]
    quiz.start_page()
    # mkdocstrings takes its locale from the theme once, at the first language's on_config;
    # mkdocs-static-i18n does not run on_config again for the next language. Its handlers read
    # this (private) attribute at render time; tests/test_site.py checks the labels it gives.
    # Python-Markdown's toc has one permalink title for every page; MkDocs builds a new
    # Markdown instance per page from mdx_configs, so set it for this page's language.
    config.mdx_configs.setdefault("toc", {})["permalink_title"] = _PERMALINK_TITLE.get(
        context.current.language, _PERMALINK_TITLE["en"]
    )
    mkdocstrings = config.plugins.get("mkdocstrings")
    if mkdocstrings is not None:
        mkdocstrings.handlers._locale = context.current.language
    if page.file.src_uri.endswith(".tr.md"):
        markdown = _outdated_banner(markdown, page, Path(config.docs_dir))
    return markdown


_PERMALINK_TITLE = {"en": "Permanent link", "tr": "Kalıcı bağlantı"}

_OUTDATED_BANNER = """
!!! warning "Bu çeviri güncel değil"

    Bu sayfanın İngilizce aslı, çeviri son gözden geçirildikten sonra değişti. En güncel
    içerik için <a href="{href}" hreflang="en">İngilizce sayfaya</a> bak.
"""


def _outdated_banner(markdown: str, page: Page, docs_dir: Path) -> str:
    """Put a banner under the title of a Turkish page whose English source has changed."""
    english = translations.english_source(docs_dir / page.file.src_uri)
    if translations.page_status(english).state != translations.OUTDATED:
        return markdown
    # The Turkish page lives at tr/<url>; its English twin at <url>.
    depth = page.url.count("/")
    href = "../" * depth + page.url.removeprefix("tr/")
    title_end = markdown.find("\n", markdown.find("# ")) + 1 if markdown.startswith("# ") else 0
    banner = _OUTDATED_BANNER.format(href=href)
    return markdown[:title_end] + banner + "\n" + markdown[title_end:]


def on_page_content(html: str, page: Page, **_: object) -> str:
    """Fail on a raising code block or a bad formula, naming the page; render formulas."""
    if _failures.messages:
        first = _failures.messages[0]
        raise PluginError(
            f"{page.file.src_uri}: {len(_failures.messages)} executed code block(s) raised. "
            f"First:\n{first}"
        )
    try:
        html = render_math(html)
    except FormulaError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from error
    # Formula anchors (#eq-...) are added after MkDocs collected the page's anchors; tell it,
    # so that links to them are checked like any other.
    if page.present_anchor_ids is not None:
        page.present_anchor_ids |= set(_EQUATION_ID.findall(html))
    return html


_HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')


_CONFIG_SCRIPT = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)')


def on_post_page(output: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    """Drop the hreflang links from the head; root Turkish pages' search at /tr/.

    mkdocs-static-i18n points each hreflang link at the same page in the other language, while
    Material's script takes them for site roots and requests ``<page>/sitemap.xml``, a 404 on
    every page view; the sitemap keeps them for search engines, and the language switcher uses
    its own links. Material looks for the search index under its ``base``: for Turkish pages
    that becomes the Turkish root, where on_post_build puts the Turkish index.
    """
    _write_downloads(page, config)
    output = _HEAD_ALTERNATE.sub("", output)
    if page.url.startswith("tr/") or page.url == "tr/":
        depth = page.url.count("/") - 1
        base = "/".join([".."] * depth) or "."

        def rebase(match: re.Match[str]) -> str:
            settings = json.loads(match.group(2))
            settings["base"] = base
            return match.group(1) + json.dumps(settings) + match.group(3)

        output = _CONFIG_SCRIPT.sub(rebase, output, count=1)
    return output


def _write_downloads(page: Page, config: MkDocsConfig) -> None:
    """Write a lesson page's downloads into its folder of the built site."""
    snippet_paths = [Path(p) for p in config.mdx_configs["pymdownx.snippets"]["base_path"]]
    text = Path(page.file.abs_src_path).read_text(encoding="utf-8")
    blocks = lesson_code.page_blocks(Path(page.file.abs_src_path), snippet_paths)
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
    book = lesson_code.notebook(text, snippet_paths, context.current.language)
    (folder / f"{name}.ipynb").write_text(nbformat.writes(book) + "\n", encoding="utf-8")


@event_priority(-110)  # after mkdocs-static-i18n (-100) has written the merged index
def on_post_build(config: MkDocsConfig) -> None:
    """Split the search index that mkdocs-static-i18n writes for both languages into two.

    With one index, a Turkish search also returns English pages (and the other way round),
    and lunr stems every word as both English and Turkish. Each language's index is written
    at its own root, with locations relative to that root.
    """
    site = Path(config.site_dir)
    index_file = site / "search" / "search_index.json"
    if not index_file.exists():
        return
    index = json.loads(index_file.read_text(encoding="utf-8"))
    turkish = [doc for doc in index["docs"] if doc["location"].startswith("tr/")]
    if not turkish:
        return
    english = [doc for doc in index["docs"] if not doc["location"].startswith("tr/")]
    for folder, language, docs in (
        (site, "en", english),
        (site / "tr", "tr", [{**d, "location": d["location"][3:]} for d in turkish]),
    ):
        target = folder / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        split = {**index, "config": {**index["config"], "lang": [language]}, "docs": docs}
        target.write_text(json.dumps(split, ensure_ascii=False), encoding="utf-8")
