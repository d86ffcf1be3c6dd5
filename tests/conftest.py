import os
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from filelock import FileLock

import hosting
from posenc_site import classroom as classroom_copy
from posenc_site import context, languages, page_weight, translations

ROOT = Path(__file__).resolve().parent.parent
SITE = languages.from_file(ROOT / "mkdocs.yml")
TURKISH = SITE.get("tr")  # the site's second language: URL prefix and page suffix from here
# The tests build the site as the publishing workflow does for a GitHub project page: under a
# sub-path, which the browser tests serve it under (tests/hosting.py).
SITE_URL = f"https://example.github.io{hosting.PREFIX}"


_BUILD_FIXTURES = {
    "site",
    "small_project",
    "site_url",
    "compressed_site_url",
    "classroom",
    "words_site_url",
}
_BROWSER_FIXTURES = {"page", "browser", "browser_context", "context"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its tier, from the fixtures it uses (see pyproject's markers)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & _BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if fixtures & _BUILD_FIXTURES:
            item.add_marker(pytest.mark.build)


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


def _once(
    tmp_path_factory: pytest.TempPathFactory,
    worker_id: str,
    name: str,
    build: Callable[[Path], subprocess.CompletedProcess[str]],
) -> Path:
    """``build(out)`` once per test run, shared by the xdist workers; return ``out``.

    The first worker to take the lock builds, the others wait and read it (pytest-xdist's
    documented pattern for session fixtures that must run once).
    """
    if worker_id == "master":  # not under xdist
        root = tmp_path_factory.mktemp(f"{name}-build")
    else:
        root = tmp_path_factory.getbasetemp().parent
    out, log = root / name, root / f"{name}-build.log"
    with FileLock(str(root / f"{name}-build.lock")):
        if not log.exists():
            result = build(out)
            status = "ok" if result.returncode == 0 else "failed"
            log.write_text(f"{status}\n{result.stdout}{result.stderr}", encoding="utf-8")
    status, _, output = log.read_text(encoding="utf-8").partition("\n")
    assert status == "ok", output
    return out


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The site, built once per test run with ``mkdocs build --strict``."""
    return _once(tmp_path_factory, worker_id, "site", lambda out: mkdocs_build(ROOT, out))


def _classroom_build(out: Path) -> subprocess.CompletedProcess[str]:
    """The README's command for the classroom copy, then the zip unpacked into ``out``."""
    out.mkdir()
    zip_file = out / "posenc-classroom.zip"
    command = [sys.executable, "-m", "posenc_site.classroom", "--output", str(zip_file)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if result.returncode == 0:
        with zipfile.ZipFile(zip_file) as archive:
            archive.extractall(out)
    return result


@pytest.fixture(scope="session")
def classroom(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The classroom copy (``python -m posenc_site.classroom``), unzipped: its top folder."""
    out = _once(tmp_path_factory, worker_id, "classroom", _classroom_build)
    return out / classroom_copy.FOLDER


@pytest.fixture
def build_context() -> Iterator[context.BuildContext]:
    """The build context of this site (docs folder, languages, English page), restored after."""
    with context.building(ROOT / "docs", languages.from_file(ROOT / "mkdocs.yml")):
        yield context.current


THEME = ROOT / "src/posenc_site/theme"  # mkdocs.yml's theme.custom_dir
SMALL_CONFIG = f"""
site_name: small
site_url: https://small.example.org/
theme: {{name: material, language: en, font: false, custom_dir: {THEME.as_posix()}}}
nav:
  - Home: index.md
  - Lesson: lesson.md
markdown_extensions:
  - admonition
  - toc: {{permalink: true}}
  - pymdownx.arithmatex: {{generic: true}}
  - pymdownx.snippets: {{base_path: [docs]}}
  - pymdownx.superfences:
      custom_fences:
        - name: quiz
          class: quiz
          format: !!python/name:posenc_site.quiz.fence_format
plugins:
  - search
  - i18n:
      docs_structure: suffix
      fallback_to_default: false
      reconfigure_search: false
      languages:
        - {{locale: en, name: English, default: true, build: true}}
        - locale: tr
          name: Türkçe
          build: true
          nav_translations: {{Home: Ana sayfa, Lesson: Ders}}
  - markdown-exec
hooks:
  - {(ROOT / "src/posenc_site/hooks.py").as_posix()}
validation:
  omitted_files: warn
  absolute_links: warn
  unrecognized_links: warn
  anchors: warn
  not_found: warn
"""

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


@pytest.fixture
def small_project(tmp_path: Path) -> Path:
    """A two-page site in both languages, built with the site's hooks, that a test may break.

    Build-failure tests use it rather than a copy of the whole site: a build takes a second.
    """
    return write_small_project(tmp_path)


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


@pytest.fixture(scope="session")
def words_site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The small project with ``WORDS_LESSON`` as its Turkish lesson, built and served."""
    root = write_small_project(tmp_path_factory.mktemp("words"), turkish_lesson=WORDS_LESSON)
    result = mkdocs_build(root, root / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    with page_weight.serve(root / "site") as url:
        yield url


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """Launch Debian's Chromium (pytest-playwright fixture); in CI a missing browser fails."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} not found (install it with: apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def site_url(site: Path) -> Iterator[str]:
    """The built site as GitHub Pages serves a project's site: under /posenc/, root 404 page.

    Every browser test that uses it runs the site under a sub-path.
    """
    with hosting.serve(site, hosting.PREFIX, not_found="root") as url:
        yield url


@pytest.fixture(scope="session")
def compressed_site_url(site: Path) -> Iterator[str]:
    """The built site served as web hosts serve it, text gzipped (posenc_site.page_weight)."""
    with page_weight.serve(site) as url:
        yield url
