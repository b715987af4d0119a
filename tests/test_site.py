"""`make site`: a small notebook built into a temporary folder gives an index and a page that
load nothing from another host, show the demo's initial figure and index the syllabus IDs; the
README's own `make site` from a fresh clone gives a site whose every link opens; every link a
notebook shows leads to a file inside notebooks/, the folder JupyterLab and the class mode serve."""

import importlib.util
import html
import os
import re
import urllib.parse
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
spec = importlib.util.spec_from_file_location("build_site", ROOT / "tools" / "build_site.py")
build_site = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_site)
HAS_MATHJAX = importlib.util.find_spec("jupyter_server_mathjax") is not None  # else formulas stay TeX
REPO = "someone/course-companion"  # the fixture site's repository, for its Binder links
HAS_PAGEFIND = build_site.PAGEFIND.exists()  # `make search-deps`; CI's `make test` installs it


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nb")
    notebook = new_notebook(cells=[
        new_markdown_cell("# 99 · A small chapter\n\nThe margin is $1 / \\|w\\|$."),
        new_markdown_cell("## Soft margins and the role of C [K9, K13]"),
        new_code_cell("from course_lib.widgets.core import Demo, log_slider\n"
                      "Demo(lambda ax, C: ax.plot([0, 1], [0, C]), {'C': log_slider('C', 1.0, -2, 2)})"),
        new_markdown_cell("## Loss criteria [K18]"),
        new_code_cell("print(2 + 2)"),
        new_markdown_cell("The slides call the kernel a *noyau*; the penalty trades width for slack."),
        new_code_cell("# claim: two and two make four\nassert 2 + 2 == 4\nprint('2 + 2 = 4: True')",
                      metadata={"tags": ["claim"]}),
        new_code_cell("from course_lib.exercises.harness import Choice, Quiz\n"
                      "Quiz('Which points are support vectors?', [Choice('every point', False, 'Only alpha > 0.'),"
                      " Choice('alpha > 0', True, 'They alone make w.')])", metadata={"tags": ["quiz"]}),
    ])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells.insert(1, new_markdown_cell("[solutions](solutions/99_solutions.ipynb#Part), "
                                               "[the notes](notes.md), [data](table.csv)"))
    notebook.cells.append(new_code_cell("from course_lib.plotting.style import new_figure\n"
                                        "fig, ax = new_figure()\nax.set_title('A static figure')\nfig"))
    notebook.cells.append(new_code_cell("from course_lib.exercises import margins as ex\nex.check_slacks(...)",
                                        metadata={"tags": ["exercise"]}))
    notebook.cells.append(new_markdown_cell("## Both at once [K9] [K18]"))
    path = folder / "99_small.ipynb"
    nbformat.write(notebook, path)
    (folder / "solutions").mkdir()
    solutions = new_notebook(cells=[new_markdown_cell("# 99 · Solutions\n\n[back](../99_small.ipynb)"),
                                    new_markdown_cell("## Part")])
    solutions.metadata["kernelspec"] = notebook.metadata["kernelspec"]
    nbformat.write(solutions, folder / "solutions" / "99_solutions.ipynb")
    (folder / "notes.md").write_text("# Notes\n\n[the chapter](99_small.ipynb)\n")
    (folder / "table.csv").write_text("a,b\n1,2\n")
    out = tmp_path_factory.mktemp("site")
    if not HAS_PAGEFIND and os.environ.get("CI"):
        pytest.fail(f"CI must build the site's search, but {build_site.PAGEFIND} is missing")
    build_site.build([path, folder / "solutions" / "99_solutions.ipynb"], out, search=HAS_PAGEFIND, repo=REPO)
    return out


def test_index_and_page_exist(site):
    assert (site / "index.html").exists() and (site / "99_small.html").exists()


def test_nothing_is_loaded_from_another_host(site):
    for page in ("index.html", "99_small.html"):
        html = (site / page).read_text(encoding="utf-8")
        assert build_site.external_resources(html) == [], page
        scripts = re.findall(r"<script[^>]*\bsrc=\"([^\"]*)\"", html)
        assert all(not re.match(r"(https?:)?//", src) for src in scripts), scripts
        assert "" not in scripts, "a script without a source"
        if page != "index.html" and HAS_MATHJAX:
            assert any(src.startswith("mathjax/MathJax.js") for src in scripts), scripts
    assert (site / "mathjax" / "MathJax.js").exists() == HAS_MATHJAX


def test_the_checker_finds_external_hosts():
    html = ('<script src="https://cdn.example.org/x.js"></script><link href="//fonts.example.com/a.css">'
            '<style>@import "https://x.example.net/s.css"; .a { background: url(http://img.example/i.png) }</style>'
            '<a href="https://scikit-learn.org/">a link to follow is not a load</a><img src="data:image/png;base64,AA">')
    assert build_site.external_resources(html) == ["cdn.example.org", "fonts.example.com", "img.example",
                                                   "x.example.net"]


def test_the_demo_shows_its_initial_figure_and_values(site):
    html = (site / "99_small.html").read_text(encoding="utf-8")
    assert "widget-view+json" not in html and "Loading widget" not in html
    assert "here at its initial values: C = 1" in html
    assert len(re.findall(r'<img[^>]*src="data:image/png;base64,', html)) == 2
    assert "4" in re.sub(r"<[^>]+>", " ", html)


def test_index_lists_sections_by_chapter_and_syllabus_id(site):
    html = (site / "index.html").read_text(encoding="utf-8")
    assert "99 · A small chapter" in html
    for syllabus_id in ("K9", "K13", "K18"):
        assert f"<td id='{syllabus_id}'>{syllabus_id}</td>" in html
    anchors = re.findall(r"href='99_small\.html#([^']+)'", html)
    page = (site / "99_small.html").read_text(encoding="utf-8")
    assert anchors and all(f'id="{a}"' in page for a in anchors), anchors


def test_a_quiz_reads_as_text_with_its_explanations_folded(site):
    page = (site / "99_small.html").read_text(encoding="utf-8")
    assert "Which points are support vectors?" in page and "every point" in page
    details = page.index("<details>")  # the quiz's (the table of contents has a class)
    assert details < page.index("<b>right</b>: They alone make w.") < page.index("</details>", details)
    assert page.count("course-frozen-demo") == 1  # the Demo only: the quiz is not a frozen widget
    # lettered A, B as in the widget's choices, though JupyterLab's style sheet numbers lists
    assert page.count("<ol style=\"list-style-type: upper-alpha\" type=\"A\">") + page.count(
        "<ol type='A' style='list-style-type: upper-alpha'>") == 2


def test_an_exercise_shows_its_task_and_a_link_to_the_solutions_not_a_failed_check(site):
    page = (site / "99_small.html").read_text(encoding="utf-8")
    assert "check_slacks" in page and "course-exercise-code" in page  # the task, open
    assert "Not yet" not in page and "Replace every" not in page
    note = re.search(r"<p class=[\"']course-exercise-note[\"']>(.*?)</p>", page)
    assert note and "make lab" in note.group(1)
    assert '<a href="solutions/99_solutions.html">The worked solution</a>' in note.group(1)


def test_an_exercise_without_solutions_gets_the_note_alone_and_solutions_keep_their_checks(tmp_path):
    cell = new_code_cell("ex.check(...)", metadata={"tags": ["exercise"]}, outputs=[
        nbformat.v4.new_output("execute_result", data={"text/markdown": "**Not yet.**"}, execution_count=1)])
    chapter = build_site.exercise_notes(new_notebook(cells=[cell]), tmp_path / "98_x.ipynb")
    (shown,) = chapter.cells[0].outputs
    assert "course-exercise-note" in shown.data["text/html"] and "<a " not in shown.data["text/html"]
    kept = new_code_cell("ex.check(answer)", metadata={"tags": ["exercise"]}, outputs=[
        nbformat.v4.new_output("execute_result", data={"text/markdown": "**Right.**"}, execution_count=1)])
    solutions = build_site.exercise_notes(new_notebook(cells=[kept]), tmp_path / "solutions" / "98_solutions.ipynb")
    assert solutions.cells[0].outputs[0].data == {"text/markdown": "**Right.**"}


def test_site_and_refresh_keep_the_quiz_rendering_and_drop_other_views():
    spec = importlib.util.spec_from_file_location("refresh_notebooks", ROOT / "tools" / "refresh_notebooks.py")
    refresh_notebooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(refresh_notebooks)
    from course_lib.exercises.harness import Choice
    from course_lib.widgets.quiz import WIDGET_VIEW, Quiz

    choices = [Choice("all", False, "Only alpha > 0."), Choice("alpha > 0", True, "They make w.")]
    quiz_output = nbformat.v4.new_output("display_data", data=Quiz("Q?", choices)._repr_mimebundle_())
    cell = nbformat.v4.new_code_cell("Quiz(...)", outputs=[quiz_output])
    notebook = build_site.freeze_widgets(nbformat.v4.new_notebook(cells=[cell]))
    data = notebook.cells[0].outputs[0]["data"]
    assert WIDGET_VIEW not in data and "<details>" in data["text/html"] and "They make w." in data["text/html"]
    assert set(data) == {"text/html", "text/plain"}
    saved = refresh_notebooks.static(quiz_output)["data"]  # a saved notebook: the question, not the answer
    assert set(saved) == {"text/html", "text/plain"} and "alpha &gt; 0" in saved["text/html"]
    assert "They make w." not in str(saved) and "<details>" not in saved["text/html"]
    demo_output = nbformat.v4.new_output("display_data", data={WIDGET_VIEW: {"model_id": "x"}, "text/plain": "Demo"})
    assert WIDGET_VIEW not in refresh_notebooks.static(demo_output)["data"]
    printed = [nbformat.v4.new_output("stream", name="stdout", text=text) for text in ("a\n", "b\n")]
    figure = nbformat.v4.new_output("display_data", data={"text/plain": "figure"})
    assert [out.get("text") for out in refresh_notebooks.joined([*printed, figure, printed[0].copy()])] == \
        ["a\nb\n", None, "a\n"]  # one print sent as two messages is saved as one; the order stays


def test_refresh_joins_a_print_the_kernel_sent_in_pieces():
    spec = importlib.util.spec_from_file_location("refresh_notebooks", ROOT / "tools" / "refresh_notebooks.py")
    refresh_notebooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(refresh_notebooks)
    pieces = [nbformat.v4.new_output("stream", name="stdout", text="a\n"), nbformat.v4.new_output("stream", name="stdout", text="b\n"),
              nbformat.v4.new_output("stream", name="stderr", text="warning\n"), nbformat.v4.new_output("stream", name="stdout", text="c\n")]
    assert [(o.name, o.text) for o in refresh_notebooks.joined(pieces)] == [
        ("stdout", "a\nb\n"), ("stderr", "warning\n"), ("stdout", "c\n")]


def _local_links(page):
    """The local targets of a page's links and images, as a browser reads them (HTML entities
    decoded; an apostrophe may stand inside a double-quoted attribute)."""
    text = page.read_text(encoding="utf-8")
    found = re.findall(r"""<(?:a|img)\b[^>]*?\b(?:href|src)=(?:"([^"]*)"|'([^']*)')""", text)
    urls = [html.unescape(double or single) for double, single in found]
    return [u for u in urls if u and not re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:|//", u)]


def _ids(page):
    return {html.unescape(i) for i in re.findall(r'\bid="([^"]*)"', page.read_text(encoding="utf-8"))}


def broken_links(site):
    """(broken links as 'page: url', number of local links checked) over every page of a site:
    each must name a file inside the site, and its #anchor an id of that page."""
    pages = [p for p in sorted(site.rglob("*.html")) if "mathjax" not in p.parts]
    broken, checked = [], 0
    for page in pages:
        for url in _local_links(page):
            path, _, anchor = url.partition("#")
            target = (page.parent / path).resolve() if path else page
            if not (target.is_file() and target.is_relative_to(site.resolve())):
                broken.append(f"{page.relative_to(site)}: {url}")
            elif anchor and target.suffix == ".html" and not {anchor, urllib.parse.unquote(anchor)} & _ids(target):
                broken.append(f"{page.relative_to(site)}: {url} (no such anchor)")
            checked += 1
    return broken, checked


def test_every_local_link_resolves_inside_the_site(site):
    broken, checked = broken_links(site)
    assert broken == []
    chapter = (site / "99_small.html").read_text(encoding="utf-8")
    assert 'href="solutions/99_solutions.html#Part"' in chapter and 'href="notes.html"' in chapter
    assert 'href="../99_small.html"' in (site / "solutions" / "99_solutions.html").read_text(encoding="utf-8")
    assert (site / "table.csv").exists() and checked > 10


def test_every_page_opens_its_notebook_on_binder(site):
    binder = "https://mybinder.org/v2/gh/someone/course-companion/main?urlpath=lab/tree/notebooks/"
    for page, notebook in (("99_small.html", "99_small.ipynb"),
                           ("solutions/99_solutions.html", "solutions/99_solutions.ipynb")):
        text = (site / page).read_text(encoding="utf-8")
        bar = re.search(r"<nav class='course-nav'.*?</nav>", text, re.S).group(0)
        link = f"<a class='course-binder' href='{binder}{notebook}'>Run it on Binder</a>"
        assert link in bar, bar
        assert build_site.share_links.binder(REPO, notebook) == binder + notebook  # named in one place
    entry = {"href": "99_small.html", "language": "en", "title": "99", "headings": [], "binder": None}
    assert "course-binder" not in build_site.navigation([entry], 0)  # no repository, no link
    with pytest.raises(SystemExit):
        build_site.main(["--repo", "not a repository", "--out", "unused"])


def test_a_link_to_a_missing_file_stops_the_build(tmp_path):
    notebook = new_notebook(cells=[new_markdown_cell("# 98 · Broken\n\n[gone](nowhere.ipynb)")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, tmp_path / "98_broken.ipynb")
    with pytest.raises(RuntimeError, match="98_broken.html: nowhere.ipynb"):
        build_site.build([tmp_path / "98_broken.ipynb"], tmp_path / "out")


def test_pages_have_index_previous_next_contents_and_figures_have_alt_text(site):
    chapter = (site / "99_small.html").read_text(encoding="utf-8")
    solutions = (site / "solutions" / "99_solutions.html").read_text(encoding="utf-8")
    assert "href='index.html'>Index" in chapter and "rel='next' href='solutions/99_solutions.html'" in chapter
    assert "rel='prev' href='../99_small.html'" in solutions and "href='../index.html'>Index" in solutions
    toc = re.search(r"<details class='course-toc'.*?</details>", chapter, re.S).group(0)
    assert "Soft margins and the role of C [K9, K13]" in toc and "Loss criteria [K18]" in toc
    assert "Both at once [K9] [K18]</a></li>" in toc  # its IDs not listed a second time
    assert 'name="viewport"' in chapter
    images = re.findall(r"<img\b[^>]*>", chapter)
    assert images and all(re.search(r'alt="[^"]+"', tag) for tag in images), images
    static = [tag for tag in images if 'alt="A static figure"' in tag]  # a CourseFigure's own <img>
    assert len(static) == 1 and 'class="course-output-figure"' in static[0] and "min(528px" in static[0], static


def test_the_index_searches_section_titles_and_ids_offline(site):
    html = (site / "index.html").read_text(encoding="utf-8")
    data = re.search(r'<script type="application/json" id="course-search-data">(.*?)</script>', html, re.S)
    import json
    records = json.loads(data.group(1).replace("<\\/", "</"))
    loss = [r for r in records if r["t"] == "Loss criteria [K18]"]
    assert len(loss) == 1 and loss[0]["i"] == ["K18"] and loss[0]["c"] == "99 · A small chapter"
    anchor = loss[0]["h"].removeprefix("99_small.html#")
    assert f'id="{anchor}"' in (site / "99_small.html").read_text(encoding="utf-8")
    assert 'id="course-search"' in html and "fetch(" not in html


def test_code_is_folded_and_a_claim_shows_its_sentence(site):
    page = (site / "99_small.html").read_text(encoding="utf-8")
    claim = re.search(r'<details class="course-code course-claim-code"[^>]*><summary>(.*?)</summary>(.*?)</details>',
                      page, re.S)
    assert claim and claim.group(1).startswith("Checked: two and two make four"), claim
    assert "assert" in re.sub(r"<[^>]+>", "", claim.group(2))  # the code, inside the fold
    assert "2 + 2 = 4: True" in page[claim.end():]  # its result, shown after the fold
    codes = re.findall(r"<details class=\"course-code[^>]*>", page)
    exercises = [tag for tag in codes if "course-exercise-code" in tag]
    assert len(exercises) == 1 and all(" open" in tag for tag in exercises)  # the task stays open
    assert len(codes) == 6 and not any(" open" in tag for tag in codes if tag not in exercises), codes
    assert re.search(r"<main data-pagefind-body(=\"\")?>", page)


@pytest.mark.skipif(not HAS_PAGEFIND, reason="Pagefind is not installed: `make search-deps`")
def test_the_text_is_indexed_for_the_search(site):
    """Pagefind wrote its index and UI beside the index page, which loads them from there
    (the searches themselves run in tests/browser/test_site_in_browser.py)."""
    assert (site / "pagefind" / "pagefind.js").is_file() and (site / "pagefind" / "pagefind-ui.js").is_file()
    assert list((site / "pagefind" / "fragment").glob("*.pf_fragment"))
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '<script src="pagefind/pagefind-ui.js"></script>' in index and 'id="search"' in index


# --- the links a notebook shows -------------------------------------------------------------------

RELATIVE = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:|/|#")  # a scheme, an absolute path or an anchor
MARKDOWN_TARGET = re.compile(r"""\]\(([^)\s]+)\)|\b(?:href|src)=["']([^"']+)["']""")


def notebook_links(folder=NOTEBOOKS):
    """(notebook, relative link) of every markdown cell of every notebook under `folder`."""
    import nbformat

    for path in sorted(folder.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown":
                for found in MARKDOWN_TARGET.findall(cell.source):
                    url = found[0] or found[1]
                    if not RELATIVE.match(url):
                        yield path, url


def test_every_link_of_a_notebook_leads_inside_notebooks():
    """`make lab` and `make class` serve notebooks/, a hub the whole clone: a link leaving
    notebooks/ (`../GLOSSARY.md`) is a 404 in Lab and a 403 in Voila. Inside it, the same
    relative link opens in Lab, in class mode, on a hub and, rewritten, on the site."""
    links = list(notebook_links())
    broken = []
    for notebook, url in links:
        target = (notebook.parent / url.partition("#")[0]).resolve()
        if not (target.is_file() and target.is_relative_to(NOTEBOOKS.resolve())):
            broken.append(f"{notebook.relative_to(NOTEBOOKS)}: {url}")
    assert broken == [] and len(links) >= 24, broken
    chapters = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) + sorted(NOTEBOOKS.glob("fr/[0-9][0-9]_*.ipynb"))
    glossary = {path for path, url in links if url.startswith("glossary.ipynb")}
    assert glossary == set(chapters), "every chapter links the glossary"
    solved = {path for path in chapters if (path.parent / "solutions" / f"{path.name[:2]}_solutions.ipynb").exists()}
    linked = {path for path, url in links if url.startswith("solutions/")}
    english = {path for path in solved if path.parent == NOTEBOOKS}  # (the French edition follows its English)
    assert english - linked == set(), "a chapter with worked solutions links them (a link, not a name in code)"


def test_solutions_take_the_chapters_links_from_their_own_folder():
    sys.path.insert(0, str(ROOT / "tools"))
    import make_solutions

    text = ("Worked solutions: [solutions/05_solutions.ipynb](solutions/05_solutions.ipynb), the "
            "[glossary](glossary.ipynb#K9), [sklearn](https://scikit-learn.org/), [above](#Top), "
            '<img src="../figures/K9.png" alt="K9">')
    assert make_solutions.from_solutions(text) == (
        "Worked solutions: [solutions/05_solutions.ipynb](05_solutions.ipynb), the "
        "[glossary](../glossary.ipynb#K9), [sklearn](https://scikit-learn.org/), [above](#Top), "
        '<img src="../../figures/K9.png" alt="K9">')


# --- the French edition -----------------------------------------------------------------------------

def _chapter(path, title, text, link=None):
    notebook = new_notebook(cells=[new_markdown_cell(f"# {title}\n\n{text}" + (f" [glossaire]({link})" if link else "")),
                                   new_code_cell("# affirmation : deux et deux font quatre\nassert 2 + 2 == 4",
                                                 metadata={"tags": ["claim"]})])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)
    return path


def test_french_pages_come_from_the_manifest_with_their_lang_and_language_switch(tmp_path):
    folder = tmp_path / "nb"
    english = [_chapter(folder / "97_one.ipynb", "97 · One", "A kernel."),
               _chapter(folder / "98_two.ipynb", "98 · Two", "Not translated yet."),
               _chapter(folder / "glossary.ipynb", "Glossary", "Kernel: noyau.")]
    _chapter(folder / "fr" / "97_one.ipynb", "97 · Un", "Un noyau.", link="glossary.ipynb")
    _chapter(folder / "fr" / "98_two.ipynb", "98 · Deux", "Une traduction que le manifeste ne liste pas.")
    _chapter(folder / "fr" / "glossary.ipynb", "Glossaire", "Noyau : kernel.")
    manifest = tmp_path / "manifest.toml"
    manifest.write_text('translated = ["glossary", "97_one"]\nnot_yet = ["98_two"]\n')
    french = build_site.french(folder, manifest)
    assert [p.relative_to(folder).as_posix() for p in french] == ["fr/97_one.ipynb", "fr/glossary.ipynb"]
    out = tmp_path / "site"
    build_site.build(english + french, out, execute_notebooks=False, search=False)

    page = (out / "fr" / "97_one.html").read_text(encoding="utf-8")
    assert '<html lang="fr">' in page and '<html lang="en">' in (out / "97_one.html").read_text(encoding="utf-8")
    assert "<a class='course-language' href='../97_one.html' hreflang='en' lang='en'>English</a>" in page
    assert "href='index.html'>Index des chapitres" in page and 'href="glossary.html"' in page
    assert "<summary>Vérifié : deux et deux font quatre" in page
    assert "href='fr/97_one.html' hreflang='fr'" in (out / "97_one.html").read_text(encoding="utf-8")
    # A chapter without French: its switch leads to the French index, which links its English page.
    assert "href='fr/index.html' hreflang='fr' lang='fr'>Français : Index des chapitres" in (
        out / "98_two.html").read_text(encoding="utf-8")
    index = (out / "fr" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="fr">' in index and "href='../98_two.html' hreflang='en'" in index
    table = index[index.index("<h2>Chapitres</h2>"):]
    assert table.index("97_one.html") < table.index("98_two.html") < table.index("glossary.html")
    assert not (out / "fr" / "98_two.html").exists()
    broken, checked = broken_links(out)
    assert broken == [] and checked >= 10


def test_a_translated_chapter_missing_from_the_french_folder_stops_the_build(tmp_path):
    (tmp_path / "fr").mkdir()
    manifest = tmp_path / "manifest.toml"
    manifest.write_text('translated = ["97_one"]\n')
    with pytest.raises(RuntimeError, match="97_one.*make french"):
        build_site.french(tmp_path, manifest)


def test_the_contents_nest_a_sections_subsections_under_it():
    """A subsection (###) is listed inside its section's item, not numbered among the sections."""
    entry = {"href": "99_small.html", "language": "en", "title": "99 · A small chapter", "headings": [
        (1, "99 · A small chapter", "99", []), (2, "Soft margins [K9]", "Soft", ["K9"]),
        (3, "Computing w0", "w0", []), (2, "Exercises", "Exercises", []), (3, "Concept questions", "Concept", [])]}
    toc = re.search(r"<ol>.*</ol>", build_site.navigation([entry], 0)).group(0)
    sections = re.findall(r"<li class='level2'>(.*?)</li>(?=<li class='level2'>|</ol>)", toc)
    assert len(sections) == 2, toc
    assert "href='#w0'" in sections[0] and "<ul><li class='level3'>" in sections[0], toc
    assert "href='#Concept'" in sections[1] and "<ul><li class='level3'>" in sections[1], toc
