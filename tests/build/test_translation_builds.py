"""Translation status in a build: the status page in both languages, and the outdated banner
on the twin of an edited English page."""

from posenc_site.i18n import translations
from posenc_site.i18n.translations import MISSING, OUTDATED, UP_TO_DATE
from support.docblocks import DOCS
from support.fixture_project import mkdocs_build
from support.project import SITE, TURKISH


def status(docs):
    return translations.status(docs, SITE)


def test_status_page_is_built_in_both_languages(site):
    english = (site / "translation-status/index.html").read_text(encoding="utf-8")
    turkish = (site / "tr/translation-status/index.html").read_text(encoding="utf-8")
    words = {
        "en": {UP_TO_DATE: "up to date", OUTDATED: "outdated", MISSING: "missing"},
        "tr": {UP_TO_DATE: "güncel", OUTDATED: "güncel değil", MISSING: "yok"},
    }
    for page in status(DOCS):
        name = page.source.relative_to(DOCS).as_posix()
        assert f"<code>{name}</code></td>\n<td>{words['en'][page.state]}</td>" in english
        assert f"<code>{name}</code></td>\n<td>{words['tr'][page.state]}</td>" in turkish


def test_editing_an_english_page_shows_the_banner_on_its_twin(small_project, tmp_path):
    english = small_project / "docs" / "lesson.md"
    english.write_text(english.read_text(encoding="utf-8") + "\nOne more line.\n", "utf-8")
    result = mkdocs_build(small_project, tmp_path / "out")
    assert result.returncode == 0, result.stdout + result.stderr
    page = (tmp_path / "out" / TURKISH.url_prefix / "lesson/index.html").read_text("utf-8")
    assert "Bu çeviri güncel değil" in page
    assert '<a href="../../lesson/" hreflang="en">' in page
    untouched = (tmp_path / "out" / TURKISH.url_prefix / "index.html").read_text("utf-8")
    assert "Bu çeviri güncel değil" not in untouched
