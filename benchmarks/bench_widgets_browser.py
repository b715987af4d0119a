"""Key press to new image, in a real browser: a slider's handle gets ArrowRight presses, then
as many ArrowLeft presses (values already shown), and each press is timed from its keydown
event to the new figure decoded (`img.decode()`), in JupyterLab and in Voila, for the first C
slider of chapters 03 and 05. Target: median <= 150 ms on a quiet 2-core machine.

    python -m benchmarks widgets_browser [03 05 ...]

Uses the browser tests' servers (tests/browser/servers.py) on a temporary copy of notebooks/,
and Debian's Chromium (/usr/bin/chromium) driven by Playwright, 1366 x 768.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import notebook_checks  # noqa: E402
import servers  # noqa: E402

PRESSES = 10  # each way: 10 new values, then 10 values already shown
CHAPTERS = ("03", "05")
CHROMIUM = "/usr/bin/chromium"
ARM = """(demo) => {
    window.__latency = null;
    const shown = () => { const img = demo.querySelector('img.course-figure');
                          return img ? img.getAttribute('src') : null; };
    const old = shown();
    let start = null;
    document.addEventListener('keydown', () => { start = performance.now(); },
                              {capture: true, once: true});
    const observer = new MutationObserver(() => {
        const img = demo.querySelector('img.course-figure');
        if (start === null || !img || img.getAttribute('src') === old) return;
        observer.disconnect();
        const done = () => { window.__latency = performance.now() - start; };
        img.decode().then(done, done);
    });
    observer.observe(demo, {subtree: true, childList: true, attributes: true});
}"""


def c_slider(page):
    """The first Demo with a slider labelled C, and that slider's handle."""
    demos = page.locator(".course-demo")
    for number in range(demos.count()):
        demo = demos.nth(number)
        sliders = demo.locator(".widget-slider")
        for index in range(sliders.count()):
            label = " ".join(sliders.nth(index).locator(".widget-label").all_inner_texts()).strip()
            if label == "C":
                return demo, sliders.nth(index).locator(".noUi-handle").first
    raise RuntimeError("no Demo with a slider labelled C on the page")


def press_times(page, settle):
    """Milliseconds per key press: PRESSES new values (ArrowRight), then PRESSES back."""
    demo, handle = c_slider(page)
    handle.scroll_into_view_if_needed()
    times = {"new": [], "shown": []}
    for kind, key in (("new", "ArrowRight"), ("shown", "ArrowLeft")):
        for _ in range(PRESSES):
            demo.evaluate(ARM)
            handle.focus()
            handle.press(key)
            page.wait_for_function("window.__latency !== null", timeout=60_000)
            times[kind].append(page.evaluate("window.__latency"))
            settle()
    return times


def chapter(number):
    return next((ROOT / "notebooks").glob(f"{number}_*.ipynb")).name


def main(chapters=CHAPTERS):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if sync_playwright is None or not Path(CHROMIUM).exists():
        print(f"skipped: needs Playwright and {CHROMIUM} (`make browser-deps`)")
        return
    chapters = [c for c in chapters if c.isdigit()] or CHAPTERS
    print(f"load average {os.getloadavg()[0]:.2f}; key press to new image decoded, ms, "
          f"median (max) of {PRESSES} presses")
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as playwright:
        temp = Path(temp)
        shutil.copytree(ROOT / "notebooks", temp / "served" / "notebooks")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        lab = servers.start_lab(temp / "served", temp / "lab")
        voila = servers.start_voila(temp / "served", temp / "voila")
        try:
            for number in chapters:
                name = chapter(number)
                notebook_checks.open_notebook(page, lab.url, f"notebooks/{name}", f"bench-{number}")
                notebook_checks.run_all(page)
                report("JupyterLab", name, press_times(
                    page, lambda: notebook_checks.wait_until_settled(page, 60, quiet=0.3)))
                lab.shutdown_kernels()
                page.goto(f"{voila.url}/voila/render/notebooks/{name}", wait_until="load",
                          timeout=600_000)
                page.wait_for_selector(".course-demo img.course-figure", timeout=600_000)
                report("Voila", name, press_times(page, lambda: page.wait_for_timeout(300)))
                page.goto("about:blank")  # Voila ends the dashboard's kernel when it is left
        finally:
            lab.stop()
            voila.stop()
            browser.close()


def report(where, name, times):
    cells = ", ".join(f"{kind} value {np.median(ms):.0f} ({max(ms):.0f})" for kind, ms in times.items())
    print(f"{where:10s} {name:32s} C: {cells}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
