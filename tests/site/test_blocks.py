"""The block scanner that the build and the tests share (posenc_site.execute.blocks)."""

from sybil import Document

from posenc_site.execute.blocks import Block, fenced_blocks, optional_package, split_page
from posenc_site.publish.downloads import downloadable, notebook
from support.docblocks import SNIPPET_PATHS, lex_blocks, parse_blocks

PAGE = """# Title

```python exec="on"
print(1)
```

````markdown
```python
shown, not run
```
````
~~~text
never closed
"""


def test_a_fence_inside_a_longer_fence_is_text():
    languages = [fenced.block.language for fenced in fenced_blocks(PAGE, SNIPPET_PATHS)]
    assert languages == ["python", "markdown", "text"]
    [markdown] = [
        f.block for f in fenced_blocks(PAGE, SNIPPET_PATHS) if f.block.language == "markdown"
    ]
    assert markdown.source == "```python\nshown, not run\n```\n"


def test_offsets_span_the_fence_lines():
    python, markdown, text = fenced_blocks(PAGE, SNIPPET_PATHS)
    assert PAGE[python.start : python.end] == '```python exec="on"\nprint(1)\n```'
    assert PAGE[markdown.start : markdown.end].startswith("````markdown\n")
    assert PAGE[markdown.start : markdown.end].endswith("```\n````")
    assert PAGE[text.start : text.end] == "~~~text\nnever closed\n"  # runs to the end
    assert [f.block.line for f in (python, markdown, text)] == [3, 7, 12]


def test_split_page_keeps_the_prose_between_blocks():
    parts = split_page(PAGE, SNIPPET_PATHS)
    assert [type(part) for part in parts] == [str, Block, str, Block, str, Block, str]
    assert parts[0] == "# Title\n"
    assert parts[2] == ""
    assert parts[4] == ""
    assert split_page("```text\nx\n```", SNIPPET_PATHS)[::2] == ["", ""]


def test_sybil_reports_the_line_of_the_opening_fence():
    document = Document(PAGE, "page.md")
    for region in lex_blocks(document):
        line = region.lexemes["block"].line
        assert document.line_column(region.start) == f"line {line}, column 1"
    # Sybil checks pycon sessions only: python blocks run once, in tests/docs/test_standalone.py.
    assert list(parse_blocks(document)) == []
    session = "```python\nprint(1)\n```\n\n```pycon\n>>> 1 + 1\n2\n```\n"
    [region] = parse_blocks(Document(session, "page.md"))
    assert region.start == session.index("```pycon")


def test_optional_packages_are_found_by_their_import_lines():
    assert optional_package("import torch\n") == "torch"
    assert (
        optional_package("import numpy as np\nfrom posenc.torch import RotaryEmbedding\n")
        == "torch"
    )
    assert optional_package("x = 1\n    import ml_dtypes\n") == "ml_dtypes"
    assert optional_package("import numpy as np\nfrom posenc import apply_rotary\n") is None
    assert optional_package("print('import torch')\nimport ml_dtypesx\n") is None


def test_a_block_with_an_optional_package_stays_out_of_the_downloads():
    plain = Block("python", {"exec": "on", "source": "above"}, "print(1)\n", 1)
    extra = Block("python", {"exec": "on", "source": "above"}, "import ml_dtypes\n", 1)
    assert downloadable(plain)
    assert not downloadable(extra)
    page = '```python exec="on" source="above"\nimport ml_dtypes\nprint(1)\n```\n'
    install, note, cell = notebook(page, SNIPPET_PATHS).cells
    assert install.cell_type == "code"
    assert install.source == "%pip install posenc"
    assert note.cell_type == "markdown"
    assert cell.cell_type == "markdown"
    assert cell.source.startswith(
        "This example needs ml_dtypes (`python -m pip install ml_dtypes`)"
    )
