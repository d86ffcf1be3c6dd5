"""Build times of the site with and without the execution cache, as ratios measured in one run.

Run from the repository's root::

    python benchmarks/build.py            # 3 rounds, about 5 minutes on 2 cores
    python benchmarks/build.py --rounds 1 --no-serve

Everything runs in a temporary copy of the project (docs/, src/, mkdocs.yml), with that copy's
src/ first on PYTHONPATH and its own cache folder. Each round builds, interleaved:

- exec off: the same docs with markdown-exec removed from a copy of mkdocs.yml (blocks are
  shown, not run): the floor the other builds are compared with;
- cache off: ``POSENC_EXEC_CACHE=off``, every block runs (the build before the cache);
- cold: an empty cache folder; warm: the same build again;
- figures run: a warm build with the figures' entries removed (the figures run, nothing else);
- text blocks run: a warm build with every other entry removed.

The table shows the best time of each over the rounds and its ratio to exec off. The serve
rows start ``mkdocs serve`` with a warm cache, append a sentence to a Turkish page and time
until the server logs the rebuild ("Documentation built"), best of three edits; once plain,
once with ``--dirty``, once with the cache off. An exec-off build runs before each edit, while
the server waits, and a serve row's ratio is to the best of those: the machine may be shared,
and the two are then measured in the same minute. The pages of the cache-off, cold and warm
builds of the first round are compared byte for byte, downloads included.
"""

import argparse
import filecmp
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TURKISH_PAGE = Path("docs/lessons/rotary.tr.md")
EXEC_OFF_CONFIG = "mkdocs-exec-off.yml"


def copy_project(into: Path) -> Path:
    """A copy of docs/, src/ and mkdocs.yml, and a copy of mkdocs.yml without markdown-exec."""
    project = into / "project"
    for name in ("docs", "src"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    (project / "mkdocs.yml").write_text(config, encoding="utf-8")
    # Drop the plugin's entry: "- markdown-exec", or "- markdown-exec:" and its indented options.
    lines = config.splitlines(keepends=True)
    start = next(
        k for k, line in enumerate(lines) if line.strip() in ("- markdown-exec", "- markdown-exec:")
    )
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and len(lines[end]) - len(lines[end].lstrip()) > indent + 2:
        end += 1
    (project / EXEC_OFF_CONFIG).write_text("".join(lines[:start] + lines[end:]), encoding="utf-8")
    return project


def environment(project: Path, cache: Path, **extra: str) -> dict[str, str]:
    """The environment of a build of ``project``: its src/ first, its cache folder."""
    return {
        **os.environ,
        "PYTHONPATH": str(project / "src"),
        "POSENC_EXEC_CACHE_DIR": str(cache),
        "NO_MKDOCS_2_WARNING": "1",
        **extra,
    }


def build(project: Path, site: Path, env: dict[str, str], config: str = "mkdocs.yml") -> float:
    """Seconds that ``mkdocs build --strict`` takes, Python's start included."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", config]
    start = time.perf_counter()
    result = subprocess.run(
        [*command, "-d", str(site)], cwd=project, env=env, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"build failed:\n{result.stdout}{result.stderr}")
    return elapsed


def remove_entries(cache: Path, figures: bool) -> int:
    """Remove the cache entries that hold a figure (or those that do not); how many."""
    removed = 0
    for entry in cache.glob("*.json"):
        if ("<svg" in entry.read_text(encoding="utf-8")) == figures:
            entry.unlink()
            removed += 1
    return removed


def same_files(left: Path, right: Path) -> bool:
    """Whether two folders hold the same files with the same bytes."""

    def walk(comparison: filecmp.dircmp[str]) -> bool:
        if comparison.left_only or comparison.right_only or comparison.funny_files:
            return False
        _, mismatch, errors = filecmp.cmpfiles(
            comparison.left, comparison.right, comparison.common_files, shallow=False
        )
        return not mismatch and not errors and all(map(walk, comparison.subdirs.values()))

    return walk(filecmp.dircmp(left, right))


def free_port() -> int:
    """A TCP port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve_rebuilds(
    project: Path, env: dict[str, str], *extra: str, between: Callable[[], float], edits: int = 3
) -> tuple[float, float]:
    """Best seconds from appending a sentence to a Turkish page to the rebuild's log line.

    ``between`` runs before each edit, while the server waits; its best time is returned too.
    """
    command = [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{free_port()}"]
    server = subprocess.Popen(
        [*command, *extra],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[tuple[float, str]] = queue.Queue()

    def read() -> None:
        assert server.stdout is not None
        for line in server.stdout:
            lines.put((time.perf_counter(), line))

    def wait_for(text: str, timeout: float = 300.0) -> float:
        deadline = time.perf_counter() + timeout
        while True:
            try:
                when, line = lines.get(timeout=max(deadline - time.perf_counter(), 0.01))
            except queue.Empty:
                raise TimeoutError(f"mkdocs serve never logged {text!r}") from None
            if text in line:
                return when

    def settle(quiet: float = 1.5) -> None:
        """Wait until the server has logged nothing for ``quiet`` seconds.

        Saving a file may reach the watcher as two changes, hence two rebuilds: the second
        one's lines must not be taken for the next edit's.
        """
        while True:
            try:
                lines.get(timeout=quiet)
            except queue.Empty:
                return

    threading.Thread(target=read, daemon=True).start()
    page = project / TURKISH_PAGE
    original = page.read_text(encoding="utf-8")
    times, others = [], []
    try:
        wait_for("Serving on")
        for edit in range(edits):
            settle()
            others.append(between())
            settle()
            start = time.perf_counter()
            page.write_text(original + f"\nBir cümle daha ({edit}).\n", encoding="utf-8")
            times.append(wait_for("Documentation built") - start)
    finally:
        server.terminate()
        server.wait(timeout=30)
        page.write_text(original, encoding="utf-8")
    return min(times), min(others)


def main(argv: list[str] | None = None) -> int:
    """Run the builds, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="builds of each kind (best kept)")
    parser.add_argument("--no-serve", action="store_true", help="skip the mkdocs serve rows")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="posenc-bench-") as folder:
        tmp = Path(folder)
        project = copy_project(tmp)
        cache = tmp / "cache"
        env = environment(project, cache)
        cache_off = environment(project, cache, POSENC_EXEC_CACHE="off")

        def cold(site: Path) -> float:
            shutil.rmtree(cache, ignore_errors=True)
            return build(project, site, env)

        def rerun(figures: bool) -> Callable[[Path], float]:
            def run(site: Path) -> float:
                remove_entries(cache, figures)
                return build(project, site, env)

            return run

        kinds: dict[str, Callable[[Path], float]] = {
            "exec off": lambda site: build(project, site, cache_off, EXEC_OFF_CONFIG),
            "cache off (every block runs)": lambda site: build(project, site, cache_off),
            "cold cache": cold,
            "warm cache": lambda site: build(project, site, env),
            "warm, figures run": rerun(figures=True),
            "warm, text blocks run": rerun(figures=False),
        }
        best = {name: float("inf") for name in kinds}
        floors = {name: "exec off" for name in kinds}
        for round_ in range(args.rounds):
            for n, (name, run) in enumerate(kinds.items()):
                best[name] = min(best[name], run(tmp / f"site-{round_}-{n}"))
            print(f"round {round_ + 1} of {args.rounds} done", file=sys.stderr)
        identical = same_files(tmp / "site-0-1", tmp / "site-0-2") and same_files(
            tmp / "site-0-2", tmp / "site-0-3"
        )

        if not args.no_serve:
            build(project, tmp / "site-warmup", env)  # the cache is warm for the server
            serves = {
                "serve rebuild, warm cache": (env,),
                "serve --dirty rebuild, warm cache": (env, "--dirty"),
                "serve rebuild, cache off": (cache_off,),
            }
            for name, (server_env, *extra) in serves.items():
                floor_name = f"exec off, beside {name}"
                best[name], best[floor_name] = serve_rebuilds(
                    project, server_env, *extra, between=lambda: kinds["exec off"](tmp / "off")
                )
                floors[name] = floor_name
                floors[floor_name] = "exec off"

    floor = best["exec off"]
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; best of {args.rounds}")
    print()
    print("| build | seconds | × exec off |")
    print("| --- | ---: | ---: |")
    for name, seconds in best.items():
        print(f"| {name} | {seconds:.2f} | {seconds / best[floors[name]]:.2f} |")
    figures = best["warm, figures run"] - best["warm cache"]
    text = best["warm, text blocks run"] - best["warm cache"]
    added = best["cold cache"] - floor
    print()
    print(
        f"a cold build adds {added:.2f} s to exec off; running the figures adds {figures:.2f} s "
        f"to a warm build ({figures / added:.0%} of that), the other blocks {text:.2f} s"
    )
    print(f"cache off, cold and warm sites byte-identical: {'yes' if identical else 'NO'}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
