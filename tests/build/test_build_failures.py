"""A broken page must stop the build and name the page (on a small two-page project)."""

from support.fixture_project import TURKISH_LESSON, break_page, mkdocs_build
from support.project import TURKISH


def test_the_small_project_builds(small_site):  # the fixture fails when the build fails
    page = (small_site / TURKISH.url_prefix / "lesson" / "index.html").read_text("utf-8")
    assert "[[0.    1.    0.    1.   ]" in page  # the executed block's output
    assert '<form class="pe-quiz"' in page
    assert "<math" in page


def test_a_raising_code_block_fails_the_build_and_names_the_page(small_project, tmp_path):
    break_page(small_project, TURKISH_LESSON, "sinusoidal_encoding(2, 4)", "undefined_name")
    result = mkdocs_build(small_project, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"{TURKISH_LESSON}: 1 executed code block(s) raised" in output
    assert "NameError" in output
    assert not (tmp_path / "out" / TURKISH.url_prefix / "lesson" / "index.html").exists()


def error_of_page(output: str, page: str) -> str:
    """The message MkDocs logs after naming ``page``, on which a Markdown extension raised."""
    lines = output.splitlines()
    named = [n for n, line in enumerate(lines) if line.endswith(f"Error reading page '{page}':")]
    assert len(named) == 1, output
    return lines[named[0] + 1].split(" -  ", 1)[1]


def test_a_bad_formula_fails_the_build_and_names_the_page(small_project, tmp_path):
    break_page(small_project, TURKISH_LESSON, r"\sqrt{d}", r"\sqrt{d")
    result = mkdocs_build(small_project, tmp_path / "out")
    assert result.returncode != 0
    message = error_of_page(result.stdout + result.stderr, TURKISH_LESSON)
    assert message == r"unbalanced braces in formula: 'a + b = \\sqrt{d'"


def test_a_figure_without_caption_fails_the_build_and_names_the_page(small_project, tmp_path):
    figure = '<figure class="pe-figure"><svg></svg></figure>'
    break_page(small_project, TURKISH_LESSON, "```quiz", f"{figure}\n\n```quiz")
    result = mkdocs_build(small_project, tmp_path / "out")
    assert result.returncode != 0
    message = error_of_page(result.stdout + result.stderr, TURKISH_LESSON)
    assert message.startswith("figure 1 has no caption: give its to_html call caption=...")


def test_missing_translation_broken_link_and_missing_formula_fail_the_build(
    small_project, tmp_path
):
    # Three problems MkDocs reports as warnings: --strict collects them all, then fails.
    (small_project / "docs" / TURKISH_LESSON).unlink()
    index = f"index{TURKISH.page_suffix}"
    break_page(small_project, index, "(lesson.md)", "(no-such-page.md)")
    break_page(small_project, index, "#eq-sum)", "#eq-no-such-formula)")
    result = mkdocs_build(small_project, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "A reference to 'lesson.md' is included in the 'nav'" in output
    assert "no-such-page.md" in output
    assert "eq-no-such-formula" in output


def test_a_malformed_quiz_fails_the_build_naming_page_and_question(small_project, tmp_path):
    break_page(small_project, TURKISH_LESSON, "      explanation: Why.", "      correct: true")
    result = mkdocs_build(small_project, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert TURKISH_LESSON in output
    assert "quiz question 1 (choice:" in output
    assert "2 options are marked correct; set 'multiple: true'" in output
