"""axe-core (pinned in tests/browser/axe/package-lock.json, installed by `make axe-deps`),
injected into a page to list its serious and critical accessibility violations."""

import os
from pathlib import Path

import pytest

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.nodes.length} element(s), e.g. ${v.nodes[0].target.join(' ')}`);
}"""


def require_axe():
    if not AXE.exists():
        reason = f"{AXE} is missing: `make axe-deps` (npm ci in tests/browser/axe)"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the accessibility checks, but {reason}")
        pytest.skip(reason)


def serious_violations(page):
    """The serious and critical violations axe finds on the page as it is now."""
    require_axe()
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(RUN)
