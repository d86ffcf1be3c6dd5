"""A translated page whose source changed since its review gets a banner under its title.

The banner links the source page; its words come from the page language's strings
(``outdated_banner``). See ``posenc_site.i18n.translations`` for how pages are marked reviewed.
"""

from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from posenc_site import context
from posenc_site.i18n import translations

_BANNER = """
!!! warning "{title}"

    {text}
"""


def add(markdown: str, page: Page) -> str:
    """``markdown`` with the banner under its title if ``page`` is an outdated translation."""
    languages, docs_dir = context.current.languages, context.current.docs_dir
    assert languages is not None  # set by context.start_build
    assert docs_dir is not None
    language = languages.of_page(page.file.src_uri)
    if language.default:
        return markdown
    source = languages.source(docs_dir / page.file.src_uri)
    if translations.page_status(source, language).state != translations.OUTDATED:
        return markdown
    source_url = page.url.removeprefix(language.url_prefix)
    href = get_relative_url(source_url or "/", page.url)  # "/": the root folder itself
    strings = language.strings["outdated_banner"]
    text = strings["text"].format(href=href).replace("\n", "\n    ")
    banner = _BANNER.format(title=strings["title"], text=text)
    title_end = markdown.find("\n", markdown.find("# ")) + 1 if markdown.startswith("# ") else 0
    return markdown[:title_end] + banner + "\n" + markdown[title_end:]
