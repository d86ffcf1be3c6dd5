"""The build tier: tests that build a site, the shared one or a small fixture project."""

from pathlib import Path

import pytest

from support.builds import classroom, once
from support.fixture_project import small_build, write_small_project
from support.fresh_runs import fresh_runs

# Fixtures shared with other tiers: the classroom copy with the browser tier, the fresh runs of
# the pages' blocks with the docs tier.
__all__ = ["classroom", "fresh_runs"]


@pytest.fixture
def small_project(tmp_path: Path) -> Path:
    """A two-page site in both languages, built with the site's plugin, that a test may break.

    Build-failure tests use it rather than a copy of the whole site: a build takes a second.
    """
    return write_small_project(tmp_path)


@pytest.fixture(scope="session")
def small_site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The small project as written (``small_project``), built once per run: the site."""
    return once(tmp_path_factory, worker_id, "small", small_build()) / "site"
