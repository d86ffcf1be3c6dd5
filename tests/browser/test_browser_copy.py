"""The copy button copies code only, and what it copies runs."""

import subprocess
import sys

import pytest
from playwright.sync_api import Page

LESSON = {"en": "lessons/positional-encoding/", "tr": "tr/lessons/positional-encoding/"}


def copied(page: Page, url: str, selector: str) -> str:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(url)
    page.evaluate("navigator.clipboard.writeText('')")  # what a test before copied is gone
    block = page.locator(selector).first
    block.scroll_into_view_if_needed()
    block.hover()
    block.locator('button[data-md-type="copy"]').click()
    page.wait_for_function("navigator.clipboard.readText().then(t => t.length > 0)")
    return page.evaluate("navigator.clipboard.readText()")


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("language", ["en", "tr"])
def test_copying_a_pycon_block_leaves_out_prompts_and_output(tab, site_url, language):
    text = copied(tab, site_url + LESSON[language], "div.highlight:has(.gp)")
    assert ">>>" not in text
    assert "..." not in text
    assert "1.472" not in text  # the session's printed output
    assert text.startswith("import numpy as np\nfrom posenc import sinusoidal_encoding\n")
    result = run(text)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "1.472\n[1.472 1.472 1.472]\n"


@pytest.mark.parametrize("language", ["en", "tr"])
def test_copying_an_executed_block_copies_its_source_only(tab, site_url, language):
    selector = "div.highlight:has(code .kn):not(:has(.gp))"
    text = copied(tab, site_url + LESSON[language], selector)
    assert text.startswith("import numpy as np\nfrom posenc import self_attention\n")
    result = run(text)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "True True True\n"
