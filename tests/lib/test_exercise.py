"""The check of a lesson's exercise (posenc.exercise): what the reader's code printed against the
expected output, line by line; numbers with a tolerance, shapes and booleans exactly, the rest
word by word; a message in English or Turkish that names the first line that differs and how.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from posenc import ExerciseCheck, check_exercise, check_output

EXPECTED = "(4, 6)\n[0. 1. 0. 1. 0. 1.]\n[0.841 0.54  0.046 0.999 0.002 1.   ]\nTrue False\n"


def first_line(result: ExerciseCheck) -> str:
    return result.message.split("\n")[0]


def test_the_expected_output_itself_passes_in_both_languages():
    english = check_output(EXPECTED, EXPECTED)
    assert (english.status, english.passed, english.line) == ("passed", True, None)
    assert english.message == "Correct: your code prints the expected output, 4 lines."
    turkish = check_output(EXPECTED, EXPECTED, language="tr")
    assert turkish.message == "Doğru: kodun beklenen çıktıyı yazdırıyor, 4 satır."
    assert str(turkish) == repr(turkish) == turkish.message  # shown as its message
    assert check_output("1\n", "1\n").message.endswith("output, 1 line.")


def test_spacing_and_the_spelling_of_a_number_do_not_matter():
    printed = "(4,6)\n[0.0 1 0. 1. 0. 1.]  \n[0.841 0.54 0.046 0.999 0.002 1.0]\nTrue  False\n\n\n"
    assert check_output(printed, EXPECTED).passed


@pytest.mark.parametrize(
    ("printed", "expected", "passed"),
    [
        ("1.0000009", "1.0", True),  # within rtol = 1e-6
        ("1.0000011", "1.0", False),
        ("1000000.9", "1000000", True),  # the tolerance grows with the expected value
        ("1000002", "1000000", False),
        ("0.000000009", "0", True),  # within atol = 1e-8
        ("0.00000002", "0", False),
        ("-0.", "0.", True),
        ("2e-03", "0.002", True),
        ("nan", "nan", True),
        ("nan", "0.", False),
        ("[-inf  -1.]", "[-inf -1.]", True),
        ("inf", "-inf", False),
        ("1e309", "inf", True),  # a float that large is infinite
    ],
)
def test_numbers_are_compared_with_a_tolerance(printed, expected, passed):
    assert check_output(printed, expected).passed is passed


def test_the_tolerance_can_be_set():
    assert not check_output("1.001", "1.0").passed
    assert check_output("1.001", "1.0", rtol=1e-2).passed
    assert check_output("0.001", "0.0", atol=1e-2).passed


def test_a_number_that_differs_is_named_with_both_values():
    printed = EXPECTED.replace("0.999", "0.998")
    result = check_output(printed, EXPECTED)
    assert (result.status, result.passed, result.line) == ("different", False, 3)
    assert result.message.split("\n") == [
        "Not quite: line 3 of the output differs: number 4 is 0.998, expected 0.999.",
        "  yours:    [0.841 0.54  0.046 0.998 0.002 1.   ]",
        "  expected: [0.841 0.54  0.046 0.999 0.002 1.   ]",
    ]
    turkish = check_output(printed, EXPECTED, language="tr")
    assert turkish.message.split("\n") == [
        "Henüz doğru değil: çıktının 3. satırı farklı: 4. sayı 0.998, beklenen 0.999.",
        "  seninki:  [0.841 0.54  0.046 0.998 0.002 1.   ]",
        "  beklenen: [0.841 0.54  0.046 0.999 0.002 1.   ]",
    ]


def test_a_sign_flip_and_a_number_ending_in_a_point():
    result = check_output("[ 0. -1.  0. -1.]", "[0. 1. 0. 1.]")
    assert first_line(result).endswith("number 2 is -1.0, expected 1.0.")


def test_a_shape_that_differs():
    for printed in ("(4, 7)", "(4, 6, 1)", "(4,)"):
        result = check_output(f"{printed}\n", "(4, 6)\n")
        assert result.line == 1
        assert first_line(result).endswith(f"the shape is {printed}, expected (4, 6).")
    turkish = check_output("sinusoidal: (15,)\n", "sinusoidal: (16,)\n", language="tr")
    assert first_line(turkish).endswith("boyut (shape) (15,), beklenen (16,).")


def test_a_boolean_that_differs():
    result = check_output(EXPECTED.replace("True False", "True True"), EXPECTED)
    assert result.line == 4
    assert first_line(result).endswith("boolean 2 is True, expected False.")
    turkish = check_output("False\n", "True\n", language="tr")
    assert first_line(turkish).endswith("1. mantıksal değer False, beklenen True.")


def test_a_line_with_more_or_fewer_numbers():
    result = check_output("(4, 6)\n[0. 1. 0. 1. 0.]\n", EXPECTED)
    assert result.line == 2
    assert first_line(result).endswith("it holds 5 numbers, expected 6.")
    turkish = check_output("[1 2 3]\n", "[1 2]\n", language="tr")
    assert first_line(turkish).endswith("satırda 3 sayı var, beklenen 2.")


def test_a_value_of_another_kind_or_another_word():
    result = check_output("1\n", "True\n")
    assert first_line(result).endswith("it has “1” where “True” is expected.")
    result = check_output("learned: ok\n", "learned: row\n", language="tr")
    assert first_line(result).endswith("beklenen “row” yerine “ok” var.")
    result = check_output("learned: no row at all\n", "learned: no row\n")
    assert first_line(result).endswith("line 1 of the output differs: the text differs.")


def test_numbers_inside_words_are_words():
    # "t5" is a word, so "t6" is another word, not the number 5 changed.
    result = check_output("t6 bucket: 15\n", "t5 bucket: 15\n")
    assert first_line(result).endswith("it has “t6” where “t5” is expected.")
    assert check_output("got 8.\n", "got 8.0\n").passed


def test_missing_lines():
    result = check_output("(4, 6)\n[0. 1. 0. 1. 0. 1.]\n", EXPECTED)
    assert (result.status, result.line) == ("different", 3)
    assert result.message.split("\n") == [
        "Not quite: your code prints 2 lines, the expected output has 4 lines.",
        "Line 3 is missing:",
        "  expected: [0.841 0.54  0.046 0.999 0.002 1.   ]",
    ]
    turkish = check_output("(4, 6)\n", EXPECTED, language="tr")
    assert turkish.message.split("\n") == [
        "Henüz doğru değil: kodun 1 satır yazdırıyor, beklenen çıktı 4 satır.",
        "2. satır eksik:",
        "  beklenen: [0. 1. 0. 1. 0. 1.]",
    ]


def test_an_extra_line():
    result = check_output(EXPECTED + "debug 42\n", EXPECTED)
    assert (result.status, result.line) == ("different", 5)
    assert result.message.split("\n") == [
        "Not quite: your code prints 5 lines, the expected output has 4 lines.",
        "Line 5 is one too many:",
        "  yours:    debug 42",
    ]
    turkish = check_output(EXPECTED + "debug 42\n", EXPECTED, language="tr")
    assert turkish.message.split("\n")[1:] == ["5. satır fazla:", "  seninki:  debug 42"]


def test_a_line_that_differs_comes_before_a_missing_one():
    result = check_output("(4, 5)\n", EXPECTED)
    assert result.line == 1
    assert "the shape is (4, 5)" in result.message


@pytest.mark.parametrize("printed", ["", "\n", "   \n\n"])
def test_nothing_printed_is_not_yet(printed):
    result = check_output(printed, EXPECTED)
    assert (result.status, result.passed, result.line) == ("not yet", False, None)
    assert result.message.split("\n") == [
        "Not yet: your code prints nothing.",
        "Write it under “# write here” and run it again: it should print 4 lines.",
    ]
    assert check_output(printed, EXPECTED, language="tr").message.split("\n") == [
        "Henüz değil: kodun hiçbir şey yazdırmıyor.",
        "Kodunu “# buraya yaz” satırının altına yaz ve yeniden çalıştır: 4 satır yazdırmalı.",
    ]


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="language must be one of 'en', 'tr', got 'de'"):
        check_output("1", "1", language="de")


SCRIPT = """\
print("(4, 6)")
print({value})

if __name__ == "__main__":
    from posenc import check_exercise

    result = check_exercise("(4, 6)\\n[1. 2.]\\n", path=__file__, language="{language}")
    print(result)
    raise SystemExit(0 if result.passed else 1)
"""


def run_script(tmp_path: Path, value: str, language: str = "en") -> subprocess.CompletedProcess:
    script = tmp_path / "model.py"
    script.write_text(SCRIPT.format(value=value, language=language), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, check=False
    )


def test_a_script_is_run_again_and_checked_once(tmp_path):
    a_list = run_script(tmp_path, "[1.0, 2.0]")  # a list prints other marks than an array
    assert a_list.returncode == 1
    assert a_list.stdout.split("\n")[:3] == [
        "(4, 6)",
        "[1.0, 2.0]",
        "Not quite: line 2 of the output differs: the text differs.",
    ]
    right = run_script(tmp_path, "__import__('numpy').array([1.0, 2.0])")
    # The reader's lines, once, then the check's message, once.
    passed = "Correct: your code prints the expected output, 2 lines."
    assert right.stdout == f"(4, 6)\n[1. 2.]\n{passed}\n"
    assert right.returncode == 0
    wrong = run_script(tmp_path, "__import__('numpy').array([1.0, -2.0])", "tr")
    assert wrong.returncode == 1
    assert "çıktının 2. satırı farklı: 2. sayı -2.0, beklenen 2.0." in wrong.stdout


def test_a_script_that_raises_when_run_again(tmp_path):
    script = tmp_path / "flaky.py"
    script.write_text(
        "import sys\nif __name__ != '__main__':\n    raise ValueError('only once')\n",
        encoding="utf-8",
    )
    result = check_exercise("1\n", path=script)
    assert (result.status, result.line) == ("different", None)
    assert result.message == "Not quite: your code raised ValueError: only once."
    turkish = check_exercise("1\n", path=script, language="tr")
    assert turkish.message == "Henüz doğru değil: kodun bir hata verdi: ValueError: only once."


def test_without_a_path_outside_ipython_it_is_refused():
    with pytest.raises(RuntimeError, match="needs the path of the script outside IPython"):
        check_exercise("1\n")
