"""A broken page must stop the build and name the page."""

from pathlib import Path

from conftest import mkdocs_build

TURKISH_LESSON = "lessons/positional-encoding.tr.md"


def break_page(project: Path, page: str, old: str, new: str) -> None:
    path = project / "docs" / page
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_raising_code_block_fails_the_build_and_names_the_page(project_copy, tmp_path):
    break_page(
        project_copy, TURKISH_LESSON, "PE = sinusoidal_encoding(4, 6)", "PE = undefined_name"
    )
    result = mkdocs_build(project_copy, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"{TURKISH_LESSON}: 1 executed code block(s) raised" in output
    assert "NameError" in output
    assert not (tmp_path / "out" / "tr" / "lessons" / "positional-encoding" / "index.html").exists()


def test_a_bad_formula_fails_the_build_and_names_the_page(project_copy, tmp_path):
    break_page(project_copy, TURKISH_LESSON, r"\sqrt{d}", r"\sqrt{d")
    result = mkdocs_build(project_copy, tmp_path / "out")
    assert result.returncode != 0
    assert f"{TURKISH_LESSON}: unbalanced braces" in result.stdout + result.stderr


def test_missing_translation_broken_link_and_missing_formula_fail_the_build(project_copy, tmp_path):
    # Three problems MkDocs reports as warnings: --strict collects them all, then fails.
    (project_copy / "docs" / "lessons" / "comparison.tr.md").unlink()
    break_page(project_copy, TURKISH_LESSON, "(learned-embeddings.md)", "(no-such-page.md)")
    break_page(project_copy, "contributing.tr.md", "#eq-sinusoidal)", "#eq-no-such-formula)")
    result = mkdocs_build(project_copy, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "A reference to 'lessons/comparison.md' is included in the 'nav'" in output
    assert "no-such-page.md" in output
    assert "eq-no-such-formula" in output


def test_a_malformed_quiz_fails_the_build_naming_page_and_question(project_copy, tmp_path):
    break_page(
        project_copy,
        TURKISH_LESSON,
        "      explanation: Kararlılık",
        "      correct: true\n      explanation: Kararlılık",
    )
    result = mkdocs_build(project_copy, tmp_path / "out")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "lessons/positional-encoding.tr.md" in output
    assert "quiz question 1 (choice:" in output
    assert "2 options are marked correct; set 'multiple: true'" in output
