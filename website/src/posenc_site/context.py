"""What the hooks know about the build under way, for code that runs inside it.

Fence formatters and executed code blocks are not told which build or page they are in; the
hooks (``posenc_site.hooks``) start every build with ``start_build`` and every page with
``start_page``, so nothing of an earlier build or page is left behind. Tests that change the
context restore it (the ``build_context`` fixture in tests/conftest.py).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import jinja2

from posenc_site.i18n.languages import Language, Languages


@dataclass
class BuildContext:
    """The docs folder, the site's languages and the language of the page being converted.

    ``jinja_env`` is the theme's Jinja environment (None outside a build).
    """

    docs_dir: Path | None = None
    languages: Languages | None = None
    language: str | None = None
    jinja_env: jinja2.Environment | None = None

    @property
    def docs_folder(self) -> Path:
        """The docs folder of the build under way."""
        if self.docs_dir is None:
            raise RuntimeError("no build under way: posenc_site.context.start_build first")
        return self.docs_dir

    @property
    def page_language(self) -> Language:
        """The language of the page being converted."""
        if self.languages is None or self.language is None:
            raise RuntimeError("no build under way: posenc_site.context.start_build first")
        return self.languages.get(self.language)


current = BuildContext()


def start_build(
    docs_dir: Path, languages: Languages, jinja_env: jinja2.Environment | None = None
) -> None:
    """Forget everything of an earlier build: this build's folder, languages and theme."""
    current.docs_dir, current.languages, current.jinja_env = docs_dir, languages, jinja_env
    current.language = languages.default.code


def start_page(language: str) -> None:
    """The page about to be converted is in ``language`` (a code of the site's languages)."""
    if current.languages is None:
        raise RuntimeError("no build under way: posenc_site.context.start_build first")
    current.language = current.languages.get(language).code


@contextmanager
def building(docs_dir: Path, languages: Languages, language: str | None = None) -> Iterator[None]:
    """Run code as if a page of a build were being converted; restore the context after.

    For code outside MkDocs (tests, a page's block run on its own) that reads the context.
    """
    saved = (current.docs_dir, current.languages, current.language, current.jinja_env)
    start_build(docs_dir, languages)
    if language is not None:
        start_page(language)
    try:
        yield
    finally:
        current.docs_dir, current.languages, current.language, current.jinja_env = saved
