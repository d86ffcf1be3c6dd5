"""What an executed block prints when a reader runs it alone is what the built page shows.

The build runs the blocks it executes in its own process; a reader runs one block alone. The
output of each comes from the one fresh run of the block (``support.fresh_runs``).
"""

import functools
import re
from html import unescape
from pathlib import Path

import pytest

from posenc_site.execute.blocks import runnable
from support.docblocks import DOCS, skip_without_optional
from support.fresh_runs import CASES, case_id
from support.project import SITE

EXECUTED = [case for case in CASES if "exec" in case.values[1].attributes]


@functools.cache
def page_text(built: Path) -> str:
    """The text of a built page, without its tags."""
    return unescape(re.sub(r"<[^>]+>", "", built.read_text(encoding="utf-8")))


@pytest.mark.parametrize(("md_page", "block", "following"), EXECUTED)
def test_an_executed_block_prints_what_the_built_page_shows(
    md_page, block, following, fresh_runs, site
):
    skip_without_optional(runnable(block))
    printed = fresh_runs[case_id(md_page, block)].stdout.strip()
    url = SITE.source(md_page).relative_to(DOCS).as_posix().removesuffix(".md")
    built = site / SITE.of_page(md_page).url_prefix / ("" if url == "index" else url) / "index.html"
    assert printed in page_text(built)
