"""Accessibility of the course as axe-core sees it: a table of the violations per page and per
surface, with how many rules each impact (critical, serious, moderate, minor) counts and the
rules' ids (with their element counts).

    python tools/axe_report.py                               # every page, every surface, both languages
    python tools/axe_report.py --surface site --page 03 glossary --language en
    python tools/axe_report.py --surface lab class --size 1366x768 --size 1920x1080

The surfaces, as the browser tests open them:
- site: the site (`make site`) built from the notebooks' stored outputs into a temporary folder:
  the chapters, their solutions, the glossary and the index;
- class: each chapter and the glossary as `make class` shows it (Voila runs the chapter);
- lab: each chapter and the glossary opened in JupyterLab (its stored outputs, not run), in two
  rows: `lab` is the chapter's text and outputs (what the tests hold to no serious violation),
  `lab-ui` is JupyterLab's own interface around it (menus, side bars, toolbars, editors).

`--page` keeps the pages whose path holds one of the words (03, solutions, glossary, index).
Servers run on 127.0.0.1 on a temporary copy of notebooks/ and stop at the end; Chromium is
Debian's (/usr/bin/chromium), refused every other host. axe-core is the browser tests' (`make
axe-deps`). A page is checked once drawn, at each size in turn.
"""

import argparse
import contextlib
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402
import servers  # noqa: E402
from axe_check import AXE  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from notebook_checks import PANEL  # noqa: E402
from test_in_class_mode import shown_demos, wait_until_drawn  # noqa: E402

SURFACES = ("site", "class", "lab")
IMPACTS = ("critical", "serious", "moderate", "minor")
LAB_CONTENT = f"{PANEL} .jp-MarkdownOutput, {PANEL} .jp-OutputArea"  # as the Lab tests check
TIMEOUT_MS = 900_000  # a chapter run by Voila on a busy machine
# Every violation, its elements split into those inside `content` (a CSS selector; all when
# null) and the others.
RUN = """async (content) => {
  const result = await axe.run(document, {resultTypes: ['violations'], elementRef: true});
  return result.violations.map(v => {
    const inside = v.nodes.filter(n => !content || (n.element && n.element.closest(content)));
    const outside = v.nodes.filter(n => !inside.includes(n));
    const example = nodes => nodes.slice(0, 3).map(n => `${n.target.join(' ')}: ${n.html.slice(0, 100)}`);
    return {id: v.id, impact: v.impact, inside: inside.length, outside: outside.length,
            example_inside: example(inside), example_outside: example(outside)};
  });
}"""
SITE_SETTLED = "!window.MathJax || !MathJax.Hub || MathJax.Hub.queue.pending === 0"
# Lab renders a notebook's cells one by one: their count the same for 2 s.
LAB_SETTLED = """() => {
  const count = document.querySelectorAll('.jp-MarkdownOutput, .jp-OutputArea-output').length;
  if (count !== window.__cells) { window.__cells = count; window.__since = Date.now(); return false; }
  return Date.now() - window.__since >= 2000;
}"""


def pages(surface, languages, words):
    """The pages of `surface` in `languages` whose name holds one of `words` (all when empty):
    names relative to notebooks/ (the site's root), without suffix."""
    notebooks = [path.relative_to(build_site.NOTEBOOKS).with_suffix("").as_posix()
                 for path in build_site.discover()]
    names = notebooks + ["index", "fr/index"] if surface == "site" else [
        n for n in notebooks if "solutions/" not in n]
    return [n for n in names if ("fr" if n.startswith("fr/") else "en") in languages
            and (not words or any(word in n for word in words))]


def check(page, sizes, content=None):
    """{size: violations} for the page as it is, at each size in turn."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = {}
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(1600)  # the site marks its sideways scrollers 1.5 s after a resize
        found[(width, height)] = page.evaluate(RUN, content)
    return found


def site_results(context, names, sizes, temp):
    sources = [p for p in build_site.discover()
               if p.relative_to(build_site.NOTEBOOKS).with_suffix("").as_posix() in names]
    with contextlib.redirect_stdout(sys.stderr):  # the build's progress, apart from the table
        build_site.build(sources or build_site.discover()[:1], temp / "site", execute_notebooks=False,
                         repo="someone/course-companion")
    with servers.serve_folder(temp / "site") as url:
        for name in names:
            page = context.new_page()
            page.goto(f"{url}/{name}.html", wait_until="load")
            page.wait_for_function(SITE_SETTLED, timeout=60_000)
            for size, violations in check(page, sizes).items():
                yield "site", name, size, violations
            page.close()


def class_results(context, names, sizes, temp):
    server = servers.start_voila(temp / "served" / "notebooks", temp / "voila")  # as `make class`
    try:
        for name in names:
            page = context.new_page()
            page.goto(f"{server.url}/voila/render/{name}.ipynb", wait_until="load", timeout=TIMEOUT_MS)
            wait_until_drawn(page, shown_demos(f"{name}.ipynb"), timeout_ms=TIMEOUT_MS)
            for size, violations in check(page, sizes).items():
                yield "class", name, size, violations
            page.close()  # Voila then ends the chapter's kernel
    finally:
        server.stop()


def lab_results(context, names, sizes, temp):
    server = servers.start_lab(temp / "served", temp / "lab")
    try:
        for number, name in enumerate(names):
            page = context.new_page()
            page.goto(f"{server.url}/lab/workspaces/axe{number}/tree/notebooks/{name}.ipynb?reset",
                      wait_until="domcontentloaded")
            page.wait_for_selector(f"{PANEL} .jp-RenderedMarkdown", timeout=120_000)
            page.wait_for_function(LAB_SETTLED, timeout=120_000, polling=250)
            for size, violations in check(page, sizes, LAB_CONTENT).items():
                yield "lab", name, size, [dict(v, outside=0) for v in violations if v["inside"]]
                yield "lab-ui", name, size, [dict(v, inside=v["outside"], example_inside=v["example_outside"])
                                             for v in violations if v["outside"]]
            page.close()
            server.shutdown_kernels()
    finally:
        server.stop()


def row(surface, name, size, violations):
    counts = [sum(v["impact"] == impact for v in violations) for impact in IMPACTS]
    rules = ", ".join(f"{v['id']} ({v['impact']}, {v['inside']})" for v in violations) or "none"
    return f"| {surface} | {name} | {size[0]}x{size[1]} | " + " | ".join(map(str, counts)) + f" | {rules} |"


def details(violations):
    """Up to three elements of each rule: their CSS path and the start of their HTML."""
    return [f"    {v['id']}: {example}" for v in violations for example in v["example_inside"]]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--surface", nargs="+", choices=SURFACES, default=list(SURFACES))
    parser.add_argument("--page", nargs="+", default=[], help="words a page's name holds (03, glossary, ...)")
    parser.add_argument("--language", nargs="+", choices=("en", "fr"), default=["en", "fr"])
    parser.add_argument("--size", action="append", help="WIDTHxHEIGHT of the window (default 1920x1080)")
    parser.add_argument("--examples", action="store_true", help="also print up to 3 elements of each rule, to stderr")
    args = parser.parse_args(argv)
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.size or ["1920x1080"]]
    if not AXE.exists():
        parser.error(f"{AXE} is missing: `make axe-deps`")
    from playwright.sync_api import sync_playwright

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # servers and browser stopped on `kill` too
    print(f"load average {os.getloadavg()[0]:.2f} at start", file=sys.stderr)
    print("| surface | page | size | " + " | ".join(IMPACTS) + " | rules (impact, elements) |")
    print("|---|---|---|" + "---|" * len(IMPACTS) + "---|")
    runs = {"site": site_results, "class": class_results, "lab": lab_results}
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as playwright:
        temp = Path(temp)
        shutil.copytree(build_site.NOTEBOOKS, temp / "served" / "notebooks",
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        if (ROOT / "figures").is_dir():
            shutil.copytree(ROOT / "figures", temp / "served" / "figures")
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        context = browser.new_context()
        context.route(lambda url: not url.startswith(("http://127.0.0.1", "data:", "blob:")),
                      lambda route: route.abort())
        try:
            for surface in args.surface:
                names = pages(surface, args.language, args.page)
                for result in runs[surface](context, names, sizes, temp):
                    print(row(*result), flush=True)
                    if args.examples and result[3]:
                        print(*details(result[3]), sep="\n", file=sys.stderr)
        finally:
            browser.close()
    print(f"load average {os.getloadavg()[0]:.2f} at end", file=sys.stderr)


if __name__ == "__main__":
    main()
