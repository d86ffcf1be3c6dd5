"""The site's languages in one place: codes, page files, URL prefixes and interface strings.

The languages, and which one is the default, are the entries of the i18n plugin in
``mkdocs.yml`` (mkdocs-static-i18n, suffix layout): the default language's page is
``page.md`` at ``/page/``; another language's is ``page.<code>.md`` at ``/<code>/page/``.
Every language has its interface strings in ``strings/<code>.yml`` beside this module, with
the keys of the default language's file. Adding a language takes its pages, its strings file
and its entry in ``mkdocs.yml``.

The languages of a build, and their strings, are read at its start (``from_config``). The
page transforms and the lessons' downloads ask for strings by language code
(``load_strings``): 112 times in a build of the site, which took 0.4 to 1 s reading the files
each time (libyaml's loader; PyYAML's pure-Python one is 9 times slower). A parsed file is
therefore kept under its path, modification time and size: under ``mkdocs serve``, an edit of
a strings file gives it a new key, and the next rebuild reads it.
"""

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

STRINGS_DIR = Path(__file__).parent / "strings"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when PyYAML has it


class LanguageError(ValueError):
    """A language without its strings, a strings file with missing keys, an unknown code."""


@dataclass(frozen=True)
class Language:
    """One language of the site."""

    code: str
    name: str  # its own name, as the language switcher shows it
    default: bool
    strings: Mapping[str, Any] = field(compare=False, repr=False)
    """Its interface strings (``strings/<code>.yml``), as read with the languages."""

    @property
    def url_prefix(self) -> str:
        """Where its pages live in the site: ``""`` for the default language, else ``"tr/"``."""
        return "" if self.default else f"{self.code}/"

    @property
    def page_suffix(self) -> str:
        """The end of its page files: ``".md"``, or ``".tr.md"``."""
        return ".md" if self.default else f".{self.code}.md"


@dataclass(frozen=True)
class Languages:
    """The site's languages, the default one first."""

    all: tuple[Language, ...]

    @property
    def default(self) -> Language:
        """The language of ``page.md`` at the site's root."""
        return self.all[0]

    @property
    def translations(self) -> tuple[Language, ...]:
        """Every language but the default."""
        return self.all[1:]

    def get(self, code: str) -> Language:
        """The language ``code``; raise LanguageError if the site has none."""
        for language in self.all:
            if language.code == code:
                return language
        known = ", ".join(language.code for language in self.all)
        raise LanguageError(f"the site has no language {code!r} (it has {known})")

    def of_page(self, page: str | Path) -> Language:
        """The language of a page file, from its name: ``x.tr.md`` is Turkish."""
        name = Path(page).name
        return next(
            (lang for lang in self.translations if name.endswith(lang.page_suffix)), self.default
        )

    def of_url(self, url: str) -> Language:
        """The language of a page of the built site, from its URL relative to the root."""
        return next(
            (lang for lang in self.translations if f"{url}/".startswith(lang.url_prefix)),
            self.default,
        )

    def source(self, page: Path) -> Path:
        """The default-language page that ``page`` translates (``x.tr.md`` -> ``x.md``)."""
        suffix = self.of_page(page).page_suffix
        return page.with_name(page.name.removesuffix(suffix) + ".md")

    def twin(self, page: Path, language: Language) -> Path:
        """The page of ``language`` that translates the default-language ``page``."""
        return page.with_name(page.name.removesuffix(".md") + language.page_suffix)

    def name_of(self, language: Language, in_language: Language) -> str:
        """How ``in_language`` names ``language`` ("Turkish" in English), or its own name."""
        names: Mapping[str, str] = in_language.strings["language_names"]
        return names.get(language.code, language.name)


def _entries(entries: list[Any]) -> Languages:
    """Languages from the i18n plugin's ``languages`` entries (dicts or config objects)."""
    read = [entry if isinstance(entry, Mapping) else dict(entry) for entry in entries]
    built = [entry for entry in read if entry.get("build", True)]
    ordered = sorted(built, key=lambda entry: not entry.get("default", False))
    if not ordered or not ordered[0].get("default"):
        raise LanguageError("mkdocs.yml's i18n plugin must name one default language")
    codes = [str(entry["locale"]) for entry in ordered]
    strings = load_all_strings(codes)  # a language without complete strings fails here
    return Languages(
        tuple(
            Language(
                code, str(entry.get("name") or code), bool(entry.get("default")), strings[code]
            )
            for code, entry in zip(codes, ordered, strict=True)
        )
    )


class _IgnoreTags(yaml.SafeLoader):
    """Reads mkdocs.yml without importing what its ``!!python/name:`` tags name."""


_IgnoreTags.add_multi_constructor("", lambda loader, suffix, node: None)


def from_file(config_file: Path) -> Languages:
    """The languages that ``mkdocs.yml`` at ``config_file`` declares (for tests and commands)."""
    config = yaml.load(config_file.read_text(encoding="utf-8"), Loader=_IgnoreTags)
    for plugin in config.get("plugins", []):
        if isinstance(plugin, dict) and "i18n" in plugin:
            return _entries(plugin["i18n"]["languages"])
    raise LanguageError(f"{config_file} has no i18n plugin with languages")


def from_config(config: Any) -> Languages:
    """The languages of a loaded MkDocs configuration (inside a build)."""
    return _entries(list(config.plugins["i18n"].config.languages))


def _read_strings(code: str) -> Mapping[str, Any]:
    path = STRINGS_DIR / f"{code}.yml"
    try:
        version = path.stat()
    except FileNotFoundError:
        raise LanguageError(f"language {code!r} has no strings file: add {path}") from None
    return _parse(path, version.st_mtime_ns, version.st_size)


@functools.lru_cache(maxsize=32)
def _parse(path: Path, mtime_ns: int, size: int) -> Mapping[str, Any]:
    """The content of the strings file ``path`` in the version its time and size tell."""
    strings: dict[str, Any] = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or {}
    return strings


def load_all_strings(codes: list[str]) -> dict[str, Mapping[str, Any]]:
    """The strings of each language of ``codes``, each checked against English's keys.

    Parameters
    ----------
    codes : list of str
        Language codes, each with its ``strings/<code>.yml``.

    Returns
    -------
    dict of str to mapping
        Code -> the parsed strings file.

    Raises
    ------
    LanguageError
        A language has no strings file, or its file lacks keys of ``en.yml`` (named).
    """
    reference = _read_strings("en")
    found: dict[str, Mapping[str, Any]] = {}
    for code in codes:
        strings = reference if code == "en" else _read_strings(code)
        missing = sorted(_missing(reference, strings))
        if missing:
            path = STRINGS_DIR / f"{code}.yml"
            raise LanguageError(f"{path} lacks the strings {', '.join(missing)} (see en.yml)")
        found[code] = strings
    return found


def load_strings(code: str) -> Mapping[str, Any]:
    """The strings of language ``code``, checked against the default's keys (English's).

    As the file is now: an edit shows at the next call.
    """
    return load_all_strings([code])[code]


def _missing(reference: Mapping[str, Any], strings: Mapping[str, Any], at: str = "") -> set[str]:
    missing = set()
    for key, value in reference.items():
        if key == "language_names":
            continue  # a language may name only some languages
        if key not in strings:
            missing.add(at + key)
        elif isinstance(value, Mapping):
            inner = strings[key] if isinstance(strings[key], Mapping) else {}
            missing |= _missing(value, inner, f"{at}{key}.")
    return missing
