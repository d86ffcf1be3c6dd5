"""Translation status: hashes, the three states, the review command, the outdated banner."""

import pytest

from posenc_site.i18n import languages, translations
from posenc_site.i18n.translations import MISSING, OUTDATED, UP_TO_DATE, main
from support.docblocks import DOCS
from support.project import ROOT

SITE = languages.from_file(ROOT / "mkdocs.yml")


def status(docs):
    return translations.status(docs, SITE)


@pytest.fixture
def docs(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\nText.\n", encoding="utf-8")
    (tmp_path / "a.tr.md").write_text("# A\n\nMetin.\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.md").write_text("# B\n", encoding="utf-8")
    (tmp_path / "c.md").write_text("# C\n", encoding="utf-8")
    (tmp_path / "c.tr.md").write_text("---\ntitle: C\n---\n# C\n", encoding="utf-8")
    return tmp_path


def states(docs):
    return {page.source.relative_to(docs).as_posix(): page.state for page in status(docs)}


def test_the_three_states(docs):
    translations.mark_reviewed(docs / "a.tr.md", SITE)
    assert states(docs) == {"a.md": UP_TO_DATE, "c.md": OUTDATED, "sub/b.md": MISSING}
    (docs / "a.md").write_text("# A\n\nText, changed.\n", encoding="utf-8")
    assert states(docs)["a.md"] == OUTDATED


def test_review_records_the_hash_and_keeps_the_page(docs):
    recorded = translations.mark_reviewed(docs / "c.tr.md", SITE)
    assert recorded == translations.source_hash(docs / "c.md")
    assert len(recorded) == 16
    text = (docs / "c.tr.md").read_text(encoding="utf-8")
    assert text == f"---\ntitle: C\nl10n:\n  source_hash: {recorded}\n---\n# C\n"
    assert translations.recorded_hash(docs / "c.tr.md") == recorded


def test_command_line(docs, capsys):
    assert main(["--docs", str(docs), "status"]) == 0
    assert main(["--docs", str(docs), "status", "--check"]) == 1
    out = capsys.readouterr().out
    assert "missing     tr  sub/b.md" in out
    assert "outdated    tr  a.md" in out
    assert main(["--docs", str(docs), "review", str(docs / "a.tr.md"), str(docs / "c.tr.md")]) == 0
    (docs / "sub" / "b.tr.md").write_text("# B\n", encoding="utf-8")
    main(["--docs", str(docs), "review", str(docs / "sub" / "b.tr.md")])
    assert main(["--docs", str(docs), "status", "--check"]) == 0
    with pytest.raises(SystemExit):
        main(["--docs", str(docs), "review", str(docs / "a.md")])


def test_status_table_in_both_languages(docs):
    assert "| `sub/b.md` | missing |" in translations.status_table("en", docs, SITE)
    assert "| `sub/b.md` | yok |" in translations.status_table("tr", docs, SITE)
    # The same words as the banner of an outdated page ("Bu çeviri güncel değil").
    assert "| `c.md` | güncel değil |" in translations.status_table("tr", docs, SITE)
    assert "| `c.md` | outdated |" in translations.status_table("en", docs, SITE)


def test_every_translation_of_the_site_is_up_to_date():
    stale = [p.translation.relative_to(DOCS.parent).as_posix() for p in status(DOCS)]
    stale = [name for name, p in zip(stale, status(DOCS), strict=True) if p.state != UP_TO_DATE]
    command = "python -m posenc_site.i18n.translations review " + " ".join(stale)
    assert stale == [], f"update these translations, then mark them reviewed: {command}"
