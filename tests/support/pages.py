"""The pages of the built site, and how a reader searches them."""

from pathlib import Path

import yaml
from playwright.sync_api import Locator, Page, expect

from support.project import DOCS, SITE, TURKISH

PAGES = [
    "",
    "lessons/positional-encoding/",
    "lessons/learned-embeddings/",
    "lessons/rotary/",
    "lessons/longer-contexts/",
    "lessons/todays-models/",
    "lessons/alibi-t5/",
    "lessons/comparison/",
    "lessons/images-and-video/",
    "reference/api/",
    "contributing/",
    "glossary/",
    "translation-status/",
]
ALL_PAGES = PAGES + [TURKISH.url_prefix + page for page in PAGES]
FIGURE_PAGES = [path for path in ALL_PAGES if "lessons/" in path]  # the pages with figures


def type_until(page: Page, query: str, hit: Locator) -> None:
    """Type ``query`` into the search box until ``hit`` is among the results, then settle.

    A query typed before the search worker has loaded its index is not run again once the
    index is ready: it is typed again until the results come, for up to 10 s.
    """
    box = page.locator("input.md-search__input")
    for _ in range(5):
        box.fill("")
        box.press_sequentially(query)
        try:
            expect(hit.first).to_be_attached(timeout=2_000)
            break
        except AssertionError:
            continue
    expect(hit.first).to_be_attached()
    page.wait_for_timeout(300)  # let the result list settle, then read it in one go


def search(page: Page, query: str, expected_url: str) -> list[str]:
    """Type ``query``, wait until ``expected_url`` is among the results, return all links."""
    page.locator("input.md-search__input").click()
    hit = page.locator(f'.md-search-result__item a[href^="{expected_url}"]')
    type_until(page, query, hit)
    result: list[str] = page.eval_on_selector_all(
        ".md-search-result a", "links => links.map(a => a.href)"
    )
    return result


def source_of(path: str) -> Path:
    """The Markdown page a built page comes from: tr/lessons/rotary/ -> lessons/rotary.tr.md."""
    language = SITE.of_url(path)
    name = path.removeprefix(language.url_prefix).rstrip("/") or "index"
    return DOCS / f"{name}{language.page_suffix}"


def front_matter(page: Path) -> dict:
    """The YAML front matter of a Markdown page; empty if it has none."""
    text = page.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n", 2)[1]) if text.startswith("---\n") else {}
