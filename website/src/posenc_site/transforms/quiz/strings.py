"""The quiz's interface strings: the ``quiz`` part of the page language's strings file."""

from collections.abc import Mapping

from posenc_site.i18n.languages import load_strings


def strings_for(language: str) -> Mapping[str, str]:
    """The quiz strings of ``language``; a language without them is an error, not English."""
    strings: Mapping[str, str] = load_strings(language)["quiz"]
    return strings
