"""The execution cache (posenc_site.execute.cache) gives what running the blocks would give."""

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import markdown
import markdown_exec
import pytest

from conftest import ROOT, TURKISH
from posenc_site import context
from posenc_site.execute import cache as exec_cache
from posenc_site.i18n import languages

SITE = languages.from_file(ROOT / "mkdocs.yml")
OPTIONS = {"html": False, "source": "above", "result": "text", "extra": {}}
SALT = exec_cache.salt(ROOT / "mkdocs.yml")


def test_the_key_changes_with_the_code_options_fence_and_page_language():
    base = exec_cache.key("print(1)", "python", OPTIONS, "en", SALT)
    assert exec_cache.key("print(1)", "python", OPTIONS, "en", SALT) == base
    changed = [
        exec_cache.key("print(2)", "python", OPTIONS, "en", SALT),
        exec_cache.key("print(1)", "python", {**OPTIONS, "source": "below"}, "en", SALT),
        exec_cache.key("print(1)", "pycon", OPTIONS, "en", SALT),
        exec_cache.key("print(1)", "python", OPTIONS, "tr", SALT),
        exec_cache.key("print(1)", "python", OPTIONS, "en", SALT + "0"),
    ]
    assert len({base, *changed}) == len(changed) + 1


def copy_package(name: str, into: Path) -> Path:
    """A copy of ``src/<name>`` under ``into``, returned."""
    shutil.copytree(ROOT / "src" / name, into / name, ignore=shutil.ignore_patterns("__pycache__"))
    return into / name


def test_the_salt_follows_the_posenc_source_on_disk_without_importing_it(tmp_path, monkeypatch):
    package = copy_package("posenc", tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for module in [name for name in sys.modules if name.split(".")[0] == "posenc"]:
        monkeypatch.delitem(sys.modules, module)
    before = exec_cache.salt(ROOT / "mkdocs.yml")
    assert "posenc" not in sys.modules  # hashed from disk, not imported
    source = package / "sinusoidal.py"
    source.write_text(source.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert exec_cache.salt(ROOT / "mkdocs.yml") != before


def test_the_salt_follows_mkdocs_yml_and_the_modules_it_names(tmp_path, monkeypatch):
    # A module named in mkdocs.yml (as the heading slugs and the quiz fence are) renders what
    # a block prints: its source is in the salt.
    named = tmp_path / "exec_cache_named_fixture.py"
    named.write_text("def f(*args):\n    return ''\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = tmp_path / "mkdocs.yml"
    text = "markdown_extensions:\n  - toc: {slugify: !!python/name:exec_cache_named_fixture.f}\n"
    config.write_text(text, encoding="utf-8")
    before = exec_cache.salt(config)
    named.write_text("def f(*args):\n    return 'new'\n", encoding="utf-8")
    after_module = exec_cache.salt(config)
    config.write_text(text + "# edited\n", encoding="utf-8")
    assert len({before, after_module, exec_cache.salt(config)}) == 3


def convert(text: str, store: exec_cache.Store, language: str = "en") -> str:
    """``text`` through superfences with markdown-exec's python fence behind the cache."""
    fence = {
        "name": "python",
        "class": "python",
        "validator": markdown_exec.validator,
        "format": exec_cache.caching(markdown_exec.formatter, store),
    }
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}},
    )
    with context.building(ROOT / "docs", SITE, language):
        return md.convert(text)


def counting_block(runs: Path, code: str = 'print("hello")', result: str = "text") -> str:
    """A block that appends a line to ``runs`` each time it runs, then runs ``code``."""
    return (
        f'```python exec="on" source="above" result="{result}"\n'
        f"with open({str(runs)!r}, 'a') as f: f.write('ran\\n')\n"
        f"{code}\n```\n"
    )


def runs(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def test_a_stored_block_is_not_run_again_and_gives_the_same_html(tmp_path):
    store = exec_cache.Store(tmp_path / "cache", SALT)
    log = tmp_path / "runs.txt"
    counter = markdown_exec.MarkdownConverter.counter
    first = convert(counting_block(log), store)
    conversions = markdown_exec.MarkdownConverter.counter - counter
    assert "hello" in first
    assert len(list((tmp_path / "cache").glob("*.json"))) == 1
    counter = markdown_exec.MarkdownConverter.counter
    assert convert(counting_block(log), store) == first
    assert runs(log) == 1
    # Taken from the cache, the block advances markdown-exec's id counter as running it did.
    assert markdown_exec.MarkdownConverter.counter - counter == conversions > 0
    convert(counting_block(log), store, language="tr")  # another page language: run
    assert runs(log) == 2


def test_the_stored_html_is_what_the_page_shows(tmp_path):
    store = exec_cache.Store(tmp_path / "cache", SALT)
    log = tmp_path / "runs.txt"
    convert(counting_block(log), store)
    (entry,) = (tmp_path / "cache").glob("*.json")
    entry.write_text(entry.read_text(encoding="utf-8").replace("hello", "stored"), "utf-8")
    assert "stored" in convert(counting_block(log), store)


@pytest.mark.parametrize(
    "code", ['raise ValueError("boom")', 'print("# A heading")'], ids=["raises", "heading"]
)
def test_what_must_run_every_time_is_not_stored(tmp_path, code):
    store = exec_cache.Store(tmp_path / "cache", SALT)
    log = tmp_path / "runs.txt"
    fence = counting_block(log, code, result="")  # the output is Markdown: headings count
    html = convert(fence, store)
    assert not list((tmp_path / "cache").glob("*.json")), html
    convert(fence, store)
    assert runs(log) == 2


def test_blocks_of_a_session_always_run(tmp_path):
    # Blocks of a markdown-exec session share variables: a block's own code is not its key.
    store = exec_cache.Store(tmp_path / "cache", SALT)
    log = tmp_path / "runs.txt"
    fence = counting_block(log).replace('result="text"', 'result="text" session="s"')
    convert(fence, store)
    convert(fence, store)
    assert runs(log) == 2
    assert not list((tmp_path / "cache").glob("*.json"))


def test_a_commented_line_of_mkdocs_yml_names_no_module():
    text = "a: !!python/name:posenc_site.i18n.slugs.slugify\n# b: !!python/name:gone.module.f\n"
    assert exec_cache._named_modules(text) == ["posenc_site.i18n.slugs"]


def test_an_output_numbered_for_this_build_is_not_stored():
    assert not exec_cache.storable('<div id="exec-3--x">1</div>')
    assert exec_cache.storable('<div id="other">1</div>')


def test_a_block_using_posenc_site_runs_again_when_a_docs_file_changes(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    store = exec_cache.Store(tmp_path / "cache", SALT, docs_dir=docs)
    log = tmp_path / "runs.txt"
    fence = counting_block(log, "from posenc_site import context\nprint(context.current.language)")
    assert "en" in convert(fence, store)
    convert(fence, store)
    assert runs(log) == 1
    (docs / "index.md").write_text("# Home, edited\n", encoding="utf-8")
    convert(fence, exec_cache.Store(tmp_path / "cache", SALT, docs_dir=docs))  # the next build
    assert runs(log) == 2


def test_nothing_is_stored_while_the_imported_posenc_is_not_the_one_on_disk(monkeypatch):
    # mkdocs serve keeps posenc imported between rebuilds: after an edit of its source the
    # blocks would run the old code, so their output must not be kept under the new key.
    monkeypatch.setattr(exec_cache, "_imported", {})
    import posenc  # noqa: F401  (imported, as in a server after its first build)

    assert exec_cache._runs_current_code({"posenc": "hash-a"})
    assert exec_cache._runs_current_code({"posenc": "hash-a"})
    assert not exec_cache._runs_current_code({"posenc": "hash-b"})  # edited on disk
    monkeypatch.delitem(sys.modules, "posenc")
    assert exec_cache._runs_current_code({"posenc": "hash-b"})  # to be imported from disk


def fake_config() -> SimpleNamespace:
    fence = {"name": "python", "class": "python", "format": markdown_exec.formatter}
    other = {"name": "quiz", "class": "quiz", "format": print}  # not markdown-exec's: left alone
    return SimpleNamespace(
        config_file_path=str(ROOT / "mkdocs.yml"),
        docs_dir=str(ROOT / "docs"),
        mdx_configs={"pymdownx.superfences": {"custom_fences": [fence, other]}},
    )


def test_install_wraps_markdown_execs_fences_once_and_the_variable_turns_it_off(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("POSENC_EXEC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("POSENC_EXEC_AHEAD", "off")  # no worker running the docs' blocks here
    config = fake_config()
    store = exec_cache.install(config)  # type: ignore[arg-type]
    assert store is not None
    assert store.folder == tmp_path / "cache"
    fence, other = config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    assert fence["format"].exec_cache_of is markdown_exec.formatter
    exec_cache.install(config)  # type: ignore[arg-type]  # the next language's build
    assert fence["format"].exec_cache_of is markdown_exec.formatter
    assert other["format"] is print

    monkeypatch.setenv("POSENC_EXEC_CACHE", "off")
    config = fake_config()
    assert exec_cache.install(config) is None  # type: ignore[arg-type]
    fence, _ = config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    assert fence["format"] is markdown_exec.formatter


# --- a build, an edit of posenc, a build -------------------------------------------------------

# The small project of tests/conftest.py: its lesson page prints a sinusoidal table, once in
# each language.
PAGES = ["lesson/index.html", f"{TURKISH.url_prefix}lesson/index.html"]


def build_fixture(project: Path, site: Path, **env: str) -> dict[str, str]:
    """Build the fixture project into ``site``; its pages' text by path."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=project,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "NO_MKDOCS_2_WARNING": "1",
            "PYTHONPATH": str(project / "src"),
            "POSENC_EXEC_CACHE_DIR": str(project / "cache"),
            **env,
        },
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return {page: (site / page).read_text(encoding="utf-8") for page in PAGES}


def entries(project: Path) -> dict[str, int]:
    """The cache's entries and their modification times."""
    return {entry.name: entry.stat().st_mtime_ns for entry in (project / "cache").glob("*.json")}


def marks(project: Path) -> set[str]:
    """The codes the cache marks as stored (the blocks a build need not run ahead)."""
    return {mark.name for mark in (project / "cache" / "ran").iterdir()}


@pytest.mark.build
def test_an_edit_of_posenc_shows_in_the_next_build_and_nothing_else_reruns(small_project):
    tmp_path = small_project  # the build runs this copy of posenc (PYTHONPATH)
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__"))

    for page in build_fixture(tmp_path, tmp_path / "site1").values():
        assert "[0.841 0.54  0.01  1.   ]" in page
    assert len(entries(tmp_path)) == 2  # one block per language
    assert len(marks(tmp_path)) == 1  # the same code in both

    source = tmp_path / "src/posenc/sinusoidal.py"
    # An edit of the function, as an author makes one: the table comes out twice as large.
    edit = "\n_unscaled = sinusoidal_encoding\n\n\ndef sinusoidal_encoding(*args, **kwargs):\n"
    edit += "    return 2 * _unscaled(*args, **kwargs)\n"
    source.write_text(source.read_text(encoding="utf-8") + edit, "utf-8")
    edited = build_fixture(tmp_path, tmp_path / "site2")
    for page in edited.values():
        assert "[1.683 1.081 0.02  2.   ]" in page
        assert "0.841" not in page
    stored = entries(tmp_path)
    assert len(stored) == 4
    assert len(marks(tmp_path)) == 2  # under the salt of each posenc

    assert build_fixture(tmp_path, tmp_path / "site3") == edited
    assert entries(tmp_path) == stored  # nothing run, nothing written

    shutil.rmtree(tmp_path / "cache")
    assert build_fixture(tmp_path, tmp_path / "site4", POSENC_EXEC_CACHE="off") == edited
    assert not (tmp_path / "cache").exists()
