"""The reader's progress, kept in the browser per language (docs/assets/posenc.js, its progress
part): answers, a passed complete-the-code form and a lesson marked done come back after a
reload, checked again, and show as ticks in the nav and as "continue where you left off" on the
home page; "forget" removes them. A value stored by an earlier version of the site is read
(data/progress-v1.json, as a real session stored it), an answer whose question changed is
dropped alone, and storage that is disabled, full or unreadable leaves every page working."""

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import ConsoleMessage, Error, Page, expect

from support import axe
from support.project import SITE

V1 = Path(__file__).parent / "data" / "progress-v1.json"
LANGUAGES = [language.code for language in SITE.all]
PREFIX = {language.code: language.url_prefix for language in SITE.all}
QUIZ = {language.code: language.strings["quiz"] for language in SITE.all}
WORDS = {language.code: language.strings["progress"] for language in SITE.all}
LESSON = "lessons/positional-encoding/"  # one form of each kind: complete, choice, blank, match
OTHER_LESSON = "lessons/rotary/"
SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 780}}
# Kind -> what the reader answers (as the script stores it) and the verdict it gets.
ANSWERS = {
    "complete": (["two_i/d_model", "0::2", "1::2", "x[::-1] + PE"], "right"),
    "choice": (["2"], "right"),
    "blank": (["3"], "wrong"),
    "match": (["0", "1", "2", "3"], "right"),
}
# As test_browser_axe.py: every part of the page rendered, and read once the phone's layout has
# ended its transitions.
RENDER_ALL = "* { content-visibility: visible !important; }"
SETTLED = "() => !document.getAnimations().some(animation => animation instanceof CSSTransition)"


def key(language: str) -> str:
    return f"posenc.progress.{language}"


def stored(page: Page, language: str) -> dict | None:
    """The progress stored for ``language``, parsed (None when there is none)."""
    raw = page.evaluate("key => localStorage.getItem(key)", key(language))
    return None if raw is None else json.loads(raw)


def store(page: Page, language: str, value: str) -> None:
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [key(language), value])


def fresh(page: Page, url: str) -> None:
    """Open ``url`` with nothing stored: pages that an earlier test left noted their visit (and
    this one notes nothing as it goes)."""
    page.goto(url)
    page.evaluate("() => { localStorage.clear(); Storage.prototype.setItem = () => {}; }")
    page.reload()


def form(page: Page, kind: str):
    return page.locator(f'form.pe-quiz[data-kind="{kind}"]')


def answer_every_kind(page: Page, language: str) -> None:
    """Answer the lesson's four forms as a reader does, and check each."""
    for kind, (values, _) in ANSWERS.items():
        quiz = form(page, kind)
        if kind == "choice":
            quiz.locator("label").nth(int(values[0])).click()
        elif kind == "match":
            for select, value in zip(quiz.locator("select").all(), values, strict=True):
                select.select_option(value=value)
        else:
            for blank, value in zip(quiz.locator("input").all(), values, strict=True):
                blank.fill(value)
        quiz.get_by_role("button", name=QUIZ[language]["check"]).click()
        verdict = ANSWERS[kind][1]
        expect(quiz.locator(".pe-quiz__feedback")).to_have_attribute("data-state", verdict)


def expect_answered(page: Page, kinds: list[str]) -> None:
    """Each form of ``kinds`` holds its answer of ``ANSWERS`` with its verdict; the others are
    as a first visit shows them."""
    for kind, (values, verdict) in ANSWERS.items():
        quiz = form(page, kind)
        feedback = quiz.locator(".pe-quiz__feedback")
        fields = quiz.locator("input:checked" if kind == "choice" else "input, select")
        shown = [field.input_value() for field in fields.all()]
        if kind in kinds:
            assert shown == values, kind
            expect(feedback).to_have_attribute("data-state", verdict)
            expect(feedback).not_to_be_empty()
        else:
            assert shown == ([] if kind == "choice" else [""] * len(values)), kind
            expect(feedback).to_be_empty()
    solution = page.locator("details.example")  # opens once the complete form is passed
    if "complete" in kinds:
        expect(solution).to_have_attribute("open", "")
    else:
        expect(solution).not_to_have_attribute("open", "")


def section_before(page: Page, kind: str) -> str:
    """The id of the section heading above the form of ``kind``."""
    return form(page, kind).evaluate(
        """form => [...document.querySelectorAll(".md-content h2[id]")]
            .filter(h => h.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING)
            .pop().id"""
    )


def done_button(page: Page, language: str):
    return page.get_by_role("button", name=WORDS[language]["done"], exact=True)


def ticked(page: Page, language: str) -> list[str]:
    """The addresses of the nav's links that carry a tick named as the language says "done"."""
    # On a phone the nav is a closed drawer: its links are there, out of sight.
    ticks = page.locator(".md-nav--primary a.md-nav__link").get_by_role(
        "img", name=WORDS[language]["tick"], exact=True, include_hidden=True
    )
    return [tick.evaluate("t => t.closest('a').href") for tick in ticks.all()]


def fits(page: Page, locator) -> None:
    """``locator`` is a target of 24 px or more, wholly on a screen that does not scroll
    sideways."""
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    assert box is not None
    assert box["x"] >= 0, box
    assert box["x"] + box["width"] <= width, box
    assert min(box["height"], box["width"]) >= 24, box
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("screen", list(SCREENS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_answers_and_done_stay_after_a_reload_and_show_in_the_nav_and_home(
    tab: Page, site_url: str, language, screen
):
    tab.set_viewport_size(SCREENS[screen])
    root = site_url + PREFIX[language]
    fresh(tab, root + LESSON)
    assert stored(tab, language) is None
    answer_every_kind(tab, language)
    button = done_button(tab, language)
    status = tab.locator(".pe-done__status")
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(status).to_be_hidden()
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(status).to_have_text(WORDS[language]["done_status"])  # said in words, not colour
    section = section_before(tab, "choice")
    tab.evaluate("id => document.getElementById(id).scrollIntoView()", section)
    tab.reload()  # the section read last is noted as the page goes

    expect_answered(tab, list(ANSWERS))
    expect(done_button(tab, language)).to_have_attribute("aria-pressed", "true")
    assert tab.evaluate("document.activeElement === document.body")  # no focus moved
    assert ticked(tab, language) == [root + LESSON]
    fits(tab, done_button(tab, language))
    if screen == "phone":  # the drawer shows the page's own entry as the label of its contents
        tab.locator('label.md-header__button[for="__drawer"]').click()
        entry = tab.locator('.md-nav--primary label.md-nav__link[for="__toc"]')
        expect(entry.locator(".pe-progress-done")).to_be_in_viewport()

    tab.goto(root)
    box = tab.locator(".pe-progress")
    expect(box).to_be_visible()
    expect(box.locator(".pe-progress__continue")).to_contain_text(WORDS[language]["continue"])
    link = box.get_by_role("link")
    there = tab.evaluate("address => new URL(address).href", root + LESSON + "#" + section)
    expect(link).to_have_attribute("href", there)
    fits(tab, link)
    fits(tab, box.get_by_role("button", name=WORDS[language]["forget"]))
    assert ticked(tab, language) == [root + LESSON]
    link.click()
    expect(tab).to_have_url(there)
    expect(tab.locator(f"h2#{section}")).to_be_in_viewport()
    tab.go_back()
    if screen == "phone":  # the nav is a drawer, the lessons a list of their own in it
        tab.locator('label.md-header__button[for="__drawer"]').click()
        tab.locator('.md-nav--primary label.md-nav__link[for="__nav_2"]').click()
    expect(tab.locator(".md-nav--primary .pe-progress-done")).to_be_in_viewport()


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_keeps_its_own_progress(tab: Page, site_url: str, language):
    other = next(code for code in LANGUAGES if code != language)
    fresh(tab, site_url + PREFIX[language] + LESSON)
    answer_every_kind(tab, language)
    done_button(tab, language).click()
    tab.goto(site_url + PREFIX[other])
    expect(tab.locator(".pe-progress")).to_be_hidden()
    assert ticked(tab, other) == []
    tab.goto(site_url + PREFIX[other] + LESSON)
    expect_answered(tab, [])
    expect(done_button(tab, other)).to_have_attribute("aria-pressed", "false")
    assert ticked(tab, other) == []
    tab.goto(site_url + PREFIX[language])  # the visit is noted as the other language's last
    assert stored(tab, other)["lessons"] == {}
    assert stored(tab, other)["last"]["path"] == LESSON
    assert len(stored(tab, language)["lessons"][LESSON]["quizzes"]) == len(ANSWERS)
    assert stored(tab, language)["lessons"][LESSON]["done"] is True


@pytest.mark.parametrize("language", LANGUAGES)
def test_forget_removes_this_language_only_and_undo_brings_it_back(
    tab: Page, site_url: str, language
):
    other = next(code for code in LANGUAGES if code != language)
    root = site_url + PREFIX[language]
    fresh(tab, root + OTHER_LESSON)
    done_button(tab, language).click()
    tab.goto(site_url + PREFIX[other] + OTHER_LESSON)
    done_button(tab, other).click()
    tab.goto(root)
    kept = stored(tab, language)
    forget = tab.get_by_role("button", name=WORDS[language]["forget"])
    undo = tab.get_by_role("button", name=WORDS[language]["undo"])
    expect(undo).to_be_hidden()
    forget.click()
    status = tab.locator(".pe-progress").get_by_role("status")
    expect(status).to_have_text(WORDS[language]["forgotten"])
    expect(forget).to_be_hidden()
    expect(undo).to_be_focused()
    assert stored(tab, language) is None
    assert ticked(tab, language) == []
    undo.click()
    expect(forget).to_be_focused()
    assert stored(tab, language) == kept
    assert ticked(tab, language) == [root + OTHER_LESSON]
    forget.click()
    tab.reload()
    expect(tab.locator(".pe-progress")).to_be_hidden()
    assert stored(tab, language) is None
    assert ticked(tab, language) == []
    assert stored(tab, other)["lessons"][OTHER_LESSON]["done"] is True


def current_fingerprints(page: Page) -> dict[str, str]:
    return page.eval_on_selector_all(
        "form.pe-quiz",
        "forms => Object.fromEntries(forms.map(form => [form.id, form.dataset.fingerprint]))",
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_first_version_of_the_stored_progress_is_read(tab: Page, site_url: str, language):
    # The value a session of the site stored in version 1 of the format (data/progress-v1.json):
    # every later site reads it. Its answers fit while their questions stay as they were.
    root = site_url + PREFIX[language]
    old = json.loads(V1.read_text(encoding="utf-8"))
    assert old["version"] == 1
    fresh(tab, root)
    store(tab, language, V1.read_text(encoding="utf-8"))
    tab.reload()
    last = old["last"]
    link = tab.locator(".pe-progress").get_by_role("link")
    there = root + last["path"] + "#" + last["section"]
    expect(link).to_have_attribute("href", tab.evaluate("address => new URL(address).href", there))
    assert ticked(tab, language) == [root + LESSON, root + OTHER_LESSON]
    tab.goto(root + LESSON)
    fingerprints = current_fingerprints(tab)
    saved = old["lessons"][LESSON]["quizzes"]
    fitting = {
        quiz_id for quiz_id, answer in saved.items() if fingerprints.get(quiz_id) == answer["fp"]
    }
    assert fitting, "no answer of the fixture fits the lesson's questions any more"
    kinds = [tab.locator(f"#{quiz_id}").get_attribute("data-kind") for quiz_id in fitting]
    expect_answered(tab, kinds)
    expect(done_button(tab, language)).to_have_attribute("aria-pressed", "true")
    assert ticked(tab, language) == [root + LESSON, root + OTHER_LESSON]
    now = stored(tab, language)
    assert now["version"] == 1
    assert set(now["lessons"][LESSON]["quizzes"]) == fitting
    assert now["lessons"][OTHER_LESSON] == old["lessons"][OTHER_LESSON]


def test_an_answer_whose_question_changed_or_went_away_is_dropped_alone(tab: Page, site_url: str):
    fresh(tab, site_url + LESSON)
    answer_every_kind(tab, "en")
    value = stored(tab, "en")
    quizzes = value["lessons"][LESSON]["quizzes"]
    changed = form(tab, "blank").get_attribute("id")
    quizzes[changed]["fp"] = "000000000000"  # as if its question had other right answers
    quizzes["quiz-99"] = {"fp": "123456789abc", "answer": ["1"], "right": True}  # a form gone
    store(tab, "en", json.dumps(value))
    tab.reload()
    expect_answered(tab, ["complete", "choice", "match"])
    left = stored(tab, "en")["lessons"][LESSON]["quizzes"]
    assert sorted(left) == sorted(set(quizzes) - {changed, "quiz-99"})
    assert all(left[quiz_id] == quizzes[quiz_id] for quiz_id in left)


@dataclass
class Reported:
    """What the page reported while a test ran: uncaught exceptions and console errors (each
    with where it came from), and warnings."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(f"{message.text} at {message.location['url']}")
        elif message.type == "warning":
            self.warnings.append(message.text)

    def page_error(self, error: Error) -> None:
        self.errors.append(f"{error} at {error.stack}")

    def ours(self) -> list[str]:
        """The errors that the site's script raised."""
        return [error for error in self.errors if "posenc.js" in error]


@pytest.fixture
def reported(page: Page) -> Reported:
    found = Reported()
    page.on("console", found.console)
    page.on("pageerror", found.page_error)
    return found


# Storage disabled, as when the reader blocks the site's data: reading window.localStorage
# throws. (A browser throws a SecurityError without a stack; this error has one, which tells
# whose code read it: Material's scripts of the page head read it unguarded and throw, with or
# without the site's script.)
DISABLE = """Object.defineProperty(window, "localStorage", {
  get() { throw new TypeError("storage disabled"); },
})"""
# Fills the site's storage until not one more character fits.
FILL = """() => {
  let size = 1 << 22, n = 0;
  while (size > 0) {
    try { localStorage.setItem("filler-" + n, "x".repeat(size)); n++; }
    catch (error) { size = Math.floor(size / 2); }
  }
  return n;
}"""
UNREADABLE = {
    "not JSON": '{"version": 1, "lessons": {',
    "a newer version": '{"version": 2, "lessons": {}, "last": null, "bookmarks": []}',
    "the wrong shape": '{"version": 1, "lessons": [], "last": null}',
    "a wrong answer's shape": json.dumps(
        {
            "version": 1,
            "lessons": {LESSON: {"done": True, "quizzes": {"quiz-2": {"fp": 1}}}},
            "last": None,
        }
    ),
}


def works_without_progress(page: Page, site_url: str, reported: Reported) -> None:
    """The lesson's quizzes check, nothing of the progress shows, no error; then the same on
    the home page. At most one warning a page."""
    page.goto(site_url + LESSON)
    quiz = form(page, "choice")
    quiz.locator("label").nth(2).click()
    quiz.get_by_role("button", name=QUIZ["en"]["check"]).click()
    expect(quiz.locator(".pe-quiz__feedback")).to_have_text(QUIZ["en"]["correct"])
    done = page.locator(".pe-done")
    if done.is_visible():  # storage that is full reads: its button shows, and works
        done.get_by_role("button").click()
        expect(done.get_by_role("button")).to_have_attribute("aria-pressed", "true")
    assert page.locator(".pe-progress-done").count() == 0
    lesson_warnings = len(reported.warnings)
    page.goto(site_url)
    expect(page.locator("h1")).to_be_visible()
    assert reported.ours() == []
    assert lesson_warnings <= 1
    assert len(reported.warnings) - lesson_warnings <= 1, reported.warnings


def test_disabled_storage_leaves_every_page_working(page: Page, site_url: str, reported):
    page.add_init_script(DISABLE)
    works_without_progress(page, site_url, reported)
    expect(page.locator(".pe-progress")).to_be_hidden()
    assert reported.errors  # Material's
    assert reported.warnings
    assert all("posenc:" in text for text in reported.warnings)


def test_full_storage_leaves_every_page_working(page: Page, site_url: str, reported):
    page.goto(site_url)
    assert page.evaluate(FILL) > 0
    works_without_progress(page, site_url, reported)
    assert stored(page, "en") is None  # nothing fitted
    assert reported.errors == []
    assert any("QuotaExceededError" in text for text in reported.warnings)


@pytest.mark.parametrize("value", list(UNREADABLE.values()), ids=list(UNREADABLE))
def test_an_unreadable_stored_value_is_set_aside_and_the_page_works(
    page: Page, site_url: str, reported, value
):
    page.goto(site_url)
    store(page, "en", value)
    works_without_progress(page, site_url, reported)
    assert page.evaluate("key => localStorage.getItem(key)", key("en")) == value  # untouched
    assert reported.errors == []
    expect(page.locator(".pe-progress__unreadable")).to_be_visible()
    page.get_by_role("button", name=WORDS["en"]["forget"]).click()  # the way to start afresh
    page.goto(site_url + LESSON)
    done_button(page, "en").click()
    assert stored(page, "en")["lessons"][LESSON]["done"] is True


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_with_progress_have_no_accessibility_violation(tab: Page, site_url: str, language):
    root = site_url + PREFIX[language]
    fresh(tab, root + LESSON)
    answer_every_kind(tab, language)
    done_button(tab, language).click()
    found = {}
    for path in (LESSON, ""):
        tab.goto(root + path)
        expect(tab.locator(".pe-done, .pe-progress").first).to_be_visible()
        tab.add_style_tag(content=RENDER_ALL)
        for screen, size in SCREENS.items():
            tab.set_viewport_size(size)
            tab.wait_for_function(SETTLED)
            found[path or "home", screen] = axe.violations(tab)
    assert found == {(page, screen): {} for page in (LESSON, "home") for screen in SCREENS}
