"""The language registry: one strings file per language, and a third language needs nothing else."""

import re
import shutil
from pathlib import Path

import pytest
import yaml

from posenc_site.i18n import languages
from support.project import ROOT

SITE = languages.from_file(ROOT / "mkdocs.yml")
MKDOCSTRINGS_EN = (
    Path(__import__("mkdocstrings_handlers.python", fromlist=["_"]).__file__).parent
    / "templates/material/_base/languages/en.html.jinja"
)


def test_the_site_has_english_then_turkish():
    assert [language.code for language in SITE.all] == ["en", "tr"]
    english, turkish = SITE.all
    assert (english.url_prefix, english.page_suffix) == ("", ".md")
    assert (turkish.url_prefix, turkish.page_suffix) == ("tr/", ".tr.md")
    assert SITE.of_page("lessons/rotary.tr.md") is turkish
    assert SITE.of_page("lessons/rotary.md") is english
    assert SITE.of_url("tr/lessons/rotary/") is turkish
    assert SITE.of_url("translation-status/") is english  # starts with "tr", not "tr/"
    assert SITE.source(Path("a/b.tr.md")) == Path("a/b.md")
    assert SITE.twin(Path("a/b.md"), turkish) == Path("a/b.tr.md")
    assert SITE.name_of(turkish, english) == "Turkish"


@pytest.mark.parametrize("path", sorted(languages.STRINGS_DIR.glob("*.yml")), ids=lambda p: p.stem)
def test_every_strings_file_has_every_key(path):
    assert languages.load_strings(path.stem)


def test_a_strings_file_with_a_missing_key_is_named(tmp_path, monkeypatch):
    strings = yaml.safe_load((languages.STRINGS_DIR / "tr.yml").read_text(encoding="utf-8"))
    del strings["quiz"]["check"]
    (tmp_path / "xx.yml").write_text(yaml.safe_dump(strings, allow_unicode=True), "utf-8")
    shutil.copy(languages.STRINGS_DIR / "en.yml", tmp_path / "en.yml")
    monkeypatch.setattr(languages, "STRINGS_DIR", tmp_path)
    with pytest.raises(languages.LanguageError, match=r"xx\.yml lacks the strings quiz\.check"):
        languages.load_strings("xx")
    with pytest.raises(languages.LanguageError, match="has no strings file"):
        languages.load_strings("yy")


def test_the_languages_of_a_build_carry_their_strings_as_read_then(tmp_path, monkeypatch):
    shutil.copy(languages.STRINGS_DIR / "en.yml", tmp_path / "en.yml")
    shutil.copy(languages.STRINGS_DIR / "tr.yml", tmp_path / "tr.yml")
    monkeypatch.setattr(languages, "STRINGS_DIR", tmp_path)
    before = languages.from_file(ROOT / "mkdocs.yml")
    english = tmp_path / "en.yml"
    text = english.read_text(encoding="utf-8")
    english.write_text(text.replace("Permanent link", "Link to here"), encoding="utf-8")
    after = languages.from_file(ROOT / "mkdocs.yml")  # a rebuild of mkdocs serve
    assert before.default.strings["permalink_title"] == "Permanent link"
    assert after.default.strings["permalink_title"] == "Link to here"
    assert languages.load_strings("en")["permalink_title"] == "Link to here"
    assert before.get("tr").strings["permalink_title"] == "Kalıcı bağlantı"


def test_the_api_labels_cover_every_label_of_mkdocstrings():
    keys = set(re.findall(r'^\s*"([^"]+)"\s*:', MKDOCSTRINGS_EN.read_text(), re.MULTILINE))
    assert keys, MKDOCSTRINGS_EN
    missing = keys - set(languages.load_strings("en")["api"])
    assert not missing, f"add these mkdocstrings labels to every strings file's api: {missing}"


# --- a third language ---------------------------------------------------------------------------
