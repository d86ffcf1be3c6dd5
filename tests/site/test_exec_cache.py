"""The execution cache (posenc_site.execute.cache) gives what running the blocks would give."""

import re
import shutil
import sys
from html import unescape
from pathlib import Path

import markdown_exec
import pytest
from mkdocs.exceptions import PluginError

from posenc_site.execute import cache
from support.executed import Executions, convert, counting_block, fake_config, runs
from support.project import ROOT

SALT = cache.salt(ROOT / "mkdocs.yml")


@pytest.fixture
def executions(tmp_path):
    """Make Execution objects over tmp_path/docs and the cache tmp_path/cache."""
    (tmp_path / "docs").mkdir()
    with Executions(tmp_path / "docs", tmp_path / "cache").active() as made:
        yield made


def entries(folder: Path) -> dict[str, str]:
    """The stored outputs in ``folder``, by file name."""
    return {path.name: path.read_text("utf-8") for path in folder.glob("*.txt")}


def test_the_key_changes_with_the_code_page_language_salt_and_width_only():
    base = cache.key("print(1)", "en", SALT)
    assert cache.key("print(1)\n\n", "en", SALT) == base  # superfences drops the last newline
    changed = [
        cache.key("print(2)", "en", SALT),
        cache.key("print(1)", "tr", SALT),
        cache.key("print(1)", "en", SALT + "0"),
        cache.key("print(1)", "en", SALT, width=80),
    ]
    assert len({base, *changed}) == len(changed) + 1


def test_the_salt_follows_the_posenc_source_on_disk_without_importing_it(tmp_path, monkeypatch):
    shutil.copytree(
        ROOT / "src/posenc", tmp_path / "posenc", ignore=shutil.ignore_patterns("__pycache__")
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for module in [name for name in sys.modules if name.split(".")[0] == "posenc"]:
        monkeypatch.delitem(sys.modules, module)
    before = cache.salt(ROOT / "mkdocs.yml")
    assert "posenc" not in sys.modules  # hashed from disk, not imported
    source = tmp_path / "posenc/sinusoidal.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert cache.salt(ROOT / "mkdocs.yml") != before


def test_the_salt_follows_the_figures_source_on_disk(tmp_path, monkeypatch):
    # The lessons' figure blocks print through posenc_site.figures: an edit of it reruns them.
    package = tmp_path / "posenc_site"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    figures = ROOT / "website/src/posenc_site/figures"
    shutil.copytree(figures, package / "figures", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.syspath_prepend(str(tmp_path))
    for module in [name for name in sys.modules if name.split(".")[0] == "posenc_site"]:
        monkeypatch.delitem(sys.modules, module)
    before = cache.salt(ROOT / "mkdocs.yml")
    source = package / "figures/__init__.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert cache.salt(ROOT / "mkdocs.yml") != before


def test_the_salt_follows_mkdocs_yml_and_the_modules_it_names(tmp_path, monkeypatch):
    named = tmp_path / "exec_cache_named_fixture.py"
    named.write_text("def f(*args):\n    return ''\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = tmp_path / "mkdocs.yml"
    text = "markdown_extensions:\n  - toc: {slugify: !!python/name:exec_cache_named_fixture.f}\n"
    config.write_text(text, encoding="utf-8")
    before = cache.salt(config)
    named.write_text("def f(*args):\n    return 'new'\n", encoding="utf-8")
    after_module = cache.salt(config)
    config.write_text(text + "# edited\n", encoding="utf-8")
    assert len({before, after_module, cache.salt(config)}) == 3


def test_a_commented_line_of_mkdocs_yml_names_no_module():
    text = "a: !!python/name:posenc_site.i18n.slugs.slugify\n# b: !!python/name:gone.module.f\n"
    assert cache._named_modules(text) == ["posenc_site.i18n.slugs"]


@pytest.mark.parametrize(
    ("code", "reads"),
    [
        ("from posenc_site.i18n.glossary import glossary_table", True),
        ("import posenc_site.i18n.translations as t", True),
        ("from posenc_site.figures import to_html", False),
        ("import posenc_site.figures\nfrom posenc_site import i18n", True),
        ("from posenc.plotting import line_plot", False),
    ],
)
def test_only_a_block_using_posenc_site_but_its_figures_reads_the_site(code, reads):
    assert cache.reads_site(code) is reads


def test_a_stored_block_is_not_run_again_and_gives_the_same_html(tmp_path, executions):
    log = tmp_path / "runs.txt"
    first = convert(executions(), counting_block(log))
    assert "hello" in first[0]
    assert list(entries(tmp_path / "cache").values()) == ["hello\n"]  # the output, not HTML
    assert convert(executions(), counting_block(log)) == first  # the next build
    assert runs(log) == 1
    convert(executions(), counting_block(log), page="page.tr.md", language="tr")
    assert runs(log) == 2  # another page language: run


def test_the_stored_output_is_what_the_page_shows(tmp_path, executions):
    convert(executions(), counting_block(tmp_path / "runs.txt"))
    (entry,) = (tmp_path / "cache").glob("*.txt")
    entry.write_text("stored\n", encoding="utf-8")
    html, _ = convert(executions(), counting_block(tmp_path / "runs.txt"))
    assert "stored" in html
    assert "hello" not in html.replace('"hello"', "")  # the source still shows print("hello")


def test_a_block_printing_headings_and_ids_is_stored_and_renders_as_it_ran(tmp_path, executions):
    # markdown-exec renders the stored output in each build: the headings reach the table of
    # contents, and the ids it numbers per build (exec-<n>--) follow the blocks before them.
    log = tmp_path / "runs.txt"
    heading = 'print("## A heading\\n\\nSome text.")'
    page = "# Page\n\n" + counting_block(log, heading, 'source="tabbed-left"') + "\n"
    page += counting_block(log, heading.replace("A heading", "Another"), 'updatetoc="yes"')
    cold = convert(executions(), page)
    warm = convert(executions(), page)
    assert runs(log) == 2  # once each, in the first build
    assert len(entries(tmp_path / "cache")) == 2
    assert warm == cold
    html, toc = warm
    assert 'id="exec-1--__tabbed_1_1"' in html
    assert '<h2 id="exec-2--another">Another</h2>' in html
    assert [entry["id"] for entry in toc[0]["children"]] == ["exec-1--a-heading", "exec-2--another"]


def test_the_same_code_with_other_options_takes_the_stored_output(tmp_path, executions):
    log = tmp_path / "runs.txt"
    convert(executions(), counting_block(log))
    tabbed = counting_block(log, options='source="tabbed-left" result="text"')
    from_cache = convert(executions(), tabbed)
    assert runs(log) == 1
    cache_off = executions(cache_dir=None)
    assert convert(cache_off, tabbed) == from_cache
    assert runs(log) == 2


def test_a_raising_block_stops_the_page_and_is_not_stored(tmp_path, executions):
    log = tmp_path / "runs.txt"
    fence = counting_block(log, 'raise ValueError("boom")')
    for build in range(2):
        execution = executions()
        html, _ = convert(execution, fence, page="lesson.md")
        # markdown-exec shows the traceback in the page, here from the block's first frame.
        assert unescape(re.sub(r"<[^>]+>", "", html)) == (
            "Traceback (most recent call last):\n"
            '  File "<code block: n1>", line 2, in <module>\n'
            '    raise ValueError("boom")\n'
            "ValueError: boom\n"
        )
        with pytest.raises(PluginError, match=r"^lesson\.md: 1 executed code block\(s\) raised"):
            execution.check_page()
        assert runs(log) == build + 1
    assert not entries(tmp_path / "cache")
    execution.start_page("next.md", "en")
    execution.check_page()  # the next page starts without failures


def test_the_blocks_of_a_session_share_variables_and_always_run(tmp_path, executions):
    log = tmp_path / "runs.txt"
    first = counting_block(log, "x = 41\nprint(x)", 'session="s" result="text"')
    second = counting_block(log, "print(x + 1)", 'session="s" result="text"')
    for _ in range(2):
        html, _ = convert(executions(), first + "\n" + second)
        assert "42" in html
    assert runs(log) == 4
    assert not entries(tmp_path / "cache")


def test_a_block_with_a_workdir_always_runs(tmp_path, executions):
    log = tmp_path / "runs.txt"
    (tmp_path / "data.txt").write_text("from the folder\n", encoding="utf-8")
    code = 'from pathlib import Path\nprint(Path("data.txt").read_text())'
    fence = counting_block(log, code, f'workdir="{tmp_path}" result="text"')
    for _ in range(2):
        assert "from the folder" in convert(executions(), fence)[0]
    assert runs(log) == 2
    assert not entries(tmp_path / "cache")


def test_a_block_reading_the_site_runs_again_when_a_docs_file_changes(tmp_path, executions):
    docs = tmp_path / "docs"
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    log = tmp_path / "runs.txt"
    fence = counting_block(log, "import posenc_site\nprint(posenc_site.__name__)")
    assert "posenc_site" in convert(executions(), fence)[0]
    convert(executions(), fence)
    assert runs(log) == 1
    (docs / "index.md").write_text("# Home, edited\n", encoding="utf-8")
    convert(executions(), fence)  # the next build
    assert runs(log) == 2
    figures = counting_block(log, "import posenc_site.figures\nprint(1)")
    convert(executions(), figures)
    (docs / "index.md").write_text("# Home, edited again\n", encoding="utf-8")
    convert(executions(), figures)
    assert runs(log) == 3  # posenc_site.figures does not read the site


def test_nothing_is_stored_while_the_imported_posenc_is_not_the_one_on_disk(
    tmp_path, executions, monkeypatch
):
    # mkdocs serve keeps posenc imported between rebuilds: after an edit of its source the
    # blocks would run the old code, so their output must not be kept under the new key.
    import posenc  # noqa: F401  (imported, as in a server after its first build)

    log = tmp_path / "runs.txt"
    execution = executions()
    hashes = cache.code_hashes(ROOT / "mkdocs.yml")
    monkeypatch.setattr(cache, "code_hashes", lambda _: {**hashes, "posenc": "edited"})
    execution.install(fake_config(tmp_path / "docs"))  # a rebuild after the edit
    convert(execution, counting_block(log))
    assert not entries(tmp_path / "cache")
    execution.install(fake_config(tmp_path / "docs"))  # the next: still the old code imported
    convert(execution, counting_block(log))
    assert runs(log) == 2
    assert not entries(tmp_path / "cache")


def test_install_makes_markdown_execs_python_fences_run_through_the_execution(executions):
    execution = executions(cache_dir=None)
    assert markdown_exec.formatters["python"] == execution._format
    assert markdown_exec.formatters["py"] == execution._format
    html, _ = convert(execution, '```python exec="on"\nprint(6 * 7)\n```\n')
    assert html == "<p>42</p>"
