"""The posenc plugin starts every build afresh: two builds in one process share nothing.

MkDocs keeps one instance of a plugin with an ``on_shutdown`` event for the whole process (for
``mkdocs serve``'s rebuilds), so a second build in the same process gets the plugin of the
first: what a build knows must be made anew at its start.
"""

import shutil
from pathlib import Path

import pytest
import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig

from posenc_site.i18n import languages
from support.fixture_project import project_config

PAGE = """# {title}

Who reads this?

<!-- posenc: glossary -->

<!-- posenc: translation-status -->
"""
TITLES = {"en": "Home", "tr": "Ana sayfa"}


def _project(root: Path, codes: list[str], term: str) -> Path:
    """A one-page project in the languages ``codes`` whose glossary holds ``term``."""
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(project_config(root.name, codes, nav=False), "utf-8")
    entry = {"en": term, "tr": f"{term}-tr", "note_en": "A note.", "note_tr": "Bir not."}
    (root / "docs/glossary.yml").write_text(yaml.safe_dump([entry]), encoding="utf-8")
    for code in codes:
        suffix = ".md" if code == "en" else f".{code}.md"
        page = PAGE.format(title=TITLES[code])
        (root / "docs" / f"index{suffix}").write_text(page, encoding="utf-8")
    return root


def _build(project: Path) -> MkDocsConfig:
    config = load_config(str(project / "mkdocs.yml"), site_dir=str(project / "site"))
    build(config)
    return config


@pytest.fixture
def strings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the interface strings, which the test may edit between builds."""
    folder = tmp_path / "strings"
    shutil.copytree(languages.STRINGS_DIR, folder)
    monkeypatch.setattr(languages, "STRINGS_DIR", folder)
    return folder


def test_a_second_build_in_the_process_shows_nothing_of_the_first(tmp_path, monkeypatch, strings):
    monkeypatch.setenv("POSENC_EXEC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("POSENC_EXEC_AHEAD", "off")
    first = _build(_project(tmp_path / "first", ["en", "tr"], "alpha"))
    plugin = first.plugins["posenc"]
    assert plugin.state is None  # forgotten at the end of the build
    assert "alpha-tr" in (tmp_path / "first/site/tr/index.html").read_text(encoding="utf-8")
    assert not (tmp_path / "first/site/assets/javascripts/iframe-worker.js").exists()

    # Between the builds: the strings change (as under mkdocs serve), and the second build
    # is the offline variant, in English only, of another project.
    english = strings / "en.yml"
    text = english.read_text(encoding="utf-8")
    assert "permalink_title: Permanent link" in text
    english.write_text(text.replace("Permanent link", "Link to here"), encoding="utf-8")
    monkeypatch.setenv("POSENC_OFFLINE", "true")
    second = _build(_project(tmp_path / "second", ["en"], "beta"))

    assert second.plugins["posenc"] is plugin  # the same instance, made new by on_config
    site = tmp_path / "second/site"
    page = (site / "index.html").read_text(encoding="utf-8")
    assert '<h3 data-term="beta" id="beta">beta' in page  # its glossary entry
    assert "alpha" not in page  # the first project's glossary
    assert "Turkish:" not in page
    assert "Turkish translation" not in page
    assert 'title="Link to here"' in page
    assert 'title="Permanent link"' not in page
    assert not (site / "tr").exists()
    not_found = (site / "404.html").read_text(encoding="utf-8")
    assert "/tr/" not in not_found
    assert "Türkçe" not in not_found
    # POSENC_OFFLINE reached Material's offline plugin through the posenc plugin's option.
    assert second.plugins["material/offline"].config.enabled is True
    assert second.use_directory_urls is False
    assert (site / "assets/javascripts/iframe-worker.js").exists()
    assert (site / "search/search_index.js").exists()
