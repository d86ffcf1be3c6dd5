"""Blocks run by posenc_site.execute.run print what markdown-exec's own runner makes them print."""

import markdown_exec
import pytest

from posenc_site.execute import Execution
from posenc_site.execute.run import label, run_python
from support.executed import MARKDOWN_EXECS_OWN, Executions, convert

BLOCKS = {
    "print": 'print("a", 1, sep="-")\nprint("b", end="")\nprint()\nprint("ç ı ğ")',
    "numpy": "import numpy as np\nprint(np.round(np.linspace(0, 1, 5), 2))",
    "dataclass": (
        "from dataclasses import dataclass\n\n@dataclass\nclass P:\n    x: int\n\nprint(P(3))"
    ),
    "past print": 'import sys\nsys.stdout.write("not shown\\n")\nprint("shown")',
    "markdown": 'print("## Title\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |")',
}

# What the page shows of a block without source nor result options (its output as Markdown).
SHOWN = {
    "print": "<p>a 1\nb\nç ı ğ</p>",
    "numpy": "<p>[0.   0.25 0.5  0.75 1.  ]</p>",
    "dataclass": "<p>P(x=3)</p>",
    "past print": "<p>shown</p>",
}


@pytest.mark.parametrize("options", ['source="above" result="text"', ""])
@pytest.mark.parametrize("name", BLOCKS)
def test_a_page_shows_what_markdown_execs_own_runner_shows(tmp_path, name, options):
    fence = f'```python exec="on" {options}\n{BLOCKS[name]}\n```\n'
    assert not isinstance(getattr(MARKDOWN_EXECS_OWN, "__self__", None), Execution)
    with Executions(tmp_path, tmp_path / "cache").active() as executions:
        markdown_exec.formatters["python"] = MARKDOWN_EXECS_OWN
        theirs = convert(None, fence)
        ours = convert(executions(cache_dir=None), fence)
    assert ours == theirs
    if not options and name in SHOWN:
        assert ours[0] == SHOWN[name]


def test_print_ignores_sep_and_file_as_markdown_exec_does():
    output = run_python('import sys\nprint("a", "b", sep="-", file=sys.stderr)', label(1))
    assert output == "a b\n"


def test_a_session_keeps_its_namespace():
    namespace: dict[str, object] = {}
    run_python("x = 41", label(1, session="s"), namespace)
    assert run_python("print(x + 1)", label(2, session="s"), namespace) == "42\n"
    assert namespace["__name__"] == "_code_block_session_s_n2_"


def test_the_traceback_marks_the_failing_expression():
    code = "import numpy as np\n\ndef f(x):\n    return np.round(x, undefined_name)\n\nprint(f(1))"
    with pytest.raises(markdown_exec.ExecutionError) as raised:
        run_python(code, label(7))
    assert str(raised.value) == (
        "````````python \n"
        "Traceback (most recent call last):\n"
        '  File "<code block: n7>", line 6, in <module>\n'
        "    print(f(1))\n"
        "          ^^^^\n"
        '  File "<code block: n7>", line 4, in f\n'
        "    return np.round(x, undefined_name)\n"
        "                       ^^^^^^^^^^^^^^\n"
        "NameError: name 'undefined_name' is not defined\n"
        "\n"
        "````````"
    )


def test_a_syntax_error_is_an_execution_error():
    with pytest.raises(markdown_exec.ExecutionError, match=r"SyntaxError"):
        run_python("x = (", label(1))
