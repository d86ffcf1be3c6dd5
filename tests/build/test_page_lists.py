"""The lists of pages that other tests go through are the built site's pages."""

from pathlib import Path

from support.pages import ALL_PAGES, FIGURE_PAGES


def test_the_page_list_covers_the_site(site: Path):
    built = {str(p.parent.relative_to(site)) for p in site.rglob("index.html")}
    listed = {page.rstrip("/") or "." for page in ALL_PAGES}
    assert built == listed


def test_the_figure_pages_are_every_page_with_figures(site: Path):
    with_figures = {
        str(page.parent.relative_to(site)) + "/"
        for page in site.rglob("index.html")
        if '<figure class="pe-figure"' in page.read_text(encoding="utf-8")
    }
    assert with_figures == set(FIGURE_PAGES)
