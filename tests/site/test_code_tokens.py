"""Code blocks: names and spaces as plain text (posenc_site.transforms.code_tokens)."""

import re
from html import unescape
from pathlib import Path

import markdown
import material
import pytest
import yaml
from mkdocs.utils.yaml import get_yaml_loader

from support.project import ROOT

BLOCKS = {
    "python": "from posenc import sinusoidal_encoding as pe\n\ntable = pe(4, 8)  # 4 x 8\n"
    "print(table.shape, len(table))\n",
    "pycon": ">>> import numpy as np\n>>> np.arange(3) + 1\narray([1, 2, 3])\n",
    "bash": "python -m pip install -e '.[test]' && python -m pytest -x\n",
}


def _highlight_config() -> dict:
    """pymdownx.highlight's options in the site's mkdocs.yml."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), get_yaml_loader())
    for extension in config["markdown_extensions"]:
        if isinstance(extension, dict) and "pymdownx.highlight" in extension:
            return extension["pymdownx.highlight"]
    raise AssertionError("mkdocs.yml configures no pymdownx.highlight")


def _render(language: str, config: dict) -> str:
    md = markdown.Markdown(
        extensions=["pymdownx.highlight", "pymdownx.superfences"],
        extension_configs={"pymdownx.highlight": config},
    )
    return md.convert(f"```{language}\n{BLOCKS[language]}```\n")


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize("language", BLOCKS)
def test_names_and_spaces_have_no_span_and_the_text_is_the_same(language):
    plain, site = _render(language, {}), _render(language, _highlight_config())
    classes = re.findall(r'<span class="([^"]*)"', plain)
    assert {"n", "w"} & set(classes)  # what Pygments writes without the filter
    kept = re.findall(r'<span class="([^"]*)"', site)
    assert kept == [name for name in classes if name not in ("n", "w")]
    assert _text(site) == _text(plain)


def test_the_other_tokens_keep_their_colours():
    html = _render("python", _highlight_config())
    assert '<span class="kn">from</span>' in html
    assert '<span class="nn">posenc</span>' in html  # a module name: Name.Namespace
    assert '<span class="nb">print</span>' in html  # a builtin: Name.Builtin
    assert '<span class="c1"># 4 x 8</span>' in html


def test_material_draws_names_and_spaces_as_the_code_text():
    # posenc_site.transforms.code_tokens leaves out the spans of names and whitespace because
    # Material gives them the code's own text colour, and whitespace no style. If this fails after
    # an upgrade of Material, names would now look different: drop the filter from mkdocs.yml.
    sheets = Path(material.__file__).parent / "templates/assets/stylesheets"
    css = "".join(sheet.read_text(encoding="utf-8") for sheet in sheets.glob("*.css"))
    assert set(re.findall(r"--md-code-hl-name-color:([^;}]+)", css)) == {"var(--md-code-fg-color)"}
    rules = re.findall(r"([^{}]*)\{([^}]*)\}", css)
    for selectors, body in rules:
        for selector in selectors.split(","):
            if re.search(r"\.highlight \.(?:n|w)$", selector.strip()):
                assert body == "color:var(--md-code-hl-name-color)", selector
    assert not [s for s, _ in rules if re.search(r"\.highlight \.w\b", s)]
