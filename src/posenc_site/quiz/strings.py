"""The quiz's interface strings, in every language of the site."""

UI_STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "check": "Check",
        "show": "Show answer",
        "answer": "Answer",
        "correct": "Correct!",
        "wrong": "Not quite — try again.",
        "empty": "Choose an answer first.",
        "empty_blank": "Fill in every blank first.",
        "empty_match": "Match every item first.",
        "blank": "Blank {n}",
        "choose": "Choose…",
        "why_not": "Why not {letter}",
        "see_solution": "The example solution below is now open, with its output.",
    },
    "tr": {
        "check": "Kontrol et",
        "show": "Cevabı göster",
        "answer": "Cevap",
        "correct": "Doğru!",
        "wrong": "Tam olmadı, bir daha dene.",
        "empty": "Önce bir cevap seç.",
        "empty_blank": "Önce bütün boşlukları doldur.",
        "empty_match": "Önce bütün eşleştirmeleri yap.",
        "blank": "Boşluk {n}",
        "choose": "Seç…",
        "why_not": "Neden {letter} değil",
        "see_solution": "Aşağıdaki örnek çözüm çıktısıyla birlikte açıldı.",
    },
}


def strings_for(language: str) -> dict[str, str]:
    """The strings of ``language``; an unknown language is an error, not a silent English.

    Parameters
    ----------
    language
        A language code of the site, ``en`` or ``tr``.

    Returns
    -------
    dict[str, str]
        The interface strings, by key.

    Raises
    ------
    ValueError
        There are no strings for ``language``.
    """
    try:
        return UI_STRINGS[language]
    except KeyError:
        raise ValueError(
            f"the quiz has no strings for language {language!r}; add them to {__name__}"
        ) from None
