"""Every English page has a Turkish twin with the same code, and the lesson's exercise is right."""

import contextlib
import functools
import io
import re
import tokenize
from pathlib import Path

import numpy as np
import pytest

from posenc import linear_frequencies, ntk_frequencies, rotary_frequencies, sinusoidal_encoding
from posenc_site.transforms.quiz import answer_key, parse_quiz
from support.docblocks import DOCS, Block, blocks_of
from support.fresh_runs import case_id
from support.project import SITE, TURKISH

ENGLISH_PAGES = sorted(p for p in DOCS.rglob("*.md") if SITE.of_page(p).default)
LESSONS = sorted(DOCS.glob("lessons/positional-encoding*.md"))
LONGER_CONTEXTS = sorted(DOCS.glob("lessons/longer-contexts*.md"))


def twin(page: Path) -> Path:
    return SITE.twin(page, TURKISH)


# Keyword arguments whose text is a label for the reader, translated with the page.
LABELS = {"title", "xlabel", "ylabel", "colorbar_label", "legend_label", "alt", "caption"}
LABELS |= {f"matrix_{name}" for name in ("title", "xlabel", "ylabel")}
LABELS |= {"panel_titles"}  # a list or tuple of labels: every string in it is one


def without_comments(block: Block) -> object:
    """What must agree between languages: code without comments and labels, or quiz keys."""
    if block.language == "quiz":
        return [answer_key(question) for question in parse_quiz(block.source, docs_dir=DOCS)]
    if block.language == "markdown":  # a sample of page source: its labels are translated
        label = "|".join(sorted(LABELS))
        return re.sub(rf'\b({label})="[^"]*"', r'\1="<label>"', block.source)
    if block.language != "python":
        return block.source
    tokens = list(tokenize.generate_tokens(io.StringIO(block.source).readline))
    kept = []
    depth, label_depth = 0, None  # label_depth: inside `name=[...]` of a label, its depth
    for k, tok in enumerate(tokens):
        if tok.type == tokenize.COMMENT:
            continue
        after_label = k >= 2 and tokens[k - 1].string == "=" and tokens[k - 2].string in LABELS
        if tok.string in "([{" and tok.type == tokenize.OP:
            depth += 1
            if after_label and label_depth is None:
                label_depth = depth
        elif tok.string in ")]}" and tok.type == tokenize.OP:
            if depth == label_depth:
                label_depth = None
            depth -= 1
        is_label = tok.type == tokenize.STRING and (after_label or label_depth is not None)
        kept.append(tok._replace(string='"<label>"') if is_label else tok)
    return [(tok.type, tok.string) for tok in kept if tok.type not in _LAYOUT]


_LAYOUT = {tokenize.NL}  # blank and comment-only lines


def test_there_are_pages():
    assert len(ENGLISH_PAGES) >= 4


@pytest.mark.parametrize("md_page", ENGLISH_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_english_page_has_a_turkish_twin(md_page):
    assert twin(md_page).exists(), f"{twin(md_page).relative_to(DOCS)} is missing"


@pytest.mark.parametrize("md_page", ENGLISH_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_turkish_twin_has_the_same_code_blocks(md_page):
    english, turkish = blocks_of(md_page), blocks_of(twin(md_page))
    assert len(turkish) == len(english), (
        f"{twin(md_page).name} has {len(turkish)} code blocks, {md_page.name} has {len(english)}"
    )
    for en, tr in zip(english, turkish, strict=True):
        where = f"{md_page.name}:{en.line} vs {twin(md_page).name}:{tr.line}"
        assert (tr.language, tr.attributes) == (en.language, en.attributes), where
        assert without_comments(tr) == without_comments(en), where


def test_comment_stripping_keeps_code_differences():
    a = Block("python", {}, "x = 1  # one\n", 1)
    b = Block("python", {}, "x = 1  # bir\n", 1)
    c = Block("python", {}, "x = 2  # bir\n", 1)
    assert without_comments(a) == without_comments(b) != without_comments(c)


def test_labels_may_differ_but_other_strings_may_not():
    en = Block("python", {}, 'plot(title="Position", data="x")\n', 1)
    tr = Block("python", {}, 'plot(title="Konum", data="x")\n', 1)
    other = Block("python", {}, 'plot(title="Konum", data="y")\n', 1)
    assert without_comments(en) == without_comments(tr) != without_comments(other)


def test_every_string_of_a_label_list_is_a_label():
    en = Block("python", {}, 'f(m, panel_titles=["row", "column"], data=["x"])\n', 1)
    tr = Block("python", {}, 'f(m, panel_titles=["satır", "sütun"], data=["x"])\n', 1)
    other = Block("python", {}, 'f(m, panel_titles=["satır", "sütun"], data=["y"])\n', 1)
    assert without_comments(en) == without_comments(tr) != without_comments(other)


@functools.cache
def solution_namespace(page) -> dict:
    """The names the page's exercise solution defines: it runs once per page, its output aside."""
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(solution(page).source, namespace)
    return namespace


def solution(page) -> Block:
    [block] = [b for b in blocks_of(page) if b.attributes.get("id") == "exercise-solution"]
    return block


@pytest.mark.parametrize("md_page", LESSONS, ids=lambda p: p.name)
def test_exercise_solution_prints_the_expected_output(md_page, fresh_runs):
    # The solution's one run (support.fresh_runs); the tests below call the functions it defines.
    assert fresh_runs[case_id(md_page, solution(md_page))].stdout == (
        "(4, 6)\n[0. 1. 0. 1. 0. 1.]\n[0.841 0.54  0.046 0.999 0.002 1.   ]\nTrue False\n"
    )


@pytest.mark.parametrize("md_page", LESSONS, ids=lambda p: p.name)
@pytest.mark.parametrize(("n_positions", "d_model"), [(4, 6), (1, 2), (50, 128), (0, 8)])
def test_exercise_solution_equals_the_library(md_page, n_positions, d_model):
    namespace = solution_namespace(md_page)
    np.testing.assert_allclose(
        namespace["positional_encoding"](n_positions, d_model),
        sinusoidal_encoding(n_positions, d_model),
        atol=1e-12,
    )


@pytest.mark.parametrize("md_page", LONGER_CONTEXTS, ids=lambda p: p.name)
@pytest.mark.parametrize(("head_dim", "factor"), [(128, 8.0), (64, 4.0), (8, 2.0), (96, 1.0)])
def test_longer_contexts_solution_equals_the_library(md_page, head_dim, factor):
    namespace = solution_namespace(md_page)
    theta = rotary_frequencies(head_dim)
    np.testing.assert_allclose(
        namespace["position_interpolation"](theta, factor),
        linear_frequencies(head_dim, factor=factor),
        rtol=1e-12,
    )
    np.testing.assert_allclose(
        namespace["ntk_aware"](head_dim, factor),
        ntk_frequencies(head_dim, factor=factor),
        rtol=1e-12,
    )
