"""The few places where the build relies on another package's internals, pinned by tests.

If one of these fails after an upgrade, the message says what moved and which module of
posenc_site must change with it.
"""

import inspect

import markdown
import pytest
from markdown_exec import formatter, validator
from mkdocs.exceptions import PluginError

from posenc_site.execute import failures as exec_failures


def test_markdown_exec_reports_a_raising_block_in_its_log():
    # posenc_site.execute.failures reads markdown-exec's log text to name the page that failed.
    fence = {"name": "python", "class": "python", "validator": validator, "format": formatter}
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}},
    )
    exec_failures.start_page()
    md.convert('```python exec="on"\nraise ValueError("boom")\n```\n')
    with pytest.raises(PluginError, match=r"page\.md: 1 executed code block\(s\) raised"):
        exec_failures.check("page.md")
    exec_failures.start_page()
    md.convert('```python exec="on"\nprint("fine")\n```\n')
    exec_failures.check("page.md")  # no failure, no error


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


def test_markdown_exec_registers_its_formatter_and_counts_conversions_for_ids():
    # posenc_site.execute.cache wraps the fences whose format is markdown_exec.formatter, and
    # replays MarkdownConverter.counter (the n of the exec-<n>-- ids) for a block it reuses.
    from markdown_exec import MarkdownConverter, MarkdownExecPlugin

    assert '"format": formatter' in inspect.getsource(MarkdownExecPlugin.on_config), (
        "markdown-exec registers another fence formatter: change posenc_site.execute.cache.install"
    )
    fence = {"name": "python", "class": "python", "validator": validator, "format": formatter}
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}},
    )
    before = MarkdownConverter.counter
    md.convert('```python exec="on" source="above"\nprint("x")\n```\n')
    assert MarkdownConverter.counter > before, (
        "markdown-exec no longer counts conversions in MarkdownConverter.counter: "
        "change posenc_site.execute.cache.caching"
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


def test_markdown_execs_python_formatter_is_base_format_with_its_runner():
    # posenc_site.execute.cache formats a block run ahead as markdown-exec's Python formatter
    # does, base_format with another runner; posenc_site.execute.ahead runs the block in the
    # worker with markdown-exec's own runner, _run_python.
    from markdown_exec import formatters
    from markdown_exec._internal.formatters import python

    assert formatters["python"] is python._format_python
    assert 'base_format(language="python", run=_run_python, **kwargs)' in inspect.getsource(
        python._format_python
    ), "markdown-exec formats Python blocks otherwise: change posenc_site.execute.cache"
    assert python._run_python('print("x", 1)') == "x 1\n", (
        "markdown-exec's runner changed: change posenc_site.execute.ahead._run"
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

    from conftest import THEME

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
