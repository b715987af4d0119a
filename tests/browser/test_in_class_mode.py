"""The in-class mode (`make class`): Voila serves a notebook as a dashboard with its text,
widgets and figures but no code, and the sliders re-draw the figures."""

import pytest

from course_notebooks import chapter_notebooks
from notebook_checks import check_voila, expected_error_cells


def dashboards():
    """The fixture demo, and chapter 01 (the default of `make class`) once it exists."""
    chapters = [path for path in chapter_notebooks() if path.startswith("notebooks/01_")]
    return ["fixtures/good_demo.ipynb"] + chapters


@pytest.mark.parametrize("path", dashboards())
def test_voila_shows_widgets_without_code(voila, served_root, page, path):
    problems = check_voila(page, f"{voila.url}/voila/render/{path}", expected_error_cells(served_root / path))
    assert problems == [], f"{path} in Voila:\n" + "\n".join(f"- {p}" for p in problems)
    assert page.locator(".course-demo").count() >= 1, "no Demo on the dashboard"


# --- links, with `make class`'s own server: Voila serving notebooks/ --------------------------

import json  # noqa: E402
import re  # noqa: E402
import urllib.parse  # noqa: E402
import urllib.request  # noqa: E402

import nbformat  # noqa: E402

import servers  # noqa: E402
from course_notebooks import NOTEBOOKS  # noqa: E402

MARKDOWN_TARGET = re.compile(r"""\]\(([^)\s]+)\)|\b(?:href|src)=["']([^"']+)["']""")
NOT_RELATIVE = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:|/|#")
CHAPTER_01 = next((p.name for p in sorted(NOTEBOOKS.glob("01_*.ipynb"))), None)


MAKE_CLASS_OPTIONS = []  # `make class` (Makefile) adds to servers.start_voila's options only the folder, notebooks/


@pytest.fixture(scope="module")
def make_class(browser, served_root, tmp_path_factory):
    server = servers.start_voila(served_root / "notebooks", tmp_path_factory.mktemp("make-class-home"),
                                 extra=MAKE_CLASS_OPTIONS)
    yield server
    server.stop()


def _links(path):
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "markdown":
            for found in MARKDOWN_TARGET.findall(cell.source):
                if not NOT_RELATIVE.match(found[0] or found[1]):
                    yield found[0] or found[1]


def test_every_link_of_every_notebook_is_a_dashboard_in_class_mode(make_class):
    """Voila renders notebooks only (any other file answers 403): each relative link of each
    notebook, resolved from its dashboard's URL, names a notebook the server has."""
    problems, checked = [], 0
    for path in sorted(NOTEBOOKS.rglob("*.ipynb")):
        relative = path.relative_to(NOTEBOOKS).as_posix()
        for link in _links(path):
            url = urllib.parse.urljoin(f"{make_class.url}/voila/render/{relative}", link.partition("#")[0])
            target = urllib.parse.urlparse(url).path.removeprefix("/voila/render/")
            try:
                with urllib.request.urlopen(f"{make_class.url}/voila/api/contents/{target}", timeout=30) as answer:
                    kind = json.loads(answer.read())["type"]
            except OSError as error:
                kind = str(error)
            if kind != "notebook":
                problems.append(f"{relative}: {link} -> {url} ({kind})")
            checked += 1
    assert problems == [] and checked >= 24, "\n".join(problems)


@pytest.mark.skipif(CHAPTER_01 is None, reason="no chapter 01")
def test_chapter_01_links_open_in_class_mode(make_class, page):
    """On `make class`'s page, a click on each link the chapter shows (the glossary; the
    solutions' link sits in the exercises' text, hidden in class) opens it as a dashboard: its
    title shown, no 403 or 404."""
    chapter = f"{make_class.url}/voila/render/{CHAPTER_01}"
    page.goto(chapter, wait_until="load", timeout=300_000)
    links = page.locator(".jp-RenderedMarkdown a[href]:not(.jp-InternalAnchorLink):not(.anchor-link)")
    hrefs = links.evaluate_all("els => els.map(e => e.href)")
    local = [(index, href) for index, href in enumerate(hrefs) if href.startswith(make_class.url)]
    assert any(href.endswith("/glossary.ipynb") for _, href in local), hrefs
    problems = []
    for index, href in local:
        if index:
            page.goto(chapter, wait_until="load", timeout=300_000)
        with page.expect_navigation(wait_until="load", timeout=300_000) as navigation:
            links.nth(index).click()
        response = navigation.value
        title = page.locator("h1").first.inner_text(timeout=60_000) if page.locator("h1").count() else ""
        if response is None or response.status != 200 or not title:
            problems.append(f"{href}: status {response and response.status}, title {title!r}")
    assert problems == [], "\n".join(problems)


# --- a projector: what the room sees ----------------------------------------------------------

from axe_check import serious_violations  # noqa: E402
from conftest import ARTIFACTS  # noqa: E402

CHAPTER_03 = next((p.name for p in sorted(NOTEBOOKS.glob("03_*.ipynb"))), None)
PROJECTOR_SIZES = [(1920, 1080), (1366, 768)]
STUDENT_TEXT = ["Replace `...`", "Replace ...", "ex.SOFT_X", "ex.check_", "points with ξ > 0",
                "AssertionError", "# claim"]
# Each live figure: its rendered size, where it sits against its controls.
FIGURES = """() => [...document.querySelectorAll('.course-demo')].map(demo => {
  const image = demo.querySelector('img.course-figure'), controls = demo.querySelector('.course-controls');
  const f = image.getBoundingClientRect(), c = controls.getBoundingClientRect();
  return {height: f.height, right: f.right, beside: f.left >= c.right - 1, under: f.top >= c.bottom - 1};
})"""
# Every figure's smallest text on screen, in CSS px: the share of its width its <img> says that
# text takes (data-text-share, from course_lib.plotting.style.text_share) times its shown width.
FIGURE_TEXT = """() => [...document.querySelectorAll('img.course-figure, img.course-static-figure')]
  .filter(image => image.getBoundingClientRect().width > 0)
  .map(image => ({text: image.dataset.textShare * image.getBoundingClientRect().width,
                  alt: image.alt.slice(0, 60), share: image.dataset.textShare}))"""
BODY_TEXT = "parseFloat(getComputedStyle(document.querySelector('.jp-RenderedMarkdown p')).fontSize)"


def figure_text_problems(page):
    """The figures whose smallest text is smaller on screen than the body text (half a pixel of
    rounding allowed), or that do not say how large their text is."""
    body_px = page.evaluate(BODY_TEXT)
    figures = page.evaluate(FIGURE_TEXT)
    return [f"{f['alt']!r}: text {f['text']:.1f} px < body {body_px} px" if f["share"]
            else f"{f['alt']!r}: no data-text-share" for f in figures
            if not f["share"] or f["text"] < body_px - 0.5]


@pytest.mark.skipif(CHAPTER_03 is None, reason="no chapter 03")
@pytest.mark.parametrize("width,height", PROJECTOR_SIZES, ids=[f"{w}x{h}" for w, h in PROJECTOR_SIZES])
def test_a_projected_chapter_shows_large_figures_and_nothing_meant_for_a_student(make_class, page, width, height):
    """Chapter 03 in class mode: no exercise text, exercise cell or claim printout; the concept
    questions stay, their text and choices at the body's size; every live figure sits beside or under its controls, fits the window's
    height, and is drawn large enough that its smallest text is at least the body's size
    (22 px at 1920, 18 px at 1366); the cells are the page's main landmark; axe finds no serious or critical
    accessibility violation. A screenshot of the
    first demo is kept in test-artifacts/browser/."""
    check_projected(make_class, page, CHAPTER_03, width, height, "en", STUDENT_TEXT,
                    kept="Concept questions", dropped="Exercises")


# `make class NB=notebooks/fr/03_soft_margins.ipynb`: the French chapter, as `make class` serves it.
CHAPTER_03_FR = next((f"fr/{p.name}" for p in sorted(NOTEBOOKS.glob("fr/03_*.ipynb"))), None)
STUDENT_TEXT_FR = ["Remplacez `...`", "Remplacez ...", "ex.SOFT_X", "ex.check_", "AssertionError", "# affirmation"]


@pytest.mark.skipif(CHAPTER_03_FR is None, reason="no French chapter 03")
def test_a_projected_french_chapter_speaks_french_and_shows_nothing_meant_for_a_student(make_class, page):
    """The French chapter 03 in class mode passes the same checks at 1920x1080, its page says
    it is in French (<html lang="fr">), and its figures and controls speak French."""
    check_projected(make_class, page, CHAPTER_03_FR, 1920, 1080, "fr", STUDENT_TEXT_FR,
                    kept="Questions de compréhension", dropped="Exercices")


def check_projected(server, page, chapter, width, height, language, student_text, kept, dropped):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{server.url}/voila/render/{chapter}", wait_until="load", timeout=300_000)
    wait_until_drawn(page, shown_demos(chapter))
    assert page.evaluate("document.documentElement.lang") == language
    assert page.locator("[role=main] .jp-RenderedMarkdown").count() >= 1, "the cells are no main landmark"
    text = page.inner_text("body")
    assert [t for t in student_text if t in text] == []
    assert kept in text and dropped not in text
    body_px = float(page.evaluate(BODY_TEXT))
    assert body_px == (22 if width >= 1900 else 18), body_px
    quiz_px = page.evaluate("[...document.querySelectorAll('.course-quiz .widget-radio-box label, "
                            ".course-quiz .widget-htmlmath-content')].map(e => parseFloat(getComputedStyle(e).fontSize))")
    assert quiz_px and min(quiz_px) >= body_px, f"concept questions at {min(quiz_px or [0])} px < body {body_px} px"
    figures = page.evaluate(FIGURES)
    assert figures, "no live figure"
    for figure in figures:
        assert figure["beside"] or figure["under"], figure
        assert figure["height"] <= 0.86 * height + 1 and figure["right"] <= width, figure
    assert figure_text_problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    if width >= 1900:
        assert serious_violations(page) == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator(".course-demo").first.scroll_into_view_if_needed()
    name = chapter.replace("/", "_").removesuffix(".ipynb")
    page.screenshot(path=str(ARTIFACTS / f"class_mode_{name}_{width}x{height}.png"))


# --- accessibility of every chapter in class mode -----------------------------------------------

def class_chapters():
    """Every chapter as `make class` serves it: the English ones, then the French edition's."""
    return ([p.name for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))]
            + [f"fr/{p.name}" for p in sorted(NOTEBOOKS.glob("fr/[0-9][0-9]_*.ipynb"))])


# The cells class mode hides, by tag: the template's own list (share/jupyter/voila/templates/course/).
CLASS_TEMPLATE = NOTEBOOKS.parent / "share" / "jupyter" / "voila" / "templates" / "course" / "index.html.j2"
HIDDEN_TAGS = set(re.findall(r"'([\w-]+)'", re.search(r"set HIDDEN_TAGS = \[(.*?)\]", CLASS_TEMPLATE.read_text()).group(1)))
DEMO_CALL = re.compile(r"(?:_demo|\bDemo)\(")  # a cell ending with a chapter's demo


def ends_with_demo(lines):
    """The cell's last line shows a demo: the demo's call, or the name a demo call was assigned to
    (`demo = c_slider_demo(...)`, then `demo`)."""
    last = lines[-1].strip()
    if DEMO_CALL.search(last):
        return True
    return last.isidentifier() and any(
        re.match(rf"{last}\s*=.*{DEMO_CALL.pattern}", line.strip()) for line in lines[:-1])


def shown_demos(chapter):
    """How many live demos the chapter's dashboard shows: its code cells that end with a demo,
    less those the class-mode template hides."""
    count = 0
    for cell in nbformat.read(NOTEBOOKS / chapter, as_version=4).cells:
        lines = [line for line in cell.source.splitlines() if line.strip() and not line.startswith("#")]
        if (cell.cell_type == "code" and lines and ends_with_demo(lines)
                and not HIDDEN_TAGS & set(cell.metadata.get("tags", []))):
            count += 1
    return count


# Every demo's figure drawn and loaded, every image loaded, and the number of outputs still (Voila
# adds the outputs after the page's load event, the widgets after that).
DRAWN = """([demos, since]) => {
  const figures = [...document.querySelectorAll('.course-demo img.course-figure')];
  const ready = figures.length >= demos && figures.every(i => i.complete && i.naturalWidth > 0)
    && [...document.querySelectorAll('img')].every(i => i.complete);
  const outputs = document.querySelectorAll('.jp-OutputArea-output').length;
  if (!ready || outputs !== window.__outputs) { window.__outputs = outputs; window.__since = Date.now(); return false; }
  return Date.now() - window.__since >= since;
}"""


def wait_until_drawn(page, demos, quiet_ms=2000, timeout_ms=300_000):
    page.wait_for_function(DRAWN, arg=[demos, quiet_ms], timeout=timeout_ms, polling=250)


def test_the_chapters_with_demos_are_counted():
    counts = {chapter: shown_demos(chapter) for chapter in class_chapters() if not chapter.startswith("fr/")}
    assert "exercise" in HIDDEN_TAGS and sum(counts.values()) >= 10, counts
    assert all(counts[c] >= 1 for c in counts if c[:2] in ("01", "03", "05", "06", "07", "08", "09", "11", "12")), counts


def class_pages():
    """Every chapter in class mode, and the glossary they link to."""
    return class_chapters() + ["glossary.ipynb", "fr/glossary.ipynb"]


@pytest.mark.parametrize("chapter", class_pages())
def test_every_page_in_class_mode_is_accessible_and_its_figure_text_as_large_as_its_body_text(make_class, page, chapter):
    """axe finds no serious or critical violation on the chapter's dashboard at 1920x1080, once
    all of it is shown: every demo the chapter has drawn (its figure loaded), every image
    loaded, no output added for 2 s; the page says its language. The glossary too: a page
    with no link or control, whose scrolling cells must take the keyboard's focus. On a 1920x1080
    and a 1366x768 projector, every figure's smallest text is at least the body text's size,
    and nothing scrolls sideways."""
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{make_class.url}/voila/render/{chapter}", wait_until="load", timeout=900_000)
    demos = shown_demos(chapter)
    wait_until_drawn(page, demos)
    assert page.locator(".course-demo img.course-figure").count() == demos
    assert page.evaluate("document.documentElement.lang") == ("fr" if chapter.startswith("fr/") else "en")
    assert serious_violations(page) == []
    for width, height in PROJECTOR_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(500)  # the figures are placed again after a resize's next frame
        if "glossary" not in chapter:
            assert page.evaluate(FIGURE_TEXT), "no figure measured"
            assert figure_text_problems(page) == [], f"at {width}x{height}"
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


# --- the widget extensions Voila loads match its JupyterLab packages ----------------------------

VERSION_WARNING = re.compile(r"Unsatisfied version|No satisfying version")


@pytest.mark.skipif(CHAPTER_03 is None, reason="no chapter 03")
def test_class_mode_loads_widget_extensions_built_for_its_jupyterlab(make_class, page):
    """Voila runs its pages on the JupyterLab 4.2 packages it bundles; a widget extension built
    for a newer JupyterLab makes the console warn "Unsatisfied version 4.2.5 ... (required
    ^4.6.2)" (the pins of requirements.in). Chapter 03's dashboard: no such warning, and every
    demo's figure drawn."""
    warnings = []
    page.on("console", lambda message: warnings.append(message.text) if VERSION_WARNING.search(message.text) else None)
    page.goto(f"{make_class.url}/voila/render/{CHAPTER_03}", wait_until="load", timeout=300_000)
    demos = shown_demos(CHAPTER_03)
    wait_until_drawn(page, demos)
    assert page.locator(".course-demo img.course-figure").count() == demos >= 1
    assert warnings == [], "\n".join(warnings)
