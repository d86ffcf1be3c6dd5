"""The explorable figures on every page that has one, in every language, as a reader meets them.

A page's first load asks for no widget script: they come after the page's ``load`` event, when
a widget nears the screen (posenc_site.widgets' loader); a page without widgets has no loader
at all. Scrolled to, every widget mounts without an error, axe finds nothing in it in either
palette, it fits a phone 360 px wide, and on a desktop its text stays near the page's size.
The classroom copy, opened from disk, mounts one and answers a slider. The widget pages are
read from the built site: a new widget is checked here as soon as its marker is in a lesson.
Each widget's own numbers are checked in its test_widget_<name>.py.
"""

import re
from pathlib import Path

import pytest
from playwright.sync_api import ConsoleMessage, Error, Locator, Page, expect

from posenc_site import widgets
from support import axe
from support.pages import ALL_PAGES
from support.project import SITE
from support.widgets import READY_TIMEOUT, set_control, values

SCRIPTS = "assets/widgets/"  # the widgets' scripts in the built site
# An attribute that points to one of them (the contributor guide names the folder in its text).
SCRIPT_LINK = re.compile(r'(?:src|data-script|data-common)="[^"]*assets/widgets/')
WIDGET = re.compile(r'<div class="pe-widget" id="widget-([a-z0-9-]+)"')
PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}
# The page's body text size, and the largest text of each widget drawing as shown, in px (a
# drawing's text is in viewBox units: scaled by the width it is shown at).
_TEXT_SIZES = """() => [
  parseFloat(getComputedStyle(document.querySelector(".md-typeset")).fontSize),
  Array.from(document.querySelectorAll(".pe-widget svg.pe-widget__figure"), svg => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const sizes = Array.from(svg.querySelectorAll("text"),
                             text => parseFloat(getComputedStyle(text).fontSize));
    return Math.max(0, ...sizes) * scale;
  })]"""
# Resolves once the page has run every task it has queued (the browser's idle period).
IDLE = "() => new Promise(resolve => requestIdleCallback(() => resolve(), {timeout: 5000}))"
# Every widget script's request, with when it started and when the page's load event ended
# (ms since the navigation started).
_TIMING = """prefix => {
  const navigation = performance.getEntriesByType("navigation")[0];
  return [navigation.loadEventEnd, performance.getEntriesByType("resource")
    .filter(entry => entry.name.includes(prefix))
    .map(entry => [entry.name, entry.startTime])];
}"""
# axe's violations inside the widgets only (axe.run takes a NodeList as its context).
_WIDGET_VIOLATIONS = """async () => {
  const results = await axe.run(document.querySelectorAll(".pe-widget"),
                                {resultTypes: ["violations"]});
  return Object.fromEntries(results.violations.map(
    rule => [rule.id, rule.nodes.slice(0, 5).map(node => node.target)]));
}"""
# Widgets wider than their box (they would scroll sideways) or reaching past the screen.
_OVERFLOW = """() => Array.from(document.querySelectorAll(".pe-widget")).flatMap(root => {
  const box = root.getBoundingClientRect(), out = [];
  if (root.scrollWidth > root.clientWidth)
    out.push(`${root.id}: ${root.scrollWidth} px in a box of ${root.clientWidth}`);
  if (box.left < 0 || box.right > window.innerWidth)
    out.push(`${root.id}: from ${box.left} to ${box.right} px on a screen of ${innerWidth}`);
  return out;
})"""


def built_file(site: Path, path: str) -> Path:
    """The HTML file of the built page at ``path`` (``tr/lessons/rotary/``)."""
    return site / path / "index.html"


def widgets_of(html: str) -> list[str]:
    """The names of the widgets in a built page's HTML, in page order."""
    return WIDGET.findall(html)


def test_every_language_has_the_same_widgets_on_the_same_pages(site: Path):
    by_language = {
        language.code: {
            path.removeprefix(language.url_prefix): widgets_of(
                built_file(site, path).read_text(encoding="utf-8")
            )
            for path in ALL_PAGES
            if SITE.of_url(path) == language
        }
        for language in SITE.all
    }
    default = by_language[SITE.default.code]
    assert sum(map(len, default.values())) >= 5, default  # the course's explorable figures
    for code, pages in by_language.items():
        assert pages == default, code


@pytest.mark.parametrize("path", ALL_PAGES)
def test_a_page_has_the_loader_exactly_when_it_has_a_widget(site: Path, path: str):
    html = built_file(site, path).read_text(encoding="utf-8")
    names = widgets_of(html)
    assert html.count(widgets.LOADER) == (1 if names else 0)
    assert bool(SCRIPT_LINK.search(html)) == bool(names)
    for name in names:
        assert (site / SCRIPTS / f"{name}.js").is_file()
        rel = "/".join([".."] * path.count("/")) or "."  # to the site root, as its assets
        assert f'data-script="{rel}/{SCRIPTS}{name}.js"' in html
        assert f'data-common="{rel}/{SCRIPTS}common.js"' in html


def _watch(page: Page) -> tuple[list[str], list[str]]:
    requested: list[str] = []
    errors: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    def page_error(error: Error) -> None:
        errors.append(str(error))

    page.on("request", lambda request: requested.append(request.url))
    page.on("console", console)
    page.on("pageerror", page_error)
    return requested, errors


def _mount_all(page: Page) -> list[Locator]:
    roots = page.locator(".pe-widget").all()
    for root in roots:
        root.scroll_into_view_if_needed()
        expect(root).to_have_attribute("data-ready", "true", timeout=READY_TIMEOUT)
    return roots


@pytest.mark.parametrize("path", ALL_PAGES)
def test_widgets_load_after_the_first_paint_mount_and_pass_axe_and_fit_a_phone(
    page: Page, site: Path, site_url: str, path: str
):
    names = widgets_of(built_file(site, path).read_text(encoding="utf-8"))
    requested, errors = _watch(page)
    page.goto(site_url + path, wait_until="load")
    page.evaluate(IDLE)
    page.wait_for_timeout(300)  # what the load event set off has started
    # (a) before the reader scrolls: no widget script, whatever the page holds
    assert [url for url in requested if SCRIPTS in url] == []
    if not names:
        page.mouse.wheel(0, 100_000)
        page.evaluate(IDLE)
        assert [url for url in requested if SCRIPTS in url] == []
        assert errors == []
        return
    # (c) scrolled to, every widget mounts, without an error
    roots = _mount_all(page)
    assert [root.get_attribute("data-widget") for root in roots] == names
    assert errors == []
    load_end, scripts = page.evaluate(_TIMING, SCRIPTS)
    expected = {f"{site_url}{SCRIPTS}{name}.js" for name in names} | {
        f"{site_url}{SCRIPTS}common.js"
    }
    assert {url for url, _ in scripts} == expected
    assert sorted(url for url in requested if SCRIPTS in url) == sorted(expected)  # once each
    assert all(start >= load_end for _, start in scripts), (load_end, scripts)
    # (d) axe inside the mounted widgets, in the light palette and in the dark one
    page.evaluate(axe.script())
    found = {"light": page.evaluate(_WIDGET_VIOLATIONS)}
    page.locator('label[for="__palette_1"]').click()  # the toggle: "Switch to dark mode"
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    found["dark"] = page.evaluate(_WIDGET_VIOLATIONS)
    assert found == {"light": {}, "dark": {}}
    # (e) on a phone, no widget is wider than its box or than the screen
    page.set_viewport_size(PHONE)
    page.evaluate(IDLE)
    assert page.evaluate(_OVERFLOW) == []
    # (f) on a desktop, a drawing made for a phone's column does not grow its text much past
    # the page's (Material's `.md-typeset svg` rule once won over the cap and made it 25 px)
    page.set_viewport_size(DESKTOP)
    page.evaluate(IDLE)
    body, largest = page.evaluate(_TEXT_SIZES)
    assert max(largest) <= 1.2 * body, (body, largest)
    assert errors == []


def test_the_classroom_copy_mounts_a_widget_from_disk_and_answers_a_slider(
    page: Page, classroom: Path
):
    pages = sorted(
        file for file in classroom.rglob("*.html") if widgets_of(file.read_text(encoding="utf-8"))
    )
    assert pages, "no page of the classroom copy has a widget"
    foreign, errors = [], []
    page.on("request", lambda r: None if r.url.startswith("file://") else foreign.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(pages[0].as_uri())
    root = _mount_all(page)[0]
    slider = root.locator('input[type="range"]').first
    control = slider.get_attribute("data-control")
    assert control
    low, high, now = (slider.get_attribute(name) for name in ("min", "max", "value"))
    before = values(root)
    set_control(root, control, low if now == high else high)
    after = values(root)
    assert after != before, control
    assert foreign == []
    assert errors == []
