"""The home page's box of the reader's progress, in the page's language.

The line ``<!-- posenc: progress -->`` of the home page becomes it (a table of
``posenc_site.i18n.placeholders``); ``docs/assets/posenc.js`` shows it and fills in the lesson
to continue. Its words are the ``progress`` section of the strings file
(``strings/<code>.yml``); the lessons' "done" button is ``posenc_site.publish.progress``.
"""

from html import escape
from pathlib import Path

from posenc_site.i18n.languages import Languages


def home_box(language: str, docs_dir: Path, languages: Languages) -> str:
    """The home page's progress box in ``language``, hidden until the script shows it.

    Parameters
    ----------
    language : str
        The code of the page's language.
    docs_dir : Path
        Not read: the signature of ``posenc_site.i18n.placeholders.TABLES``.
    languages : Languages
        The site's languages, with their strings.

    Returns
    -------
    str
        A block of HTML: the line that continues the last lesson read (its link filled in
        by the script), the note shown when the stored progress cannot be read, the "forget"
        button, and the status line and "undo" button shown once the progress is forgotten.
    """
    words = languages.get(language).strings["progress"]
    say = {key: escape(value) for key, value in words.items()}
    return (
        f'<div class="pe-progress" data-search-exclude data-forgotten="{say["forgotten"]}"'
        " hidden>\n"
        '<div class="pe-progress__shown">\n'
        f'<p class="pe-progress__continue" hidden>{say["continue"]} <a></a></p>\n'
        f'<p class="pe-progress__unreadable" hidden>{say["unreadable"]}</p>\n'
        '<p><button type="button" class="md-button pe-progress__forget">'
        f"{say['forget']}</button></p>\n"
        "</div>\n"
        '<p class="pe-progress__after"><span class="pe-progress__status" role="status"></span>'
        ' <button type="button" class="md-button pe-progress__undo" hidden>'
        f"{say['undo']}</button></p>\n"
        "</div>"
    )
