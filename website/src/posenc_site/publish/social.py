"""What a page's head tells search engines and link previews: Open Graph and Twitter cards.

Each page gets its title, its description (``posenc_site.publish.descriptions``), its canonical URL,
its language's Open Graph locale with the other languages' as alternates (the strings files'
``social.locale``), and its language's card image (``posenc_site.publish.social_card``). The
markup is
the theme's ``main.html`` (block ``extrahead``); this module gives it the values. The tags are
``<meta>`` elements: a browser requests nothing for them.
"""

from dataclasses import dataclass
from urllib.parse import urljoin

from markupsafe import escape
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

from posenc_site.i18n.languages import Languages
from posenc_site.publish import social_card


@dataclass(frozen=True)
class Social:
    """The values of one page's Open Graph and Twitter card tags."""

    site_name: str
    title: str
    description: str
    url: str | None  # the page's canonical URL; None without a site_url
    locale: str  # Open Graph's form, en_US
    alternate_locales: tuple[str, ...]
    image: str | None  # the card's absolute URL; None without a site_url
    image_alt: str
    image_width: int = social_card.WIDTH
    image_height: int = social_card.HEIGHT


def tags(page: Page, config: MkDocsConfig, languages: Languages) -> Social:
    """The Open Graph and Twitter card values of ``page`` (after its content is rendered)."""
    language = languages.of_page(page.file.src_uri)
    others = [other for other in languages.all if other != language]
    strings = language.strings["social"]
    site_url = config.site_url
    home = page.file.src_uri == f"index{language.page_suffix}"  # its title is the nav's "Home"
    return Social(
        site_name=config.site_name,
        title=strings["card_title"] if home else page.title or config.site_name,
        # posenc_site.publish.descriptions stores it escaped (Markup): the template does not
        # escape it again
        description=page.meta.get("description") or escape(config.site_description or ""),
        url=page.canonical_url,
        locale=strings["locale"],
        alternate_locales=tuple(other.strings["social"]["locale"] for other in others),
        image=urljoin(site_url, social_card.path(language)) if site_url else None,
        image_alt=strings["card_alt"],
    )
