"""Reuse what an executed code block gave in an earlier build, as Quarto's freeze does.

Why our own: markdown-exec has no cache (its issue #4 is open; the pull request that would have
added one, #93, was closed unmerged), and the executed blocks, the figures above all, are most
of the build's time. :func:`install` wraps the formatter of the fences markdown-exec registers:
a block's HTML is stored under a key, and a later build with the same key takes the HTML
instead of running the block.

The key is a SHA-256 of everything the HTML can depend on:

- the block: its code (snippets already expanded), its options, its fence language;
- the language of the page (blocks print labels in it);
- a salt: the source of ``posenc`` (every file of the package, found without importing it),
  of the modules ``mkdocs.yml`` plugs into Markdown by name (the heading slugs, the quiz
  fence, which render what a block prints), the content of ``mkdocs.yml``, and the versions of
  Python, NumPy, matplotlib, markdown-exec, Markdown, Pygments, pymdown-extensions,
  Pillow and ml_dtypes.

A block that mentions ``posenc_site`` (the translation status, the glossary table) reads the
pages and data files themselves: its key also covers every file under the docs folder and
every file of ``posenc_site``, so it runs again whenever one of them changes.

Not stored, so run by every build:

- a block that raised (``posenc_site.execute.failures`` counts markdown-exec's reports): the build
  stops, and the next one must show the error again;
- an output with headings (markdown-exec passes them to the page's table of contents, which a
  stored copy would not) or with ids markdown-exec numbers per build (``exec-<n>--``).

A block that reads other files, the network or the clock would need its own salt; the lessons'
blocks use NumPy, posenc and the packages above only. Under ``mkdocs serve``, posenc and
posenc_site stay imported between rebuilds: after their source changes, a block would run the
old code, so nothing is stored until the server restarts.

Entries are files ``<key>.json`` in ``.cache/exec/`` beside ``mkdocs.yml`` (git-ignored),
written atomically, so parallel builds may share the folder. Beside them, ``ran/`` marks the
code of every stored output (an empty file per code, under the salt): the blocks left
unmarked are those a build will run, which ``posenc_site.execute.ahead`` runs in a second
process from the start of the build (``POSENC_EXEC_AHEAD=off`` runs them in the build).
``POSENC_EXEC_CACHE=off`` turns the cache off; ``POSENC_EXEC_CACHE_DIR`` puts the entries
elsewhere. Old entries are never removed: ``rm -rf .cache`` clears them.
"""

import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import markdown_exec
from markupsafe import Markup
from mkdocs.config.defaults import MkDocsConfig

from posenc_site import context
from posenc_site.execute import ahead as exec_ahead
from posenc_site.execute import failures as exec_failures

FORMAT = 1  # bump when what is stored, or how, changes
DISTRIBUTIONS = (
    "numpy",
    "matplotlib",
    "markdown-exec",
    "markdown",
    "pygments",
    "pymdown-extensions",
    "pillow",  # figures: posenc.plotting.to_html
    "ml_dtypes",  # bfloat16 in the longer-contexts lesson
)
_READS_SITE = re.compile(r"\bposenc_site\b")
_PER_BUILD_IDS = re.compile(r"exec-\d+--")
_HEADING = re.compile(r"<h[1-6][\s>]")
_PYTHON_NAME = re.compile(r"!!python/name:([\w.]+)")

Formatter = Callable[..., str]


# The hash of each hashed module's files when this process imported it (see ``install``).
_imported: dict[str, str] = {}
# The worker running this build's blocks ahead, kept for the next language's build (and the
# rebuilds of mkdocs serve) while the salt is the same.
_ahead: exec_ahead.Ahead | None = None
_ran_here = False  # whether this process has run a block (mkdocs serve, after its first build)


def enabled() -> bool:
    """Whether the cache is on (``POSENC_EXEC_CACHE=off`` turns it off)."""
    return os.environ.get("POSENC_EXEC_CACHE", "on").lower() not in {"off", "0", "false", "no"}


def cache_dir(config_file: Path) -> Path:
    """The folder of the entries: ``POSENC_EXEC_CACHE_DIR``, else ``.cache/exec`` beside it."""
    moved = os.environ.get("POSENC_EXEC_CACHE_DIR")
    return Path(moved) if moved else config_file.parent / ".cache" / "exec"


def _module_files(module: str) -> dict[str, Path]:
    """The files of a module, or of a package (templates too), found, not imported.

    Named relative to the package's folder, so that two copies of the project share entries.
    """
    spec = importlib.util.find_spec(module)
    if spec is None:
        return {}
    if spec.submodule_search_locations:
        files = {}
        for folder in spec.submodule_search_locations:
            files.update(_folder_files(Path(folder), f"{module}/"))
        return files
    return {module: Path(spec.origin)} if spec.origin else {}


def _folder_files(folder: Path, prefix: str = "") -> dict[str, Path]:
    """The files under ``folder`` but Python's byte code, named relative to it."""
    return {
        f"{prefix}{path.relative_to(folder).as_posix()}": path
        for path in sorted(folder.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def _hash_files(files: dict[str, Path]) -> str:
    digest = hashlib.sha256()
    for name, path in sorted(files.items()):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _named_modules(config_text: str) -> list[str]:
    """The modules of the functions mkdocs.yml names with ``!!python/name:``."""
    lines = (line for line in config_text.splitlines() if not line.lstrip().startswith("#"))
    names = {name.rpartition(".")[0] for name in _PYTHON_NAME.findall("\n".join(lines))}
    return sorted(name for name in names if name)


@functools.cache
def _versions() -> str:
    def version(distribution: str) -> str:
        try:
            return importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            return "absent"

    found = [f"{name}={version(name)}" for name in DISTRIBUTIONS]
    return ";".join([f"python={sys.version}", *found])


def code_hashes(config_file: Path) -> dict[str, str]:
    """A hash of the files of posenc and of each module ``mkdocs.yml`` names, from disk.

    Parameters
    ----------
    config_file : Path
        The site's ``mkdocs.yml``.

    Returns
    -------
    dict of str to str
        Module name to SHA-256 hex digest of its files (names and contents).
    """
    config_text = config_file.read_text(encoding="utf-8")
    modules = ["posenc", *_named_modules(config_text)]
    return {module: _hash_files(_module_files(module)) for module in modules}


def salt(config_file: Path, code: dict[str, str] | None = None) -> str:
    """What every block's output may depend on besides its own code and options.

    Parameters
    ----------
    config_file : Path
        The site's ``mkdocs.yml``.
    code : dict of str to str, optional
        From :func:`code_hashes`, if already computed.

    Returns
    -------
    str
        A SHA-256 hex digest of the code hashes, ``mkdocs.yml`` itself, the cache's format
        and the versions of the packages that make the HTML.
    """
    code = code_hashes(config_file) if code is None else code
    parts = [
        f"format={FORMAT}",
        _versions(),
        json.dumps(code, sort_keys=True),
        config_file.read_text(encoding="utf-8"),
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def site_code_hash() -> str:
    """A hash of the files of posenc_site (code, strings, templates), from disk."""
    return _hash_files(_module_files("posenc_site"))


def _runs_current_code(code: dict[str, str]) -> bool:
    """Whether the modules this process has imported are those on disk.

    Under ``mkdocs serve`` posenc and posenc_site stay imported from one rebuild to the next:
    after their source changes, the blocks run the old code, whose output must not be stored
    under the new key.
    """
    current = True
    for module, digest in code.items():
        if module in sys.modules and module in _imported:
            current = current and _imported[module] == digest
        else:  # not imported yet (it will be from these files), or just imported by the config
            _imported[module] = digest
    return current


def key(
    code: str,
    language: str,
    options: dict[str, Any],
    page_language: str,
    salt: str,
    extra: dict[str, Any] | None = None,
) -> str:
    """The key of one block's output.

    Parameters
    ----------
    code : str
        The block's code, snippets expanded.
    language : str
        The fence's language (``python``, ``pycon``, ...).
    options : dict
        The options markdown-exec's validator read from the fence (``source``, ``html``, ...).
    page_language : str
        The code of the page's language.
    salt : str
        From :func:`salt`.
    extra : dict, optional
        Further arguments superfences passed to the formatter (classes, id, attributes).

    Returns
    -------
    str
        A SHA-256 hex digest.
    """
    fields = [code, language, options, page_language, salt, extra or {}]
    text = json.dumps(fields, sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def storable(html: str) -> bool:
    """Whether a block's output may be stored: no headings, no ids numbered for this build."""
    return not (_PER_BUILD_IDS.search(html) or _HEADING.search(html))


@dataclass(frozen=True)
class Store:
    """The cache of one build: its folder, salt, whether it may write, and the docs folder."""

    folder: Path
    salt: str
    writable: bool = True
    docs_dir: Path | None = None

    @functools.cached_property
    def site_salt(self) -> str:
        """The salt of blocks that use ``posenc_site``: also the docs and posenc_site files."""
        files = {} if self.docs_dir is None else _folder_files(self.docs_dir)
        parts = [self.salt, _hash_files(files), site_code_hash()]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def read(self, name: str) -> tuple[str, int] | None:
        """The HTML stored under ``name`` and how many conversions markdown-exec counted."""
        try:
            entry = json.loads((self.folder / f"{name}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return str(entry["html"]), int(entry["conversions"])

    def _mark(self, code: str) -> Path:
        return self.folder / "ran" / exec_ahead.code_key(self.salt, code)

    def has_run(self, code: str) -> bool:
        """Whether an output of ``code`` was stored under this salt (see :meth:`mark_ran`)."""
        return self._mark(code).exists()

    def mark_ran(self, code: str) -> None:
        """Note that an output of ``code`` is stored: it need not run ahead next time."""
        if self.writable:
            self._mark(code).parent.mkdir(parents=True, exist_ok=True)
            self._mark(code).touch()

    def write(self, name: str, html: str, conversions: int) -> None:
        """Store an entry atomically: a temporary file, then renamed over the entry."""
        if not self.writable:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"html": html, "conversions": conversions}, ensure_ascii=False)
        handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(text)
            os.replace(temporary, self.folder / f"{name}.json")
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def _format_run_ahead(output: str, src: str, options: dict[str, Any], md: Any) -> str:
    """The HTML markdown-exec makes of a Python block that printed ``output``, not running it.

    As markdown-exec's Python formatter, ``base_format`` with its runner, but the runner
    gives what the block printed in the worker.
    """

    def run(*_: Any, **__: Any) -> str:
        return output

    html: str = markdown_exec.base_format(language="python", run=run, code=src, md=md, **options)
    return html


def caching(format_: Formatter, store: Store, ahead: exec_ahead.Ahead | None = None) -> Formatter:
    """``format_`` (markdown-exec's fence formatter), taking and keeping outputs in ``store``.

    A block the cache misses takes its output from ``ahead`` when the worker ran its code.
    """

    def cached_format(
        src: str, language: str, class_name: str, options: dict[str, Any], md: Any, **kwargs: Any
    ) -> str:
        if options.get("session") or options.get("workdir"):
            # Blocks of a session share variables, and a workdir shares files: a block's
            # output then depends on more than its own code. Such blocks always run.
            return format_(src, language, class_name, options, md, **kwargs)
        salt = store.site_salt if _READS_SITE.search(src) else store.salt
        name = key(src, language, options, context.current.page_language.code, salt, kwargs)
        # markdown-exec numbers its conversions for ids (exec-<n>--) across the build: a block
        # taken from the cache advances the count as running it would, so the blocks after it
        # get the ids of a build without cache.
        converter = markdown_exec.MarkdownConverter
        entry = store.read(name)
        if entry is not None:
            html, conversions = entry
            converter.counter += conversions
            return Markup(html)
        failures, counter = exec_failures.count(), converter.counter
        output = ahead.output(src) if ahead is not None and language == "python" else None
        if output is not None:
            html = _format_run_ahead(output, src, options, md)
        else:
            global _ran_here
            _ran_here = True
            html = format_(src, language, class_name, options, md, **kwargs)
        if exec_failures.count() == failures and storable(html):
            store.write(name, str(html), converter.counter - counter)
            store.mark_ran(src)
        return html

    cached_format.exec_cache_of = format_  # type: ignore[attr-defined]
    return cached_format


def install(config: MkDocsConfig) -> Store | None:
    """Wrap the formatters markdown-exec registered in ``config``; None if the cache is off.

    Call from ``on_config`` after markdown-exec's plugin (hooks run after plugins).
    """
    if not enabled():
        return None
    config_file = Path(config.config_file_path)
    code = code_hashes(config_file)
    current = _runs_current_code({**code, "posenc_site": site_code_hash()})
    store = Store(cache_dir(config_file), salt(config_file, code), current, Path(config.docs_dir))
    ahead = _ahead_of(config, store)
    superfences = config.mdx_configs.get("pymdownx.superfences", {})
    for fence in superfences.get("custom_fences", []):
        # Wrapped by an earlier language's build (mkdocs-static-i18n runs on_config once per
        # language on the same configuration): wrapped again, with this build's store.
        original = getattr(fence.get("format"), "exec_cache_of", fence.get("format"))
        if original is markdown_exec.formatter:
            fence["format"] = caching(original, store, ahead)
    return store


def ahead_enabled() -> bool:
    """Whether blocks may run ahead in a worker (``POSENC_EXEC_AHEAD=off`` says no)."""
    return os.environ.get("POSENC_EXEC_AHEAD", "on").lower() not in {"off", "0", "false", "no"}


def _ahead_of(config: MkDocsConfig, store: Store) -> exec_ahead.Ahead | None:
    """The worker of this build: the last one if the salt is the same, or a new one if due.

    A new one is due when this process runs the code on disk and has not run a block yet
    (its first build: it would pay the imports of NumPy and matplotlib itself), and some
    block has no stored output. Under mkdocs serve, a block changed later runs at once in
    the server, which has those imports.
    """
    global _ahead
    if _ahead is not None and _ahead.salt == store.salt and store.writable:
        return _ahead
    if _ahead is not None:
        _ahead.stop()
        _ahead = None
    site = context.current.languages
    if not (ahead_enabled() and store.writable and site) or _ran_here:
        return None
    docs = Path(config.docs_dir)
    snippets = config.mdx_configs.get("pymdownx.snippets", {})
    base_paths = [Path(path) for path in snippets.get("base_path", [docs])]
    pages = exec_ahead.pages_in_build_order(docs, [lang.page_suffix for lang in site.all])
    codes = [code for code in exec_ahead.planned(pages, base_paths) if not store.has_run(code)]
    if codes:
        try:
            _ahead = exec_ahead.Ahead(codes, store.salt)
        except OSError:  # no process to be had: the blocks run in the build
            _ahead = None
    return _ahead
