"""The course's signposts from the nav: numbered links, a lesson's header, its way on."""

import pytest
from mkdocs.exceptions import PluginError

from posenc_site.transforms import signposts
from posenc_site.transforms.signposts import Lesson
from support.project import SITE

COURSE = [
    Lesson("lessons/a.md", "Alpha", 1, "About alpha.", 4),
    Lesson("lessons/b.md", "Beta", 2, "About beta.", 7),
    Lesson("lessons/c.md", "Gamma", 3, "About gamma.", 12),
]
WORDS = {language.code: language.strings["signposts"] for language in SITE.all}
META = {"goals": ["Do one thing", "Do another"], "requires": ["a.md"]}


def test_a_numbered_link_takes_the_number_of_the_lesson_it_leads_to():
    markdown = "As [lesson {n}](c.md#x) shows, and [{n}. derste](../lessons/a.md)."
    assert signposts.number_links(markdown, "lessons/b.md", COURSE) == (
        "As [lesson 3](c.md#x) shows, and [1. derste](../lessons/a.md)."
    )


def test_a_numbered_link_to_a_page_that_is_not_a_lesson_stops_the_build():
    with pytest.raises(PluginError, match=r"lessons/b\.md: .*'\.\./glossary\.md' is not a lesson"):
        signposts.number_links("[lesson {n}](../glossary.md)", "lessons/b.md", COURSE)


def test_a_numbered_link_shown_as_code_is_left_as_written():
    code = "Write `[lesson {n}](x.md)`:\n\n```md\n[lesson {n}](y.md)\n```\n"
    markdown = code + "[lesson {n}](lessons/a.md)"
    assert signposts.number_links(markdown, "contributing.md", COURSE) == (
        code + "[lesson 1](lessons/a.md)"
    )


def test_braces_outside_a_link_are_left_alone():
    code = 'print(f"Blank {n}")'
    assert signposts.number_links(code, "lessons/a.md", COURSE) == code


@pytest.mark.parametrize("language", ["en", "tr"])
def test_a_lesson_opens_with_its_number_time_goals_and_what_to_read_first(language):
    header = signposts.lesson_header(COURSE[1], COURSE, META, WORDS[language])
    words = WORDS[language]
    assert words["lesson_of"].format(number=2, total=3) in header
    assert words["minutes"].format(minutes=7) in header
    assert "- Do one thing\n- Do another\n" in header
    assert f"[{words['lesson_title'].format(number=1, title='Alpha')}](a.md)" in header
    assert "(../reference/api.md#b)" in header


def test_the_first_lesson_sends_the_reader_to_the_course_prerequisites():
    header = signposts.lesson_header(COURSE[0], COURSE, {**META, "requires": []}, WORDS["en"])
    assert "(../index.md#before-you-start)" in header


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        ({"requires": []}, "'goals' must be a list"),
        ({"goals": "Do it", "requires": []}, "'goals' must be a list"),
        ({"goals": ["Do it"]}, "'requires' must be a list"),
        ({"goals": ["Do it"], "requires": ["c.md"]}, "'c.md', not an earlier lesson"),
        ({"goals": ["Do it"], "requires": ["z.md"]}, "'z.md', not an earlier lesson"),
    ],
)
def test_a_lesson_without_goals_or_with_a_wrong_prerequisite_stops_the_build(meta, message):
    with pytest.raises(PluginError, match=message):
        signposts.lesson_header(COURSE[1], COURSE, meta, WORDS["en"])


def test_the_way_on_is_the_next_lesson_and_the_last_lesson_closes_the_course():
    words = WORDS["en"]
    assert signposts.next_step(COURSE[0], COURSE, words) == "Next lesson: [Lesson 2 · Beta](b.md)"
    end = signposts.next_step(COURSE[2], COURSE, words)
    assert "finished the course" in end
    assert "(a.md)" in end


def test_the_next_placeholder_belongs_to_lessons_only():
    with pytest.raises(PluginError, match="for lessons only"):
        signposts.fill(f"# Home\n\n{signposts.NEXT}\n", "index.md", {}, COURSE, WORDS["en"])


def test_the_course_path_lists_the_lessons_in_order_with_their_times():
    path = signposts.course_path(COURSE, WORDS["en"]).splitlines()
    assert [line.split("]")[0] for line in path] == ["1. [Alpha", "2. [Beta", "3. [Gamma"]
    assert "(lessons/c.md): About gamma." in path[2]
    assert "(12 min read)" in path[2]


def test_the_reading_time_counts_the_prose_only():
    prose = "word " * 238
    assert signposts.reading_minutes(prose) == 1
    assert signposts.reading_minutes(prose + "word") == 2
    padded = f"{prose}\n```python\n{'x = 1 ' * 500}\n```\n$$ a + b + c $$\n<!-- a b c -->\n"
    assert signposts.reading_minutes(padded) == 1


def test_a_turkish_source_is_read_as_its_english_original():
    assert signposts.source_of("lessons/rotary.tr.md", SITE) == "lessons/rotary.md"
    assert signposts.source_of("lessons/rotary.md", SITE) == "lessons/rotary.md"


def test_a_lesson_without_functions_of_its_own_does_not_send_the_reader_to_the_api():
    lesson = Lesson("lessons/b.md", "Beta", 2, has_api=False)
    header = signposts.lesson_header(lesson, COURSE, META, WORDS["en"])
    assert "reference/api.md" not in header


def test_the_api_groups_that_document_functions_are_read_from_the_page():
    page = (
        "# API\n\n## One {#a}\n\nTaught in a lesson.\n\n::: posenc.x\n\n"
        "## Two {#b}\n\nNone of its own.\n\n## Three {#c}\n\n::: posenc.y\n"
    )
    assert signposts._groups_with_functions(page) == {"a", "c"}


def test_a_marker_within_a_sentence_is_text():
    page = f"# Guide\n\nLeave `{signposts.NEXT}` under the heading.\n"
    assert signposts.fill(page, "contributing.md", {}, COURSE, WORDS["en"]) == page
