"""The explorable figures' markers become their HTML (posenc_site.widgets.fill) or stop a build."""

import html
import json
import re
from pathlib import Path

import markdown
import pytest
import yaml
from mkdocs.exceptions import PluginError

from posenc_site import widgets
from posenc_site.i18n.languages import load_strings
from posenc_site.widgets import sinusoidal_table
from support.project import DOCS

NAME = "sinusoidal-table"
PAGE = f"Move the sliders.\n\n<!-- posenc: widget {NAME} -->\n\nAfter.\n"
STRINGS = yaml.safe_load((widgets.HERE / f"{NAME}.yml").read_text(encoding="utf-8"))


def _attributes(filled: str) -> dict[str, str]:
    tag = re.search(r'<div class="pe-widget"[^>]*>', filled)
    assert tag, filled
    return {k: html.unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', tag.group(0))}


def _payload(filled: str) -> dict:
    found = re.search(
        r'<script type="application/json" class="pe-widget__data">(.*?)</script>', filled
    )
    assert found, filled
    return json.loads(found.group(1))


@pytest.mark.parametrize(
    ("page_url", "rel"),
    [
        ("lessons/positional-encoding/", "../.."),
        ("tr/lessons/positional-encoding/", "../../.."),
        ("lessons/positional-encoding.html", ".."),  # the classroom copy: no directory URLs
        ("tr/lessons/positional-encoding.html", "../.."),
        ("", "."),
    ],
)
def test_the_scripts_are_linked_from_the_site_root_as_the_pages_assets(page_url, rel):
    attributes = _attributes(widgets.fill(PAGE, page_url, "en"))
    assert attributes["data-script"] == f"{rel}/assets/widgets/{NAME}.js"
    assert attributes["data-common"] == f"{rel}/assets/widgets/common.js"


@pytest.mark.parametrize("language", ["en", "tr"])
def test_the_html_has_the_title_the_waiting_words_and_the_data_in_the_pages_language(language):
    filled = widgets.fill(PAGE, "lessons/positional-encoding/", language)
    attributes = _attributes(filled)
    assert attributes["id"] == f"widget-{NAME}"
    assert attributes["data-widget"] == NAME
    assert attributes["role"] == "group"
    assert attributes["aria-labelledby"] == f"widget-{NAME}-title"
    title = STRINGS[language]["title"]
    assert (
        f'<p class="pe-widget__title" id="widget-{NAME}-title">{html.escape(title)}</p>' in filled
    )
    waiting = load_strings(language)["widgets"]["waiting"]
    assert f'<p class="pe-widget__waiting">{html.escape(waiting)}</p>' in filled
    assert attributes["data-failed"] == load_strings(language)["widgets"]["failed"]
    payload = _payload(filled)
    assert payload == {"data": sinusoidal_table.data(), "strings": STRINGS[language]}
    # The marker's line is gone; the prose around it stays.
    assert "<!--" not in filled
    assert filled.startswith("Move the sliders.\n\n")
    assert filled.endswith("\n\nAfter.\n")


def test_the_html_survives_markdown_as_one_raw_block():
    filled = widgets.fill(PAGE, "lessons/positional-encoding/", "tr")
    rendered = markdown.markdown(filled, extensions=["md_in_html", "attr_list"])
    start = rendered.index('<div class="pe-widget"')
    block = rendered[start : rendered.index("</div>", start) + len("</div>")]
    assert block in filled  # every character as fill wrote it: no <p> added, nothing escaped
    assert _payload(rendered)["strings"] == STRINGS["tr"]


def test_the_json_cannot_end_its_script_element():
    assert widgets._script_json('{"a":"</script><b>&"}') == (
        '{"a":"\\u003c/script\\u003e\\u003cb\\u003e\\u0026"}'
    )
    assert json.loads(widgets._script_json('{"a":"</script>"}')) == {"a": "</script>"}


def test_an_unknown_widget_stops_the_build_naming_the_page_and_the_widget():
    page = "<!-- posenc: widget no-such-figure -->\n"
    with pytest.raises(PluginError, match=r"^tr/lessons/rotary/: no widget 'no-such-figure'"):
        widgets.fill(page, "tr/lessons/rotary/", "tr")


@pytest.mark.parametrize(
    "line",
    [
        f"See <!-- posenc: widget {NAME} -->",
        f"<!-- posenc: widget {NAME} --> below",
        f"  <!-- posenc: widget {NAME} -->",
        f"<!--posenc: widget {NAME}-->",
    ],
)
def test_a_marker_not_alone_on_its_line_stops_the_build(line):
    with pytest.raises(PluginError, match=r"^lessons/rotary/: a widget marker must be alone"):
        widgets.fill(f"Text.\n\n{line}\n", "lessons/rotary/", "en")


def test_a_marker_shown_as_code_is_left_as_written():
    page = (
        f"Write `<!-- posenc: widget {NAME} -->` on a line.\n\n"
        f"```markdown\n<!-- posenc: widget {NAME} -->\n```\n"
    )
    assert widgets.fill(page, "contributing/", "en") == page


def test_a_language_missing_from_the_strings_stops_the_build(tmp_path: Path, monkeypatch):
    strings = tmp_path / f"{NAME}.yml"
    strings.write_text(yaml.safe_dump({"en": STRINGS["en"]}), encoding="utf-8")
    (tmp_path / f"{widgets.module_name(NAME)}.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(widgets, "HERE", tmp_path)
    with pytest.raises(PluginError, match=rf"^tr/x/: widget '{NAME}' has no 'tr' strings"):
        widgets.fill(PAGE, "tr/x/", "tr")


def test_a_key_missing_from_one_language_stops_the_build(tmp_path: Path, monkeypatch):
    turkish = {key: value for key, value in STRINGS["tr"].items() if key != "position"}
    strings = tmp_path / f"{NAME}.yml"
    strings.write_text(yaml.safe_dump({"en": STRINGS["en"], "tr": turkish}), encoding="utf-8")
    (tmp_path / f"{widgets.module_name(NAME)}.py").write_text("", encoding="utf-8")
    monkeypatch.setattr(widgets, "HERE", tmp_path)
    message = rf"^tr/x/: widget '{NAME}': its 'tr' strings lack position$"
    with pytest.raises(PluginError, match=message):
        widgets.fill(PAGE, "tr/x/", "tr")


@pytest.mark.parametrize("name", widgets.names())
def test_every_widget_has_its_module_its_script_and_the_same_keys_in_every_language(name):
    module = widgets._module(name, "test")
    assert name == module.NAME
    data = json.dumps(module.data(), allow_nan=False)
    assert len(data) < 2048, f"{name}'s data is {len(data)} bytes"
    every = yaml.safe_load((widgets.HERE / f"{name}.yml").read_text(encoding="utf-8"))
    assert set(every) == {"en", "tr"}
    assert set(every["en"]) == set(every["tr"])
    assert "title" in every["en"]
    assert (DOCS / "assets/widgets" / f"{name}.js").is_file()


def test_the_loader_goes_only_into_pages_with_a_widget():
    page = "<html><body><p>Text</p></body></html>"
    assert widgets.add_loader(page) == page
    with_widget = '<html><body><div class="pe-widget" id="w"></div>\n</body></html>'
    added = widgets.add_loader(with_widget)
    assert added == with_widget.replace("</body>", f"{widgets.LOADER}\n</body>")
    assert added.count("<script>") == 1
    assert 'rootMargin:"300px"' in widgets.LOADER
    assert 'addEventListener("load"' in widgets.LOADER
