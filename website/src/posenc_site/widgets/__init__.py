"""Explorable figures: a line ``<!-- posenc: widget NAME -->`` becomes a figure the reader moves.

Each widget is a module of this package, ``<name_with_underscores>.py``, defining ``NAME`` and
``data()`` (the constants its script needs, read from posenc), and a strings file
``<NAME>.yml`` beside it with the words it shows, per language. Its script is
``docs/assets/widgets/<NAME>.js``, run by ``docs/assets/widgets/common.js``.

``fill`` writes each marker's HTML into the page's Markdown as a raw HTML block: the title, the
words shown until the script runs, and the widget's data and strings as JSON. ``add_loader``
writes a small inline script into each page that has a widget: after the page's ``load`` it
watches the widgets and adds the scripts when one comes near the screen, so the first paint
waits for none of them and pages without widgets load nothing.
"""

import html
import importlib
import json
import re
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml
from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from posenc_site.i18n.languages import load_strings

HERE = Path(__file__).parent
SCRIPTS = "assets/widgets"  # the scripts' folder in the built site, from docs/assets/widgets
MARKER = re.compile(r"^<!-- posenc: widget (?P<name>[a-z0-9-]+) -->$", re.MULTILINE)
_ANY_MARKER = re.compile(r"<!--\s*posenc:\s*widget\b")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"(`+).+?\1")
_HAS_WIDGET = 'class="pe-widget"'

# Runs after the page's load event; adds common.js once, then each widget's script once, when a
# widget comes within 300 px of the screen. Scripts added by a script run in the order added
# only if they are not async.
LOADER = """<script>addEventListener("load",function(){
var added={},roots=document.querySelectorAll(".pe-widget[data-script]");
function add(src){if(added[src])return;added[src]=1;
var s=document.createElement("script");s.src=src;s.async=false;document.body.appendChild(s);}
function near(root){add(root.dataset.common);add(root.dataset.script);}
if(!("IntersectionObserver" in window)){roots.forEach(near);return;}
var watch=new IntersectionObserver(function(entries){entries.forEach(function(entry){
if(entry.isIntersecting){watch.unobserve(entry.target);near(entry.target);}});},
{rootMargin:"300px"});
roots.forEach(function(root){watch.observe(root);});});</script>"""


def module_name(name: str) -> str:
    """The module of widget ``name``: ``rope-pair`` -> ``rope_pair``."""
    return name.replace("-", "_")


def names() -> list[str]:
    """The widgets there are: each strings file ``<NAME>.yml`` beside its module."""
    return sorted(
        path.stem for path in HERE.glob("*.yml") if (HERE / f"{module_name(path.stem)}.py").exists()
    )


def _module(name: str, where: str) -> ModuleType:
    if name not in names():
        known = ", ".join(names()) or "none"
        raise PluginError(f"{where}: no widget {name!r} (known: {known})")
    module = importlib.import_module(f"{__name__}.{module_name(name)}")
    if getattr(module, "NAME", None) != name:
        raise PluginError(f"{where}: {module.__name__}.NAME is not {name!r}")
    return module


def _data(module: ModuleType) -> str:
    """A widget module's data as JSON (a few posenc calls: not worth a cache)."""
    return json.dumps(module.data(), separators=(",", ":"), allow_nan=False)


def strings(name: str, language: str, where: str) -> Mapping[str, Any]:
    """The words of widget ``name`` in ``language``, from ``<NAME>.yml``.

    Raises
    ------
    PluginError
        The file lacks ``language``, or its entry lacks a key another language has, or has no
        ``title``; the message names ``where`` (the page) and the widget.
    """
    path = HERE / f"{name}.yml"
    every: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if language not in every:
        raise PluginError(f"{where}: widget {name!r} has no {language!r} strings in {path.name}")
    words = every[language]
    keys = set().union(*(set(entry) for entry in every.values()))
    missing = sorted(keys - set(words)) + ([] if "title" in keys else ["title"])
    if missing:
        raise PluginError(
            f"{where}: widget {name!r}: its {language!r} strings lack {', '.join(missing)}"
        )
    return dict(words)


def _script_json(value: str) -> str:
    # Inside <script>, "</" would end the element; "&" and ">" are escaped for good measure.
    return value.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def widget_html(name: str, page_url: str, language: str, where: str) -> str:
    """The HTML of widget ``name`` on the page at ``page_url`` (in ``language``).

    Its scripts are linked relative to the site root, as the page's own assets are.
    """
    module = _module(name, where)
    words = strings(name, language, where)
    site_words = load_strings(language)["widgets"]
    rel = get_relative_url(".", page_url)
    words_json = json.dumps(words, ensure_ascii=False, separators=(",", ":"))
    payload = f'{{"data":{_data(module)},"strings":{words_json}}}'
    title = html.escape(str(words["title"]))
    return "\n".join(
        [
            f'<div class="pe-widget" id="widget-{name}" data-widget="{name}"'
            f' data-script="{rel}/{SCRIPTS}/{name}.js" data-common="{rel}/{SCRIPTS}/common.js"'
            f' data-failed="{html.escape(site_words["failed"])}" role="group"'
            f' aria-labelledby="widget-{name}-title"'
            ' data-search-exclude="data-search-exclude">',
            f'<p class="pe-widget__title" id="widget-{name}-title">{title}</p>',
            f'<p class="pe-widget__waiting">{html.escape(site_words["waiting"])}</p>',
            f'<script type="application/json" class="pe-widget__data">'
            f"{_script_json(payload)}</script>",
            "</div>",
        ]
    )


def _outside_code(markdown: str) -> list[tuple[int, str, bool]]:
    """Each line of ``markdown`` with its number, and whether it is outside fenced code."""
    lines, fence = [], ""
    for number, line in enumerate(markdown.split("\n"), start=1):
        opened = _FENCE.match(line)
        mark = opened.group(1) if opened else ""
        if mark and not fence:
            fence = mark  # the fence lines are code too
        elif mark and mark[0] == fence[0] and len(mark) >= len(fence):
            lines.append((number, line, False))
            fence = ""
            continue
        lines.append((number, line, not fence))
    return lines


def fill(markdown: str, page_url: str, language_code: str) -> str:
    r"""``markdown`` with each widget marker line replaced by the widget's HTML.

    Parameters
    ----------
    markdown : str
        A page's Markdown.
    page_url : str
        The page's URL from the site root (MkDocs' ``page.url``, ``tr/lessons/rotary/``):
        the widget's scripts are linked relative to it; it names the page in errors.
    language_code : str
        The page's language: the widget's words are this language's.

    Returns
    -------
    str
        ``markdown`` with every line ``<!-- posenc: widget NAME -->`` replaced by the HTML of
        widget NAME, a raw HTML block between blank lines.

    Raises
    ------
    PluginError
        A marker names no widget, is not alone on its line, or its widget has no strings in
        ``language_code``; the message names the page and the widget.

    Examples
    --------
    >>> page = "Move the slider.\n\n<!-- posenc: widget sinusoidal-table -->\n"
    >>> filled = fill(page, "lessons/positional-encoding/", "en")
    >>> 'data-script="../../assets/widgets/sinusoidal-table.js"' in filled
    True
    """
    where = page_url or "the home page"
    lines = _outside_code(markdown)
    stray = [
        number
        for number, line, outside in lines
        if outside and not MARKER.fullmatch(line) and _ANY_MARKER.search(_INLINE_CODE.sub("", line))
    ]
    if stray:
        raise PluginError(
            f"{where}: a widget marker must be alone on its line"
            f" ('<!-- posenc: widget NAME -->'), line {', '.join(map(str, stray))}"
        )
    return "\n".join(
        f"\n{widget_html(found['name'], page_url, language_code, where)}\n"
        if outside and (found := MARKER.fullmatch(line))
        else line
        for _, line, outside in lines
    )


def add_loader(output: str) -> str:
    """The page's HTML ``output`` with the widgets' loader before ``</body>``, if it has one."""
    if _HAS_WIDGET not in output:
        return output
    head, body_end, tail = output.rpartition("</body>")
    return f"{head}{LOADER}\n{body_end}{tail}" if body_end else output
