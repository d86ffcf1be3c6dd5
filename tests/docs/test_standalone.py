"""Every block a reader can copy runs on its own, in a fresh interpreter that has only NumPy and
posenc (or the whole environment, for a block that imports torch or ml_dtypes), and a python
block prints the output the page writes by hand after it (a ``text`` block).

Each block runs once per test run, for every purpose (``support.fresh_runs``): here, that it
runs alone and prints what the page writes; in the build tier, that it prints what the built
page shows (tests/build/test_shown_outputs.py) and what the lesson's script prints
(tests/build/test_downloads.py). A ``pycon`` session's prompts and outputs are checked as a
doctest (support/docblocks.py, collected from docs/).
"""

import pytest

from posenc_site.execute.blocks import runnable
from support.docblocks import skip_without_optional
from support.fresh_runs import CASES, case_id, run_fresh


@pytest.mark.parametrize(("md_page", "block", "following"), CASES)
def test_block_runs_alone_in_a_fresh_interpreter(md_page, block, following, fresh_runs):
    skip_without_optional(runnable(block))
    result = fresh_runs[case_id(md_page, block)]
    assert result.returncode == 0, result.stderr
    if following is not None and following.language == "text" and block.language == "python":
        assert result.stdout == following.source


def test_a_block_that_needs_more_than_numpy_fails_alone(tmp_path, numpy_only):
    result = run_fresh({"b": "import matplotlib\n"}, tmp_path, numpy_only)["b"]
    assert result.returncode != 0
    assert "No module named 'matplotlib'" in result.stderr


def test_blocks_run_together_share_nothing(tmp_path, numpy_only):
    first = "import numpy as np\nnp.set_printoptions(precision=1)\nnp.random.seed(1)\nshared = 1\n"
    # 0.417022004702574: the first draw after np.random.seed(1)
    second = "import numpy as np\n"
    second += "print(np.array([0.123]), np.random.rand() != 0.417022004702574)\nshared\n"
    results = run_fresh({"a": first, "b": second}, tmp_path, numpy_only)
    assert results["a"].returncode == 0, results["a"].stderr
    assert results["b"].returncode == 1
    assert results["b"].stdout == "[0.123] True\n"  # default print options, unseeded
    assert "NameError: name 'shared' is not defined" in results["b"].stderr
    assert 'File "b", line 3' in results["b"].stderr  # the block is named in its traceback


def test_a_block_prints_as_a_script(tmp_path, numpy_only):
    code = "import sys\nprint(__name__)\nprint('err', file=sys.stderr)\nsys.exit(3)\n"
    result = run_fresh({"b": code}, tmp_path, numpy_only)["b"]
    assert (result.returncode, result.stdout, result.stderr) == (3, "__main__\n", "err\n")
