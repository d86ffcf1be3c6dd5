"""A wide table on a phone: scrolled to its end, its last column shows whole.

A table of three columns or more keeps its first column in place while it scrolls
(docs/assets/posenc.css); the columns that pass under it must come out from under it. A table
of two columns scrolls as a whole: its second column would only hide under the first.
"""

import pytest
from playwright.sync_api import Page

from support.project import SITE

PHONE = {"width": 360, "height": 780}
# Lessons with a wide table: two columns (rotary's layouts), six (comparison's overview).
PAGES = ["lessons/rotary/", "lessons/comparison/"]
# For each table wider than its box: scrolled to its right end, the left edge of its last
# column's cells and the right edge of the first column's, in the screen's coordinates.
AT_THE_END = """() => [...document.querySelectorAll('article .md-typeset__scrollwrap')]
  .filter(box => box.scrollWidth > box.clientWidth + 1)
  .map(box => {
    box.scrollLeft = box.scrollWidth;
    const rows = [...box.querySelectorAll('tr')];
    const edges = rows.map(row => [
      row.lastElementChild.getBoundingClientRect().left,
      row.firstElementChild.getBoundingClientRect().right,
    ]);
    return {columns: rows[0].children.length, edges};
  })"""


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_a_wide_table_scrolled_to_its_end_shows_its_last_column_whole(
    page: Page, site_url: str, language, path
):
    page.set_viewport_size(PHONE)
    page.add_init_script(
        "addEventListener('DOMContentLoaded', () => document.head.insertAdjacentHTML("
        "'beforeend', '<style>* { content-visibility: visible !important }</style>'))"
    )
    page.goto(site_url + SITE.get(language).url_prefix + path)
    tables = page.evaluate(AT_THE_END)
    assert tables, "no table wider than the screen"
    for table in tables:
        covered = [(last, first) for last, first in table["edges"] if last < first - 1]
        assert covered == [], table["columns"]
