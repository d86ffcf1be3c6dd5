"""Fixture projects: small MkDocs sites with this site's plugin, which a test may break or extend.

``write_small_project`` writes the two-page project of the build-failure tests (a build takes a
second, against some 80 s for the whole site); ``project_config`` writes the mkdocs.yml of
others, in the languages a test asks for.
"""

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from posenc_site.i18n import translations
from support.project import ROOT, SITE, SITE_URL, TURKISH


def mkdocs_build(project: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` for the project at ``project`` into ``site``."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "POSENC_SITE_URL": SITE_URL},
        check=False,
    )


THEME = ROOT / "website/src/posenc_site/theme"  # mkdocs.yml's theme.custom_dir
# The mkdocs.yml of the fixture projects that tests build: this site's extensions and plugins,
# in the languages a test asks for.
_PROJECT_CONFIG = """
site_name: {name}
site_url: https://{name}.example.org/
theme: {{name: material, language: en, font: false{custom_dir}}}
{nav}
markdown_extensions:
  - admonition
  - attr_list
  - toc: {{permalink: true}}
  - pymdownx.arithmatex: {{generic: true}}
  - pymdownx.snippets: {{base_path: [docs, src]}}
  - pymdownx.superfences:
      custom_fences:
        - name: quiz
          class: quiz
          format: !!python/name:posenc_site.transforms.quiz.fence_format
  - posenc_site.publish.descriptions
  - posenc_site.transforms.formulas
  - posenc_site.transforms.figure_numbers
  - posenc_site.transforms.search_exclude
  - posenc_site.transforms.quiz
plugins:
  - search
  - offline: {{enabled: false}}
  - i18n:
      docs_structure: suffix
      fallback_to_default: false
      reconfigure_search: false
      languages:
{languages}
  - markdown-exec
{api}
  - posenc
validation:
  omitted_files: warn
  absolute_links: warn
  unrecognized_links: warn
  anchors: warn
  not_found: warn
"""
_LANGUAGE_ENTRIES = {
    "en": "{locale: en, name: English, default: true, build: true}",
    "tr": "{locale: tr, name: Türkçe, build: true, "
    "nav_translations: {Home: Ana sayfa, Lesson: Ders}}",
    "de": "{locale: de, name: Deutsch, build: true}",
}
_SMALL_NAV = "nav:\n  - Home: index.md\n  - Lesson: lesson.md"
_API = """  - mkdocstrings:
      custom_templates: website/src/posenc_site/templates
      handlers: {python: {paths: [src], options: {docstring_style: numpy, heading_level: 2}}}"""


def project_config(
    name: str,
    languages: list[str],
    nav: bool = True,
    api: bool = False,
    theme: Path | None = None,
) -> str:
    """The mkdocs.yml of a fixture project, built by the posenc plugin with its defaults: with
    ``nav`` the two pages of the small project; with ``api`` mkdocstrings reads ``src``;
    ``theme`` is the theme's custom_dir."""
    return _PROJECT_CONFIG.format(
        name=name,
        custom_dir=f", custom_dir: {theme.as_posix()}" if theme else "",
        nav=_SMALL_NAV if nav else "",
        languages="\n".join(f"        - {_LANGUAGE_ENTRIES[code]}" for code in languages),
        api=_API if api else "",
    )


SMALL_CONFIG = project_config("small", ["en", "tr"], theme=THEME)

SMALL_PAGES = {
    "index": ("# {home}\n\nSee [the lesson](lesson.md) and [its formula](lesson.md#eq-sum).\n"),
    "lesson": """# {lesson}

$$
a + b = \\sqrt{{d}}
\\label{{sum}}
$$

```python exec="on" source="above" result="text"
import numpy as np
from posenc import sinusoidal_encoding

print(np.round(sinusoidal_encoding(2, 4), 3))
```

```quiz
- type: choice
  question: Pick one.
  options:
    - text: right
      correct: true
    - text: wrong
      explanation: Why.
  explanation: Because.
```
""",
}


def write_small_project(root: Path, turkish_lesson: str | None = None) -> Path:
    """Write the small project (``small_project``) into ``root``; return ``root``.

    ``turkish_lesson`` replaces the Turkish twin of its lesson page.
    """
    (root / "mkdocs.yml").write_text(SMALL_CONFIG, encoding="utf-8")
    docs = root / "docs"
    docs.mkdir()
    titles = {
        "en": {"home": "Home", "lesson": "Lesson"},
        "tr": {"home": "Ana sayfa", "lesson": "Ders"},
    }
    for language in SITE.all:
        for name, text in SMALL_PAGES.items():
            page = docs / f"{name}{language.page_suffix}"
            page.write_text(text.format(**titles[language.code]), encoding="utf-8")
    if turkish_lesson is not None:
        (docs / f"lesson{TURKISH.page_suffix}").write_text(turkish_lesson, encoding="utf-8")
    for name in SMALL_PAGES:  # the translations are reviewed: no outdated banner
        translations.mark_reviewed(SITE.twin(docs / f"{name}.md", TURKISH), SITE)
    return root


# Turkish words whose search the site's pages cannot show: "Işık" written with a capital I,
# "ışık" in lower case, and two words that differ only by ı and i ("sınır", limit; "sinir",
# nerve). Each in a section of its own, under titles that share none of these words.
WORDS_LESSON = """# Ders

$$
a + b = \\sqrt{d}
\\label{sum}
$$

## Birinci bölüm

Işık, boşlukta en hızlı yayılan şeydir.

## İkinci bölüm

Gölge, ışık olmayan yerdir.

## Üçüncü bölüm

Her tablonun bir sınırı vardır.

## Dördüncü bölüm

Bu bir sinir hücresidir.
"""


def small_build(
    turkish_lesson: str | None = None,
) -> Callable[[Path], subprocess.CompletedProcess[str]]:
    """Build the small project, with ``turkish_lesson`` if given, into ``out``/site."""

    def build(out: Path) -> subprocess.CompletedProcess[str]:
        out.mkdir()
        write_small_project(out, turkish_lesson=turkish_lesson)
        return mkdocs_build(out, out / "site")

    return build


TURKISH_LESSON = f"lesson{TURKISH.page_suffix}"


def break_page(project: Path, page: str, old: str, new: str) -> None:
    """Replace ``old`` (which must be there) by ``new`` once in ``page`` of ``project``."""
    path = project / "docs" / page
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
