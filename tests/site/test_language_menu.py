"""The language menu: the theme's copy of Material's partial, and the twins' ids written into
its links after the build (posenc_site.publish.language_links)."""

import re
from pathlib import Path

import material

from posenc_site.publish import language_links
from support.fixture_project import THEME

MENU = 'class="md-select__link"'


def page(links: str, headings: str) -> str:
    """A built page as far as the pass reads it: the menu's links, then the article."""
    return (
        f'<header>{links}<h2 id="not-content">x</h2></header>\n'
        f'<article class="md-content__inner md-typeset"><h1 id="t">T</h1>{headings}</article>'
    )


def link(href: str, language: str, current: bool = False) -> str:
    mark = ' aria-current="true" style="font-weight:700"' if current else ""
    return f'<a href="{href}" hreflang="{language}" {MENU}{mark}>'


def test_section_ids_are_the_articles_h2_and_h3_in_order():
    html = page(
        link("./", "en"),
        '<h2 id="a">A</h2><h4 id="deep">D</h4><h3 class="x" id="b&amp;c">B</h3><h2>no id</h2>'
        '<h2 id="posenc.rope" class="doc doc-heading">R</h2>',
    )
    assert language_links.section_ids(html) == ["a", "b&c", "posenc.rope"]
    assert language_links.section_ids("<p>no article</p>") == []


def test_an_id_the_twin_shares_is_written_as_an_empty_entry():
    assert language_links.twin_ids(["a", "x", "c"], ["a", "y", "c"]) == " y "
    assert language_links.twin_ids(["a"], ["b&c", "d"]) == "b&amp;c d"


def test_headings_with_a_key_are_paired_by_key_not_by_place():
    # The glossaries: each in its own alphabet's order, letters without a key.
    own = language_links.sections(
        page(
            link("tr/", "tr"),
            '<h2 id="e">E</h2><h3 data-term="embedding" id="embedding">E</h3>'
            '<h2 id="r">R</h2><h3 data-term="rope" id="rope">R</h3>',
        )
    )
    twin = [("d", None), ("rope", "rope"), ("g", None), ("gomme", "embedding")]
    assert own == [("e", None), ("embedding", "embedding"), ("r", None), ("rope", "rope")]
    assert language_links.twin_ids(own, twin) == " gomme  "


def _write(site: Path, path: str, text: str) -> Path:
    file = site / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


def test_each_link_to_a_twin_gets_the_twins_ids_and_nothing_else_changes(tmp_path):
    site = tmp_path
    english = _write(
        site,
        "lessons/a/index.html",
        page(
            link("./", "en", current=True) + link("../../tr/lessons/a/", "tr"),
            '<h2 id="why">W</h2><h2 id="api">A</h2><h3 id="more">M</h3>',
        ),
    )
    turkish = _write(
        site,
        "tr/lessons/a/index.html",
        page(
            link("../../../lessons/a/", "en") + link("./", "tr", current=True),
            '<h2 id="neden">N</h2><h2 id="api">A</h2><h3 id="daha-fazla">D</h3>',
        ),
    )
    # Absolute links under the site's path (the home pages'), and the classroom copy's files.
    home = _write(site, "index.html", page(link("/posenc/tr/", "tr"), '<h2 id="lessons">L</h2>'))
    _write(site, "tr/index.html", page(link("/posenc/", "en"), '<h2 id="dersler">D</h2>'))
    offline = _write(site, "x.html", page(link("tr/x.html", "tr"), '<h2 id="one">O</h2>'))
    _write(site, "tr/x.html", page(link("../x.html", "en"), '<h2 id="bir">B</h2>'))
    # Left as they are: a page without headings, a link to no page, a link off the site.
    untouched = {
        "404.html": page(link("/posenc/tr/", "tr"), ""),
        "lone/index.html": page(link("../tr/lone/", "tr"), '<h2 id="a">A</h2>'),
        "away/index.html": page(link("/elsewhere/tr/", "tr"), '<h2 id="a">A</h2>'),
    }
    for path, text in untouched.items():
        _write(site, path, text)

    assert language_links.add(site, "/posenc/") == 6

    links = re.findall(r"<a [^>]*>", english.read_text(encoding="utf-8"))
    assert links == [
        link("./", "en", current=True),
        '<a href="../../tr/lessons/a/" hreflang="tr" class="md-select__link"'
        ' data-ids="neden  daha-fazla">',
    ]
    assert 'hreflang="en" class="md-select__link" data-ids="why  more">' in turkish.read_text(
        encoding="utf-8"
    )
    assert 'data-ids="dersler">' in home.read_text(encoding="utf-8")
    assert 'data-ids="bir">' in offline.read_text(encoding="utf-8")
    assert 'data-ids="lessons">' in (site / "tr/index.html").read_text(encoding="utf-8")
    for path, text in untouched.items():
        assert (site / path).read_text(encoding="utf-8") == text, path


def test_the_menu_is_materials_own_with_the_current_language_marked_and_the_script():
    # The theme's partials/alternate.html: Material's, plus what its comment describes.
    def body(template: str) -> str:
        return template.split("-#}\n", 1)[1]  # without the leading comment

    materials = Path(material.__file__).parent / "templates/partials/alternate.html"
    theirs = body(materials.read_text(encoding="utf-8"))
    ours = body((THEME / "partials/alternate.html").read_text(encoding="utf-8"))
    current = "{% if alt.lang == config.theme.language %}"
    additions = [
        re.compile(r"\n<script>.*</script>\n", re.DOTALL),
        re.compile(r"\n *\{% set check[^\n]*"),
        re.compile(re.escape(current) + r".*?\{% endif %\}"),
    ]
    assert ours.count(current) == 2
    for addition in additions:
        ours, found = addition.subn("\n" if "script" in addition.pattern else "", ours)
        assert found, addition.pattern
    assert ours == theirs, (
        "Material's partials/alternate.html changed: copy it again into the theme, with the "
        "current language's mark and the script that keeps the reader's place"
    )
