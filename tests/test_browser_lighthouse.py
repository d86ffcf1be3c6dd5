"""Lighthouse as a reader on a phone sees the longest lessons: mobile defaults, served gzipped.

Lighthouse (the npm package pinned in tests/lighthouse/package.json) runs with its defaults:
a mid-range phone on a slow 4G network, simulated throttling. The two longest lessons of each
language are held to 100 in accessibility, best practices and SEO, and to 90 in performance.
Each run's scores and paint timings are printed at the end of the test session.

Install it with ``npm ci --prefix tests/lighthouse`` (``.ci/run`` does); without it these tests
skip, and in CI (``CI=true``) they fail.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, SITE

# One worker runs them all, one after the other: two Lighthouse runs at once would each slow
# the other down (pyproject's addopts: --dist loadgroup).
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("lighthouse")]

LIGHTHOUSE = ROOT / "tests/lighthouse/node_modules/.bin/lighthouse"
INSTALL = "npm ci --prefix tests/lighthouse"
TARGETS = {"performance": 90, "accessibility": 100, "best-practices": 100, "seo": 100}
# Lighthouse's audit -> the short name printed, and the unit it is printed in.
METRICS = {
    "first-contentful-paint": ("FCP", "ms"),
    "largest-contentful-paint": ("LCP", "ms"),
    "speed-index": ("SI", "ms"),
    "total-blocking-time": ("TBT", "ms"),
    "cumulative-layout-shift": ("CLS", ""),
}
LONGEST = 2  # lessons per language
RUNS = 3  # at most, while the performance is below target


def lighthouse() -> Path:
    """The Lighthouse command; a skip (a failure in CI) where it or Chromium is missing."""
    for tool, how in [(LIGHTHOUSE, INSTALL), (CHROMIUM, "apt-get install -y chromium")]:
        if not tool.exists():
            message = f"{tool} not found (install it with: {how})"
            if os.environ.get("CI") == "true":
                pytest.fail(message)
            pytest.skip(message)
    return LIGHTHOUSE


def longest_lessons(site: Path, language: str) -> list[str]:
    """The paths of the ``LONGEST`` lessons of ``language`` with the most HTML, longest first."""
    folder = site / SITE.get(language).url_prefix / "lessons"
    pages = sorted(folder.glob("*/index.html"), key=lambda page: -page.stat().st_size)
    return [page.parent.relative_to(site).as_posix() + "/" for page in pages[:LONGEST]]


def run(url: str, report: Path) -> dict:
    """Lighthouse's JSON report of ``url``, with its default (mobile) settings."""
    command = [
        str(lighthouse()),
        url,
        "--output=json",
        f"--output-path={report}",
        "--only-categories=" + ",".join(TARGETS),
        "--chrome-flags=" + " ".join(CHROMIUM_ARGS),
        "--quiet",
    ]
    env = {**os.environ, "CHROME_PATH": str(CHROMIUM)}
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(report.read_text(encoding="utf-8"))


def scores(report: dict) -> dict[str, int]:
    return {name: round(report["categories"][name]["score"] * 100) for name in TARGETS}


def summary(path: str, report: dict) -> str:
    """One line: the page, its four scores, its paint timings."""
    values = [f"{name} {score}" for name, score in scores(report).items()]
    for audit, (short, unit) in METRICS.items():
        value = report["audits"][audit]["numericValue"]
        values.append(f"{short} {value:.0f} {unit}" if unit else f"{short} {value:.3f}")
    return f"{path}: " + ", ".join(values)


def failing(report: dict) -> dict[str, list[str]]:
    """Category -> the audits below full marks that count towards its score."""
    below = {}
    for name in TARGETS:
        refs = report["categories"][name]["auditRefs"]
        audits = [report["audits"][ref["id"]] for ref in refs if ref["weight"] > 0]
        below[name] = [
            f"{audit['id']} {audit.get('displayValue', '')}".strip()
            for audit in audits
            if audit["score"] is not None and audit["score"] < 1
        ]
    return below


@pytest.mark.parametrize("rank", range(LONGEST))
@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_longest_lessons_reach_the_lighthouse_targets(
    site: Path, compressed_site_url: str, tmp_path: Path, record_property, language, rank
):
    path = longest_lessons(site, language)[rank]
    # The performance score is measured on this machine's processor: Lighthouse's simulation
    # multiplies the time each task took on it by 4, so a task another process delayed counts
    # four times over. And total blocking time counts only the tasks after the first paint:
    # whether Material's start-up (most of the page's script time) runs before or after it
    # depends on how fast the page was parsed. The same page and build, measured beside two
    # busy processes, scored 75 to 97 (blocking time 175 to 1,205 ms). So a run below target
    # is measured again, up to RUNS runs, and the best one counts: a slow page fails every
    # run. The other categories do not depend on timing.
    runs = []
    for attempt in range(RUNS):
        runs.append(run(compressed_site_url + path, tmp_path / f"report-{attempt}.json"))
        note = f" (run {attempt + 1})" if attempt else ""
        record_property("lighthouse", summary(path, runs[-1]) + note)
        if scores(runs[-1])["performance"] >= TARGETS["performance"]:
            break
    report = max(runs, key=lambda report: scores(report)["performance"])
    below = {name: score for name, score in scores(report).items() if score < TARGETS[name]}
    details = {name: failing(report)[name] for name in below}
    assert below == {}, (summary(path, report), details)
