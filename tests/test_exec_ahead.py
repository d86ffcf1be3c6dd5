"""Blocks run ahead in a worker process (posenc_site.execute.ahead) give what the build would."""

import markdown
import markdown_exec
import pytest

from conftest import ROOT
from posenc_site import context
from posenc_site.execute import ahead as exec_ahead
from posenc_site.execute import cache as exec_cache
from posenc_site.execute import failures as exec_failures
from posenc_site.i18n import languages

SITE = languages.from_file(ROOT / "mkdocs.yml")
SALT = "salt"


def test_only_blocks_that_run_on_their_own_run_ahead(tmp_path):
    (tmp_path / "shown.py").write_text('print("from a snippet")\n', encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        '```python exec="on"\nprint(1)\n```\n\n'
        "```python\nprint(2)\n```\n\n"  # shown, not run
        '```python exec="on" session="s"\nprint(3)\n```\n\n'
        '```python exec="on" workdir="w"\nprint(4)\n```\n\n'
        '```python exec="on"\nfrom posenc_site import glossary\n```\n\n'
        '```pycon exec="on"\n>>> print(5)\n```\n\n'
        '```python exec="on" result="text"\nprint(1)\n```\n\n'  # the same code: once
        '```python exec="on"\n--8<-- "shown.py"\n```\n',
        encoding="utf-8",
    )
    assert exec_ahead.planned([page], [tmp_path]) == ["print(1)", 'print("from a snippet")']


def test_pages_come_language_by_language_a_folder_before_its_subfolders(tmp_path):
    for name in ["b.md", "b.tr.md", "a/z.md", "a/z.tr.md", "index.md", "index.tr.md"]:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    pages = exec_ahead.pages_in_build_order(tmp_path, [".md", ".tr.md"])
    names = [page.relative_to(tmp_path).as_posix() for page in pages]
    assert names == ["b.md", "index.md", "a/z.md", "b.tr.md", "index.tr.md", "a/z.tr.md"]


def test_the_worker_sends_what_each_block_printed_and_nothing_for_one_that_raised():
    codes = ['print("one")', "import numpy as np\nprint(np.arange(3))", 'raise ValueError("x")']
    ahead = exec_ahead.Ahead(codes, SALT)
    try:
        assert ahead.output('print("one")\n') == "one\n"  # a trailing newline runs the same
        assert ahead.output(codes[1]) == "[0 1 2]\n"
        assert ahead.output(codes[2]) is None  # the build runs it and reports the error
        assert ahead.output('print("not sent")') is None
    finally:
        ahead.stop()


def test_a_stopped_worker_leaves_its_blocks_to_the_build():
    ahead = exec_ahead.Ahead(["import time\ntime.sleep(60)", 'print("after")'], SALT)
    ahead.stop()
    assert ahead.output('print("after")') is None  # returns at once, does not wait


def convert(text, store, ahead):
    fence = {
        "name": "python",
        "class": "python",
        "validator": markdown_exec.validator,
        "format": exec_cache.caching(markdown_exec.formatter, store, ahead),
    }
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}},
    )
    with context.building(ROOT / "docs", SITE, "en"):
        return md.convert(text)


BLOCK = 'import os\nprint("pid", os.getpid() == {pid})\nprint(sum(range(10)))'


@pytest.mark.parametrize("options", ['source="above" result="text"', 'source="tabbed-left"', ""])
def test_a_block_run_ahead_gives_the_html_of_running_it_in_the_build(tmp_path, options):
    import os

    code = BLOCK.format(pid=os.getpid())  # prints whether it runs in this process
    fence = f'```python exec="on" {options}\n{code}\n```\n'
    store = exec_cache.Store(tmp_path / "a", SALT)
    ahead = exec_ahead.Ahead([code], SALT)
    try:
        counter = markdown_exec.MarkdownConverter.counter
        from_worker = convert(fence, store, ahead)
        conversions = markdown_exec.MarkdownConverter.counter - counter
    finally:
        ahead.stop()
    counter = markdown_exec.MarkdownConverter.counter
    in_build = convert(fence, exec_cache.Store(tmp_path / "b", SALT), None)
    assert markdown_exec.MarkdownConverter.counter - counter == conversions
    assert "pid False" in from_worker  # run in the worker
    assert "pid True" in in_build
    assert from_worker.replace("pid False", "pid True") == in_build
    assert "45" in in_build
    assert store.has_run(code)  # stored, and marked: the next build needs no worker for it


def test_a_block_that_raised_in_the_worker_raises_in_the_build(tmp_path):
    code = 'raise ValueError("boom")'
    ahead = exec_ahead.Ahead([code], SALT)
    failures = exec_failures.count()
    try:
        html = convert(
            f'```python exec="on"\n{code}\n```\n', exec_cache.Store(tmp_path, SALT), ahead
        )
    finally:
        ahead.stop()
        exec_failures.start_page()
    assert "boom" in html
    assert exec_failures.count() == failures + 1  # reported, so the build stops on the page
    assert not list(tmp_path.glob("*.json"))  # and nothing stored


def test_no_worker_when_every_block_has_run_or_the_variable_says_no(tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text('```python exec="on"\nprint(1)\n```\n', encoding="utf-8")
    (docs / "index.tr.md").write_text('```python exec="on"\nprint(1)\n```\n', encoding="utf-8")
    config = type("Config", (), {"docs_dir": str(docs), "mdx_configs": {}})()
    store = exec_cache.Store(tmp_path / "cache", SALT)
    monkeypatch.setattr(exec_cache, "_ahead", None)
    monkeypatch.setattr(exec_cache, "_ran_here", False)
    with context.building(docs, SITE, "en"):
        monkeypatch.setenv("POSENC_EXEC_AHEAD", "off")
        assert exec_cache._ahead_of(config, store) is None
        monkeypatch.delenv("POSENC_EXEC_AHEAD")
        store.mark_ran("print(1)")
        assert exec_cache._ahead_of(config, store) is None
        other = exec_cache.Store(tmp_path / "cache", "another salt")  # posenc was edited
        ahead = exec_cache._ahead_of(config, other)
        assert ahead is not None
        try:
            assert exec_cache._ahead_of(config, other) is ahead  # the next language's build
            assert ahead.output("print(1)") == "1\n"
        finally:
            ahead.stop()
        monkeypatch.setattr(exec_cache, "_ahead", None)
        monkeypatch.setattr(exec_cache, "_ran_here", True)  # mkdocs serve after a build
        assert exec_cache._ahead_of(config, exec_cache.Store(tmp_path / "c", SALT)) is None


def test_what_a_block_writes_past_print_does_not_reach_the_build():
    codes = [
        'import os, sys\nsys.stdout.write("[1, null]\\n")\nos.write(1, b"[1, null]\\n")\nprint(0)',
        'import time\ntime.sleep(1)\nprint("second")',  # written back well after the first
    ]
    ahead = exec_ahead.Ahead(codes, SALT)
    try:
        assert ahead.output(codes[0]) == "0\n"
        assert ahead.output(codes[1]) == "second\n"
    finally:
        ahead.stop()
