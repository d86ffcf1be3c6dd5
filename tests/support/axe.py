"""axe-core as pinned in tests/npm, run in a page the way its documentation shows (`axe.run`).

That version, not the older one axe-playwright-python bundles (4.12), whose colour-contrast
rule takes three times as long on these pages as 4.14's, with the same findings.
"""

from functools import cache

from playwright.sync_api import Page

from support.tools import npm_file

# Each violated rule's id -> the first few elements that break it, as axe's selectors.
VIOLATIONS = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return Object.fromEntries(results.violations.map(
    rule => [rule.id, rule.nodes.slice(0, 5).map(node => node.target)]));
}"""


@cache
def script() -> str:
    """The text of axe.min.js, to inject into a page once (`page.evaluate(script())`)."""
    return npm_file("axe-core/axe.min.js").read_text(encoding="utf-8")


def violations(page: Page) -> dict[str, list[object]]:
    """axe's violations in the page as it is now, injecting axe first if the page lacks it."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(script())
    return page.evaluate(VIOLATIONS)
