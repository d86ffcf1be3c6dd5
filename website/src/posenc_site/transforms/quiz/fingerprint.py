"""A quiz form's fingerprint: which question a reader's stored answer belongs to.

The site keeps a reader's answers in the browser (``docs/assets/posenc.js``, its progress
part), each with the fingerprint of its form as the page had it then. A later build whose
question has other right answers, or whose form of that id holds another question, gives the
form another fingerprint, and the stored answer is dropped instead of being put into a question
it does not fit. The fingerprint is made of the question's answer key, which is the same in
every language (``posenc_site.transforms.quiz.schema.answer_key``), and of the form's id, so
that a question has one fingerprint in every language.
"""

import hashlib
import json

from posenc_site.transforms.quiz.schema import Question, answer_key

LENGTH = 12  # hex digits: 48 bits, unlikely to clash among a page's dozen forms


def fingerprint(question: Question, form_id: str) -> str:
    """The fingerprint of the form ``form_id`` that asks ``question``.

    Parameters
    ----------
    question
        A parsed question.
    form_id
        The id of its form on the page (``quiz-3``).

    Returns
    -------
    str
        The first ``LENGTH`` hex digits of the SHA-256 of the form's id and the question's
        answer key, written as JSON.

    Examples
    --------
    >>> from pathlib import Path
    >>> from posenc_site.transforms.quiz.schema import parse_quiz
    >>> quiz = "- {type: blank, question: Q, code: 'x = ____', answers: ['1'], explanation: E}"
    >>> [question] = parse_quiz(quiz, docs_dir=Path("docs"))
    >>> fingerprint(question, "quiz-1")
    '6e982858bb7a'
    >>> fingerprint(question, "quiz-2") != fingerprint(question, "quiz-1")
    True
    """
    key = json.dumps([form_id, *answer_key(question)], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:LENGTH]
