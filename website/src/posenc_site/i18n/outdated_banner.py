"""A translated page whose source changed since its review gets a banner under its title.

The banner links the source page; its words come from the page language's strings
(``outdated_banner``). See ``posenc_site.i18n.translations`` for how pages are marked reviewed.
"""

from pathlib import Path

from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from posenc_site.i18n import translations
from posenc_site.i18n.languages import Languages

_BANNER = """
!!! warning "{title}"

    {text}
"""


def add(markdown: str, page: Page, languages: Languages, docs_dir: Path) -> str:
    """``markdown`` with the banner under its title if ``page`` is an outdated translation.

    Parameters
    ----------
    markdown : str
        The page's Markdown (MkDocs' ``on_page_markdown``).
    page : Page
        The page; its source file's name gives its language.
    languages : Languages
        The site's languages.
    docs_dir : Path
        The docs folder, which holds the page's source page.

    Returns
    -------
    str
        ``markdown``, or ``markdown`` with a warning admonition after its first heading line
        (at its top when it does not open with one).
    """
    language = languages.of_page(page.file.src_uri)
    if language.default:
        return markdown
    source = languages.source(docs_dir / page.file.src_uri)
    if translations.page_status(source, language, languages).state != translations.OUTDATED:
        return markdown
    source_url = page.url.removeprefix(language.url_prefix)
    href = get_relative_url(source_url or "/", page.url)  # "/": the root folder itself
    strings = language.strings["outdated_banner"]
    text = strings["text"].format(href=href).replace("\n", "\n    ")
    banner = _BANNER.format(title=strings["title"], text=text)
    title_end = markdown.find("\n", markdown.find("# ")) + 1 if markdown.startswith("# ") else 0
    return markdown[:title_end] + banner + "\n" + markdown[title_end:]
