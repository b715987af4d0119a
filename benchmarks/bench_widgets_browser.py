"""Key press to new image, in a real browser: a slider's handle gets arrow-key presses towards
its farther end (up to 10, fewer when the end comes first), each to a value not yet drawn, then
as many back (values already shown), and each press is timed from its keydown event to the new
figure decoded (`img.decode()`), in JupyterLab and in Voila. The slider is chosen by its label
(`NN:label`, e.g. `08:λ`; by default C in chapters 03, 05, 10 and 11), else it is the first
slider of the chapter's first Demo. Target: median <= 150 ms on a quiet 2-core machine.

    python -m benchmarks widgets_browser [03 05 08 08:λ 10 11 ...]

Uses the browser tests' servers (tests/browser/servers.py) on a temporary copy of notebooks/,
and Debian's Chromium (/usr/bin/chromium) driven by Playwright, 1366 x 768.
"""

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import notebook_checks  # noqa: E402
import servers  # noqa: E402

PRESSES = 10  # at most, towards the farther end: new values; then as many back, values already shown
CHAPTERS = ("03", "05")
SLIDERS = {"03": "C", "05": "C", "10": "C", "11": "C"}  # the label timed by default, per chapter
FIND_TIMEOUT = 120  # seconds for the chosen slider to appear (Voila sends its page progressively)
CHROMIUM = "/usr/bin/chromium"
ARM = """(demo) => {
    window.__latency = null;
    if (window.__observer) window.__observer.disconnect();  // a press that moved nothing
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
    window.__observer = observer;
}"""


def slider_label(slider):
    return " ".join(slider.locator(".widget-label").all_inner_texts()).strip()


def find_slider(page, label=None):
    """The first Demo with a slider labelled `label` (None: the first Demo with a slider) and
    that slider, waiting up to FIND_TIMEOUT s for it to be shown."""
    deadline = time.monotonic() + FIND_TIMEOUT
    while True:
        demos = page.locator(".course-demo")
        for number in range(demos.count()):
            sliders = demos.nth(number).locator(".widget-slider")
            for index in range(sliders.count()):
                if label is None or slider_label(sliders.nth(index)) == label:
                    return demos.nth(number), sliders.nth(index)
        if time.monotonic() > deadline:
            raise RuntimeError(f"no Demo with a slider labelled {label!r} on the page" if label
                               else "no Demo with a slider on the page")
        page.wait_for_timeout(500)


def readout(slider):
    shown = slider.locator(".widget-readout")
    return shown.first.inner_text().strip() if shown.count() else ""


def moved(slider, before, timeout=2.0):
    """Has the slider's readout left `before` within `timeout` s?"""
    deadline = time.monotonic() + timeout
    while readout(slider) == before:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def press_times(page, settle, label=None):
    """Milliseconds per key press, and the slider's label: up to PRESSES new values towards the
    farther end (the handle's aria-valuenow between aria-valuemin and aria-valuemax), then as
    many back. A press that leaves the readout as it was (the end reached) ends the new values."""
    demo, slider = find_slider(page, label)
    handle = slider.locator(".noUi-handle").first
    handle.scroll_into_view_if_needed()
    low, now, high = (float(handle.get_attribute(f"aria-value{end}")) for end in ("min", "now", "max"))
    keys = ("ArrowRight", "ArrowLeft") if high - now >= now - low else ("ArrowLeft", "ArrowRight")
    times = {"new": [], "shown": []}
    for kind, key in zip(times, keys):
        for _ in range(PRESSES if kind == "new" else len(times["new"])):
            before = readout(slider)
            demo.evaluate(ARM)
            handle.focus()
            handle.press(key)
            if not moved(slider, before):
                break  # the end of the slider
            page.wait_for_function("window.__latency !== null", timeout=60_000)
            times[kind].append(page.evaluate("window.__latency"))
            settle()
    return times, slider_label(slider)


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
    chosen = [tuple(word.split(":", 1)) if ":" in word else (word, SLIDERS.get(word))
              for word in chapters if word[:2].isdigit()] or [(c, SLIDERS.get(c)) for c in CHAPTERS]
    print(f"load average {os.getloadavg()[0]:.2f}; key press to new image decoded, ms, "
          f"median (max) of the presses (n)")
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as playwright:
        temp = Path(temp)
        shutil.copytree(ROOT / "notebooks", temp / "served" / "notebooks")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        lab = servers.start_lab(temp / "served", temp / "lab")
        voila = servers.start_voila(temp / "served", temp / "voila")
        try:
            for number, label in chosen:
                name = chapter(number)
                notebook_checks.open_notebook(page, lab.url, f"notebooks/{name}", f"bench-{number}")
                notebook_checks.run_all(page)
                report("JupyterLab", name, *press_times(
                    page, lambda: notebook_checks.wait_until_settled(page, 60, quiet=0.3), label))
                lab.shutdown_kernels()
                page.goto(f"{voila.url}/voila/render/notebooks/{name}", wait_until="load",
                          timeout=600_000)
                page.wait_for_selector(".course-demo img.course-figure", timeout=600_000)
                report("Voila", name, *press_times(page, lambda: page.wait_for_timeout(300), label))
                page.goto("about:blank")  # Voila ends the dashboard's kernel when it is left
        finally:
            lab.stop()
            voila.stop()
            browser.close()


def report(where, name, times, label):
    cells = ", ".join(f"{kind} value {np.median(ms):.0f} ({max(ms):.0f}) n={len(ms)}" if ms else f"{kind} value -"
                      for kind, ms in times.items())
    print(f"{where:10s} {name:32s} {label}: {cells}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
