"""How long the test command and its tiers take, and what one lesson costs of it.

Runs, one after the other in this checkout, the library tier, the fast tier and the whole
suite (``CI=true`` as in CI, so nothing is skipped), each with a JUnit XML report, and prints
the clock time of each run, the slowest tests, the time of each tier's tests summed per
worker, and, for every lesson, the summed time of the tests parametrised by its pages (both
languages): the cost of one more lesson of that size.

The tiers are the commands README.md gives. Run it on a quiet machine: the clock time of a
run is what the budget is about, and other work on the machine inflates it.

    python benchmarks/suite.py [--only lib|fast|all] [--keep-cache]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIERS = {
    "lib": ["tests/lib"],
    "fast": ["-m", "not browser and not build and not style and not oracle"],
    "all": [],
}
LESSON = re.compile(r"lessons/([\w-]+?)(?:\.tr)?(?:\.md|/)")


def run(name: str, arguments: list[str], report: Path) -> float:
    """Run one tier with a JUnit report; the clock time of the whole command, in seconds."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += [f"--junitxml={report}", *arguments]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env={**os.environ, "CI": "true"}, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        print(f"{name}: pytest exited with {done.returncode}", file=sys.stderr)
    return seconds


def durations(report: Path) -> dict[str, float]:
    """Each test's time from a JUnit report, by its name with its parameters."""
    tests = ElementTree.parse(report).getroot().iter("testcase")
    return {f"{t.get('classname')}::{t.get('name')}": float(t.get("time", 0)) for t in tests}


def per_lesson(times: dict[str, float]) -> dict[str, float]:
    """The summed time of the tests whose parameters name a lesson's page."""
    lessons: dict[str, float] = defaultdict(float)
    for name, seconds in times.items():
        match = LESSON.search(name)
        if match:
            lessons[match.group(1)] += seconds
    return dict(sorted(lessons.items()))


def main() -> None:
    """Run the tiers asked for and print their times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=list(TIERS), action="append")
    parser.add_argument(
        "--keep-cache", action="store_true", help="keep .cache/ (default: cold, as CI)"
    )
    options = parser.parse_args()
    if not options.keep_cache:
        shutil.rmtree(ROOT / ".cache", ignore_errors=True)
    with tempfile.TemporaryDirectory() as folder:
        for name in options.only or list(TIERS):
            report = Path(folder) / f"{name}.xml"
            seconds = run(name, TIERS[name], report)
            times = durations(report)
            print(f"\n== {name}: {len(times)} tests in {seconds:.1f} s (clock)")
            print(f"   test time summed over workers: {sum(times.values()):.1f} s")
            for test, spent in sorted(times.items(), key=lambda t: -t[1])[:8]:
                print(f"   {spent:7.2f} s  {test}")
            if name == "all":
                print("   per lesson (both languages), summed test time:")
                for lesson, spent in per_lesson(times).items():
                    print(f"   {spent:7.2f} s  {lesson}")


if __name__ == "__main__":
    main()
