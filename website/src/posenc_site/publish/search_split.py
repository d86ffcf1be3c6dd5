"""One search index per language, each at its language's root.

mkdocs-static-i18n writes one index for both languages: a Turkish search then also returns
English pages (and the other way round), and lunr stems every word as both languages. After
the build the index is split, each language's part written under its root with locations
relative to it, and each page's Material configuration points its search at that root.

Material's search worker loads lunr-languages' module for every language of an index but
English (lunr's own): for Turkish, two more requests and 4.9 KB gzipped on every first search.
With Material's default pipeline, a stop-word filter without stemming, that module only drops
the language's stop words, which lunr's ranking already weighs lightly: "ve" is in 53 of the
89 Turkish sections, an inverse document frequency of 0.5 against 3 to 4 for a word of one to
five sections. So another language's index is searched as lunr's own language with an empty
pipeline, which needs no script. Turkish letters are folded by the Turkish pages' search
script (the theme's ``partials/turkish-search.html``).

Runs of spaces are collapsed outside preformatted text: Material keeps them from the source's
indents, and neither the results nor the search see them.
"""

import json
import re
from pathlib import Path

from mkdocs.utils import get_relative_url

from posenc_site.i18n.languages import Language, Languages

_CONFIG_SCRIPT = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)')
# Runs of spaces that Material keeps from the source's line breaks and indents, and the
# preformatted blocks in which they count.
_SPACES = re.compile(r" {2,}")
_PREFORMATTED = re.compile(r"(<pre>.*?</pre>)", re.DOTALL)


def point_search_at_root(output: str, url: str, language: Language) -> str:
    """Make Material look for the search index of ``language`` (its ``base``) on this page."""
    if language.default:
        return output
    base = get_relative_url(language.url_prefix, url) if url != language.url_prefix else "."

    def rebase(match: re.Match[str]) -> str:
        settings = json.loads(match.group(2))
        settings["base"] = base.rstrip("/") or "."
        return match.group(1) + json.dumps(settings) + match.group(3)

    return _CONFIG_SCRIPT.sub(rebase, output, count=1)


def split(site_dir: Path, languages: Languages) -> None:
    """Split the merged ``search/search_index.json`` into one index per language."""
    index_file = site_dir / "search" / "search_index.json"
    if not index_file.exists():
        return
    index = json.loads(index_file.read_text(encoding="utf-8"))
    by_language: dict[str, list[dict[str, object]]] = {lang.code: [] for lang in languages.all}
    for doc in index["docs"]:
        language = languages.of_url(doc["location"])
        location = doc["location"].removeprefix(language.url_prefix)
        text = collapse_spaces(doc["text"])
        by_language[language.code].append({**doc, "location": location, "text": text})
    if not any(by_language[language.code] for language in languages.translations):
        return
    for language in languages.all:
        target = site_dir / language.url_prefix / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        config = search_config(index["config"], language)
        split_index = {**index, "config": config, "docs": by_language[language.code]}
        text = json.dumps(split_index, ensure_ascii=False, separators=(",", ":"))
        target.write_text(text, encoding="utf-8")


def collapse_spaces(text: str) -> str:
    """``text`` (an index entry's HTML) with one space for each run outside ``<pre>``.

    The browser shows a run of spaces as one and the search splits words at any of them, so
    this changes nothing a reader sees or finds; the index gets lighter.
    """
    parts = _PREFORMATTED.split(text)
    return "".join(part if part.startswith("<pre>") else _SPACES.sub(" ", part) for part in parts)


def search_config(config: dict[str, object], language: Language) -> dict[str, object]:
    """Material's search settings for the index of ``language``.

    English keeps Material's settings. Another language drops lunr-languages' module when
    the pipeline would use it for stop words only (see the module's docstring).
    """
    pipeline = config.get("pipeline")
    if language.code != "en" and isinstance(pipeline, list) and set(pipeline) <= _STOP_WORDS:
        return {**config, "lang": ["en"], "pipeline": []}
    return {**config, "lang": [language.code]}


_STOP_WORDS = {"stopWordFilter"}
