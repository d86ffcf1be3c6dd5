"""Blocks run ahead in worker processes (posenc_site.execute.ahead) give what the build would."""

import os
import time

import pytest
from mkdocs.exceptions import PluginError

from posenc_site.execute import ahead, cache
from support.executed import SUFFIXES, Executions, convert, fake_config
from support.project import ROOT


@pytest.fixture
def executions(tmp_path):
    """Make Execution objects over tmp_path/docs and the cache tmp_path/cache."""
    (tmp_path / "docs").mkdir()
    with Executions(tmp_path / "docs", tmp_path / "cache").active() as made:
        yield made


def test_only_blocks_that_depend_on_their_code_alone_run_ahead(tmp_path):
    (tmp_path / "shown.py").write_text('print("from a snippet")\n', encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        '```python exec="on"\nprint(1)\n```\n\n'
        "```python\nprint(2)\n```\n\n"  # shown, not run
        '```python exec="on" session="s"\nprint(3)\n```\n\n'
        '```python exec="on" workdir="w"\nprint(4)\n```\n\n'
        '```python exec="on" width="80"\nprint(5)\n```\n\n'
        '```python exec="on"\nfrom posenc_site.i18n import glossary\n```\n\n'
        '```python exec="on"\nfrom posenc_site.figures import to_html\n```\n\n'
        '```pycon exec="on"\n>>> print(6)\n```\n\n'
        '```python exec="on" result="text"\nprint(1)\n```\n\n'  # the same code: once
        '```python exec="off"\nprint(7)\n```\n\n'
        '```python exec="on"\n--8<-- "shown.py"\n```\n',
        encoding="utf-8",
    )
    tr = tmp_path / "page.tr.md"
    tr.write_text('```python exec="on"\nprint(1)\n```\n', encoding="utf-8")
    assert ahead.planned([(page, "en"), (tr, "tr")], [tmp_path]) == [
        ("print(1)", "en"),
        ("from posenc_site.figures import to_html", "en"),
        ('print("from a snippet")', "en"),
        ("print(1)", "tr"),
    ]


def test_pages_come_language_by_language_a_folder_before_its_subfolders(tmp_path):
    for name in ["b.md", "b.tr.md", "a/z.md", "a/z.tr.md", "index.md", "index.tr.md"]:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    pages = ahead.pages_in_build_order(tmp_path, SUFFIXES)
    names = [(page.relative_to(tmp_path).as_posix(), language) for page, language in pages]
    assert names == [
        ("b.md", "en"),
        ("index.md", "en"),
        ("a/z.md", "en"),
        ("b.tr.md", "tr"),
        ("index.tr.md", "tr"),
        ("a/z.tr.md", "tr"),
    ]


def test_the_workers_give_what_each_block_printed_and_nothing_for_one_that_raised():
    codes = ['print("one")', "import numpy as np\nprint(np.arange(3))", 'raise ValueError("x")']
    codes.append('import sys\nsys.stdout.write("past print\\n")\nprint(0)')
    pool = ahead.RunAhead(codes)
    try:
        assert pool.output('print("one")\n') == "one\n"  # a trailing newline runs the same
        assert pool.output(codes[1]) == "[0 1 2]\n"
        assert pool.output(codes[2]) is None  # the build runs it and reports the error
        assert pool.output(codes[3]) == "0\n"  # print only, as markdown-exec captures
        assert pool.output('print("not sent")') is None
    finally:
        pool.close()


def test_the_workers_import_from_the_builds_sys_path(tmp_path, monkeypatch):
    (tmp_path / "ahead_path_fixture.py").write_text("WHERE = 'tmp'\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    pool = ahead.RunAhead(["import ahead_path_fixture\nprint(ahead_path_fixture.WHERE)"])
    try:
        assert pool.output("import ahead_path_fixture\nprint(ahead_path_fixture.WHERE)") == "tmp\n"
    finally:
        pool.close()


def test_closing_stops_the_block_under_way_and_leaves_the_rest_to_the_build():
    pool = ahead.RunAhead(["import time\ntime.sleep(60)", 'print("after")'])
    time.sleep(0.5)
    start = time.perf_counter()
    pool.close()
    assert pool.output('print("after")') is None  # at once, does not wait
    assert pool.output("import time\ntime.sleep(60)") is None
    assert time.perf_counter() - start < 10


def page_with(docs, text: str, name: str = "page.md"):
    (docs / name).write_text(text, encoding="utf-8")


BLOCK = 'import os\nprint("pid", os.getpid() == {pid})\nprint(sum(range(10)))'


@pytest.mark.parametrize("options", ['source="above" result="text"', 'source="tabbed-left"', ""])
def test_a_block_run_ahead_gives_the_html_of_running_it_in_the_build(tmp_path, executions, options):
    code = BLOCK.format(pid=os.getpid())  # prints whether it runs in this process
    fence = f'```python exec="on" {options}\n{code}\n```\n'
    page_with(tmp_path / "docs", fence)
    from_worker = convert(executions(run_ahead=True), fence)
    in_build = convert(executions(cache_dir=None), fence)
    assert "pid False" in from_worker[0]  # run in a worker
    assert "pid True" in in_build[0]
    assert from_worker[0].replace("pid False", "pid True") == in_build[0]
    assert "45" in in_build[0]
    assert len(list((tmp_path / "cache").glob("*.txt"))) == 1  # stored: no worker next time


def test_a_block_that_raised_in_a_worker_raises_in_the_build(tmp_path, executions):
    fence = '```python exec="on"\nraise ValueError("boom")\n```\n'
    page_with(tmp_path / "docs", fence)
    execution = executions(run_ahead=True)
    html, _ = convert(execution, fence)
    assert "boom" in html
    with pytest.raises(PluginError, match=r"page\.md: 1 executed code block\(s\) raised"):
        execution.check_page()  # reported, so the build stops on the page
    assert not list((tmp_path / "cache").glob("*.txt"))  # and nothing stored


def test_workers_start_only_for_blocks_without_a_stored_output(tmp_path, executions, monkeypatch):
    docs = tmp_path / "docs"
    page_with(docs, '```python exec="on"\nprint(1)\n```\n')
    page_with(docs, '```python exec="on"\nprint(1)\n```\n', "page.tr.md")
    started: list[list[str]] = []
    real = ahead.RunAhead

    def recording(codes, *args, **kwargs):
        started.append(list(codes))
        return real(codes, *args, **kwargs)

    monkeypatch.setattr(ahead, "RunAhead", recording)
    assert executions(run_ahead=False)._ahead is None
    execution = executions(run_ahead=True)
    assert started == [["print(1)"]]  # once for both languages
    workers = execution._ahead
    assert workers is not None
    execution.install(fake_config(docs))  # the next language's build: the same workers
    assert execution._ahead is workers
    assert len(started) == 1

    salt = cache.salt(ROOT / "mkdocs.yml")
    store = cache.Store(tmp_path / "cache")
    store.write(cache.key("print(1)", "en", salt), "1\n")
    executions(run_ahead=True)
    assert started[1:] == [["print(1)"]]  # stored in English, not in Turkish
    store.write(cache.key("print(1)", "tr", salt), "1\n")
    assert executions(run_ahead=True)._ahead is None
    assert len(started) == 2


def test_no_workers_after_the_first_build(tmp_path, executions):
    # mkdocs serve: a block changed after the first build runs at once in the server.
    docs = tmp_path / "docs"
    page_with(docs, '```python exec="on"\nprint(1)\n```\n')
    execution = executions(run_ahead=True)
    assert execution._ahead is not None
    assert convert(execution, '```python exec="on"\nprint(1)\n```\n')[0] == "<p>1</p>"
    execution.close()  # the end of the first build
    page_with(docs, '```python exec="on"\nprint(3)\n```\n')
    execution.install(fake_config(docs))  # the rebuild after the edit
    assert execution._ahead is None
    assert convert(execution, '```python exec="on"\nprint(3)\n```\n')[0] == "<p>3</p>"
