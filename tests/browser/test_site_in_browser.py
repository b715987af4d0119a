"""The site (`make site`) as a reader finds it in Chromium, offline: a text column of 65-90
characters at 16 px or more, code folded (a claim shows its sentence and its result, the code
one click away), nothing wider than a phone's screen, and a full-text search (Pagefind) that
finds the glossary's French terms and sentences of the prose that no title holds; axe finds no
serious or critical accessibility violation on any page.

The site is built from the notebooks' stored outputs (the build's own execution is tested by
tests/test_site.py) and served on 127.0.0.1; the browser reaches no other host."""

import importlib.util

import pytest

import servers
from axe_check import serious_violations
from course_notebooks import NOTEBOOKS, ROOT

spec = importlib.util.spec_from_file_location("build_site", ROOT / "tools" / "build_site.py")
build_site = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_site)

SIZES = [(1920, 1080), (1366, 768), (390, 844)]  # projector/desktop, laptop, phone
CHAPTER = next((p for p in sorted(NOTEBOOKS.glob("03_*.ipynb"))), None)  # prose, claims, grids


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    if not build_site.PAGEFIND.exists():
        pytest.skip("Pagefind is not installed: `make search-deps`")
    chapters = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if CHAPTER is None or not (NOTEBOOKS / "glossary.ipynb").exists():
        pytest.skip("no chapter 03 or glossary to build")
    out = tmp_path_factory.mktemp("site")
    build_site.build(chapters + [NOTEBOOKS / "glossary.ipynb"], out, execute_notebooks=False)
    with servers.serve_folder(out) as url:
        yield url


# The width of a paragraph of plain text in characters of its own font (canvas measure of its
# text), its font size, and whether the page scrolls sideways.
READING = """() => {
  const canvas = document.createElement('canvas').getContext('2d');
  const plain = [...document.querySelectorAll('.jp-RenderedMarkdown p')]
    .filter(p => p.textContent.length > 200 && !p.querySelector('.MathJax, .MathJax_Preview, script, code'));
  const p = plain[0], style = getComputedStyle(p);
  canvas.font = style.font;
  const perCharacter = canvas.measureText(p.textContent).width / p.textContent.length;
  const root = document.documentElement;
  return {characters: p.clientWidth / perCharacter, fontSize: parseFloat(style.fontSize),
          overflow: root.scrollWidth - root.clientWidth};
}"""


@pytest.mark.parametrize("width,height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_chapter_reads_as_a_column_of_text(site_url, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site_url}/{CHAPTER.with_suffix('.html').name}")
    page.wait_for_load_state("load")
    reading = page.evaluate(READING)
    assert reading["fontSize"] >= 16, reading
    assert reading["overflow"] <= 0, f"the page scrolls sideways at {width}x{height}: {reading}"
    if width >= 1000:
        assert 65 <= reading["characters"] <= 90, reading
    else:
        assert reading["characters"] <= 90, reading
    claim = page.locator("details.course-claim-code").first
    summary = claim.locator("summary")
    assert summary.is_visible() and summary.inner_text().startswith("Checked: ")
    assert not claim.locator(".jp-InputArea").is_visible(), "a claim's code is shown unfolded"
    output = claim.locator("xpath=ancestor::div[contains(@class, 'jp-CodeCell')]").locator(".jp-OutputArea-output")
    assert output.first.is_visible(), "a claim's result is hidden"
    summary.click()
    assert claim.locator(".jp-InputArea").is_visible(), "a click does not open the claim's code"


def _search(page, words):
    page.fill(".pagefind-ui__search-input", words)
    page.wait_for_selector(".pagefind-ui__message")
    page.wait_for_function("w => document.querySelector('.pagefind-ui__message').textContent.includes(w)", arg=words)
    page.wait_for_timeout(300)  # the result links arrive after the count
    return page.locator(".pagefind-ui__result-link").evaluate_all("links => links.map(a => a.href)")


def test_the_search_finds_french_terms_and_prose_offline(site_url, page):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{site_url}/index.html")
    page.wait_for_selector(".pagefind-ui__search-input")
    found = _search(page, "noyau")
    assert any("/glossary.html" in url for url in found), found
    assert any("05_kernels.html" in url for url in found), found
    # Sentences of the prose, in no title: the KKT section and the soft-margin chapter.
    found = _search(page, "complementary slackness")
    assert any("02_max_margin_and_lagrange.html" in url for url in found), found
    found = _search(page, "marges douces")
    assert any("03_soft_margins.html" in url for url in found), found


SITE_PAGES = [p.with_suffix(".html").name for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))] + [
    "glossary.html", "index.html"]


@pytest.mark.parametrize("name", SITE_PAGES)
def test_no_serious_accessibility_violation_on_the_site(site_url, page, name):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{site_url}/{name}")
    page.wait_for_load_state("load")
    page.wait_for_function("!window.MathJax || !MathJax.Hub || MathJax.Hub.queue.pending === 0", timeout=60_000)
    page.wait_for_timeout(1600)  # the page marks its sideways scrollers 1.5 s after load
    assert serious_violations(page) == []
