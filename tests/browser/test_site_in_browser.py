"""The site (`make site`) as a reader finds it in Chromium, offline: a text column of 65-90
characters at 16 px or more, code folded (a claim shows its sentence and its result, the code
one click away), nothing wider than a phone's screen, and a full-text search (Pagefind) that
finds the glossary's French terms and sentences of the prose that no title holds; axe finds no
serious or critical accessibility violation on any page (chapters, solutions, glossary and index
in both languages) at 1366x768 and 1920x1080. The French edition: every page links
the same page in the other language (or that language's index when it has no twin), the French
index searches the French pages, and every link of a French page opens.

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
def site_folder(tmp_path_factory):
    """The site, built once for the module."""
    if not build_site.PAGEFIND.exists():
        pytest.skip("Pagefind is not installed: `make search-deps`")
    if CHAPTER is None or not (NOTEBOOKS / "glossary.ipynb").exists():
        pytest.skip("no chapter 03 or glossary to build")
    out = tmp_path_factory.mktemp("site")
    build_site.build(build_site.discover(), out, execute_notebooks=False,  # both languages, as `make site`
                     repo="someone/course-companion")  # with its Binder links
    return out


@pytest.fixture(scope="module")
def site_url(site_folder):
    with servers.serve_folder(site_folder) as url:
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


# The printed outputs shown (not folded) that scroll sideways: a line longer than the column runs
# on to the window's right edge instead (chapter 03's longest, 110 characters, fits at 1366 px).
PRINTED_SCROLLING = """() => [...document.querySelectorAll('.jp-OutputArea-output > pre')]
  .filter(pre => pre.offsetParent && pre.scrollWidth > pre.clientWidth + 1).map(pre => pre.innerText.slice(0, 60))"""


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
        scrolling = page.evaluate(PRINTED_SCROLLING)
        assert scrolling == [], f"printed lines scroll sideways at {width}x{height}: {scrolling}"
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


# Each inline formula's size against the text around it: MathJax draws it at its own font size
# scaled to match the text's x-height (HTML-CSS matchFontHeight), in the span inside span.math.
INLINE_MATH = """() => [...document.querySelectorAll('.jp-RenderedMarkdown p span.MathJax, .jp-RenderedMarkdown li span.MathJax')]
  .map(m => [m.querySelector('span.math > span'), m.parentElement])
  .filter(([drawn]) => drawn)
  .map(([drawn, around]) => parseFloat(getComputedStyle(drawn).fontSize) / parseFloat(getComputedStyle(around).fontSize))"""


@pytest.mark.parametrize("width,height", [SIZES[1], SIZES[2]], ids=["1366x768", "390x844"])
def test_inline_math_is_drawn_at_least_at_the_size_of_its_text(site_url, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{site_url}/{CHAPTER.with_suffix('.html').name}")
    page.wait_for_function("window.MathJax && MathJax.Hub && MathJax.Hub.queue.pending === 0"
                           " && document.querySelector('span.MathJax')")
    scales = page.evaluate(INLINE_MATH)
    assert len(scales) >= 20 and min(scales) >= 1.0, f"inline math at {min(scales or [0]):.2f} of its text's size"


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


def site_pages():
    """Every page `make site` builds, as build_site names them: each chapter, its solutions,
    the glossary, in English and in French, then each language's index."""
    pages = [build_site.page_name(path, build_site.NOTEBOOKS) for path in build_site.discover()]
    return pages + [f"{build_site.folder_of(language)}index.html"
                    for language in build_site.LANGUAGES if language == "en" or build_site.french()]


SITE_PAGES = site_pages()
AXE_SIZES = [(1366, 768), (1920, 1080)]


def test_the_accessibility_check_covers_every_page_of_the_site(site_folder):
    built = sorted(p.relative_to(site_folder).as_posix() for p in site_folder.rglob("*.html")
                   if p.relative_to(site_folder).parts[0] not in ("mathjax", "pagefind"))
    assert built == sorted(SITE_PAGES)


@pytest.mark.parametrize("name", SITE_PAGES)
def test_no_serious_accessibility_violation_on_the_site(site_url, page, name):
    """At a laptop's and a projector's size, the page once drawn: its formulas typeset, its
    wide blocks marked as scrollers that take the keyboard's focus."""
    page.goto(f"{site_url}/{name}")
    page.wait_for_load_state("load")
    page.wait_for_function("!window.MathJax || !MathJax.Hub || MathJax.Hub.queue.pending === 0", timeout=60_000)
    problems = {}
    for width, height in AXE_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(1600)  # the page marks its sideways scrollers 1.5 s after load, and on resize
        problems[f"{width}x{height}"] = serious_violations(page)
    assert problems == {f"{w}x{h}": [] for w, h in AXE_SIZES}


# --- the French edition ----------------------------------------------------------------------

FRENCH = NOTEBOOKS / "fr"
TRANSLATED = build_site.translated()  # the chapters locale/fr/manifest.toml lists as translated
KERNELS = "05_kernels.html"
UNTRANSLATED = next((p.with_suffix(".html").name for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
                     if p.stem not in TRANSLATED), None)
needs_french = pytest.mark.skipif("05_kernels" not in TRANSLATED, reason="chapter 05 is not translated")


def _switch(page):
    """Follow the page's link to the other language; the language of the page reached."""
    link = page.locator("a.course-language").first
    with page.expect_navigation(wait_until="load"):
        link.click()
    return page.evaluate("document.documentElement.lang")


@needs_french
def test_the_language_switch_leads_to_the_same_page_both_ways(site_url, page):
    page.goto(f"{site_url}/{KERNELS}")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert _switch(page) == "fr" and page.url == f"{site_url}/fr/{KERNELS}"
    assert "noyau" in page.inner_text("main").lower()
    assert _switch(page) == "en" and page.url == f"{site_url}/{KERNELS}"
    page.goto(f"{site_url}/solutions/05_solutions.html")  # a page one folder down
    assert _switch(page) == "fr" and page.url == f"{site_url}/fr/solutions/05_solutions.html"
    assert _switch(page) == "en" and page.url == f"{site_url}/solutions/05_solutions.html"
    page.goto(f"{site_url}/index.html")
    assert _switch(page) == "fr" and page.url == f"{site_url}/fr/index.html"
    assert _switch(page) == "en" and page.url == f"{site_url}/index.html"


@pytest.mark.skipif(UNTRANSLATED is None, reason="every chapter is translated")
def test_a_page_without_french_leads_to_the_french_index_which_links_it(site_url, page):
    page.goto(f"{site_url}/{UNTRANSLATED}")
    assert _switch(page) == "fr" and page.url == f"{site_url}/fr/index.html"
    row = page.locator(f"a[href='../{UNTRANSLATED}']")
    assert row.count() == 1, f"the French index does not list {UNTRANSLATED}"
    with page.expect_navigation(wait_until="load"):
        row.click()
    assert page.url == f"{site_url}/{UNTRANSLATED}"


@needs_french
def test_the_french_search_finds_french_text_in_french_pages(site_url, page):
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{site_url}/fr/index.html")
    page.wait_for_selector(".pagefind-ui__search-input")
    found = _search(page, "noyau")
    assert any(url.endswith(f"/fr/{KERNELS}") or f"/fr/{KERNELS}#" in url for url in found), found
    assert found and all("/fr/" in url for url in found), f"the French search shows English pages: {found}"
    found = _search(page, "marges douces")
    assert any("/fr/03_soft_margins.html" in url for url in found), found


FRENCH_PAGES = [f"fr/{KERNELS}", "fr/solutions/05_solutions.html", "fr/glossary.html", "fr/index.html"]


# Each link of a page: its URL and the language it says it leads to (hreflang), else the page's.
LINKS = """() => [...document.querySelectorAll('a[href]')].map(a => [a.href, a.hreflang || document.documentElement.lang])"""


@needs_french
@pytest.mark.parametrize("name", FRENCH_PAGES)
def test_every_link_of_a_french_page_opens(site_url, page, name):
    """Each link of the page inside the site (glossary, solutions, chapters, sections) answers
    200 with a page in French, or in English where the link says so (hreflang: the language
    switch, a chapter not translated yet), and its fragment names an element of that page."""
    page.goto(f"{site_url}/{name}")
    links = sorted({(href, lang) for href, lang in page.evaluate(LINKS) if href.startswith(site_url)})
    assert len(links) >= 3, links
    problems, texts = [], {}
    for href, lang in links:
        url, _, fragment = href.partition("#")
        if url not in texts:
            answer = page.request.get(url)
            texts[url] = answer.text() if answer.status == 200 else ""
            if answer.status != 200:
                problems.append(f"{href}: {answer.status}")
        text = texts[url]
        if not text:
            continue
        if url.endswith(".html") and f'<html lang="{lang}"' not in text:
            problems.append(f"{href}: not a page in {lang}")
        if fragment and f'id="{fragment}"' not in text and f"id='{fragment}'" not in text:
            problems.append(f"{href}: no element #{fragment}")
    assert problems == [], "\n".join(problems)
