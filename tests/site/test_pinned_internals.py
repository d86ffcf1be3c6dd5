"""The few places where the build relies on another package's internals, pinned by tests.

If one of these fails after an upgrade, the message says what moved and which module of
posenc_site must change with it.
"""

import inspect
import os
import re
from pathlib import Path

import markdown
import markdown_exec
import pytest
from mkdocs.config import load_config

from support.project import ROOT


def test_markdown_execs_python_fence_runs_what_markdown_exec_formatters_holds(
    tmp_path, monkeypatch
):
    # posenc_site.execute.Execution.install puts its formatter in markdown_exec.formatters: the
    # fence markdown-exec's plugin registers must look it up there for every block, and pass
    # it the block's code and options, all of which base_format takes (Execution._format
    # hands them on).
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(
        "site_name: t\nmarkdown_extensions: [pymdownx.superfences]\nplugins: [markdown-exec]\n",
        encoding="utf-8",
    )
    (tmp_path / "docs").mkdir()
    monkeypatch.delenv("MKDOCS_CONFIG_DIR", raising=False)  # the plugin sets it
    config = load_config(str(config_file))
    config = config.plugins.on_config(config)
    markdown_exec.markdown_config.reset()
    fences = config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    (fence,) = [fence for fence in fences if fence["name"] == "python"]
    assert fence["format"] is markdown_exec.formatter, (
        "markdown-exec registers another fence formatter: change posenc_site.execute.install"
    )
    calls = []

    def recording(**options):
        calls.append(options)
        return "<p>formatted</p>"

    monkeypatch.setitem(markdown_exec.formatters, "python", recording)
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}},
    )
    html = md.convert('```python exec="on" source="above" title="t.py"\nprint(1)\n```\n')
    assert html == "<p>formatted</p>", (
        "markdown-exec's fence no longer formats through markdown_exec.formatters: "
        "change posenc_site.execute.Execution.install"
    )
    (options,) = calls
    assert (options["code"], options["source"], options["extra"]) == (
        "print(1)",
        "above",
        {"title": "t.py"},
    )
    accepted = inspect.signature(markdown_exec.base_format).parameters
    assert set(options) - {"extra"} <= set(accepted) - {"language", "run"}


def test_base_format_gives_run_the_code_and_shows_an_execution_error(tmp_path):
    # posenc_site.execute.Execution._format is base_format with another runner: base_format
    # must call it with the code, the fence's options and extras, in the workdir and with
    # COLUMNS set to the width (so the cache keys on the width), render what it returns, and
    # show the message of an ExecutionError in its place (our runner raises it).
    seen = {}

    def run(code, **options):
        seen.update(code=code, columns=os.environ.get("COLUMNS"), cwd=os.getcwd(), **options)
        return "printed"

    html = markdown_exec.base_format(
        language="python",
        run=run,
        code="x = 1",
        md=markdown.Markdown(),
        id="i",
        workdir=str(tmp_path),
        width=77,
        extra={"title": "t.py"},
    )
    assert html == "<p>printed</p>"
    assert seen == {
        "code": "x = 1",
        "returncode": 0,
        "session": None,
        "id": "i",
        "title": "t.py",
        "columns": "77",
        "cwd": str(tmp_path),
    }

    def failing(code, **options):
        raise markdown_exec.ExecutionError("boom")

    html = markdown_exec.base_format(
        language="python", run=failing, code="x", md=markdown.Markdown()
    )
    assert html == "<p>boom</p>"


def test_the_build_uses_public_names_of_markdown_exec_only():
    # What the two tests above pin is all the build relies on: no private module, runner, or
    # id counter of markdown-exec.
    private = re.compile(r"markdown_exec\._internal|_run_python|MarkdownConverter\.counter")
    sources = [*ROOT.joinpath("website/src").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sources
        if path != Path(__file__)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if private.search(line)
    ]
    assert found == []


def test_mkdocstrings_reads_the_locale_from_its_handlers_at_render_time():
    # posenc_site.i18n.page_language sets Handlers._locale for each page's language, since
    # mkdocs-static-i18n runs mkdocstrings' on_config for the first language only.
    from mkdocstrings._internal import extension
    from mkdocstrings._internal.handlers.base import Handlers

    assert "self._locale" in inspect.getsource(Handlers.__init__), (
        "mkdocstrings' Handlers no longer keeps _locale: change posenc_site.i18n.page_language"
    )
    assert "_handlers._locale" in inspect.getsource(extension), (
        "mkdocstrings no longer renders with Handlers._locale: "
        "change posenc_site.i18n.page_language"
    )


def _material_sources() -> dict[str, str]:
    """Material's TypeScript sources, from the source maps its package ships."""
    import json
    from pathlib import Path

    import material

    scripts = Path(material.__file__).parent / "templates/assets/javascripts"
    sources = {}
    for source_map in [*scripts.glob("bundle.*.js.map"), *scripts.glob("workers/search.*.map")]:
        data = json.loads(source_map.read_text(encoding="utf-8"))
        sources.update(zip(data["sources"], data["sourcesContent"], strict=True))
    return {name.split("javascripts/", 1)[-1]: text for name, text in sources.items() if text}


@pytest.mark.parametrize(
    ("source", "code", "what"),
    [
        ("browser/worker/index.ts", "worker = new Worker(url)", "starts its search worker"),
        (
            "integrations/search/worker/_/index.ts",
            "data: {\n          config,\n          docs,",
            "sends the index to the worker as {config, docs}",
        ),
        (
            "components/search/query/index.ts",
            "type: SearchMessageType.QUERY,\n        data: value",
            "sends a query as the string typed",
        ),
        (
            "integrations/search/_/index.ts",
            "for (const [name, spec] of Object.entries(config.fields))",
            "indexes every field of the index's config",
        ),
        (
            "components/search/query/index.ts",
            'fromEvent(el, "keyup")',
            "reads the search box on keyup",
        ),
    ],
)
def test_material_search_works_as_the_turkish_search_script_expects(source, code, what):
    # website/src/posenc_site/theme/partials/turkish-search.html wraps the search worker's messages.
    assert code in _material_sources()[source], (
        f"Material no longer {what}: change the theme's partials/turkish-search.html"
    )


@pytest.mark.parametrize(
    ("source", "code", "what"),
    [
        (
            "bundle.ts",
            'requestJSON<SearchIndex>(\n      new URL("search/search_index.json", config.base)',
            "requests search/search_index.json from the base of its configuration",
        ),
        (
            "_/index.ts",
            "config.base = `${new URL(config.base, getLocation())}`",
            "resolves that base against the page's address",
        ),
        (
            "browser/request/index.ts",
            'const req = new XMLHttpRequest()\n    req.open("GET", `${url}`)',
            "requests with an XMLHttpRequest",
        ),
        (
            "components/search/highlight/index.ts",
            'url.searchParams.get("h")',
            "highlights the words of the h parameter",
        ),
        ("components/search/query/index.ts", 'searchParams.has("q")', "opens search for q"),
    ],
)
def test_material_requests_its_index_as_the_search_on_demand_script_expects(source, code, what):
    # website/src/posenc_site/theme/partials/search-on-demand.html holds back the index's request.
    assert code in _material_sources()[source], (
        f"Material no longer {what}: change the theme's partials/search-on-demand.html"
    )


@pytest.mark.parametrize(
    ("source", "code", "what", "template"),
    [
        (
            "browser/document/index.ts",
            'fromEvent(document, "DOMContentLoaded", { once: true })',
            "starts on DOMContentLoaded (its bundle is deferred)",
            "main.html",
        ),
        (
            "templates/clipboard/index.tsx",
            '<nav class="md-code__nav"></nav>',
            "wraps a code block's buttons in an unnamed nav",
            "partials/a11y-fixes.html",
        ),
        (
            "templates/table/index.tsx",
            '<div class="md-typeset__scrollwrap">',
            "wraps tables in a scrolling box",
            "partials/a11y-fixes.html",
        ),
    ],
)
def test_material_scripts_work_as_the_theme_expects(source, code, what, template):
    assert code in _material_sources()[source], (
        f"Material no longer {what}: change the theme's {template}"
    )


def test_the_search_partial_is_materials_own_with_a_named_dialog():
    # website/src/posenc_site/theme/partials/search.html overrides Material's to name the dialog.
    from pathlib import Path

    import material

    from support.fixture_project import THEME

    def body(template: str) -> str:
        return template.split("-#}\n", 1)[1]  # without the leading comment

    theirs = (Path(material.__file__).parent / "templates/partials/search.html").read_text()
    ours = (THEME / "partials/search.html").read_text(encoding="utf-8")
    dialog = 'role="dialog"'
    named = dialog + " aria-label=\"{{ lang.t('search') }}\""
    assert named in ours
    assert body(ours).replace(named, dialog) == body(theirs), (
        "Material's partials/search.html changed: copy it again into the theme, with the "
        "dialog's aria-label"
    )


@pytest.mark.xdist_group("pinned")
def test_xdist_keeps_a_group_of_tests_on_one_worker(request: pytest.FixtureRequest):
    # The Lighthouse tests (one set of runs per worker that runs them) and the torch tests (one
    # import per worker) rely on --dist loadgroup. pytest-xdist marks a test's group in its node
    # id, which pytest 9.2 no longer reads back (pytest-xdist issue #1386): the group's tests
    # would then run on any worker, and nothing else would say so. pyproject pins pytest below
    # 9.2 until xdist follows.
    if not getattr(request.config.option, "loadgroup", False):  # set in xdist's workers
        pytest.skip("not distributed by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@pinned"), (
        "pytest-xdist did not put this test in its group: install pytest below 9.2"
    )
