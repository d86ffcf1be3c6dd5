"""The language registry: one strings file per language, and a third language needs nothing else."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, project_config
from posenc_site.i18n import languages

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
    languages.load_strings.cache_clear()
    assert languages.load_strings(path.stem)


def test_a_strings_file_with_a_missing_key_is_named(tmp_path, monkeypatch):
    strings = yaml.safe_load((languages.STRINGS_DIR / "tr.yml").read_text(encoding="utf-8"))
    del strings["quiz"]["check"]
    (tmp_path / "xx.yml").write_text(yaml.safe_dump(strings, allow_unicode=True), "utf-8")
    shutil.copy(languages.STRINGS_DIR / "en.yml", tmp_path / "en.yml")
    monkeypatch.setattr(languages, "STRINGS_DIR", tmp_path)
    languages.load_strings.cache_clear()
    try:
        with pytest.raises(languages.LanguageError, match=r"xx\.yml lacks the strings quiz\.check"):
            languages.load_strings("xx")
        with pytest.raises(languages.LanguageError, match="has no strings file"):
            languages.load_strings("yy")
    finally:
        languages.load_strings.cache_clear()


def test_the_api_labels_cover_every_label_of_mkdocstrings():
    keys = set(re.findall(r'^\s*"([^"]+)"\s*:', MKDOCSTRINGS_EN.read_text(), re.MULTILINE))
    assert keys, MKDOCSTRINGS_EN
    missing = keys - set(languages.load_strings("en")["api"])
    assert not missing, f"add these mkdocstrings labels to every strings file's api: {missing}"


# --- a third language ---------------------------------------------------------------------------

# The fixture's own copy of src/: its posenc_site has the German strings file.
FIXTURE_CONFIG = project_config(
    "fixture", ["en", "tr", "de"], "website/src/posenc_site/hooks.py", nav=False, api=True
)

PAGE = """# {title}

## {heading}

$$
a + b
$$

```quiz
- type: choice
  question: "?"
  options:
    - text: "1"
      correct: true
    - text: "2"
  explanation: "."
```

```python exec="on"
from posenc_site.i18n.translations import status_table
from posenc_site.i18n.glossary import glossary_table

print(status_table())
print()
print(glossary_table())
```

::: demo.twice
"""

DEMO = '''def twice(x: int) -> int:
    """Twice a number.

    Parameters
    ----------
    x : int
        A number.

    Returns
    -------
    int
        Two times `x`.

    Raises
    ------
    ValueError
        Never.
    """
    return 2 * x
'''

GLOSSARY = """
- {en: token, tr: belirteç, de: Token, note_en: A unit., note_tr: Bir birim., note_de: Einheit.}
"""


def _marked(strings: object) -> object:
    """German strings for the fixture: English text marked, placeholders kept."""
    if isinstance(strings, dict):
        return {key: _marked(value) for key, value in strings.items()}
    return f"«de» {strings}"


@pytest.mark.build
def test_a_third_language_needs_only_its_pages_strings_and_entry(tmp_path):
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__"))
    english = yaml.safe_load((languages.STRINGS_DIR / "en.yml").read_text(encoding="utf-8"))
    german = _marked({key: value for key, value in english.items() if key != "language_names"})
    german["language_names"] = {"de": "Deutsch"}
    strings_file = tmp_path / "website/src/posenc_site/i18n/strings/de.yml"
    strings_file.write_text(yaml.safe_dump(german, allow_unicode=True), encoding="utf-8")
    (tmp_path / "src/demo.py").write_text(DEMO, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(FIXTURE_CONFIG, encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "glossary.yml").write_text(GLOSSARY, encoding="utf-8")
    for suffix, title in ((".md", "Home"), (".tr.md", "Ana sayfa"), (".de.md", "Startseite")):
        page = PAGE.format(title=title, heading=title + " 2")
        (docs / f"index{suffix}").write_text(page, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(tmp_path / "src")},
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr

    html = (tmp_path / "site/de/index.html").read_text(encoding="utf-8")
    for needle in [
        ">«de» Check</button>",  # quiz
        'data-msg-correct="«de» Correct!"',
        'title="«de» Permanent link"',  # heading permalinks
        "«de» This translation is out of date",  # the page has no review hash: banner
        "«de» Page",  # translation status table
        "«de» outdated",
        "<th>Deutsch</th>",  # glossary: the page's language first
        "«de» Note",
        "«de» Parameters:",  # API labels
        "«de» Raises:",
    ]:
        assert needle in html, needle
    # The default language's pages keep English; the fixture names German by its own name.
    english_html = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert ">Check</button>" in english_html
    assert "«de»" not in english_html
    assert (tmp_path / "site/de/search/search_index.json").exists()
