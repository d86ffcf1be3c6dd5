"""The code base stays ruff-clean (lint and format) and type-clean (mypy, strict, on src/ and
website/src/)."""

import subprocess
import sys

from support.project import ROOT


def test_ruff_check():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout


def test_ruff_format():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout


def test_mypy_strict_on_src():
    # Settings in pyproject.toml ([tool.mypy]): strict, files = ["src", "website/src"].
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
