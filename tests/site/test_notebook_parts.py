"""A lesson's notebook made from a small page, without a build (posenc_site.publish.notebook),
and the publishing workflow's branch of notebooks that Colab opens (posenc_site.publish.colab).
The built lessons' notebooks are checked in tests/build/test_notebooks.py."""

import nbformat
import pytest
import yaml

from posenc_site.i18n.languages import load_strings
from posenc_site.publish import colab
from posenc_site.publish.notebook import FOLDED, INSTALL, notebook
from posenc_site.publish.notebook_prose import Addresses
from support.docblocks import SNIPPET_PATHS
from support.project import ROOT, SITE, TURKISH

FIGURE = (
    '<figure class="pe-figure" data-search-exclude><svg role="img"><title id="t">Two &amp; two'
    "</title><path/></svg><figcaption>It &lt;grows&gt;.</figcaption></figure>"
)
PAGE = """---
description: A page.
---
# Lesson

See [the next lesson](rotary.md#two-layouts), [below](#exercise) and
[the API](../reference/api.md#rotary), not `[code](x.md)`.

```python exec="on" source="above" result="text"
print(1)
```

```python exec="on" html="true"
print(figure)
```

```pycon
>>> print(2)
2
```

## Exercise

```python title="model.py"
# write here
```

??? example "Example solution"

    ```python exec="on" id="exercise-solution" source="above" result="text" title="model.py"
    print(3)
    ```

## Check yourself

```quiz
- type: choice
```

## Downloads

- <a href="model.py" download>`model.py`</a>
"""
PRINTED = [("print(1)\n", "1\n"), ("print(figure)", FIGURE), ("print(3)", "3\n")]


def make(language: str = "en", printed=PRINTED) -> nbformat.NotebookNode:
    addresses = Addresses("https://x.org/", "lessons/lesson/", "lessons", SITE.get(language))
    return notebook(PAGE, SNIPPET_PATHS, language, printed, addresses)


def test_the_notebook_opens_with_a_runnable_install_cell_and_a_note():
    for language in ("en", "tr"):
        install, note = make(language).cells[:2]
        assert (install.cell_type, install.source) == ("code", INSTALL)
        assert note.source == load_strings(language)["downloads"]["install_note"]


def test_code_cells_carry_the_outputs_printed_in_the_build():
    outputs = {cell.source: cell.outputs for cell in make().cells if cell.cell_type == "code"}
    [one] = outputs["print(1)"]
    assert (one.output_type, one.name, one.text) == ("stream", "stdout", "1\n")
    [two] = outputs["print(2)"]  # a pycon session: the output it shows
    assert two.text == "2\n"
    [three] = outputs["print(3)"]
    assert three.text == "3\n"
    assert outputs["# write here"] == []
    # Without what the build printed, no output is made up.
    bare = {c.source: c.outputs for c in make(printed=[]).cells if c.cell_type == "code"}
    assert bare["print(1)"] == []


def test_a_figure_is_shown_as_svg_then_its_numbered_caption():
    cells = make("tr").cells
    [at] = [n for n, c in enumerate(cells) if c.source.startswith("# Dersin")]
    [shown] = cells[at].outputs
    assert shown.output_type == "display_data"
    assert shown.data["image/svg+xml"] == FIGURE[FIGURE.index("<svg") : FIGURE.index("<figc")]
    assert shown.data["text/plain"] == "Two & two"
    assert cells[at].source == "# " + load_strings("tr")["downloads"]["figure_cell"].format(
        number=1
    )
    assert cells[at + 1].source == "**Şekil 1.** It &lt;grows&gt;."


def test_the_solution_is_folded_after_the_starter_and_a_note():
    cells = make().cells
    sources = [cell.source for cell in cells]
    solution = sources.index("print(3)")
    assert sources.index("# write here") < solution - 1
    assert cells[solution].metadata == FOLDED
    note = load_strings("en")["downloads"]["solution_note"]
    assert cells[solution - 1].source == f"**Example solution**\n\n{note}"
    assert [c for c in cells if c.metadata.get("jupyter")] == [cells[solution]]


def test_a_heading_whose_section_is_left_out_is_dropped():
    sources = [cell.source for cell in make().cells]
    assert not any("Check yourself" in source for source in sources)
    assert any(source.startswith("## Exercise") for source in sources)
    assert sources[-1].startswith("## Downloads")


def test_links_lead_to_the_site_with_their_anchors():
    prose = "\n".join(cell.source for cell in make().cells if cell.cell_type == "markdown")
    assert "[the next lesson](https://x.org/lessons/rotary/#two-layouts)" in prose
    assert "[below](https://x.org/lessons/lesson/#exercise)" in prose
    assert "[the API](https://x.org/reference/api/#rotary)" in prose
    assert "`[code](x.md)`" in prose  # code, not a link
    assert '<a href="https://x.org/lessons/lesson/model.py" download>' in prose


def test_turkish_links_lead_to_turkish_pages():
    here = Addresses("https://x.org/", "tr/lessons/rotary/", "lessons", TURKISH)
    assert here.of_markdown_link("alibi-t5.md#a") == "https://x.org/tr/lessons/alibi-t5/#a"
    assert here.of_markdown_link("alibi-t5.tr.md") == "https://x.org/tr/lessons/alibi-t5/"
    assert here.of_markdown_link("../index.md") == "https://x.org/tr/"
    assert here.of_markdown_link("rotary/solution.py") == "https://x.org/lessons/rotary/solution.py"
    assert here.of_markdown_link("https://arxiv.org/x.md") == "https://arxiv.org/x.md"
    assert here.of_html_link("model.py") == "https://x.org/tr/lessons/rotary/model.py"


def test_two_runs_make_the_same_notebook():
    assert nbformat.writes(make()) == nbformat.writes(make())


@pytest.mark.parametrize(
    ("repo_url", "expected"),
    [
        ("https://github.com/example/posenc", "example/posenc"),
        ("https://github.com/example/posenc.git", "example/posenc"),
        ("https://github.com/example/posenc/", "example/posenc"),
        ("https://gitlab.com/example/posenc", None),
        (None, None),
    ],
)
def test_colab_opens_notebooks_of_github_repositories_only(repo_url, expected):
    address = colab.address(repo_url, "tr/lessons/rotary/rotary.ipynb")
    if expected is None:
        assert address is None
    else:
        assert address == (
            f"https://colab.research.google.com/github/{expected}/blob/notebooks/"
            "tr/lessons/rotary/rotary.ipynb"
        )


def workflow() -> dict:
    return yaml.safe_load((ROOT / ".github/workflows/publish.yml").read_text(encoding="utf-8"))


def test_the_workflow_pushes_the_built_notebooks_to_the_branch_colab_opens():
    jobs = workflow()["jobs"]
    build, job = jobs["build"], jobs["notebooks"]
    # The notebooks leave the build at their paths in the site...
    keep = next(step for step in build["steps"] if step.get("name") == "Keep the notebooks")
    assert keep["run"].startswith("cd site && find . -name '*.ipynb'")
    upload = next(s for s in build["steps"] if "actions/upload-artifact" in s.get("uses", ""))
    assert upload["with"] == {"name": "notebooks", "path": "notebooks.tar"}
    # ...and are pushed, at those paths, to colab.BRANCH, by the only job that may write.
    download = job["steps"][0]
    assert download["uses"].split("@")[0] == "actions/download-artifact"
    assert download["with"]["name"] == upload["with"]["name"]
    push = job["steps"][-1]["run"]
    assert "tar -xf notebooks.tar -C notebooks" in push
    assert push.rstrip().endswith(f"HEAD:{colab.BRANCH}")
    assert job["needs"] == "deploy"  # the notebooks of the site as published
    assert job["permissions"] == {"contents": "write"}
    assert workflow()["permissions"] == {"contents": "read"}
    others = [name for name, other in jobs.items() if name != "notebooks"]
    assert all(jobs[name]["permissions"].get("contents") != "write" for name in others)
