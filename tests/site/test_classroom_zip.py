"""The classroom copy's zip (posenc_site.publish.classroom): the same files give the same bytes,
and the command names a missing config. The copy itself is checked in the build tier."""

import zipfile

import pytest

from posenc_site.publish import classroom as classroom_copy


def test_two_zips_of_the_same_files_are_the_same_bytes(tmp_path):
    site = tmp_path / "site"
    (site / "tr").mkdir(parents=True)
    (site / "index.html").write_text("<p>home</p>", encoding="utf-8")
    (site / "tr" / "index.html").write_text("<p>ana sayfa</p>", encoding="utf-8")
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    assert classroom_copy.pack(site, first) == 2
    (site / "index.html").touch()  # a newer date on disk changes nothing
    classroom_copy.pack(site, second)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(first) as archive:
        assert archive.namelist() == ["posenc/index.html", "posenc/tr/index.html"]


def test_the_command_names_a_missing_config(tmp_path, capsys):
    with pytest.raises(SystemExit):
        classroom_copy.main(["--config", str(tmp_path / "mkdocs.yml")])
    assert "mkdocs.yml not found" in capsys.readouterr().err
