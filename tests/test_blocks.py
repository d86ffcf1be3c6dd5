"""The block scanner that the build and the tests share (posenc_site.blocks)."""

from sybil import Document

from docblocks import SNIPPET_PATHS, lex_blocks, parse_blocks
from posenc_site.blocks import Block, fenced_blocks, split_page

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
    assert [region.start for region in parse_blocks(document)] == [PAGE.index("```python")]
