"""The posenc plugin: the MkDocs events of the site's build, and the state of the build under way.

Registered as ``posenc`` (``[project.entry-points."mkdocs.plugins"]`` in website/pyproject.toml)
and listed last under ``plugins:`` in mkdocs.yml, with its options (``posenc_site.config``).
Each job lives in a module named for it; this class connects MkDocs' events to them and holds
what they share: the docs folder and the site's languages (``BuildState``), and the executed
code blocks (``execution``). The language being built is the theme's, which
mkdocs-static-i18n sets for each language (``page_language.of_build``).

State lives on the instance and is made anew by every ``on_config``: MkDocs keeps one instance
of a plugin that has ``on_shutdown`` for the whole process (``mkdocs serve`` rebuilds, or tests
that build twice), and mkdocs-static-i18n builds each further language by calling MkDocs'
``build`` again from its ``on_post_build``, which runs every event from ``on_config`` on, on the
same instance. The outermost build ends last (``_open_builds``): then the build's state is
forgotten and the processes that run blocks ahead, which serve every language, are stopped;
so they are on an error and at shutdown. The executed blocks' object itself stays while its
settings do: it knows what this process has run and imported, which a rebuild of
``mkdocs serve`` needs (``posenc_site.execute``).

The order this relies on (priority, then the order of ``plugins:`` in mkdocs.yml):

- ``on_config``, priority 100, before every other plugin's: the environment's overrides
  (``posenc_site.config.with_environment``), and Material's ``offline`` plugin switched, which
  reads its ``enabled`` in its own ``on_config`` (priority 0);
- ``on_config``, priority 0, listed last: after markdown-exec's ``on_config`` has registered its
  fences (the executed blocks wrap them) and Material's ``offline`` has added the CDN's
  iframe-worker shim (replaced by the site's copy); before mkdocs-static-i18n's (-100);
- ``on_page_markdown``, 0: after mkdocs-static-i18n's (50) and mkdocs-autorefs' (0);
- ``on_page_content``, 0: after mkdocs-autorefs' (0);
- ``on_env``, ``on_page_context``, ``on_template_context``: after mkdocs-static-i18n's and
  Material's at the same or a higher priority;
- ``on_post_page``, 0: before mkdocs-static-i18n's (-100), which only passes the page on;
- ``on_post_build``, -110: after Material's ``offline`` and mkdocs-static-i18n's (-100), which
  have written the search index script and the merged index, and built the other languages.

These were the priorities of the hooks file this plugin replaces (hooks run after plugins of
the same priority); tests/site/test_plugin.py checks the order.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from posenc_site import widgets
from posenc_site.config import PosencConfig, with_environment
from posenc_site.execute import Execution, snippet_paths
from posenc_site.i18n import languages as site_languages
from posenc_site.i18n import outdated_banner, page_language, placeholders
from posenc_site.i18n.languages import Languages
from posenc_site.publish import (
    alternate_links,
    descriptions,
    downloads,
    language_links,
    not_found,
    offline,
    page_assets,
    progress,
    search_split,
    social,
    social_card,
)
from posenc_site.transforms import signposts
from posenc_site.transforms.signposts import LESSONS

LESSON_SEARCH_BOOST = 2  # Material's ``search: boost:`` of every lesson page


def _values(context: TemplateContext) -> dict[str, Any]:
    """A template's context as the dict it is: the theme reads keys MkDocs' type does not list."""
    return cast(dict[str, Any], context)


@dataclass(frozen=True)
class BuildState:
    """What the events of one language build share."""

    docs_dir: Path
    languages: Languages


# MkDocs' BasePlugin.__init_subclass__ has no annotations.
class PosencPlugin(BasePlugin[PosencConfig]):  # type: ignore[no-untyped-call]
    """The site's build: page language, tables, checks, head tags, 404 pages, search, offline."""

    def __init__(self) -> None:
        self.state: BuildState | None = None
        self.execution: Execution | None = None
        self._execution_settings: tuple[object, ...] = ()
        self._open_builds = 0  # language builds under way: mkdocs-static-i18n nests them
        self._course: tuple[signposts.Lesson, ...] = ()  # the lessons of this language's nav

    def _state(self) -> BuildState:
        if self.state is None:
            raise PluginError(
                "the posenc plugin has no build under way (its on_config has not run)"
            )
        return self.state

    @event_priority(100)
    def _on_config_settings(self, config: MkDocsConfig) -> None:
        """Take the environment's overrides; switch Material's offline plugin accordingly."""
        self.config = with_environment(self.config)
        offline.switch(config, self.config.offline)

    def _on_config_build(self, config: MkDocsConfig) -> MkDocsConfig:
        """Start a language build: its state, the API labels, the executed blocks, the shim."""
        snippet_base_paths = snippet_paths.make_absolute(config)
        languages = site_languages.from_config(config)
        docs_dir = Path(config.docs_dir)
        self.state = BuildState(docs_dir, languages)
        page_language.register_api_labels(config, languages)
        self._execution_for(config, docs_dir, languages, snippet_base_paths).install(config)
        if self.config.offline:
            offline.use_local_shim(config)
        self._open_builds += 1
        return config

    on_config = CombinedEvent(_on_config_settings, _on_config_build)

    def _execution_for(
        self, config: MkDocsConfig, docs_dir: Path, languages: Languages, snippets: list[Path]
    ) -> Execution:
        """The executed blocks' object: kept from build to build while its settings stay.

        It knows whether this process has run a block and which code it imported, which
        ``mkdocs serve``'s rebuilds need; a build with other settings (another project, the
        cache turned off) gets a new one.
        """
        settings = (
            Path(config.config_file_path),
            docs_dir,
            Path(self.config.cache_dir) if self.config.exec_cache else None,
            self.config.run_ahead,
            tuple(snippets),
            tuple((language.code, language.page_suffix) for language in languages.all),
        )
        if self.execution is None or settings != self._execution_settings:
            if self.execution is not None:
                self.execution.close()
            config_file, docs, cache_dir, run_ahead, base_paths, suffixes = settings
            self.execution = Execution(
                config_file=config_file,
                docs_dir=docs,
                cache_dir=cache_dir,
                run_ahead=run_ahead,
                snippet_base_paths=base_paths,
                page_suffixes=dict(suffixes),
            )
            self._execution_settings = settings
        return self.execution

    @event_priority(-110)  # after mkdocs-static-i18n (-100) has translated the nav's titles
    def on_nav(self, nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
        """Read the course from the nav: the lessons in order, their titles and reading times."""
        state = self._state()
        language = page_language.of_build(config, state.languages)
        self._course = signposts.course(nav, state.docs_dir, language, state.languages)
        return nav

    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, **_: Any) -> str:
        """Start a page in the build's language; its signposts, tables; its banner."""
        state = self._state()
        language = page_language.start_page(config, state.languages)
        src_uri = page.file.src_uri
        if self.execution is not None:
            self.execution.start_page(src_uri, language.code)
        markdown = signposts.fill(
            markdown,
            signposts.source_of(src_uri, state.languages),
            page.meta,
            self._course,
            language.strings["signposts"],
        )
        markdown = placeholders.fill(
            markdown, src_uri, language.code, state.docs_dir, state.languages
        )
        if src_uri.startswith(LESSONS):  # a lesson's sections rank above the API's and glossary's
            page.meta.setdefault("search", {}).setdefault("boost", LESSON_SEARCH_BOOST)
        return outdated_banner.add(markdown, page, state.languages, state.docs_dir)

    def on_page_content(self, html: str, page: Page, config: MkDocsConfig, **_: Any) -> str:
        """Stop on a raising code block, naming the page; give the page its description.

        Formulas, figure numbers and the search exclusion are Markdown extensions
        (``posenc_site.transforms``): the HTML has them already, and the note of its first
        paragraph as it was before its formulas became MathML, which the description reads.
        A lesson gets its "done" button. The explorable figures replace their markers here, in
        the HTML: ``page.markdown``, which the notebook is made of, keeps the markers only.
        """
        if self.execution is not None:
            self.execution.check_page()
        descriptions.describe(page, html)
        html = descriptions.without_first_paragraph_note(html)
        language = page_language.of_build(config, self._state().languages)
        html = widgets.fill(html, page.url, language.code)
        return progress.with_done_button(html, page.file.src_uri, language.strings["progress"])

    def on_env(
        self, env: jinja2.Environment, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment:
        """Write this language's card image (each language build runs this once, after cleaning)."""
        state = self._state()
        social_card.write(Path(config.site_dir), page_language.of_build(config, state.languages))
        return env

    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        """Give the page's template its Open Graph and Twitter card values.

        The footer's links of the course end at its last lesson.
        """
        _values(context)["posenc_social"] = social.tags(page, config, self._state().languages)
        source = signposts.source_of(page.file.src_uri, self._state().languages)
        if self._course and source == self._course[-1].src_uri:
            page.next_page = None  # the course ends here: no "Next: API reference"
        return context

    def on_template_context(
        self, context: TemplateContext, /, *, template_name: str, config: MkDocsConfig
    ) -> TemplateContext:
        """Give the 404 page of this language build its words and links."""
        if template_name == not_found.TEMPLATE:
            languages = self._state().languages
            language = page_language.of_build(config, languages)
            not_found.add_context(_values(context), config, language, languages)
        return context

    def on_post_template(
        self, output_content: str, template_name: str, config: MkDocsConfig
    ) -> str:
        """Put each language's 404 page under its own root."""
        if template_name != not_found.TEMPLATE:
            return output_content
        language = page_language.of_build(config, self._state().languages)
        return not_found.place(output_content, config, language)

    def on_post_page(self, output: str, page: Page, config: MkDocsConfig) -> str:
        """Write the lesson's downloads; clean the head; point Material's search at its language."""
        languages = self._state().languages
        language = page_language.of_build(config, languages)
        printed = self.execution.printed.get(page.file.src_uri, []) if self.execution else []
        output = downloads.add(output, page, config, language, printed)
        output = page_assets.remove_unused(alternate_links.remove(output), page.content or "")
        output = widgets.add_loader(output)  # the explorable figures load after the first paint
        return search_split.point_search_at_root(output, page.url, languages.of_url(page.url))

    @event_priority(-110)  # after mkdocs-static-i18n (-100) has written the merged index
    def on_post_build(self, config: MkDocsConfig) -> None:
        """One search index per language; in the offline variant, each also as a script.

        Once every language is built, the language menu's links get the twins' section ids.
        """
        languages = self._state().languages
        search_split.split(Path(config.site_dir), languages)
        if self.config.offline:
            offline.write(Path(config.site_dir), languages)
        self._open_builds -= 1
        if self._open_builds == 0:  # the outermost build: every language is built
            language_links.add(Path(config.site_dir), urlsplit(config.site_url or "/").path)
            self._end()

    def on_build_error(self, error: Exception) -> None:
        """Stop the executed blocks' worker; forget the build."""
        self._end()

    def on_shutdown(self) -> None:
        """Stop the executed blocks' worker (``mkdocs serve`` stopped mid-build)."""
        self._end()

    def _end(self) -> None:
        """Forget the build; stop the workers (the object stays for the next build)."""
        if self.execution is not None:
            self.execution.close()
        self.state, self._open_builds = None, 0
