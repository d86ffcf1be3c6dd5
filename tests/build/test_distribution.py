"""The posenc distribution as PyPI gets it: the sdist and the wheel hold the library alone, pass
``twine check --strict``, install into a fresh virtual environment, and run every lesson's
downloaded script there.

The wheel is built from the sdist, as ``python -m build`` does without ``--sdist`` or
``--wheel`` (and as release.yml does), without build isolation: the build backend, setuptools,
comes from this environment (the test extra), so nothing is downloaded.

The fresh environment (``python -m venv --without-pip``; pip runs there with ``--python``) holds
the wheel and NumPy, and nothing else: its site-packages links this environment's numpy and
numpy's metadata, so pip finds the dependency installed, the install needs no network, and a
download that imports anything beyond NumPy and posenc (matplotlib, torch, posenc_site) fails.
Measured on one core: building takes 1.6 s of processor time, twine 0.4 s, the environment and
the install 1.4 s, and the 28 lesson scripts 4.7 s together.
"""

import email.message
import email.parser
import importlib.metadata
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pytest
import yaml

from support.project import DOCS, ROOT, SITE

NOT_YET = {"en": "Not yet:", "tr": "Henüz değil:"}  # what an unsolved exercise's check says

# One worker builds and installs once for every test of this module.
pytestmark = pytest.mark.xdist_group("distribution")

LIBRARY = ROOT / "src" / "posenc"


def run(*command: str | Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, check=False, **kwargs
    )


def library_files() -> set[str]:
    """The modules of src/posenc and its py.typed, relative to src/."""
    return {
        path.relative_to(LIBRARY.parent).as_posix()
        for path in LIBRARY.rglob("*")
        if path.suffix == ".py" or path.name == "py.typed"
    }


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel of the repository's pyproject, built as release.yml builds them."""
    out = tmp_path_factory.mktemp("dist")
    result = run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return {"sdist": sdist, "wheel": wheel}


def metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return email.parser.Parser().parsestr(archive.read(name).decode("utf-8"))


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, dists: dict[str, Path]) -> Path:
    """A fresh virtual environment holding NumPy and the wheel: its python."""
    root = tmp_path_factory.mktemp("venv")
    result = run(sys.executable, "-m", "venv", "--without-pip", root)
    assert result.returncode == 0, result.stderr
    python = root / "bin" / "python"
    site_packages = Path(run(python, "-c", PURELIB).stdout.strip())
    numpy = Path(np.__file__).parent
    numpy_files = importlib.metadata.distribution("numpy").files or []
    record = next(f for f in numpy_files if f.name == "RECORD" and f.parent.suffix == ".dist-info")
    numpy_metadata = Path(str(record.locate())).parent
    for path in (numpy, numpy.with_name("numpy.libs"), numpy_metadata):
        if path.exists():  # numpy.libs: the bundled libraries of a manylinux wheel
            (site_packages / path.name).symlink_to(path)
    install = pip(python, "install", "--no-index", dists["wheel"])
    assert install.returncode == 0, install.stdout + install.stderr
    return python


PURELIB = "import sysconfig; print(sysconfig.get_paths()['purelib'])"


def pip(python: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """This environment's pip, acting on the environment of ``python``."""
    return run(sys.executable, "-m", "pip", "--python", python, *args)


def isolated(python: Path, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -I``: no PYTHONPATH, no user site, no script folder on the path."""
    return run(python, "-I", *args, cwd=cwd)


def test_the_sdist_holds_the_library_and_nothing_of_the_site(dists):
    with tarfile.open(dists["sdist"]) as archive:
        names = {name.partition("/")[2] for name in archive.getnames()}
    top = {name.split("/")[0] for name in names if name}
    assert top == {
        "CHANGELOG.md", "LICENSE", "MANIFEST.in", "PKG-INFO", "PYPI.md", "README.md",
        "pyproject.toml", "setup.cfg", "src",
    }  # fmt: skip
    sources = {name.removeprefix("src/") for name in names if name.startswith("src/posenc/")}
    assert sources == library_files()
    assert "posenc/py.typed" in sources


def test_the_wheel_holds_the_library_its_types_and_its_license(dists):
    with zipfile.ZipFile(dists["wheel"]) as archive:
        names = set(archive.namelist())
    info = f"posenc-{metadata(dists['wheel'])['Version']}.dist-info"
    assert {n for n in names if not n.startswith(info)} == library_files()
    assert "posenc/py.typed" in names
    assert f"{info}/licenses/LICENSE" in names


def test_twine_check_strict_passes_both(dists):
    result = run(sys.executable, "-m", "twine", "check", "--strict", *dists.values())
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASSED") == 2


def test_the_metadata_takes_the_version_from_posenc_and_the_site_address_from_mkdocs(dists):
    import posenc

    found = metadata(dists["wheel"])
    assert found["Version"] == posenc.__version__
    assert dists["wheel"].name == f"posenc-{posenc.__version__}-py3-none-any.whl"
    assert found["License-Expression"] == "MIT"
    assert "Typing :: Typed" in found.get_all("Classifier")
    assert found.get_all("Requires-Dist")[0] == "numpy>=1.26"
    urls = dict(line.split(", ", 1) for line in found.get_all("Project-URL"))
    assert set(urls) == {"Documentation", "Source", "Changelog", "Issues"}
    site_url = re.search(r"^site_url: !ENV \[POSENC_SITE_URL, \"(.*)\"\]", MKDOCS, re.MULTILINE)
    assert urls["Documentation"] == site_url.group(1)
    assert urls["Issues"] == urls["Source"] + "/issues"
    # PyPI's project page: PYPI.md, not the repository's README (contributors, CI, publishing).
    assert found["Description-Content-Type"] == "text/markdown"
    description = found.get_payload()
    assert description == PYPI_MD.read_text(encoding="utf-8")
    assert description.startswith("# posenc\n")
    # A link to a file of the repository would break there: every link is absolute, and to the
    # site or the repository that [project.urls] name.
    links = re.findall(r"\]\(([^)]*)\)|<([a-z]+:[^>]*)>", description)
    targets = [inline or auto for inline, auto in links]
    assert targets
    outside = [
        link for link in targets if not link.startswith((urls["Documentation"], urls["Source"]))
    ]
    assert outside == []


MKDOCS = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
PYPI_MD = ROOT / "PYPI.md"  # pyproject's readme


def test_the_installed_wheel_is_posenc_alone(venv, tmp_path):
    shown = pip(venv, "show", "-f", "posenc")
    assert shown.returncode == 0, shown.stderr
    site_packages = run(venv, "-c", PURELIB).stdout.strip()
    assert f"Location: {site_packages}\n" in shown.stdout
    files = shown.stdout.partition("\nFiles:\n")[2].split()
    assert "posenc/py.typed" in files
    assert "posenc/__init__.py" in files
    assert not [name for name in files if "posenc_site" in name]
    where = isolated(venv, "-c", "import posenc; print(posenc.__file__)", cwd=tmp_path)
    assert where.stdout == f"{site_packages}/posenc/__init__.py\n", where.stderr
    # The environment has no more than NumPy and posenc: what the site needs is missing.
    modules = ["numpy", "posenc", "posenc_site", "matplotlib", "mkdocs", "torch"]
    found = "import importlib.util as u, sys; print([m for m in sys.argv[1:] if u.find_spec(m)])"
    importable = isolated(venv, "-c", found, *modules, cwd=tmp_path)
    assert importable.stdout == "['numpy', 'posenc']\n", importable.stderr


def test_the_pypi_page_example_runs_against_the_installed_wheel(venv, tmp_path):
    description = PYPI_MD.read_text(encoding="utf-8")
    (session,) = re.findall(r"```pycon\n(.*?)```", description, re.DOTALL)
    (tmp_path / "example.txt").write_text(session, encoding="utf-8")
    result = isolated(venv, "-m", "doctest", "-v", "example.txt", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 passed and 0 failed." in result.stdout


def downloads(site: Path) -> list[Path]:
    """Every lesson's script and starter file, in both languages (posenc_site.publish.downloads)."""
    scripts = []
    for notebook in sorted(site.rglob("lessons/*/*.ipynb")):
        scripts.append(notebook.with_suffix(".py"))
        if (notebook.parent / "model.py").exists():
            scripts.append(notebook.parent / "model.py")
    return scripts


def test_every_lesson_download_runs_with_numpy_and_the_installed_wheel(site, venv, tmp_path):
    scripts = downloads(site)
    lessons = [page.stem for page in DOCS.glob("lessons/*.md") if SITE.of_page(page).default]
    folders = {
        site / f"{language.url_prefix}lessons/{name}" for language in SITE.all for name in lessons
    }
    assert {path.parent for path in scripts} == folders
    failed = {}
    for script in scripts:
        result = isolated(venv, script, cwd=tmp_path)
        # The exercise's starter checks itself: run as downloaded it says "not yet", code 1.
        starter = script.name == "model.py"
        language = SITE.of_url(script.parent.relative_to(site).as_posix())
        if (
            result.returncode != (1 if starter else 0)
            or result.stderr
            or (starter and not result.stdout.startswith(NOT_YET[language.code]))
        ):
            lines = (result.stderr or result.stdout).strip().splitlines()[-1:]
            failed[script.relative_to(site).as_posix()] = lines
    assert failed == {}


def release_check() -> str:
    """The Python step of release.yml that compares the tag and the addresses with the wheel's."""
    workflow = yaml.safe_load((ROOT / ".github/workflows/release.yml").read_text(encoding="utf-8"))
    (step,) = [s for s in workflow["jobs"]["build"]["steps"] if s.get("shell") == "python"]
    return step["run"]


@pytest.mark.parametrize(
    ("tag", "repository", "refused"),
    [
        ("v{version}", "{source}", []),
        ("v0.0.9", "{source}", ["the tag v0.0.9 is not v{version}"]),
        ("{version}", "{source}", ["the tag {version} is not v{version}"]),
        ("v{version}", "https://github.com/a-fork/posenc", ["Source", "Changelog", "Issues"]),
    ],
)
def test_the_release_refuses_a_tag_that_is_not_the_version(
    dists, tmp_path, tag, repository, refused
):
    found = metadata(dists["wheel"])
    version = found["Version"]
    urls = dict(line.split(", ", 1) for line in found.get_all("Project-URL"))
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / dists["wheel"].name).symlink_to(dists["wheel"])
    env = {
        **os.environ,
        "TAG": tag.format(version=version),
        "SITE_URL": urls["Documentation"],
        "REPO_URL": repository.format(source=urls["Source"]),
    }
    result = run(sys.executable, "-c", release_check(), cwd=tmp_path, env=env)
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error::")]
    assert result.returncode == (1 if refused else 0), result.stdout + result.stderr
    assert len(errors) == len(refused)
    for error, words in zip(errors, refused, strict=True):
        assert words.format(version=version) in error
