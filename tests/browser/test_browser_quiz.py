"""The lesson's quizzes in Debian's Chromium: mouse, keyboard, no JavaScript, accessibility."""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from posenc_site.i18n.languages import load_strings
from support.project import SITE

LESSON = {
    language.code: f"{language.url_prefix}lessons/positional-encoding/" for language in SITE.all
}


def _said(language: str) -> dict[str, str]:
    """What the quizzes say in ``language``: the site's strings (posenc_site/strings)."""
    quiz = load_strings(language)["quiz"]
    said = ("check", "show", "wrong", "empty", "empty_blank", "empty_match")
    names = ("wrong_items", "empty_items")
    return {
        **{key: quiz[key] for key in said + names},
        "right": quiz["correct"],
        "why_not_a": quiz["why_not"].format(letter="A") + ":",  # as the quiz template writes it
        "blank_1": quiz["blank"].format(n=1),
    }


LANGUAGES = [language.code for language in SITE.all]
SAY = {language: _said(language) for language in LANGUAGES}


@pytest.fixture
def lesson(tab: Page, site_url: str, request: pytest.FixtureRequest) -> Page:
    tab.goto(site_url + LESSON[request.param])
    return tab


def form(page: Page, kind: str) -> Locator:
    return page.locator(f'form.pe-quiz[data-kind="{kind}"]')


def feedback(quiz: Locator) -> Locator:
    return quiz.locator('[role="status"]')


def named(language: str, verdict: str, items: list[str]) -> str:
    """The feedback that names the empty or wrong fields: "Not quite ... Look again at: ..."."""
    lead = {"wrong": "wrong", "empty": "empty_blank", "empty_match": "empty_match"}[verdict]
    which = SAY[language]["wrong_items" if verdict == "wrong" else "empty_items"]
    return f"{SAY[language][lead]} {which.format(items=', '.join(items))}"


def blank_names(language: str, *numbers: int) -> list[str]:
    return [load_strings(language)["quiz"]["blank"].format(n=n) for n in numbers]


def terms(quiz: Locator, wrong: bool) -> list[str]:
    """The terms of a match question whose select is wrong (or empty, with ``wrong`` False)."""
    return quiz.evaluate(
        """(form, wrong) => Array.from(form.querySelectorAll("label"))
          .filter(label => {
            const select = label.querySelector("select");
            return wrong ? select.value !== "" && select.value !== select.dataset.correct
                         : select.value === "";
          })
          .map(label => label.querySelector("span").textContent.trim())""",
        wrong,
    )


def check(quiz: Locator, language: str) -> None:
    quiz.get_by_role("button", name=SAY[language]["check"]).click()


@pytest.mark.parametrize("lesson", LANGUAGES, indirect=True)
def test_choice_by_mouse(lesson: Page, request):
    language = request.node.callspec.params["lesson"]
    quiz = form(lesson, "choice")
    answer = quiz.locator(".pe-quiz__answer")
    expect(answer).to_be_hidden()
    check(quiz, language)
    expect(feedback(quiz)).to_have_text(SAY[language]["empty"])
    quiz.locator("label").nth(0).click()
    check(quiz, language)
    expect(feedback(quiz)).to_contain_text(SAY[language]["wrong"])
    expect(feedback(quiz)).to_contain_text(SAY[language]["why_not_a"])
    expect(answer).to_be_hidden()
    quiz.locator("label").nth(2).click()
    expect(feedback(quiz)).to_be_empty()  # a changed answer clears the old verdict
    check(quiz, language)
    expect(feedback(quiz)).to_have_text(SAY[language]["right"])
    expect(answer).to_be_visible()
    expect(answer).to_have_attribute("open", "")


@pytest.mark.parametrize("lesson", LANGUAGES, indirect=True)
def test_choice_by_keyboard(lesson: Page, request):
    language = request.node.callspec.params["lesson"]
    quiz = form(lesson, "choice")
    first = quiz.locator("input").nth(0)
    first.focus()
    lesson.keyboard.press("Space")
    expect(first).to_be_checked()
    lesson.keyboard.press("Enter")
    expect(feedback(quiz)).to_contain_text(SAY[language]["wrong"])
    # Arrow keys move the choice without checking the answer.
    lesson.keyboard.press("ArrowDown")
    lesson.keyboard.press("ArrowDown")
    expect(quiz.locator("input").nth(2)).to_be_checked()
    expect(quiz.locator("input").nth(2)).to_be_focused()
    expect(feedback(quiz)).to_be_empty()  # the old verdict is cleared, no new one is given
    lesson.keyboard.press("Enter")
    expect(feedback(quiz)).to_have_text(SAY[language]["right"])


@pytest.mark.parametrize("lesson", LANGUAGES, indirect=True)
def test_blank_by_mouse(lesson: Page, request):
    language = request.node.callspec.params["lesson"]
    quiz = form(lesson, "blank")
    blank = quiz.get_by_role("textbox", name=SAY[language]["blank_1"])
    check(quiz, language)
    expect(feedback(quiz)).to_have_text(named(language, "empty", blank_names(language, 1)))
    blank.click()
    blank.fill("3")
    check(quiz, language)
    expect(feedback(quiz)).to_have_text(named(language, "wrong", blank_names(language, 1)))
    expect(blank).to_have_attribute("aria-invalid", "true")
    blank.fill("  2 ")
    check(quiz, language)
    expect(feedback(quiz)).to_have_text(SAY[language]["right"])
    expect(quiz.locator(".pe-quiz__answer")).to_contain_text("0::2")


@pytest.mark.parametrize("lesson", LANGUAGES, indirect=True)
def test_blank_by_keyboard(lesson: Page, request):
    language = request.node.callspec.params["lesson"]
    quiz = form(lesson, "blank")
    quiz.locator("input").focus()
    lesson.keyboard.type("1")
    lesson.keyboard.press("Enter")
    expect(feedback(quiz)).to_have_text(named(language, "wrong", blank_names(language, 1)))
    lesson.keyboard.press("Backspace")
    lesson.keyboard.type("2")
    lesson.keyboard.press("Enter")
    expect(feedback(quiz)).to_have_text(SAY[language]["right"])


def right_letters(quiz: Locator) -> list[str]:
    """The first letter of the right option in each select, as a keyboard user would type it."""
    letters = []
    for select in quiz.locator("select").all():
        right = select.get_attribute("data-correct")
        label = (select.locator(f'option[value="{right}"]').text_content() or "").strip()
        letters.append(label[0])
    return letters


@pytest.mark.parametrize("lesson", LANGUAGES, indirect=True)
def test_match_by_mouse(lesson: Page, request):
    language = request.node.callspec.params["lesson"]
    quiz = form(lesson, "match")
    selects = quiz.locator("select")
    expect(selects).to_have_count(4)
    selects.nth(0).select_option(index=1)
    check(quiz, language)
    empty = terms(quiz, wrong=False)
    assert len(empty) == 3
    expect(feedback(quiz)).to_have_text(named(language, "empty_match", empty))
    for k in range(4):
        selects.nth(k).select_option(index=1)  # the first meaning for every concept
    check(quiz, language)
    wrong = terms(quiz, wrong=True)
    assert len(wrong) == 3  # the first meaning is right for one concept
    expect(feedback(quiz)).to_have_text(named(language, "wrong", wrong))
    for k in range(4):
        selects.nth(k).select_option(value=str(k))
    check(quiz, language)
    expect(feedback(quiz)).to_have_text(SAY[language]["right"])


@pytest.mark.parametrize("lesson", LANGUAGES, indirect=True)
def test_match_by_keyboard(lesson: Page, request):
    language = request.node.callspec.params["lesson"]
    quiz = form(lesson, "match")
    letters = right_letters(quiz)
    quiz.locator("select").first.focus()
    for letter in reversed(letters):  # a wrong matching, typed
        lesson.keyboard.type(letter)
        lesson.keyboard.press("Tab")
    lesson.keyboard.press("Enter")  # Tab has reached the Check button
    expect(feedback(quiz)).to_contain_text(SAY[language]["wrong"])
    quiz.locator("select").first.focus()
    for letter in letters:
        lesson.keyboard.type(letter)
        lesson.keyboard.press("Tab")
    lesson.keyboard.press("Enter")
    expect(feedback(quiz)).to_have_text(SAY[language]["right"])


@pytest.mark.parametrize("lesson", LANGUAGES, indirect=True)
def test_complete_the_code_opens_the_executed_solution(lesson: Page, request):
    language = request.node.callspec.params["lesson"]
    quiz = form(lesson, "complete")
    blanks = quiz.locator("input")
    expect(blanks).to_have_count(4)
    solution = lesson.locator("details.example")
    expect(solution).not_to_have_attribute("open", re.compile(".*"))
    for k, text in enumerate(["two_i * d_model", "0::2", "1::2", "x + PE"]):
        blanks.nth(k).fill(text)
    blanks.nth(3).press("Enter")
    expect(feedback(quiz)).to_have_text(named(language, "wrong", blank_names(language, 1, 4)))
    expect(blanks.nth(0)).to_have_attribute("aria-invalid", "true")
    expect(blanks.nth(1)).to_have_attribute("aria-invalid", "false")
    blanks.nth(0).fill("two_i/d_model")
    blanks.nth(3).fill("x[::-1] + PE")
    check(quiz, language)
    expect(feedback(quiz)).to_contain_text(SAY[language]["right"])
    expect(solution).to_have_attribute("open", "")
    expect(solution).to_contain_text("True False")


@pytest.mark.parametrize("lesson", LANGUAGES, indirect=True)
def test_on_a_phone_each_blank_shows_its_number_and_the_verdict_comes_into_view(
    lesson: Page, request
):
    language = request.node.callspec.params["lesson"]
    lesson.set_viewport_size({"width": 360, "height": 640})
    quiz = form(lesson, "complete")
    blanks = quiz.locator("input")
    numbers = quiz.locator(".pe-quiz__blank-n")
    expect(numbers).to_have_text(["1", "2", "3", "4"])  # the numbers the verdict names
    for k in range(4):
        number, blank = numbers.nth(k).bounding_box(), blanks.nth(k).bounding_box()
        assert number["x"] + number["width"] <= blank["x"] + 1, (k, number, blank)
        assert blank["y"] <= number["y"] < blank["y"] + blank["height"], (k, number, blank)
        assert blank["x"] + blank["width"] <= 360, (k, blank)
    last = blanks.nth(3)
    last.fill("x + PE")
    last.evaluate("blank => blank.scrollIntoView({block: 'end'})")  # the Check is below it
    last.press("Enter")
    expect(feedback(quiz)).to_contain_text(SAY[language]["empty_blank"])
    expect(feedback(quiz)).to_be_in_viewport(ratio=1)


@pytest.mark.parametrize("lesson", LANGUAGES, indirect=True)
def test_show_answer_reveals_answer_and_explanation(lesson: Page, request):
    language = request.node.callspec.params["lesson"]
    quiz = form(lesson, "match")
    quiz.get_by_role("button", name=SAY[language]["show"]).click()
    answer = quiz.locator(".pe-quiz__answer")
    expect(answer).to_be_visible()
    expect(answer.locator(".pe-quiz__explanation")).to_be_visible()
    expect(answer).to_contain_text("RoPE →")


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_javascript_the_answers_sit_in_details(browser, site_url, language):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + LESSON[language])
    quizzes = page.locator("form.pe-quiz")
    expect(quizzes).to_have_count(4)
    for k in range(4):
        quiz = quizzes.nth(k)
        expect(quiz.locator("legend")).to_be_visible()
        expect(quiz.locator(".pe-quiz__actions")).to_be_hidden()
        answer = quiz.locator("details.pe-quiz__answer")
        expect(answer).to_be_visible()
        expect(answer.locator(".pe-quiz__explanation")).to_be_hidden()
        answer.locator("summary").click()
        expect(answer.locator(".pe-quiz__explanation")).to_be_visible()
    context.close()
