"""What students and instructors see, measured in Chromium at 1366x768 and 1920x1080: each
demo's figure shown at most at its natural size (never stretched) and fully visible with its
controls; the class mode's text and controls large, the coding cells hidden, nothing asked of
another host; the site's local links resolving offline; a click adding a point and a drag
moving one redraw the figure with another support-vector count or margin in its title; no
serious or critical accessibility violation (axe-core) in what the project controls; and the
time `make class` takes to show its page."""

import importlib.util
import re
import time
import json
import urllib.parse
import urllib.request

import pytest

import servers
from course_notebooks import FIXTURES, ROOT, chapter_notebooks
from notebook_checks import PANEL, open_notebook, run_all

VIEWPORTS = [(1366, 768), (1920, 1080)]
PIXEL_RATIO = 2  # image pixels per CSS pixel of a Demo's figure (course_lib.widgets.core)
HAS_EVENTS = importlib.util.find_spec("ipyevents") is not None
HAS_AXE = importlib.util.find_spec("axe_playwright_python") is not None
LOCAL = re.compile(r"^(https?://127\.0\.0\.1[:/]|data:|blob:|file:|about:)")
CLASS_READY_SECONDS = 90  # the chapter runs when its page is asked for (no preheat in folder mode)


def _external_requests(page):
    requests = []
    page.on("request", lambda request: requests.append(request.url) if not LOCAL.match(request.url) else None)
    return requests


def _open_dashboard(page, url):
    page.goto(url, wait_until="load", timeout=300_000)
    page.wait_for_function("document.querySelectorAll('.course-demo img.course-figure').length > 0 && "
                           "Array.from(document.querySelectorAll('img.course-figure')).every(i => i.complete && i.naturalWidth)",
                           timeout=300_000)


def figure_problems(page, grown=False):
    """Each Demo's figure: shown at most 1.1x its natural size (natural pixels / 2), aspect
    kept, and the demo (controls and figure) inside the window once scrolled to. `grown`: class
    mode grows a figure to the screen's room, up to one CSS pixel per image pixel, which stays
    sharp on a projector's screen (one device pixel per CSS pixel)."""
    problems = []
    demos = page.locator(".course-demo")
    for number in range(demos.count()):
        demo = demos.nth(number)
        demo.scroll_into_view_if_needed()
        page.wait_for_timeout(200)
        state = demo.evaluate("""d => { const i = d.querySelector('img.course-figure'), r = i.getBoundingClientRect(),
            b = d.getBoundingClientRect();
            return {nw: i.naturalWidth, nh: i.naturalHeight, w: r.width, h: r.height, top: b.top, bottom: b.bottom,
                    left: b.left, right: b.right, vw: innerWidth, vh: innerHeight}; }""")
        natural = state["nw"] if grown else state["nw"] / PIXEL_RATIO
        name = f"demo {number + 1}"
        if state["w"] > (1.0 if grown else 1.1) * natural + 1:
            problems.append(f"{name}: shown {state['w']:.0f} px wide, natural {natural:.0f} px")
        if abs(state["w"] / state["h"] - state["nw"] / state["nh"]) > 0.02:
            problems.append(f"{name}: stretched ({state['w']:.0f}x{state['h']:.0f} for {state['nw']}x{state['nh']})")
        if state["bottom"] - state["top"] > state["vh"] or state["right"] > state["vw"] + 1 or state["left"] < -1:
            problems.append(f"{name}: not fully visible with its controls ({state['right'] - state['left']:.0f}x"
                            f"{state['bottom'] - state['top']:.0f} in a {state['vw']}x{state['vh']} window)")
    return problems


@pytest.fixture(scope="module")
def class_voila(browser, tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    (root / "class_mode.ipynb").write_bytes((FIXTURES / "class_mode.ipynb").read_bytes())
    server = servers.start_voila(root, tmp_path_factory.mktemp("class-home"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def class_page(browser, class_voila):
    """The class-mode fixture opened once (running it takes most of the time)."""
    page = browser.new_page()
    requests = _external_requests(page)
    _open_dashboard(page, f"{class_voila.url}/voila/render/class_mode.ipynb")
    yield page, requests
    page.close()


def test_class_mode_is_large_hides_code_and_asks_no_other_host(class_page):
    """At 1920x1080: body text and labels 22 px, slider handles 20 px, about 80 characters a
    line; at 1366x768 the text keeps its share of the width, never under 18 px."""
    page, requests = class_page
    page.set_viewport_size({"width": 1366, "height": 768})
    assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('.jp-RenderedMarkdown p')).fontSize)") == 18
    page.set_viewport_size({"width": 1920, "height": 1080})
    sizes = page.evaluate("""() => ({
        text: parseFloat(getComputedStyle(document.querySelector('.jp-RenderedMarkdown p')).fontSize),
        label: Math.min(...Array.from(document.querySelectorAll('.course-demo .widget-label')).map(e => parseFloat(getComputedStyle(e).fontSize))),
        handle: Math.min(...Array.from(document.querySelectorAll('.course-demo .noUi-handle')).map(e => e.getBoundingClientRect().height)),
        line: document.querySelector('.jp-RenderedMarkdown p').getBoundingClientRect().width /
              parseFloat(getComputedStyle(document.querySelector('.jp-RenderedMarkdown p')).fontSize)})""")
    assert sizes["text"] >= 22 and sizes["label"] >= 22, sizes
    assert sizes["handle"] >= 20 and sizes["line"] <= 43, sizes  # about 80 characters a line at most
    text = page.inner_text("body")
    assert "HIDDEN" not in text and "def soft_margin_points_demo" not in text
    assert "Touch the points" in text
    assert requests == [], f"the class mode asked other hosts: {requests}"


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_class_mode_figures_fit_the_screen(class_page, viewport):
    page, _ = class_page
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    assert figure_problems(page, grown=True) == []


def _alt(page, demo):
    return demo.locator("img.course-figure").get_attribute("alt")


def _point_on_figure(demo, fx, fy):
    box = demo.locator("img.course-figure").bounding_box()
    return box["x"] + fx * box["width"], box["y"] + fy * box["height"]


def _wait_alt_change(page, demo, before, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alt = _alt(page, demo)
        if alt != before:
            return alt
        page.wait_for_timeout(100)
    return before


def _numbers(title):
    """Support vectors and margin read from a soft-margin title."""
    found = re.search(r"(\d+) support vectors, margin 1/‖w‖ = ([\d.]+)", title)
    return (int(found.group(1)), float(found.group(2))) if found else None


def click_and_drag_problems(page, demo):
    """Click an empty corner (adds a point of class -1 in the +1 side), then drag that point to
    the opposite corner: each must redraw with another support-vector count or margin."""
    problems = []
    demo.scroll_into_view_if_needed()
    demo.locator(".widget-toggle-button", has_text="−1").click()
    before = _alt(page, demo)
    x, y = _point_on_figure(demo, 0.85, 0.15)  # top right, inside the axes
    page.mouse.click(x, y)
    after_click = _wait_alt_change(page, demo, before)
    if _numbers(after_click) == _numbers(before):
        problems.append(f"a click did not change the title: {before!r} -> {after_click!r}")
    x2, y2 = _point_on_figure(demo, 0.2, 0.8)
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 6):
        page.mouse.move(x + (x2 - x) * step / 5, y + (y2 - y) * step / 5)
        page.wait_for_timeout(150)
    page.mouse.up()
    after_drag = _wait_alt_change(page, demo, after_click)
    deadline = time.monotonic() + 10  # the sharp redraw on release comes last
    while time.monotonic() < deadline:
        page.wait_for_timeout(500)
        latest = _alt(page, demo)
        if latest == after_drag:
            break
        after_drag = latest
    if _numbers(after_drag) == _numbers(after_click):
        problems.append(f"a drag did not change the title: {after_click!r} -> {after_drag!r}")
    return problems


@pytest.mark.skipif(not HAS_EVENTS, reason="ipyevents is not installed: the points cannot be touched")
def test_click_adds_and_drag_moves_a_point_in_voila(class_page):
    page, _ = class_page
    page.set_viewport_size({"width": 1366, "height": 768})
    demo = page.locator(".course-points-demo").first
    assert click_and_drag_problems(page, demo) == []


@pytest.mark.skipif(not HAS_EVENTS, reason="ipyevents is not installed: the points cannot be touched")
def test_click_adds_and_drag_moves_a_point_in_jupyterlab(lab, served_root, page):
    page.set_viewport_size({"width": 1366, "height": 768})
    problems = open_notebook(page, lab.url, "fixtures/class_mode.ipynb", workspace="points")
    problems += problems or run_all(page)
    if not problems:
        page.wait_for_selector(".course-points-demo img.course-figure", timeout=120_000)
        problems += figure_problems(page)
        problems += click_and_drag_problems(page, page.locator(".course-points-demo").first)
    lab.shutdown_kernels()
    assert problems == []


# --- accessibility ----------------------------------------------------------------------------

# Rules about JupyterLab's and Voila's own page structure, which the project does not write.
NOT_OURS = {"landmark-one-main", "region", "page-has-heading-one", "aria-allowed-role"}


def axe_problems(page, exclude=()):
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context={"exclude": [[s] for s in exclude]} if exclude else None)
    problems = []
    for violation in results.response["violations"]:
        if violation["impact"] in ("serious", "critical") and violation["id"] not in NOT_OURS:
            targets = [", ".join(node["target"]) for node in violation["nodes"][:3]]
            problems.append(f"{violation['id']} ({violation['impact']}): {violation['help']}; e.g. {targets}")
    return problems


@pytest.mark.skipif(not HAS_AXE, reason="axe-playwright-python is not installed")
def test_class_mode_has_no_serious_accessibility_violation(class_page):
    page, _ = class_page
    problems = axe_problems(page)
    assert problems == [], "\n".join(problems)


@pytest.mark.skipif(not HAS_AXE, reason="axe-playwright-python is not installed")
def test_jupyterlab_rendered_notebook_has_no_serious_violation_in_our_content(lab, page):
    """Lab's own chrome (menus, side bars, toolbars) is not ours: only the notebook is checked,
    its demos live. Each slider's handle is named after the slider's label (by the project's
    JupyterLab extension, share/jupyter/labextensions/course-companion), as axe requires."""
    problems = open_notebook(page, lab.url, "fixtures/good_demo.ipynb", workspace="axe")
    problems += problems or run_all(page)
    page.wait_for_selector(".course-demo img.course-figure", timeout=120_000)
    page.wait_for_timeout(500)
    sliders = page.locator(f"{PANEL} .widget-slider").evaluate_all("""sliders => sliders.map(s => [
        s.querySelector('.widget-label').textContent.trim(),
        Array.from(s.querySelectorAll('[role=slider]')).map(h => h.getAttribute('aria-label'))])""")
    assert len(sliders) == 3, sliders
    problems += [f"slider {label!r}: its handle is named {names}"
                 for label, names in sliders if names != [label]]
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context={"include": [[f"{PANEL} .jp-OutputArea"], [f"{PANEL} .jp-MarkdownOutput"]]})
    for violation in results.response["violations"]:
        if violation["impact"] in ("serious", "critical") and violation["id"] not in NOT_OURS:
            problems.append(f"{violation['id']}: {violation['help']}; e.g. {[n['target'] for n in violation['nodes'][:4]]}")
    lab.shutdown_kernels()
    assert problems == []


def test_our_jupyterlab_extension_is_fetched_again_when_it_changes(lab):
    """JupyterLab serves an extension's static/ folder as immutable (cached for a year: its
    bundles' names carry a hash of their content). Ours keeps its files' names from one version
    to the next, so they sit outside static/ and are served for revalidation at each load."""
    def cache_control(path):
        with urllib.request.urlopen(f"{lab.url}/lab/extensions/{path}", timeout=30) as response:
            return response.headers.get("Cache-Control", "")

    with urllib.request.urlopen(f"{lab.url}/lab", timeout=30) as response:
        page_config = re.search(r'<script id="jupyter-config-data"[^>]*>(.*?)</script>',
                                response.read().decode(), re.S)
    loads = {e["name"]: e["load"] for e in json.loads(page_config.group(1))["federated_extensions"]}
    widgets = "@jupyter-widgets/jupyterlab-manager"
    assert loads[widgets].startswith("static/")
    assert "immutable" in cache_control(f"{widgets}/{loads[widgets]}")
    assert loads["course-companion"] == "remoteEntry.js"
    for name in ("remoteEntry.js", "style.css"):
        assert cache_control(f"course-companion/{name}") == "no-cache", name


# Every chapter in Lab, in both languages, as a student opens it (its stored outputs, not run):
# its links (glossary, solutions) are underlined by the project's style sheet
# (share/jupyter/labextensions/course-companion), not told apart by colour alone, and axe
# finds no serious or critical violation in its text and outputs.
LINKS_IN_TEXT = f"{PANEL} .jp-RenderedMarkdown a[href]:not(.jp-InternalAnchorLink):not(.anchor-link)"
LAB_CHAPTERS = [f"notebooks/{p.relative_to(ROOT / 'notebooks').as_posix()}"
                for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
                + sorted((ROOT / "notebooks").glob("fr/[0-9][0-9]_*.ipynb"))]


@pytest.mark.parametrize("path", LAB_CHAPTERS)
def test_a_chapter_in_jupyterlab_has_underlined_links_and_no_serious_violation(lab, page, path):
    from axe_check import serious_violations

    page.goto(f"{lab.url}/lab/workspaces/underline/tree/{path}?reset", wait_until="domcontentloaded")
    page.wait_for_selector(LINKS_IN_TEXT, timeout=120_000)
    page.wait_for_timeout(1500)
    lines = page.locator(LINKS_IN_TEXT).evaluate_all("links => links.map(a => getComputedStyle(a).textDecorationLine)")
    problems = serious_violations(page, include=[f"{PANEL} .jp-MarkdownOutput", f"{PANEL} .jp-OutputArea"])
    lab.shutdown_kernels()
    assert lines and set(lines) == {"underline"}, lines
    assert problems == []


# --- the site -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site of chapter 01 and the fixture with demos (built here; a minute at most)."""
    spec = importlib.util.spec_from_file_location("build_site", ROOT / "tools" / "build_site.py")
    build_site = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_site)
    folder = tmp_path_factory.mktemp("site-src")
    paths = [FIXTURES / "good_demo.ipynb"]
    chapters = [ROOT / p for p in chapter_notebooks() if p.startswith("notebooks/01_")]
    out = tmp_path_factory.mktemp("site")
    build_site.build(chapters[:1] + paths if chapters else paths, out)
    return out


@pytest.fixture(scope="module")
def site_url(site):
    """The site served over local HTTP (the browser of the tests refuses every other URL;
    the pages work the same over file://)."""
    with servers.serve_folder(site) as url:
        yield url


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_site_links_resolve_offline_and_figures_have_alt_text(site, site_url, page, viewport):
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    requests = _external_requests(page)
    checked = 0
    for html in sorted(p for p in site.rglob("*.html") if "mathjax" not in p.parts):
        page.goto(f"{site_url}/{html.relative_to(site).as_posix()}", wait_until="load")
        links = page.evaluate("""() => Array.from(document.querySelectorAll('a[href], img[src]'))
            .map(e => [e.tagName, e.getAttribute('href') || e.getAttribute('src'), e.href || e.src,
                       e.tagName === 'IMG' ? (e.getAttribute('alt') || '') : 'n/a'])""")
        for tag, raw, resolved, alt in links:
            if tag == "IMG":
                assert alt.strip(), f"{html.name}: an image without alt text"
            if not resolved.startswith(site_url):
                continue
            path = urllib.parse.unquote(urllib.parse.urlparse(resolved).path).lstrip("/")
            assert (site / path).is_file(), f"{html.name}: {raw} does not resolve"
            checked += 1
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1"), f"{html.name} scrolls sideways"
    assert checked > 0
    assert requests == [], f"the site asked other hosts: {requests}"


# axe on every page of the whole site, at both sizes: test_site_in_browser.py.


def test_phone_width_reads_without_sideways_scrolling(site, site_url, page):
    page.set_viewport_size({"width": 390, "height": 844})
    pages = sorted(site.glob("0*.html")) or sorted(site.glob("*.html"))
    for html in [site / "index.html", pages[0]]:
        page.goto(f"{site_url}/{html.name}", wait_until="load")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1"), html.name


# --- make class ---------------------------------------------------------------------------------

def test_make_class_page_is_ready_within_90_s(browser, tmp_path_factory):
    """`make class`'s own command (Voila serving notebooks/) on chapter 01: the time from the
    request to a page with its figures, the chapter run on request (Voila 0.5 preheats a kernel
    only when it serves a single notebook, which would leave the glossary and solutions links
    dead)."""
    chapter = next((ROOT / p for p in chapter_notebooks() if p.startswith("notebooks/01_")), None)
    if chapter is None:
        pytest.skip("no chapter 01")
    from test_in_class_mode import MAKE_CLASS_OPTIONS

    launched = time.perf_counter()
    server = servers.start_voila(chapter.parent, tmp_path_factory.mktemp("make-class"),
                                 extra=MAKE_CLASS_OPTIONS)
    url = f"{server.url}/voila/render/{chapter.name}"
    page = browser.new_page()
    try:
        _open_dashboard(page, url)  # the first visit may wait for the pre-run
        first = time.perf_counter() - launched
        page.close()
        time.sleep(5)
        page = browser.new_page()
        start = time.perf_counter()
        _open_dashboard(page, url)
        ready = time.perf_counter() - start
    finally:
        page.close()
        server.stop()
    print(f"make class on {chapter.name}: first page {first:.1f} s after launch, "
          f"then ready {ready:.1f} s after a request")
    assert ready <= CLASS_READY_SECONDS, f"page ready in {ready:.1f} s"


# --- links ------------------------------------------------------------------------------------

MARKDOWN_LINKS = ".jp-RenderedMarkdown a[href]:not(.jp-InternalAnchorLink)"


def _file_name(url):
    return urllib.parse.unquote(urllib.parse.urlparse(url).path).rstrip("/").rsplit("/", 1)[-1]


@pytest.mark.parametrize("path", [p for p in chapter_notebooks() if "/solutions/" not in p] + ["notebooks/glossary.ipynb"])
def test_every_link_of_a_notebook_opens_in_jupyterlab(lab, page, path):
    """Lab serves a folder holding notebooks/ here (as a hub does with the clone) and notebooks/
    itself under `make lab`: a relative link inside notebooks/ is the same in both. Each link
    of a chapter is fetched (200) and clicked: its file opens in a tab of its own, with no error
    dialog. (The solutions' links back, generated the same way, are checked by
    tests/test_site.py and in class mode.)"""
    chapter = f"{lab.url}/lab/workspaces/links/tree/{path}?reset"
    page.goto(chapter, wait_until="domcontentloaded")
    page.wait_for_selector(f"{PANEL} .jp-RenderedMarkdown", timeout=120_000)
    if path != "notebooks/glossary.ipynb":  # a busy machine renders the cells one by one
        page.wait_for_selector(f"{PANEL} {MARKDOWN_LINKS}", state="attached", timeout=120_000)
    page.wait_for_timeout(1000)
    hrefs = page.locator(f"{PANEL} {MARKDOWN_LINKS}").evaluate_all("els => els.map(e => e.href)")
    local = [(index, href) for index, href in enumerate(hrefs) if href.startswith(lab.url)]
    problems = [f"{href}: {status}" for _, href in local if (status := page.request.get(href).status) != 200]
    own_tab = f".lm-TabBar-tab:has(.lm-TabBar-tabLabel:text-is('{_file_name(path)}'))"
    current = ("name => Array.from(document.querySelectorAll('.lm-TabBar-tab.lm-mod-current .lm-TabBar-tabLabel'))"
               ".some(e => e.textContent === name)")
    for index, href in local:
        page.locator(own_tab).first.click()  # back to the notebook, whose links are then shown
        page.wait_for_function(current, arg=_file_name(path), timeout=30_000)
        page.locator(f"{PANEL} {MARKDOWN_LINKS}").nth(index).click()
        name = _file_name(href)
        try:
            page.wait_for_function(current, arg=name, timeout=30_000)
        except Exception:
            problems.append(f"clicking {href} did not open {name}")
        if page.locator(".jp-Dialog").count():
            problems.append(f"clicking {href}: {page.locator('.jp-Dialog').inner_text()[:200]}")
    lab.shutdown_kernels()
    if path != "notebooks/glossary.ipynb":
        assert local, f"{path} shows no link to the glossary or solutions"
    assert problems == [], "\n".join(problems)
