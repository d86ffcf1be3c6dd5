"""Every reference of a lesson links to its source, in a form that keeps pointing at it.

A lesson ends with its reference list (the last ``## References``, ``## Kaynaklar`` in Turkish).
Each entry links to what it cites: a paper by its arXiv abstract page or its DOI, code by a
file of its repository at a fixed commit. A link to a branch (``blob/main/...``) or to a
repository's front page moves with the repository, and the line, function or default it was
cited for may be gone the next day. Also allowed, because they name one fixed thing: a GitHub
issue or pull request by its number, a file of Hugging Face Transformers at a release tag (the
version the course's code and tests are checked against), and the few hosts of ``HOSTS``,
where what is cited has no arXiv, DOI or repository form (a model card, an API page, a blog).

Checked, in both languages and without the network:

- every entry has a link, every link in the section has an allowed form, and a file an entry
  names in code (``models/t5/modeling_t5.py``) has a link of its own;
- a lesson and its twin cite the same sources: as many entries, the same links in the same
  order;
- every github.com link of a lesson, in its prose too, has a fixed form, and a pointer to code
  in the prose links to the same address as the reference list;
- a code file the prose names in code (``modeling_llama.py``, ``config.json``) outside code
  blocks, headings and the reference list is a link to that file, so the reader can open what
  the sentence points at (names of files that no source holds are listed in ``NOT_A_SOURCE``,
  names used for a kind of file, counted, in ``GENERIC_MENTIONS``).
"""

import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import markdown
import pytest

from posenc_site.execute.blocks import fenced_blocks
from support.docblocks import DOCS, SNIPPET_PATHS
from support.project import SITE, TURKISH

LESSONS = sorted(page for page in DOCS.glob("lessons/*.md") if SITE.of_page(page).default)
PAGES = sorted(LESSONS + [SITE.twin(page, TURKISH) for page in LESSONS])

_REPO = r"https://github\.com/[\w.-]+/[\w.-]+"
_COMMIT = r"[0-9a-f]{40}"
# The forms a link to a source may take, matched against the whole address.
GITHUB_FORMS = {
    "a file at a commit": rf"{_REPO}/blob/{_COMMIT}/[^\s#?]+(#L\d+(-L\d+)?)?",
    "a folder at a commit": rf"{_REPO}/tree/{_COMMIT}(/[^\s#?]*)?",
    "an issue or a pull request": rf"{_REPO}/(issues|pull)/\d+",
    "a file of a Transformers release": (
        r"https://github\.com/huggingface/transformers/blob/v\d+\.\d+\.\d+/[^\s#?]+"
    ),
}
PAPER_FORMS = {
    "an arXiv abstract": r"https://arxiv\.org/abs/\d{4}\.\d{4,5}(v\d+)?",
    "a DOI": r"https://doi\.org/10\.\d{4,9}/\S+",
}
# Hosts whose pages are cited where the source has no arXiv, DOI or repository form.
HOSTS = {
    "cdn.openai.com": "the GPT and GPT-2 papers, published by OpenAI only",
    "huggingface.co": "model cards and configurations on the Hub, Transformers' docs, the blog",
    "docs.pytorch.org": "PyTorch's API documentation",
    "pytorch.org": "PyTorch's blog",
    "www.tensorflow.org": "TensorFlow's API documentation",
    "docs.scipy.org": "SciPy's API documentation",
    "ai.meta.com": "Meta's announcement of Llama 4",
    "www.reddit.com": "the first posts of NTK-aware and dynamic scaling",
    "kaiokendev.github.io": "the first post of position interpolation (SuperHOT)",
}
_FILE = re.compile(r"[\w./-]+\.(py|ipynb|json|md|ya?ml|cpp|cc|cu|h)")
_GITHUB_URL = re.compile(r"https?://(www\.)?github\.com/[^\s)\]>\"'<]*")


def form_of(url: str) -> str | None:
    """The allowed form ``url`` has (a key of the forms above, or a host), or None."""
    for name, pattern in {**PAPER_FORMS, **GITHUB_FORMS}.items():
        if re.fullmatch(pattern, url):
            return name
    parts = urlsplit(url)
    if parts.scheme == "https" and parts.hostname in HOSTS:
        return parts.hostname
    return None


class _Links(HTMLParser):
    """The addresses of the links of an HTML fragment, and its code spans outside links."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.loose_code: list[str] = []
        self._in_link = 0
        self._code: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._in_link += 1
            self.urls.append(dict(attrs).get("href") or "")
        elif tag == "code" and not self._in_link:
            self._code = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._in_link -= 1
        elif tag == "code" and self._code is not None:
            self.loose_code.append("".join(self._code))
            self._code = None

    def handle_data(self, data: str) -> None:
        if self._code is not None:
            self._code.append(data)


def links(source: str) -> _Links:
    """The links and loose code spans of a piece of Markdown, as Python-Markdown renders it."""
    parser = _Links()
    parser.feed(markdown.markdown(source))
    return parser


def heading(page: Path) -> str:
    """The heading of the page's reference list, in the page's language."""
    return "## " + SITE.of_page(page).strings["api"]["References"]


def reference_entries(page: Path) -> list[str]:
    """The entries of the page's reference list, each as one piece of Markdown.

    The list is the last section under ``heading(page)``; it ends at the next heading of
    level 1 or 2, or at the end of the page. An entry starts with ``- `` and goes on over the
    lines indented under it.
    """
    lines = page.read_text(encoding="utf-8").split("\n")
    starts = [k for k, line in enumerate(lines) if line.rstrip() == heading(page)]
    assert starts, f"{page.name} has no '{heading(page)}' section"
    entries: list[str] = []
    for line in lines[starts[-1] + 1 :]:
        if re.match(r"#{1,2} ", line):
            break
        if line.startswith("- "):
            entries.append(line[2:])
        elif line.startswith("  ") and entries:
            entries[-1] += "\n" + line.strip()
        else:
            assert not line.strip(), f"{page.name}: a line outside the list: {line!r}"
    return entries


def problems_of(entry: str) -> list[str]:
    """What is wrong with one reference entry: no link, a link of no allowed form, a file
    named in code without a link to it."""
    found = links(entry)
    urls = [url for url in found.urls if urlsplit(url).scheme]
    problems = [] if urls else ["no link"]
    problems += [f"not a fixed form: {url}" for url in urls if form_of(url) is None]
    paths = [urlsplit(url).path for url in urls]
    for name in found.loose_code:
        if _FILE.fullmatch(name) and not any(path.endswith("/" + name) for path in paths):
            problems.append(f"the file `{name}` has no link")
    return problems


def _first_words(entry: str) -> str:
    """The start of an entry, to name it in a failure."""
    return " ".join(entry.split()[:8])


def test_the_forms_take_fixed_addresses_only():
    commit = "689c7f261b9c5514636ecc3c5fefefcbb3e6eed7"
    good = {
        "https://arxiv.org/abs/2104.09864": "an arXiv abstract",
        "https://arxiv.org/abs/2309.00071v2": "an arXiv abstract",
        "https://doi.org/10.1016/j.neucom.2023.127063": "a DOI",
        f"https://github.com/meta-llama/llama/blob/{commit}/llama/model.py": "a file at a commit",
        f"https://github.com/meta-llama/llama/blob/{commit}/llama/model.py#L47-L52": (
            "a file at a commit"
        ),
        f"https://github.com/meta-llama/llama/tree/{commit}": "a folder at a commit",
        "https://github.com/openai/gpt-2/issues/121": "an issue or a pull request",
        "https://github.com/huggingface/transformers/blob/v5.24.0/src/transformers/x.py": (
            "a file of a Transformers release"
        ),
        "https://huggingface.co/mosaicml/mpt-7b": "huggingface.co",
    }
    bad = [
        "https://arxiv.org/pdf/2104.09864",  # the PDF, not the abstract page
        "http://arxiv.org/abs/2104.09864",
        "https://github.com/meta-llama/llama/blob/main/llama/model.py",  # a branch
        "https://github.com/meta-llama/llama",  # the front page
        f"https://github.com/meta-llama/llama/blob/{commit[:7]}/llama/model.py",  # short
        "https://github.com/vllm-project/vllm/blob/v0.6.0/vllm/config.py",  # not Transformers
        "https://example.com/paper.pdf",
    ]
    assert {url: form_of(url) for url in good} == good
    assert [url for url in bad if form_of(url) is not None] == []


def test_an_entry_is_checked_for_its_links_and_files():
    commit = "a" * 40
    linked = f"[`a/b.py`](https://github.com/o/r/blob/{commit}/a/b.py)"
    assert problems_of(f"X, [Title](https://arxiv.org/abs/2104.09864), {linked}.") == []
    assert problems_of("A. Vaswani et al., NeurIPS 2017.") == ["no link"]
    assert problems_of("[T](https://github.com/o/r), `a/b.py`.") == [
        "not a fixed form: https://github.com/o/r",
        "the file `a/b.py` has no link",
    ]
    # A file linked under another label (a version number) counts as linked.
    assert problems_of(f"`a/b.py` in [1.0](https://github.com/o/r/blob/{commit}/a/b.py)") == []


@pytest.mark.parametrize("lesson_page", PAGES, ids=lambda p: p.name)
def test_every_reference_links_to_its_source(lesson_page):
    entries = reference_entries(lesson_page)
    problems = [
        f"{_first_words(entry)}...: {problem}"
        for entry in entries
        for problem in problems_of(entry)
    ]
    assert entries, f"{lesson_page.name}: an empty reference list"
    assert not problems, f"{lesson_page.name}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.name)
def test_twins_cite_the_same_sources(lesson):
    english = [links(entry).urls for entry in reference_entries(lesson)]
    turkish = [links(entry).urls for entry in reference_entries(SITE.twin(lesson, TURKISH))]
    assert len(turkish) == len(english)
    assert turkish == english


@pytest.mark.parametrize("lesson_page", PAGES, ids=lambda p: p.name)
def test_github_links_in_a_lesson_are_fixed_and_match_its_references(lesson_page):
    text = lesson_page.read_text(encoding="utf-8")
    cited = {url for entry in reference_entries(lesson_page) for url in links(entry).urls}
    github = [match.group(0) for match in _GITHUB_URL.finditer(text)]
    loose = [url for url in github if not any(re.fullmatch(p, url) for p in GITHUB_FORMS.values())]
    prose = text.rsplit("\n" + heading(lesson_page) + "\n", 1)[0]
    in_prose = [match.group(0) for match in _GITHUB_URL.finditer(prose)]
    uncited = [url for url in in_prose if url not in cited]
    assert not loose, f"{lesson_page.name}: github.com links of no fixed form: {loose}"
    assert not uncited, (
        f"{lesson_page.name}: prose links to code its references do not cite: {uncited}"
    )


# A code span naming a file with one of these extensions is a pointer to code.
_CODE_FILE = re.compile(r"[\w./-]+\.(py|rs|cc|cpp|cu|h|json|ya?ml|ipynb)")
_CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
# Math, which may hold brackets that are no link's: display, then inline (within a paragraph).
_MATH = re.compile(r"\$\$.*?\$\$|\$(?:[^$\n]|\n(?![ \t]*\n))+?\$", re.DOTALL)
# Links, as (text, address): Markdown's inline links (the text may hold one level of brackets
# and go over lines of a paragraph), and HTML anchors (the downloads).
_LINKS = [
    re.compile(r"\[((?:[^\[\]\n]|\n(?![ \t]*\n)|\[[^\[\]\n]*\])*)\]\(([^)\s]+)\)"),
    re.compile(r"<a\s[^>]*?href=\"([^\"]+)\"[^>]*>(.*?)</a>", re.DOTALL),
]
# Files the prose names in code that no source holds, so they have no address to link to.
NOT_A_SOURCE = {
    "model.py": "the exercise's starter file, which the reader downloads and fills in",
    "tests/oracle/test_grid_oracle.py": "the course's own test, in this repository",
    "tests/oracle/test_multimodal_oracle.py": "the course's own test, in this repository",
}
# Names the prose also uses for a kind of file rather than one file of a source: lesson (file
# stem) -> name -> how many of the name's unlinked mentions in the prose (in either language)
# are of that kind, and why. The exact count keeps one particular file from passing unlinked.
GENERIC_MENTIONS = {
    "longer-contexts": {
        "config.json": (
            2,
            "the configuration file of any checkpoint (`rope_scaling` in `config.json` files),"
            " and the one a user edits to turn YaRN on",
        ),
    },
}


def prose_of(page: Path) -> str:
    """The page's prose: its text with the front matter, the fenced code blocks, the headings
    and the reference list (and what follows it) blanked out, offsets (lines) kept."""
    text = page.read_text(encoding="utf-8")
    chars = list(text)

    def blank(start: int, end: int) -> None:
        chars[start:end] = [c if c == "\n" else " " for c in text[start:end]]

    front = re.match(r"---\n.*?\n---\n", text, re.DOTALL)
    if front:
        blank(0, front.end())
    for fenced in fenced_blocks(text, SNIPPET_PATHS):
        blank(fenced.start, fenced.end)
    for match in re.finditer(r"(?m)^ {0,3}#{1,6} .*$", text):
        blank(match.start(), match.end())
    references = text.rfind("\n" + heading(page) + "\n")
    if references >= 0:
        blank(references, len(text))
    return "".join(chars)


def _link_targets(prose: str) -> list[tuple[int, int, str]]:
    """Where the text of each link of ``prose`` lies, and the path of its address."""
    # Code spans and math are masked first: their brackets and dollars are none of a link's.
    masked = _CODE_SPAN.sub(lambda m: "`" + "x" * len(m.group(1)) + "`", prose)
    masked = _MATH.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), masked)
    markdown_links, anchors = _LINKS
    return [
        (m.start(1), m.end(1), urlsplit(m.group(2)).path) for m in markdown_links.finditer(masked)
    ] + [(m.start(2), m.end(2), urlsplit(m.group(1)).path) for m in anchors.finditer(masked)]


def unlinked_code_files(prose: str) -> list[str]:
    """The code spans of ``prose`` that name a code file and are not a link to that file,
    each as ``line N: `name```; the names of ``NOT_A_SOURCE`` left out."""
    targets = _link_targets(prose)
    found = []
    for span in _CODE_SPAN.finditer(prose):
        name = span.group(1)
        if not _CODE_FILE.fullmatch(name) or name in NOT_A_SOURCE:
            continue
        paths = [path for start, end, path in targets if start <= span.start() < end]
        if not any(path == name or path.endswith("/" + name) for path in paths):
            found.append(f"line {prose.count(chr(10), 0, span.start()) + 1}: `{name}`")
    return found


def test_a_code_file_named_in_prose_must_be_a_link_to_it():
    url = "https://github.com/o/r/blob/" + "a" * 40 + "/models/llama3/model.py"
    linked = f"In [`models/llama3/model.py`]({url}) and [Meta's\n`llama3/model.py`]({url})."
    assert unlinked_code_files(linked) == []
    assert unlinked_code_files("In `models/llama3/model.py`, `rope_theta` and `config.json`.") == [
        "line 1: `models/llama3/model.py`",
        "line 1: `config.json`",
    ]
    # A link to another file, or a link next to the span, does not count.
    assert unlinked_code_files(f"a\n[`layers.py`]({url})") == ["line 2: `layers.py`"]
    assert unlinked_code_files("`x.cu` [see](https://arxiv.org/abs/2104.09864)") == [
        "line 1: `x.cu`"
    ]
    # A bracket in math or in code opens no link around the spans after it.
    for opener in ("$[0, L)$", "`a[0]`"):
        text = f"{opener} then `one_file_ref.py` and [`x.py`](https://o.org/x.py)."
        assert unlinked_code_files(text) == ["line 1: `one_file_ref.py`"]
    # A download is an HTML anchor to the file; the exercise's own file needs no link.
    download = '<a href="rotary.py" download>`rotary.py`</a> and <a href="a.py">`b.py`</a>'
    assert unlinked_code_files(download) == ["line 1: `b.py`"]
    assert unlinked_code_files("Starter code, `model.py`:") == []


@pytest.mark.parametrize("lesson_page", PAGES, ids=lambda p: p.name)
def test_code_files_named_in_prose_are_links(lesson_page):
    unlinked = unlinked_code_files(prose_of(lesson_page))
    generic = GENERIC_MENTIONS.get(lesson_page.name.split(".")[0], {})
    for name, (count, _why) in generic.items():
        mentions = [found for found in unlinked if found.endswith(f": `{name}`")]
        assert len(mentions) == count, (
            f"{lesson_page.name}: {count} unlinked `{name}` expected (GENERIC_MENTIONS),"
            f" found {mentions}"
        )
        unlinked = [found for found in unlinked if found not in mentions]
    assert not unlinked, (
        f"{lesson_page.name}: code files named in prose without a link to them:\n"
        + "\n".join(unlinked)
    )
