"""axe-core (pinned in tests/browser/axe/package-lock.json, installed by `make axe-deps`),
injected into a page to list its serious and critical accessibility violations."""

from pathlib import Path

from prerequisites import needs

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
RUN = """async (include) => {
  const result = await axe.run(include ? {include: include} : document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.nodes.length} element(s), e.g. ${v.nodes[0].target.join(' ')}`);
}"""


def require_axe():
    needs(AXE.exists(), "the accessibility checks",
          f"{AXE} is missing: `make axe-deps` (npm ci in tests/browser/axe)")


def serious_violations(page, include=None):
    """The serious and critical violations axe finds on the page as it is now (in the elements
    the CSS selectors `include` match, when given)."""
    require_axe()
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(RUN, [[selector] for selector in include] if include else None)
