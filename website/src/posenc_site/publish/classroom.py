"""The classroom copy: the whole site, both languages, in a zip that works opened from disk.

``python -m posenc_site.publish.classroom`` builds the site with Material's ``offline`` plugin
(``POSENC_OFFLINE=true``, the posenc plugin's ``offline`` option: see ``posenc_site.config``
and ``posenc_site.publish.offline``) and ``--strict``, and zips it with a
top folder ``posenc/``: unzipped anywhere, ``posenc/index.html`` opens the English home page
and ``posenc/tr/index.html`` the Turkish one, search included, with no server and no network.
Two runs on the same sources write the same zip (files in name order, fixed dates).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

FOLDER = "posenc"  # the zip's top folder
OUTPUT = Path("posenc-classroom.zip")
_DATE = (1980, 1, 1, 0, 0, 0)  # zip's earliest date: a zip of the same files is the same bytes


def build(config_file: Path, site_dir: Path) -> subprocess.CompletedProcess[str]:
    """Build the offline variant of the site of ``config_file`` into ``site_dir`` (strict)."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict"]
    command += ["--config-file", str(config_file), "--site-dir", str(site_dir)]
    environment = {**os.environ, "POSENC_OFFLINE": "true", "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(command, env=environment, capture_output=True, text=True, check=False)


def pack(site_dir: Path, output: Path) -> int:
    """Zip every file of ``site_dir`` under ``FOLDER/`` into ``output``; return the count."""
    files = sorted(path for path in site_dir.rglob("*") if path.is_file())
    with zipfile.ZipFile(output, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            info = zipfile.ZipInfo(f"{FOLDER}/{path.relative_to(site_dir).as_posix()}", _DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return len(files)


def main(argv: list[str] | None = None) -> int:
    """Command line: build the classroom copy and write its zip."""
    parser = argparse.ArgumentParser(
        prog="python -m posenc_site.publish.classroom",
        description="Build the site to be read from disk, both languages, and zip it.",
    )
    parser.add_argument(
        "--config", type=Path, default=Path("mkdocs.yml"), help="the site's mkdocs.yml"
    )
    parser.add_argument("--output", type=Path, default=OUTPUT, help=f"the zip (default {OUTPUT})")
    args = parser.parse_args(argv)
    if not args.config.is_file():
        parser.error(f"{args.config} not found: run this in the project folder, or pass --config")
    with tempfile.TemporaryDirectory(prefix="posenc-classroom-") as folder:
        site_dir = Path(folder) / "site"
        result = build(args.config, site_dir)
        if result.returncode != 0:
            print(result.stdout + result.stderr, file=sys.stderr)
            print("the build failed: no zip written", file=sys.stderr)
            return 1
        count = pack(site_dir, args.output)
    print(f"{args.output}: {count} files; unzip it and open {FOLDER}/index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main())
