"""A third language needs only its pages, its strings file and its entry in mkdocs.yml: a
fixture project in three languages builds."""

import os
import shutil
import subprocess
import sys

import yaml

from posenc_site.i18n import languages
from support.fixture_project import project_config
from support.project import ROOT

# Built with the fixture's own copy of website/src/ first on the path: its posenc_site, whose
# plugin MkDocs loads by its entry point, has the German strings file.
FIXTURE_CONFIG = project_config("fixture", ["en", "tr", "de"], nav=False, api=True)


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

<!-- posenc: translation-status -->

<!-- posenc: glossary -->

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


def test_a_third_language_needs_only_its_pages_strings_and_entry(tmp_path):
    for tree in ("src", "website/src"):
        shutil.copytree(ROOT / tree, tmp_path / tree, ignore=shutil.ignore_patterns("__pycache__"))
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
        env={
            **os.environ,
            "NO_MKDOCS_2_WARNING": "1",
            "PYTHONPATH": os.pathsep.join(str(tmp_path / tree) for tree in ("website/src", "src")),
        },
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
        '<h3 data-term="token" id="token">Token',  # glossary: the term in the page's language
        "<p>Einheit.</p>",
        "«de» Parameters:",  # API labels
        "«de» Raises:",
    ]:
        assert needle in html, needle
    # The default language's pages keep English; the fixture names German by its own name.
    english_html = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert ">Check</button>" in english_html
    assert "«de»" not in english_html
    assert (tmp_path / "site/de/search/search_index.json").exists()
