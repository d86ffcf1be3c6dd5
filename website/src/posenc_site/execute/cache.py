"""Keep what an executed code block printed for later builds, as Quarto's freeze does.

Why our own: markdown-exec has no cache (its issue #4 is open; the pull request that would have
added one, #93, was closed unmerged), and running the blocks, the figures above all, is half of
a build's time: on 2 cores (``benchmarks/build.py``'s builds, best of 4), the site builds in
4.0 s without executing its blocks, in 8.1 s running them all in the build, and in 4.6 s
taking every output from this cache. What is stored is the block's *output*, the text its
``print`` calls gave (``posenc_site.execute.run``), not HTML: markdown-exec renders that output
again in every build (0.6 s over the build without executing, where stored HTML took 0.3 s),
so the ids it numbers per build (``exec-<n>--``) and the headings it gives the table of
contents come out as without a cache.

The key (:func:`key`) is a SHA-256 of what the output depends on:

- the block's code (snippets expanded), without its trailing newlines;
- the language of the page (a block reading the site may print in it);
- the fence's ``width`` option: markdown-exec sets ``COLUMNS`` to it while the block runs;
- a salt (:func:`salt`): the source of ``posenc`` (every file of the package, found on disk
  without importing it), of ``posenc_site.figures`` (the lessons' figures print through it), of
  the modules ``mkdocs.yml`` names with ``!!python/name:``, the text of ``mkdocs.yml``, the
  cache's format and the versions of Python and of the packages in ``DISTRIBUTIONS``. The
  renderers among them (the named modules, Markdown, Pygments, pymdown-extensions) no longer
  shape what is stored; they stay in the salt, as before the cache stored outputs, so that an
  upgrade or an edit of them still runs every block once.

A block that reads the site (:func:`reads_site`: it imports from ``posenc_site`` other than
its figures, whose modules read the pages and data files) gets a salt that also covers every
file under the docs folder and every file of ``posenc_site`` (:func:`site_salt`): it runs
again whenever one of them changes. A block that reads other files, the network or the clock
would need its own salt; the lessons' blocks use NumPy, posenc, ``posenc_site.figures`` and
the packages above only.

Not stored, so run by every build: a block that raised (the build stops on its page, and the
next build must show the error again), the blocks of a ``session`` (they share variables) and
those with a ``workdir`` (they may read its files). See ``posenc_site.execute`` for which
builds may write.

Entries are files ``<key>.txt`` (UTF-8) in the cache folder, ``.cache/exec/`` beside
``mkdocs.yml`` by default (git-ignored), written atomically, so parallel builds may share the
folder. Old entries are never removed: ``rm -rf .cache`` clears them.
"""

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import sys
import tempfile
from pathlib import Path

FORMAT = 2  # bump when what is stored, or how, changes (1 stored HTML)
DISTRIBUTIONS = (
    "numpy",
    "matplotlib",
    "markdown-exec",
    "markdown",
    "pygments",
    "pymdown-extensions",
    "pillow",  # figures
    "ml_dtypes",  # bfloat16 in the longer-contexts lesson
)
# The package the lessons' figure blocks import (``from posenc_site.figures import to_html``):
# code like posenc's, hashed into the salt, and no reader of the site.
FIGURES = "posenc_site.figures"
# Any mention of posenc_site but of its figures: a reader of the site's pages or data.
_READS_SITE = re.compile(r"\bposenc_site\b(?!\.figures\b)")
_PYTHON_NAME = re.compile(r"!!python/name:([\w.]+)")


def reads_site(code: str) -> bool:
    """Whether a block reads the site's pages or data: it mentions ``posenc_site``, not its figures.

    Such a block gets :func:`site_salt` and never runs ahead (``posenc_site.execute.ahead``).

    Parameters
    ----------
    code : str
        The block's code.

    Returns
    -------
    bool
        True when ``posenc_site`` appears other than as ``posenc_site.figures``.

    Examples
    --------
    >>> reads_site("from posenc_site.i18n.glossary import glossary_table")
    True
    >>> reads_site("from posenc_site.figures import to_html")
    False
    >>> reads_site("from posenc_site import figures")  # not told apart: taken as a reader
    True
    """
    return _READS_SITE.search(code) is not None


def _module_files(module: str) -> dict[str, Path]:
    """The files of a module, or of a package (templates too), found, not imported.

    Named relative to the package's folder, so that two copies of the project share entries.
    """
    try:
        spec = importlib.util.find_spec(module)
    except ModuleNotFoundError:  # its parent package is missing
        return {}
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


def _versions() -> str:
    def version(distribution: str) -> str:
        try:
            return importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            return "absent"

    found = [f"{name}={version(name)}" for name in DISTRIBUTIONS]
    return ";".join([f"python={sys.version}", *found])


def code_hashes(config_file: Path) -> dict[str, str]:
    """A hash of the files of each module whose source is in the salt, read from disk.

    Parameters
    ----------
    config_file : Path
        The site's ``mkdocs.yml``.

    Returns
    -------
    dict of str to str
        Module name (``posenc``, ``posenc_site.figures`` and each module ``mkdocs.yml`` names)
        to the SHA-256 hex digest of its files' names and contents; a module not found hashes
        as no files.
    """
    config_text = config_file.read_text(encoding="utf-8")
    modules = ["posenc", FIGURES, *_named_modules(config_text)]
    return {module: _hash_files(_module_files(module)) for module in modules}


def salt(config_file: Path, code: dict[str, str] | None = None) -> str:
    """What every block's output may depend on besides its code, page language and width.

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
        and the versions of Python and of the packages in ``DISTRIBUTIONS``.
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
    """A hash of the files of ``posenc_site`` (code, strings, templates), read from disk."""
    return _hash_files(_module_files("posenc_site"))


def site_salt(salt: str, docs_dir: Path) -> str:
    """The salt of a block that reads the site (:func:`reads_site`).

    Parameters
    ----------
    salt : str
        From :func:`salt`.
    docs_dir : Path
        The docs folder: every file under it is hashed.

    Returns
    -------
    str
        A SHA-256 hex digest of ``salt``, the docs folder's files and ``posenc_site``'s.
    """
    parts = [salt, _hash_files(_folder_files(docs_dir)), site_code_hash()]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def key(code: str, page_language: str, salt: str, width: int = 0) -> str:
    r"""The key of one block's output.

    Parameters
    ----------
    code : str
        The block's code, snippets expanded; trailing newlines do not count (superfences
        hands a block over without its last newline, a snippet keeps it; either runs the same).
    page_language : str
        The code of the page's language.
    salt : str
        From :func:`salt` or :func:`site_salt`.
    width : int, optional
        The fence's ``width`` option (0: none).

    Returns
    -------
    str
        A SHA-256 hex digest.

    Examples
    --------
    >>> key("print(1)\n", "en", "s") == key("print(1)", "en", "s") != key("print(1)", "tr", "s")
    True
    """
    fields = [code.rstrip("\n"), page_language, salt, width]
    return hashlib.sha256(json.dumps(fields, ensure_ascii=False).encode("utf-8")).hexdigest()


class Store:
    """The stored outputs in ``folder``; ``writable`` False only reads (see ``Execution``).

    Parameters
    ----------
    folder : Path
        Where the entries are; created on the first write.
    writable : bool, optional
        Whether :meth:`write` stores anything.
    """

    def __init__(self, folder: Path, writable: bool = True) -> None:
        self.folder = folder
        self.writable = writable

    def _path(self, name: str) -> Path:
        return self.folder / f"{name}.txt"

    def has(self, name: str) -> bool:
        """Whether an output is stored under ``name``."""
        return self._path(name).is_file()

    def read(self, name: str) -> str | None:
        """The output stored under ``name``, or None."""
        try:
            return self._path(name).read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def write(self, name: str, output: str) -> None:
        """Store ``output`` under ``name`` atomically: a temporary file, renamed over the entry."""
        if not self.writable:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(output.encode("utf-8"))
            os.replace(temporary, self._path(name))
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
