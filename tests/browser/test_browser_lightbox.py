"""Figures open full screen (docs/assets/posenc.js, its figures part): a button under each
figure, labelled in the page's language, opens a copy of the figure in a modal dialog named by
its caption; Esc closes it and gives the focus back to the button. On the site and on the
classroom copy read from disk."""

from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from support import axe, page_weight
from support.project import SITE, TURKISH

KB = 1000
LESSON = "lessons/positional-encoding/"  # three figures, each with a caption
WORDS = {language.code: language.strings["lightbox"] for language in SITE.all}
# The ids that appear more than once in the page (a copy of a figure keeps none of the
# page's ids: its title and clip paths are renamed).
DUPLICATE_IDS = """() => [...document.querySelectorAll("[id]")].map(e => e.id)
    .filter((id, i, ids) => ids.indexOf(id) !== i)"""


def _text(locator: Locator) -> str:
    return " ".join((locator.text_content() or "").split())


def _expect_open_with(page: Page, figure: Locator, language: str) -> Locator:
    """The open dialog, checked: named by the figure's caption, showing its drawing under the
    drawing's own name, the focus on its close button, no id twice in the page."""
    dialog = page.locator("dialog")  # Material's search box is a role="dialog" <div>
    expect(dialog).to_be_visible()
    expect(dialog).to_have_role("dialog")
    expect(dialog).to_have_accessible_name(_text(figure.locator("figcaption")))
    drawing = figure.locator("svg[role=img]")
    name = _text(drawing.locator("title"))
    expect(dialog.get_by_role("img", name=name, exact=True)).to_be_visible()
    expect(dialog.get_by_role("button", name=WORDS[language]["close"])).to_be_focused()
    assert page.evaluate(DUPLICATE_IDS) == []
    return dialog


def test_a_figure_opens_from_its_button_by_click_enter_or_a_tap_and_esc_closes_it(
    tab: Page, site_url: str
):
    tab.goto(site_url + LESSON)
    figures = tab.locator("figure.pe-figure")
    buttons = figures.get_by_role("button", name=WORDS["en"]["enlarge"], exact=True)
    expect(buttons).to_have_count(figures.count())
    button = buttons.nth(1)
    button.click()
    dialog = _expect_open_with(tab, figures.nth(1), "en")
    tab.keyboard.press("n")  # Material's shortcut to the next page: not while a figure is open
    expect(tab).to_have_url(site_url + LESSON)
    tab.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(button).to_be_focused()
    # The keyboard: Enter on the focused button; the close button closes it.
    tab.keyboard.press("Enter")
    _expect_open_with(tab, figures.nth(1), "en")
    dialog.get_by_role("button", name=WORDS["en"]["close"]).click()
    expect(dialog).to_be_hidden()
    expect(button).to_be_focused()
    # A tap on another figure's drawing opens that one; the focus comes back to its button.
    figures.nth(2).locator("svg[role=img]").click()
    _expect_open_with(tab, figures.nth(2), "en")
    tab.keyboard.press("Escape")
    expect(buttons.nth(2)).to_be_focused()


def test_in_turkish_on_a_phone_in_the_dark_palette_the_open_figure_fills_the_screen(
    tab: Page, site_url: str
):
    # axe-core with the dialog open, on the whole page (the copy must not clash with the
    # page), in the palette where the drawing's currentColor is light on dark.
    tab.set_viewport_size({"width": 360, "height": 780})
    tab.goto(site_url + TURKISH.url_prefix + LESSON)
    tab.locator('label[for="__palette_1"]').click()  # the toggle: to the dark palette
    expect(tab.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    figure = tab.locator("figure.pe-figure").first
    button = figure.get_by_role("button", name=WORDS["tr"]["enlarge"], exact=True)
    assert WORDS["tr"]["enlarge"] != WORDS["en"]["enlarge"]
    shown = figure.locator("svg").first.bounding_box()
    assert shown is not None
    button.click()
    dialog = _expect_open_with(tab, figure, "tr")
    # The whole screen, a drawing much larger than on the page (it scrolls), and the page's
    # colours: the drawing's lines and labels stay readable.
    box, drawing = dialog.bounding_box(), dialog.locator("svg[role=img]").bounding_box()
    assert box is not None
    assert drawing is not None
    assert (box["width"], box["height"]) == (360, 780)
    assert drawing["width"] >= 1.5 * shown["width"]
    colours = tab.evaluate(
        """() => [document.querySelector(".pe-lightbox"), document.body]
            .map(e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor])"""
    )
    assert colours[0][0] == colours[1][0]  # the text colour of the page
    assert colours[0][1] != "rgba(0, 0, 0, 0)"  # over a background of its own
    assert axe.violations(tab) == {}
    tab.keyboard.press("Escape")
    expect(button).to_be_focused()


def test_the_figures_script_is_small_and_opening_a_figure_requests_nothing(
    uncached_tab: Page, compressed_site_url: str
):
    # The dialog is the browser's own (<dialog>, see docs/assets/posenc.js): no lightbox
    # library to fetch, at load or on demand, and a figure opens offline once the page is in.
    # The site's one script holds it with the quizzes and the progress (3 KB of its 8.5).
    page = uncached_tab
    load = page_weight.first_load(page, compressed_site_url + LESSON)
    scripts = [r for r in load.responses if r.url.endswith("assets/posenc.js")]
    assert [r.status for r in scripts] == [200]
    assert scripts[0].size <= 10 * KB
    assert not any("lightbox" in r.url for r in load.responses if r.kind == "CSS")
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.locator(".pe-figure__enlarge").first.click()
    expect(page.locator("dialog")).to_be_visible()
    page.keyboard.press("Escape")
    # Scrolling to the figure may bring a widget near: its script loads then, by design.
    assert [url for url in requested if "/assets/widgets/" not in url] == []


def test_the_classroom_copy_opens_a_figure_from_disk(tab: Page, classroom: Path):
    tab.goto((classroom / "lessons" / "rotary.html").as_uri())
    figure = tab.locator("figure.pe-figure").first
    button = figure.get_by_role("button", name=WORDS["en"]["enlarge"], exact=True)
    button.click()
    _expect_open_with(tab, figure, "en")
    tab.keyboard.press("Escape")
    expect(tab.locator("dialog")).to_be_hidden()
    expect(button).to_be_focused()
