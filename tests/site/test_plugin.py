"""The posenc plugin: its options, the environment's overrides, where its events run."""

import ast
import logging
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from mkdocs.config import load_config
from mkdocs.exceptions import Abort, PluginError

from posenc_site import config as plugin_config
from posenc_site.config import PosencConfig, environment_overrides, with_environment
from posenc_site.i18n import placeholders
from support.project import DOCS, ROOT, SITE

PACKAGE = ROOT / "website/src/posenc_site"


class _IgnoreTags(yaml.SafeLoader):
    """Reads mkdocs.yml without resolving its ``!ENV`` and ``!!python/name:`` tags."""


_IgnoreTags.add_multi_constructor("", lambda loader, suffix, node: None)


def _site_options() -> dict[str, object]:
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_IgnoreTags)
    entries = [entry for entry in config["plugins"] if isinstance(entry, dict)]
    return next(entry["posenc"] for entry in entries if "posenc" in entry)


def test_mkdocs_yml_writes_out_the_defaults_of_every_option():
    defaults = PosencConfig(config_file_path=str(ROOT / "mkdocs.yml"))
    assert defaults.validate() == ([], [])
    written = PosencConfig(config_file_path=str(ROOT / "mkdocs.yml"))
    written.load_dict(_site_options())
    assert written.validate() == ([], [])
    assert (
        dict(written)
        == dict(defaults)
        == {
            "exec_cache": True,
            "cache_dir": str(ROOT / ".cache/exec"),
            "run_ahead": True,
            "offline": False,
        }
    )


def _project(tmp_path: Path, options: str) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/index.md").write_text("# Home\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: t\nplugins:\n  - posenc: {options}\n", encoding="utf-8")
    return config


def test_a_bad_option_stops_the_build_naming_it(tmp_path, caplog):
    config = _project(tmp_path, "{exec_cache: maybe}")
    with caplog.at_level(logging.ERROR), pytest.raises(Abort, match="configuration error"):
        load_config(str(config))
    assert "Plugin 'posenc' option 'exec_cache': Expected type: <class 'bool'>" in caplog.text


def test_a_misspelt_option_stops_a_strict_build_naming_it(tmp_path, caplog):
    config = _project(tmp_path, "{run_ahaed: false}")
    with caplog.at_level(logging.WARNING), pytest.raises(Abort, match="1 configuration warnings"):
        load_config(str(config), strict=True)
    assert "Unrecognised configuration name: run_ahaed" in caplog.text


def test_the_environment_overrides_the_options_it_names():
    environ = {
        "POSENC_EXEC_CACHE": "off",
        "POSENC_EXEC_AHEAD": "No",
        "POSENC_OFFLINE": "true",
        "POSENC_EXEC_CACHE_DIR": "/tmp/elsewhere",
        "POSENC_SOMETHING": "on",  # not an option: ignored
    }
    assert environment_overrides(environ) == {
        "exec_cache": False,
        "run_ahead": False,
        "offline": True,
        "cache_dir": "/tmp/elsewhere",
    }
    options = PosencConfig(config_file_path="/site/mkdocs.yml")
    options.validate()
    assert with_environment(options, {}) is options
    overridden = with_environment(options, environ)
    assert (overridden.exec_cache, overridden.cache_dir) == (False, "/tmp/elsewhere")
    assert (overridden.run_ahead, overridden.offline) == (False, True)
    assert (options.exec_cache, options.offline) == (True, False)  # mkdocs.yml's, untouched


def test_a_variable_the_option_cannot_take_stops_the_build_naming_both():
    message = r"^POSENC_OFFLINE='maybe' \(the posenc plugin's option 'offline'\): expected"
    with pytest.raises(PluginError, match=message + " one of on/off, true/false, yes/no, 1/0$"):
        environment_overrides({"POSENC_OFFLINE": "maybe"})


def _reads_posenc_variable(node: ast.AST) -> bool:
    """Whether ``node`` reads a POSENC_* variable: ``environ.get("POSENC_...")``,
    ``getenv(...)``, ``environ["POSENC_..."]`` or ``"POSENC_..." in environ``."""

    def names_variable(expression: ast.AST) -> bool:
        return isinstance(expression, ast.Constant) and str(expression.value).startswith("POSENC_")

    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
        return name in {"get", "getenv", "pop"} and any(map(names_variable, node.args[:1]))
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
        return names_variable(node.slice)
    if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn):
        return names_variable(node.left)
    return False


def test_only_the_config_module_reads_the_posenc_variables():
    readers = sorted(
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if any(map(_reads_posenc_variable, ast.walk(ast.parse(path.read_text(encoding="utf-8")))))
    )
    # config.py reads them in a loop over ENVIRONMENT; the rest may set them, not read them.
    assert readers == [], f"read the POSENC_* variables in posenc_site/config.py only: {readers}"
    assert "os.environ" in (PACKAGE / "config.py").read_text(encoding="utf-8")
    assert set(plugin_config.ENVIRONMENT) == {
        "POSENC_EXEC_CACHE",
        "POSENC_EXEC_CACHE_DIR",
        "POSENC_EXEC_AHEAD",
        "POSENC_OFFLINE",
    }
    # The two MkDocs settings that the publishing workflow sets, and nothing else, by !ENV.
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert sorted(set(_ENV_TAG.findall(config))) == ["POSENC_REPO_URL", "POSENC_SITE_URL"]


_ENV_TAG = re.compile(r"!ENV \[(\w+)")


def test_the_variable_check_finds_a_module_that_reads_one():
    for code in (
        'os.environ.get("POSENC_EXEC_CACHE", "on")',
        'os.getenv("POSENC_OFFLINE")',
        'os.environ["POSENC_EXEC_CACHE_DIR"]',
        '"POSENC_EXEC_AHEAD" in os.environ',
    ):
        assert any(map(_reads_posenc_variable, ast.walk(ast.parse(code)))), code
    setting = '{**os.environ, "POSENC_OFFLINE": "true"}'
    assert not any(map(_reads_posenc_variable, ast.walk(ast.parse(setting))))


@pytest.fixture(scope="module")
def events() -> dict[str, list[tuple[str, float]]]:
    """Each event's handlers in the site's configuration, as MkDocs runs them: name, priority."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    return {event: _handlers(methods) for event, methods in config.plugins.events.items()}


def _handlers(methods: list[Any]) -> list[tuple[str, float]]:
    return [
        (
            f"{type(method.__self__).__module__.split('.')[0]}.{method.__name__}",
            getattr(method, "mkdocs_priority", 0),
        )
        for method in methods
    ]


def test_the_plugins_events_run_where_the_hooks_ran(events):
    names = [name for name, _ in events["config"]]
    # Settings first (Material's offline plugin reads its `enabled` in its own on_config)...
    assert names[0] == "posenc_site._on_config_settings"
    # ... the build after markdown-exec registered its fences and Material's offline plugin
    # added its shim, before mkdocs-static-i18n reconfigures the language build.
    build = names.index("posenc_site._on_config_build")
    assert names.index("markdown_exec.on_config") < build
    assert names.index("material.on_config") < build
    assert names[build + 1 :] == ["mkdocs_static_i18n.on_config"]
    # The search index is split after mkdocs-static-i18n merged it and built every language.
    post_build = [name for name, _ in events["post_build"]]
    assert post_build[-2:] == ["mkdocs_static_i18n.on_post_build", "posenc_site.on_post_build"]
    # Hooks ran after every plugin of the same priority: so does each event of the plugin,
    # listed last in mkdocs.yml.
    page_events = ["page_markdown", "page_content", "env", "page_context", "template_context"]
    for event in [*page_events, "post_template", "post_page", "config", "post_build"]:
        handlers = events[event]
        for position, (name, priority) in enumerate(handlers):
            if name.startswith("posenc_site") and name != "posenc_site._on_config_settings":
                before, after = handlers[:position], handlers[position + 1 :]
                assert all(other >= priority for _, other in before), (event, handlers)
                assert all(other < priority for _, other in after), (event, handlers)


def test_a_page_may_ask_only_for_a_table_the_plugin_has():
    page = "# Terms\n\n<!-- posenc: glossary -->\n"
    table = placeholders.fill(page, "terms.md", "tr", DOCS, SITE).splitlines()
    assert table[5:8] == [
        "## A { #letter-a data-search-exclude }",
        "",
        '### ağırlık soğurma {#agirlik-sogurma data-term="weight-absorption"}',
    ]
    with pytest.raises(PluginError, match=r"^terms\.md: no table 'glosary'"):
        placeholders.fill("<!-- posenc: glosary -->\n", "terms.md", "en", DOCS, SITE)
    # Written inside a line, it is text of the page, not a placeholder.
    inline = "See `<!-- posenc: glossary -->`.\n"
    assert placeholders.fill(inline, "terms.md", "en", DOCS, SITE) == inline
