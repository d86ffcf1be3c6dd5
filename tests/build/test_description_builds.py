"""Descriptions in a build of the small project: the first paragraph stands in for a missing
one, and a bad one stops the build naming the page."""

from support.fixture_project import TURKISH_LESSON, break_page, mkdocs_build
from support.project import TURKISH


def test_a_page_without_description_gets_its_first_paragraph(small_site):
    home = (small_site / TURKISH.url_prefix / "index.html").read_text("utf-8")
    assert '<meta name="description" content="See the lesson and its formula.">' in home


def test_a_bad_description_fails_the_build_naming_the_page(small_project, tmp_path):
    break_page(small_project, TURKISH_LESSON, "l10n:", "description: [1, 2]\nl10n:")
    result = mkdocs_build(small_project, tmp_path / "out")
    assert result.returncode != 0
    assert f"{TURKISH_LESSON}: the front matter's 'description' must be text" in (
        result.stdout + result.stderr
    )
