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
    """On `make class`'s page, a click on each link of the chapter (glossary, solutions) opens
    it as a dashboard: its title shown, no 403 or 404."""
    chapter = f"{make_class.url}/voila/render/{CHAPTER_01}"
    page.goto(chapter, wait_until="load", timeout=300_000)
    links = page.locator(".jp-RenderedMarkdown a[href]:not(.jp-InternalAnchorLink):not(.anchor-link)")
    hrefs = links.evaluate_all("els => els.map(e => e.href)")
    local = [(index, href) for index, href in enumerate(hrefs) if href.startswith(make_class.url)]
    assert len(local) >= 2, hrefs
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
