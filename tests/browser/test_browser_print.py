"""A printed lesson (Chromium's print to PDF): its answer key at the end, and no buttons.

The PDF's text is read back with pypdf. What the key must hold comes from the lesson's own
source: its quiz fences, parsed as the build parses them, and its exercise solution's block.
"""

import io
import re
import unicodedata
from dataclasses import dataclass

import pytest
from playwright.sync_api import BrowserContext
from pypdf import PdfReader

from posenc_site.i18n.languages import load_strings
from posenc_site.transforms.quiz import parse_quiz
from posenc_site.transforms.quiz.render import LETTERS, plain
from posenc_site.transforms.quiz.schema import Choice, Match, Question
from support.docblocks import DOCS, blocks_of
from support.pages import source_of
from support.project import SITE

LESSON = "lessons/positional-encoding/"  # an exercise, and every kind of question
LANGUAGES = [language.code for language in SITE.all]

# The text of the page's headings (permalinks left out), and what its buttons say on screen
# (their text, or their title: Material's copy buttons have no text).
_HEADINGS = "hs => hs.map(h => h.textContent.replace('¶', '').trim())"
_BUTTONS = "bs => bs.map(b => b.textContent.trim() || b.title)"


@dataclass(frozen=True)
class Printout:
    """A lesson printed in one language: the PDF's text and what the page says on screen."""

    language: str
    text: str
    headings: list[str]
    buttons: list[str]


@pytest.fixture(scope="module", params=LANGUAGES)
def printout(
    request: pytest.FixtureRequest, worker_context: BrowserContext, site_url: str
) -> Printout:
    language = SITE.get(request.param)
    page = worker_context.new_page()
    page.goto(site_url + language.url_prefix + LESSON)
    pdf = page.pdf(format="A4")
    text = "\n".join(sheet.extract_text() for sheet in PdfReader(io.BytesIO(pdf)).pages)
    headings = page.eval_on_selector_all("article :is(h1, h2, h3)", _HEADINGS)
    buttons = page.eval_on_selector_all("article button", _BUTTONS)
    page.close()
    return Printout(language.code, text, headings, buttons)


def flat(text: str) -> str:
    """``text`` without white space, its math letters plain (NFKC): the PDF's text and the
    source's then compare, whatever lines and spaces the PDF's layout put in."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def answers(question: Question, language: str) -> list[str]:
    """The texts that the key must show for ``question``, in order: its right answers, a
    blank's accepted answers joined by the language's "or" (not "/": code divides with it)."""
    if isinstance(question, Choice):
        return [f"{LETTERS[k]}. {plain(question.options[k].text)}" for k in question.right]
    if isinstance(question, Match):
        return [plain(side) for pair in question.pairs for side in pair]
    word = load_strings(language)["quiz"]["or"]
    return [f" {word} ".join(accepted) for accepted in question.answers]


def test_the_printout_ends_with_the_answer_key(printout: Printout):
    blocks = blocks_of(source_of(SITE.get(printout.language).url_prefix + LESSON))
    [solution] = [b.source for b in blocks if b.attributes.get("id") == "exercise-solution"]
    fences = [parse_quiz(b.source, docs_dir=DOCS) for b in blocks if b.language == "quiz"]
    heading = load_strings(printout.language)["quiz"]["answer_key"]
    assert heading in printout.headings  # on the page, in its language
    assert printout.text.count(heading) == 1
    key = flat(printout.text.split(heading)[1])
    assert flat(solution) in key
    # Each question's number, then its right answers, in page order.
    at, expected = 0, [(n, q) for questions in fences for n, q in enumerate(questions, 1)]
    assert len(expected) >= 4
    for number, question in expected:
        for text in [f"{number}.", *answers(question, printout.language)]:
            found = key.find(flat(text), at)
            assert found >= 0, (number, text, key[at : at + 300])
            at = found + len(flat(text))


def test_the_printout_has_no_buttons(printout: Printout):
    words = load_strings(printout.language)
    labels = {words["quiz"]["check"], words["quiz"]["show"], words["lightbox"]["enlarge"]}
    # What the buttons say on screen: those, and Material's "Copy to clipboard".
    assert labels < set(printout.buttons)
    labels |= {label for label in printout.buttons if label}
    # A heading may hold a label's word: "Check yourself".
    text = printout.text
    for heading in printout.headings:
        text = text.replace(heading, "")
    for label in sorted(labels):
        assert re.findall(rf"(?<!\w){re.escape(label)}(?!\w)", text) == [], label


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_wide_table_prints_whole(worker_context: BrowserContext, site_url: str, language):
    # The comparison's table is wider than a phone's screen and than the printed page's text:
    # on screen it scrolls; on paper every cell of it is there.
    page = worker_context.new_page()
    page.goto(site_url + SITE.get(language).url_prefix + "lessons/comparison/")
    cells = page.eval_on_selector_all(
        "article table",
        "ts => ts[0].querySelectorAll('th, td').length ? "
        "[...ts[0].querySelectorAll('th, td')].map(c => c.textContent) : []",
    )
    pdf = page.pdf(format="A4")
    page.close()
    text = flat("".join(sheet.extract_text() for sheet in PdfReader(io.BytesIO(pdf)).pages))
    assert len(cells) > 20
    # A cell's lines come out between its neighbours' lines: each of its words is looked for.
    words = {word for cell in cells for word in cell.split() if len(word) > 2}
    missing = sorted(word for word in words if flat(word) not in text)
    assert missing == []


def test_a_match_question_prints_its_meanings_before_the_key(printout: Printout):
    # A select shows no options on paper: the meanings are listed under the question.
    blocks = blocks_of(source_of(SITE.get(printout.language).url_prefix + LESSON))
    fences = [parse_quiz(b.source, docs_dir=DOCS) for b in blocks if b.language == "quiz"]
    matches = [q for questions in fences for q in questions if isinstance(q, Match)]
    assert matches
    key = load_strings(printout.language)["quiz"]["answer_key"]
    before_key = flat(printout.text.rsplit(key, 1)[0])
    for question in matches:
        for _, meaning in question.pairs:
            assert flat(plain(meaning)) in before_key, meaning
