"""The build's part of the reader's progress: each quiz form's fingerprint (the same question has
the same one in every language, another question another one), the lessons' "done" button,
the home page's box, and the one script that every page links with its words."""

import re

import pytest

from posenc_site.i18n import placeholders
from posenc_site.publish import page_assets, progress
from posenc_site.transforms.quiz import parse_quiz
from posenc_site.transforms.quiz.fingerprint import fingerprint
from posenc_site.transforms.quiz.render import render_quiz
from posenc_site.transforms.quiz.strings import strings_for
from support.docblocks import DOCS, quizzes_of
from support.project import SITE, TURKISH

ENGLISH_LESSONS = sorted(p for p in DOCS.glob("lessons/*.md") if SITE.of_page(p).default)
WORDS = {language.code: language.strings["progress"] for language in SITE.all}


def fingerprints(page) -> list[str]:
    """The fingerprints of a page's quiz forms, numbered quiz-1, quiz-2... in page order."""
    questions = quizzes_of(page)
    return [fingerprint(q, f"quiz-{k}") for k, q in enumerate(questions, start=1)]


@pytest.mark.parametrize("page", ENGLISH_LESSONS, ids=lambda p: p.stem)
def test_a_question_has_the_same_fingerprint_in_both_languages(page):
    english = fingerprints(page)
    assert len(english) >= 3
    assert len(set(english)) == len(english)  # each form its own
    assert all(re.fullmatch("[0-9a-f]{12}", value) for value in english)
    assert fingerprints(SITE.twin(page, TURKISH)) == english


CHOICE = """
- type: choice
  question: {question}
  options:
    - {{text: one, correct: {first}}}
    - {{text: two, correct: {second}}}
  explanation: {explanation}
"""
BLANK = "- {{type: blank, question: Q, code: 'x = ____', answers: [{answer}], explanation: E}}"


def one(source: str):
    [question] = parse_quiz(source, docs_dir=DOCS)
    return question


def test_the_fingerprint_changes_with_the_answer_key_and_the_form_not_with_the_words():
    right_first = one(CHOICE.format(question="Q?", first="true", second="false", explanation="E"))
    reworded = one(CHOICE.format(question="S?", first="true", second="false", explanation="A"))
    right_second = one(CHOICE.format(question="Q?", first="false", second="true", explanation="E"))
    assert fingerprint(reworded, "quiz-1") == fingerprint(right_first, "quiz-1")
    assert fingerprint(right_second, "quiz-1") != fingerprint(right_first, "quiz-1")
    assert fingerprint(right_first, "quiz-2") != fingerprint(right_first, "quiz-1")
    blank = fingerprint(one(BLANK.format(answer="'1'")), "quiz-1")
    assert fingerprint(one(BLANK.format(answer="'2'")), "quiz-1") != blank
    assert fingerprint(one(BLANK.format(answer="['1', '01']")), "quiz-1") != blank


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_each_form_carries_its_fingerprint(language):
    questions = parse_quiz(
        BLANK.format(answer="'1'") + "\n" + BLANK.format(answer="'2'"), docs_dir=DOCS
    )
    html = render_quiz(questions, 3, strings_for(language))
    found = re.findall(
        r'<form class="pe-quiz" id="([^"]+)" data-kind="blank" '
        r'data-fingerprint="([^"]+)"',
        html,
    )
    assert found == [
        ("quiz-3", fingerprint(questions[0], "quiz-3")),
        ("quiz-4", fingerprint(questions[1], "quiz-4")),
    ]


LESSON_HTML = (
    '<h1 id="t">T</h1><h2 id="summary">Summary</h2><p>S.</p><h2 id="next">Next</h2><p>N.</p>'
    '<h2 id="references">References</h2><ul><li>R</li></ul>'
    '<section class="pe-answer-key"><h2>Answer key</h2></section>'
)


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_a_lesson_gets_its_done_button_before_its_references(language):
    words = WORDS[language]
    html = progress.with_done_button(LESSON_HTML, "lessons/rotary.md", words)
    before, after = html.split(progress.done_button(words))
    assert before.endswith("<p>N.</p>")
    assert after.startswith('<h2 id="references">')
    button = re.search(
        r'<button [^>]*>(<span class="pe-done__tick" ([^>]*)>✓ </span>)([^<]+)</b', html
    )
    assert button is not None
    assert 'aria-pressed="false"' in button.group(0)
    assert button.group(2) == 'aria-hidden="true"'  # the tick is no part of its name
    assert button.group(3) == words["done"]
    assert '<div class="pe-done" data-search-exclude hidden>' in html  # until the script runs


@pytest.mark.parametrize("src_uri", ["index.md", "glossary.tr.md", "reference/api.md"])
def test_only_lessons_get_a_done_button(src_uri):
    assert progress.with_done_button(LESSON_HTML, src_uri, WORDS["en"]) == LESSON_HTML


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
def test_the_home_page_marker_becomes_the_progress_box_in_its_language(language):
    page = "# Home\n\n<!-- posenc: progress -->\n\n## Lessons\n"
    html = placeholders.fill(page, "index.md", language, DOCS, SITE)
    words = WORDS[language]
    assert "<!-- posenc" not in html
    assert html.count('<div class="pe-progress" data-search-exclude') == 1
    assert re.search(r'class="pe-progress"[^>]* hidden>', html)  # until the script shows it
    for key in ("continue", "unreadable", "forget", "undo", "forgotten"):
        assert words[key].replace("'", "&#x27;") in html, key
    assert html.endswith("</div>\n\n## Lessons\n")


HEAD = (
    '<html lang="{lang}"><head><link rel="stylesheet" href="../../assets/posenc.css"></head>'
    '<body>{content}<script defer src="../../assets/posenc.js"></script></body>'
)


@pytest.mark.parametrize("language", [language.code for language in SITE.all])
@pytest.mark.parametrize("content", ["<p>Text</p>", "", '<form class="pe-quiz">'])
def test_every_page_links_the_script_with_the_words_of_its_language(language, content):
    output = page_assets.remove_unused(HEAD.format(lang=language, content=content), content)
    strings = SITE.get(language).strings
    assert (
        '<script defer src="../../assets/posenc.js" '
        f'data-close="{strings["lightbox"]["close"]}" '
        f'data-done="{strings["progress"]["tick"]}"></script>'
    ) in output
