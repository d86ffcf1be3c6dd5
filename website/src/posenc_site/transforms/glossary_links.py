"""The first use of each glossary term in a lesson links to the term's entry in the glossary.

In the reader's language: an English lesson links its first "attention" to
``glossary/#attention``, a Turkish one its first "konum kodlamasının" to
``tr/glossary/#konum-kodlamasi`` (the entries' ids are ``posenc_site.i18n.glossary.entry_id``).
The link's title is the term's note: the browser shows it on hover and screen readers read it
as the link's description; a tap follows the link. (Material's ``content.tooltips`` drew it too,
but mounting a tooltip on each link doubled the blocking time of the heaviest Turkish lesson in
Lighthouse: 102-136 ms to 254-259 ms, performance 99 to 94-95.)

What counts as a use of a term (`forms`, `form_pattern`):

- the term as written, whole words only, in the page language's lower case (Turkish lowers
  I to ı and İ to i); words may be split across lines;
- a term with an acronym in parentheses also as its words alone and as the acronym ("rotary
  position embedding", "RoPE"), an acronym with its expansion in parentheses as the acronym
  ("NoPE"); a parenthesis that only qualifies ("section (of M-RoPE)") is kept, so that the
  word alone ("section") is no use of the term; of "query / key / value", the first word;
- in English with its plural ("tokens", "queries"); in Turkish with any suffix ("konum
  kodlamasının", "RoPE'un"), after a final ç, k or p softened to c, ğ or b ("belirteci",
  "başlığı"), and a compound's possessive ending dropped ("konum kodlamaları", "dikkat
  başlıkları").

A longer term wins over a shorter one that starts at the same word ("attention head" over
"attention"). Nothing is linked inside headings, code, formulas, links, inline HTML (a
download's ``<a href="model.py" download>``), figures, quizzes, admonition titles, or the
section of the references (the heading of the language's ``api.References`` string); only each
term's first use on the page.

`GlossaryLinksExtension` (``posenc_site.transforms.glossary_links`` in mkdocs.yml's
``markdown_extensions``) does this in a treeprocessor, after the inline patterns have made the
links and code of the page's own Markdown, and before MkDocs' ``relpath`` treeprocessor turns
``../glossary.md#id`` into the URL of the glossary in the page's language and checks that the
anchor exists. The stashed HTML (code blocks' outputs, figures, quizzes) is not in the tree yet,
and is left as it is. MkDocs tells the treeprocessor which page it converts, through its
``relpath`` treeprocessor (``file`` and ``config``, pinned by tests/site/test_glossary_links.py).
"""

import functools
import posixpath
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import Element

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markdown.util import ETX, STX

from posenc_site.i18n import glossary, page_language
from posenc_site.i18n import languages as site_languages
from posenc_site.i18n.glossary import Term
from posenc_site.transforms.page_html import nested
from posenc_site.transforms.signposts import LESSONS  # the pages whose terms link

# After the inline patterns (20) and attr_list (8), before toc (5) adds its permalinks to the
# headings and MkDocs' relpath (0) resolves links.
PRIORITY = 6

_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_SKIPPED_TAGS = _HEADINGS | {
    "a",
    "code",
    "pre",
    "kbd",
    "samp",
    "script",
    "style",
    "math",
    "svg",
    "figure",
    "form",
    "button",
    "label",
    "summary",  # the title of a collapsible admonition (pymdownx.details)
    "abbr",
}
# The lesson's opening block (posenc_site.transforms.signposts) is left out too: its goals
# name many terms at once, and a first use is better linked in the prose that explains it.
_SKIPPED_CLASSES = {
    "arithmatex",
    "admonition-title",
    "highlight",
    "pe-figure",
    "pe-quiz",
    "pe-signpost",
}
# Stashed HTML in the tree's text, and the stashed inline tags whose content links nothing.
_PLACEHOLDER = re.compile("(" + re.escape(STX) + r"wzxhzdk:\d+" + re.escape(ETX) + ")")
_TAG = re.compile(r"<(?P<closing>/?)(?P<name>[a-zA-Z][\w-]*)[^<>]*?(?P<self_closing>/?)>")
_VOID = {"br", "img", "hr", "input", "wbr", "source", "col", "area", "embed", "meta", "link"}

_LETTERS = r"[^\W\d_]"
_START = r"(?<![\w-])"
_END = r"(?![\w-])"
# Any suffix ("RoPE'un", either apostrophe), but not one that makes another word: "-lı",
# "-lık" (tabanlı, based; boyutlu, dimensional) or a verb in "-la-" (kovaladı, chased).
_TURKISH_SUFFIX = rf"(?!l[ıiuü]|l[ae](?!r){_LETTERS}){_LETTERS}*(?:['\u2019]{_LETTERS}+)?"
_SOFTENED = {"ç": "c", "k": "ğ", "p": "b"}
_HARDENED = {"c": "ç", "ğ": "k", "b": "p"}
_VOWELS = "aeıioöuü"
# Phrases in which a term's word means something else ("code base" is no RoPE base, a standard
# deviation no attention bias, a grid search no grid of patches): they are matched like terms,
# and link nothing.
NOT_USES = {
    "en": ("code base", "grid search"),
    "tr": ("kod tabanı", "standart sapma", "ızgara araması"),
}


def _acronym(text: str) -> bool:
    return " " not in text and any(c.isupper() for c in text)


def forms(term: str) -> list[str]:
    """The ways a term is written in prose, the term itself first.

    Examples
    --------
    >>> forms("rotary position embedding (RoPE)")
    ['rotary position embedding (RoPE)', 'rotary position embedding', 'RoPE']
    >>> forms("NoPE (no position encoding)"), forms("section (of M-RoPE)")
    (['NoPE (no position encoding)', 'NoPE'], ['section (of M-RoPE)'])
    >>> forms("query / key / value")
    ['query / key / value', 'query']
    """
    parenthesis = re.fullmatch(r"(?P<base>.+?) \((?P<inner>[^()]+)\)", term)
    if parenthesis:
        base, inner = parenthesis["base"], parenthesis["inner"]
        if _acronym(inner):
            return [term, base, inner]
        return [term, base] if _acronym(base) else [term]
    if " / " in term:
        return [term, term.split(" / ")[0]]
    return [term]


def _turkish_stems(last: str, compound: bool) -> list[str]:
    """The forms a Turkish term's last word takes before a suffix."""
    stems = [last]
    if len(last) > 3 and last[-1] in _SOFTENED:
        stems.append(last[:-1] + _SOFTENED[last[-1]])
    if compound and re.search(r"s[ıiuü]$", last):
        stems.append(last[:-2])  # konum kodlaması: konum kodlamaları
    elif compound and re.search(rf"[^{_VOWELS}][ıiuü]$", last):
        stem = last[:-1]  # dikkat başlığı: dikkat başlıkları
        stems.append(stem)
        if stem[-1] in _HARDENED:
            stems.append(stem[:-1] + _HARDENED[stem[-1]])
    return stems


def form_pattern(form: str, language: str) -> str:
    r"""The regular expression of one form of a term, for text in ``language``'s lower case.

    Examples
    --------
    >>> re.fullmatch(form_pattern("konum kodlaması", "tr"), "konum\nkodlamalarının") is not None
    True
    >>> re.fullmatch(form_pattern("query", "en"), "queries") is not None
    True
    """
    words = glossary.lower(form, language).split()
    head = "".join(re.escape(word) + r"\s+" for word in words[:-1])
    last = words[-1]
    if language == "tr":
        stems = _turkish_stems(last, compound=len(words) > 1)
        tail = "(?:" + "|".join(map(re.escape, stems)) + ")" + _TURKISH_SUFFIX
    elif re.search(r"[^aeiou]y$", last):
        tail = re.escape(last[:-1]) + "(?:y|ies)"
    else:
        tail = re.escape(last) + "(?:e?s)?"
    return head + tail + _END


@dataclass(frozen=True)
class Glossary:
    """The glossary's terms as a page of one language finds and links them."""

    language: str
    terms: tuple[Term, ...]
    pattern: re.Pattern[str]  # one group per form of a term, the longest forms first
    group_terms: tuple[int, ...]  # the index in ``terms`` of each group, -1 for `NOT_USES`

    def uses(self, text: str) -> Iterator[tuple[int, int, Term]]:
        """The uses of terms in ``text``: start, end and term, in text order."""
        for match in self.pattern.finditer(glossary.lower(text, self.language)):
            group = match.lastindex
            assert group is not None  # every alternative is a group
            index = self.group_terms[group - 1]
            if index >= 0:
                yield match.start(), match.end(), self.terms[index]


def make_glossary(terms: list[Term], language: str) -> Glossary:
    """The `Glossary` of ``terms`` for pages in ``language``.

    Examples
    --------
    >>> terms = [Term({"en": "attention", "tr": "dikkat"}, {}, False),
    ...          Term({"en": "attention head", "tr": "dikkat başlığı"}, {}, False)]
    >>> [(start, term.tr) for start, _, term in
    ...  make_glossary(terms, "tr").uses("Dikkat başlıkları ve dikkatin")]
    [(0, 'dikkat başlığı'), (21, 'dikkat')]
    """
    alternatives = [
        (len(form), index, form_pattern(form, language))
        for index, term in enumerate(terms)
        for form in forms(term.terms[language])
    ]
    alternatives += [
        (len(phrase), -1, form_pattern(phrase, language)) for phrase in NOT_USES.get(language, ())
    ]
    alternatives.sort(key=lambda alternative: -alternative[0])
    # Whole words only: the start is checked once for all alternatives, which is faster.
    pattern = re.compile(
        _START + "(?:" + "|".join(f"({source})" for _, _, source in alternatives) + ")"
    )
    return Glossary(language, tuple(terms), pattern, tuple(index for _, index, _ in alternatives))


def _skipped(element: Element) -> bool:
    classes = set(element.get("class", "").split())
    return element.tag in _SKIPPED_TAGS or bool(classes & _SKIPPED_CLASSES)


def link_first_uses(
    root: Element,
    terms: Glossary,
    link: Callable[[Term], Element],
    references: str | None = None,
    stash: Sequence[object] = (),
) -> list[Term]:
    """Link the first use of each term in ``root``'s text, in document order.

    Parameters
    ----------
    root : Element
        A page's tree (Python-Markdown's ``div``), changed in place.
    terms : Glossary
        The terms, as the page's language finds them.
    link : callable
        Makes the empty link element of a term; the use's text is put in it.
    references : str, optional
        The heading of the references section: the text of that section, up to the next
        heading of the same or a higher level, links nothing.
    stash : sequence
        The page's stashed HTML (Python-Markdown's ``htmlStash.rawHtmlBlocks``), which the
        tree's text holds as placeholders: text between the placeholders of an inline HTML
        tag and of its closing tag (``<a href="model.py" download>…</a>``) links nothing.

    Returns
    -------
    list of Term
        The terms linked, in the order of their links.
    """
    linked: list[Term] = []
    open_tags: list[str] = []  # the inline HTML elements that the text is in

    def enter_or_leave(placeholder: str) -> None:
        raw = stash[int(placeholder.strip(STX + ETX).split(":")[1])]
        tag = _TAG.fullmatch(raw) if isinstance(raw, str) else None
        if tag is None or tag["self_closing"] or tag["name"].lower() in _VOID:
            return
        name = tag["name"].lower()
        if not tag["closing"]:
            open_tags.append(name)
        elif name in open_tags:
            del open_tags[len(open_tags) - 1 - open_tags[::-1].index(name) :]

    def linked_text(text: str) -> tuple[str, list[Element]]:
        head = ""
        links: list[Element] = []

        def add(piece: str) -> None:
            nonlocal head
            if links:
                links[-1].tail = (links[-1].tail or "") + piece
            else:
                head += piece

        for piece in _PLACEHOLDER.split(text):
            if _PLACEHOLDER.fullmatch(piece):
                enter_or_leave(piece)
                add(piece)
                continue
            at = 0
            for start, end, term in [] if open_tags else terms.uses(piece):
                if term in linked:
                    continue
                linked.append(term)
                add(piece[at:start])
                element = link(term)
                element.text = piece[start:end]
                links.append(element)
                at = end
            add(piece[at:])
        return head, links

    def walk(element: Element) -> None:
        children = list(element)  # not the links this adds
        if element.text:
            element.text, links = linked_text(element.text)
            element[0:0] = links
        skipping_level = 0  # inside the references section: the level of its heading
        for child in children:
            if child.tag in _HEADINGS:
                level = int(child.tag[1])
                if skipping_level and level <= skipping_level:
                    skipping_level = 0
                if references is not None and "".join(child.itertext()).strip() == references:
                    skipping_level = level
            if not skipping_level and not _skipped(child):
                walk(child)
            if child.tail and not skipping_level:
                child.tail, links = linked_text(child.tail)
                position = list(element).index(child) + 1
                element[position:position] = links

    walk(root)
    return linked


@functools.lru_cache(maxsize=8)
def _glossary(path: Path, mtime_ns: int, size: int, language: str) -> Glossary:
    """The glossary of the file ``path`` in the version its time and size tell."""
    return make_glossary(glossary.load(path.parent), language)


def entry_link(term: Term, language: str, page: str) -> Element:
    """An empty link to ``term``'s entry on the glossary ``page`` (a path from the lesson).

    Its title is the term's note in ``language``, as plain text (without code marks).

    Examples
    --------
    >>> term = Term({"en": "token", "tr": "belirteç"}, {"en": "A `unit`.", "tr": "Birim."}, False)
    >>> entry_link(term, "tr", "../glossary.md").attrib
    {'href': '../glossary.md#belirtec', 'title': 'Birim.'}
    """
    anchor = glossary.entry_id(term, language)
    return Element(
        "a", {"href": f"{page}#{anchor}", "title": term.notes[language].replace("`", "")}
    )


class _GlossaryLinks(Treeprocessor):  # type: ignore[misc]
    def run(self, root: Element) -> None:
        if "relpath" not in self.md.treeprocessors or nested(self.md):
            return  # not a page of MkDocs: a part of one, or Markdown outside a build
        relpath = self.md.treeprocessors["relpath"]
        src_uri: str = relpath.file.src_uri
        docs_dir = Path(relpath.config.docs_dir)
        source = docs_dir / "glossary.yml"
        if not src_uri.startswith(LESSONS) or not source.exists():
            return
        languages = site_languages.from_config(relpath.config)
        language = page_language.of_build(relpath.config, languages)
        version = source.stat()
        terms = _glossary(source, version.st_mtime_ns, version.st_size, language.code)
        page = posixpath.relpath(glossary.PAGE, posixpath.dirname(src_uri))
        link_first_uses(
            root,
            terms,
            lambda term: entry_link(term, language.code, page),
            references=language.strings["api"]["References"],
            stash=self.md.htmlStash.rawHtmlBlocks,
        )


class GlossaryLinksExtension(Extension):  # type: ignore[misc]
    """Python-Markdown extension: a lesson's first use of each glossary term links to it."""

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Register the treeprocessor (see the module's docstring)."""
        md.treeprocessors.register(_GlossaryLinks(md), "posenc_glossary_links", PRIORITY)


def makeExtension(**kwargs: object) -> GlossaryLinksExtension:  # noqa: N802 (Python-Markdown's name)
    """The extension, for ``posenc_site.transforms.glossary_links`` in a list of extensions."""
    return GlossaryLinksExtension(**kwargs)
