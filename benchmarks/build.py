"""Build times of the site with and without the execution cache, as ratios measured in one run.

Run from the repository's root::

    python benchmarks/build.py            # 3 rounds, about 5 minutes on 2 cores
    python benchmarks/build.py --rounds 1 --no-serve

Everything runs in a temporary copy of the project (docs/, src/, website/, mkdocs.yml), with
that copy's src/ and website/src/ first on PYTHONPATH and its own cache folder. Each round
builds, interleaved:

- exec off: the same docs with markdown-exec removed from a copy of mkdocs.yml (blocks are
  shown, not run): the floor the other builds are compared with;
- cache off: ``POSENC_EXEC_CACHE=off``, every block runs (the build before the cache);
- cold: an empty cache folder (the blocks run in worker processes, ``posenc_site.execute.ahead``);
  cold, in the build: the same with ``POSENC_EXEC_AHEAD=off`` (the blocks run one after the
  other in the build); warm: the same build again;
- figures run: a warm build with the figures' entries removed (the figures run, nothing else);
- text blocks run: a warm build with every other entry removed.

The table shows the best time of each over the rounds and its ratio to exec off, in seconds
of the clock and in seconds of processor time (user and system, the build's own, which other
work on a shared machine inflates less). The serve rows start ``mkdocs serve`` with a warm
cache, append a sentence to a Turkish page and time until the rebuild that serves it is over,
best of three edits; once plain, once with ``--dirty``, once with the cache off. The rebuild is
over when the server logs "Reloading browsers" (after "Documentation built") and then serves
the page with the new sentence: a save may start two rebuilds, and the first may have begun
before the save. A server that does not get there within ``--serve-timeout`` seconds, or
stops, is reported with the end of its log in place of its row. An exec-off build runs before
each edit, while the server waits, and a serve row's ratio is to the best of those: the
machine may be shared, and the two are then measured in the same minute. The pages of the
cache-off, both cold and the warm builds of the first round are compared byte for byte, downloads
included.
"""

import argparse
import filecmp
import os
import queue
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TURKISH_PAGE = Path("docs/lessons/rotary.tr.md")
TURKISH_URL = "tr/lessons/rotary/"  # where mkdocs serve shows it
EXEC_OFF_CONFIG = "mkdocs-exec-off.yml"


def copy_project(into: Path) -> Path:
    """A copy of docs/, src/, website/, mkdocs.yml, and of mkdocs.yml without markdown-exec."""
    project = into / "project"
    for name in ("docs", "src", "website"):
        shutil.copytree(
            ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
        )
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
    """The environment of a build of ``project``: its src/ and website/src/ first, its cache."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(project / "src"), str(project / "website/src")]),
        "POSENC_EXEC_CACHE_DIR": str(cache),
        "NO_MKDOCS_2_WARNING": "1",
        **extra,
    }


@dataclass(frozen=True)
class Time:
    """Seconds of the clock and of processor time (user and system) of one measurement."""

    wall: float
    cpu: float | None  # None where the processor time could not be read

    def best(self, other: "Time") -> "Time":
        """The smaller of each."""
        cpus = [t for t in (self.cpu, other.cpu) if t is not None]
        return Time(min(self.wall, other.wall), min(cpus) if cpus else None)


NEVER = Time(float("inf"), None)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(project: Path, site: Path, env: dict[str, str], config: str = "mkdocs.yml") -> Time:
    """How long ``mkdocs build --strict`` takes, Python's start included."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", config]
    cpu, start = _children_cpu(), time.perf_counter()
    result = subprocess.run(
        [*command, "-d", str(site)], cwd=project, env=env, capture_output=True, text=True
    )
    elapsed = Time(time.perf_counter() - start, _children_cpu() - cpu)
    if result.returncode != 0:
        raise RuntimeError(f"build failed:\n{result.stdout}{result.stderr}")
    return elapsed


def remove_entries(cache: Path, figures: bool) -> int:
    """Remove the cache entries that hold a figure (or those that do not); how many."""
    removed = 0
    for entry in cache.glob("*.txt"):
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


def _process_cpu(pid: int) -> float | None:
    """Processor seconds (user and system) a running process has used, from /proc; or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ServeError(RuntimeError):
    """mkdocs serve did not rebuild as expected; the message ends with its last log lines."""


def serve_rebuilds(
    project: Path,
    env: dict[str, str],
    *extra: str,
    between: Callable[[], Time],
    edits: int = 3,
    timeout: float = 300.0,
) -> tuple[Time, Time]:
    """Best time from appending a sentence to a Turkish page to the rebuild that serves it.

    ``between`` runs before each edit, while the server waits; its best time is returned too.
    Raises ServeError when the server stops, or does not serve the edit within ``timeout``.
    """
    port = free_port()
    command = [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", f"127.0.0.1:{port}"]
    server = subprocess.Popen(
        [*command, *extra],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[tuple[float, str]] = queue.Queue()
    log: list[str] = []  # everything the server wrote, for the error messages

    def read() -> None:
        assert server.stdout is not None
        for line in server.stdout:
            lines.put((time.perf_counter(), line))

    def failure(what: str) -> ServeError:
        tail = "".join(log[-15:]) or "(nothing)\n"
        name = " ".join(["mkdocs serve", *extra])
        return ServeError(f"{name}: {what}; the end of its log:\n{tail}")

    def next_line(deadline: float, waiting_for: str) -> tuple[float, str]:
        while True:
            try:
                when, line = lines.get(timeout=min(max(deadline - time.perf_counter(), 0), 1))
            except queue.Empty:
                if server.poll() is not None:
                    stopped = f"stopped (exit {server.returncode}) before {waiting_for}"
                    raise failure(stopped) from None
                if time.perf_counter() >= deadline:
                    raise failure(f"no {waiting_for} within {timeout:.0f} s") from None
                continue
            log.append(line)
            if "An error happened during the rebuild" in line:
                raise failure(f"a rebuild failed while waiting for {waiting_for}")
            return when, line

    def serves(marker: str) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/{TURKISH_URL}", timeout=30) as r:
                return marker in r.read().decode("utf-8")
        except OSError:
            return False

    def rebuilt(marker: str, deadline: float) -> float:
        """When the first rebuild that serves ``marker`` ended (its "Reloading browsers")."""
        waiting_for = f"rebuild serving {marker!r} (a 'Reloading browsers' line)"
        while True:
            when, line = next_line(deadline, waiting_for)
            if "Reloading browsers" in line and serves(marker):
                return when

    def settle(quiet: float = 1.5) -> None:
        """Wait until the server has logged nothing for ``quiet`` seconds.

        Saving a file may reach the watcher as two changes, hence two rebuilds: the second
        one's lines must not be taken for the next edit's.
        """
        while True:
            try:
                log.append(lines.get(timeout=quiet)[1])
            except queue.Empty:
                return

    threading.Thread(target=read, daemon=True).start()
    page = project / TURKISH_PAGE
    original = page.read_text(encoding="utf-8")
    best, others = NEVER, NEVER
    try:
        deadline = time.perf_counter() + timeout
        while "Serving on" not in next_line(deadline, "'Serving on' line")[1]:
            pass
        for edit in range(edits):
            settle()
            others = others.best(between())
            settle()
            marker = f"Bir cümle daha ({edit})."
            cpu, start = _process_cpu(server.pid), time.perf_counter()
            page.write_text(f"{original}\n{marker}\n", encoding="utf-8")
            end = rebuilt(marker, start + timeout)
            used = _process_cpu(server.pid)
            best = best.best(Time(end - start, None if cpu is None or used is None else used - cpu))
    finally:
        server.terminate()
        server.wait(timeout=30)
        page.write_text(original, encoding="utf-8")
    return best, others


def _ratio(value: float | None, floor: float | None) -> str:
    return "—" if value is None or not floor else f"{value / floor:.2f}"


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def main(argv: list[str] | None = None) -> int:
    """Run the builds, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="builds of each kind (best kept)")
    parser.add_argument("--no-serve", action="store_true", help="skip the mkdocs serve rows")
    parser.add_argument(
        "--serve-timeout", type=float, default=300.0, help="seconds a serve rebuild may take"
    )
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]

    with tempfile.TemporaryDirectory(prefix="posenc-bench-") as folder:
        tmp = Path(folder)
        project = copy_project(tmp)
        cache = tmp / "cache"
        env = environment(project, cache)
        cache_off = environment(project, cache, POSENC_EXEC_CACHE="off")

        def cold(site: Path) -> Time:
            shutil.rmtree(cache, ignore_errors=True)
            return build(project, site, env)

        def cold_in_build(site: Path) -> Time:
            shutil.rmtree(cache, ignore_errors=True)
            return build(project, site, environment(project, cache, POSENC_EXEC_AHEAD="off"))

        def rerun(figures: bool) -> Callable[[Path], Time]:
            def run(site: Path) -> Time:
                remove_entries(cache, figures)
                return build(project, site, env)

            return run

        kinds: dict[str, Callable[[Path], Time]] = {
            "exec off": lambda site: build(project, site, cache_off, EXEC_OFF_CONFIG),
            "cache off (every block runs)": lambda site: build(project, site, cache_off),
            "cold cache, blocks in the build": cold_in_build,
            "cold cache": cold,
            "warm cache": lambda site: build(project, site, env),
            "warm, figures run": rerun(figures=True),
            "warm, text blocks run": rerun(figures=False),
        }
        best = dict.fromkeys(kinds, NEVER)
        floors = dict.fromkeys(kinds, "exec off")
        failures: dict[str, str] = {}
        for round_ in range(args.rounds):
            for n, (name, run) in enumerate(kinds.items()):
                best[name] = best[name].best(run(tmp / f"site-{round_}-{n}"))
            print(f"round {round_ + 1} of {args.rounds} done", file=sys.stderr)
        identical = all(same_files(tmp / "site-0-1", tmp / f"site-0-{n}") for n in (2, 3, 4))

        if not args.no_serve:
            build(project, tmp / "site-warmup", env)  # the cache is warm for the server
            serves = {
                "serve rebuild, warm cache": (env,),
                "serve --dirty rebuild, warm cache": (env, "--dirty"),
                "serve rebuild, cache off": (cache_off,),
            }
            for name, (server_env, *extra) in serves.items():
                floor_name = f"exec off, beside {name}"
                try:
                    best[name], best[floor_name] = serve_rebuilds(
                        project,
                        server_env,
                        *extra,
                        between=lambda: kinds["exec off"](tmp / "off"),
                        timeout=args.serve_timeout,
                    )
                except ServeError as error:
                    failures[name] = str(error)
                    continue
                floors[name] = floor_name
                floors[floor_name] = "exec off"
                print(f"{name} done", file=sys.stderr)

    floor = best["exec off"]
    print(
        f"{os.cpu_count()} cores, load average {load:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end; best of {args.rounds}"
    )
    print()
    print("| build | seconds | × exec off | processor seconds | × exec off |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, time_ in best.items():
        under = best[floors[name]]
        print(
            f"| {name} | {_seconds(time_.wall)} | {_ratio(time_.wall, under.wall)} "
            f"| {_seconds(time_.cpu)} | {_ratio(time_.cpu, under.cpu)} |"
        )
    for name in failures:
        print(f"| {name} | failed, see below | | | |")
    figures = best["warm, figures run"].wall - best["warm cache"].wall
    text = best["warm, text blocks run"].wall - best["warm cache"].wall
    added = best["cold cache"].wall - floor.wall
    print()
    print(
        f"a cold build adds {added:.2f} s to exec off; running the figures adds {figures:.2f} s "
        f"to a warm build ({figures / added:.0%} of that), the other blocks {text:.2f} s"
    )
    print(f"cache off, both cold and warm sites byte-identical: {'yes' if identical else 'NO'}")
    for name, message in failures.items():
        print(f"\n{name}: {message}")
    return 0 if identical and not failures else 1


if __name__ == "__main__":
    sys.exit(main())
