"""What a student would see go wrong in a notebook, checked in a real browser.

Every check returns a list of problems (plain sentences, empty when all is well), so a test
asserts `problems == []` and a negative test asserts which problem was found.

The page structure relied on: JupyterLab 4 (cells, prompts, outputs, the toolbar's kernel
execution indicator), ipywidgets 8 sliders (noUiSlider handles and a readout) and
course_lib's Demo: a `.course-demo` box holding a `.course-figure` image whose `src` changes
at each redraw and a `.course-status` line that gets `.course-demo-error` when drawing fails.
"""

import re
import time

RUN_TIMEOUT = 300  # seconds for Run All on one notebook (each should take well under 30 s)
REDRAW_TIMEOUT = 30  # seconds for one figure redraw after a slider move, including fits
KERNEL_TIMEOUT = 120  # seconds for a kernel to start
POLL = 0.1

PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
INDICATOR = f"{PANEL} .jp-Notebook-ExecutionIndicator"
TEXT_REPR = re.compile(r"\b(Demo|VBox|HBox|interactive|Image|FloatLogSlider|FloatSlider|IntSlider)\(children=|"
                       r"\b(FloatLogSlider|FloatSlider|IntSlider|Dropdown)\(value=")
ERROR_LINE = re.compile(r"Traceback \(most recent call last\)|^\w*(Error|Exception)\b", re.M)
WIDGET_FAILURES = ("Loading widget...", "Error displaying widget", "Failed to load model class",
                   "model not found")


def _short(text, limit=300):
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + " ..."


def _wait(condition, timeout):
    """Poll `condition()` until it is true or `timeout` seconds pass; returns its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(POLL)


# --- JupyterLab ----------------------------------------------------------------------------

def kernel_status(page):
    statuses = page.locator(INDICATOR).evaluate_all("els => els.map(e => e.dataset.status)")
    return statuses[0] if statuses else None


def code_prompts(page):
    return page.locator(f"{PANEL} .jp-CodeCell .jp-InputPrompt").all_inner_texts()


def open_notebook(page, base_url, path, workspace):
    """Open `path` (relative to Lab's root) in a fresh workspace and wait for an idle kernel."""
    page.goto(f"{base_url}/lab/workspaces/{workspace}/tree/{path}?reset", wait_until="domcontentloaded")
    page.wait_for_selector(f"{PANEL} .jp-Notebook", timeout=KERNEL_TIMEOUT * 1000)
    # Idle for a while, not just once: right after its first idle Lab may still be wiring the
    # kernel to the notebook, and a Run All sent then is silently dropped.
    if not wait_until_settled(page, KERNEL_TIMEOUT, quiet=2.0):
        return [f"the kernel did not become idle within {KERNEL_TIMEOUT} s (status {kernel_status(page)!r})"]
    return []


def wait_until_settled(page, timeout, quiet=1.0):
    """Wait until no cell is running or queued ([*]) and the kernel has been idle for `quiet` s."""
    deadline = time.monotonic() + timeout
    idle_since = None
    while time.monotonic() < deadline:
        busy = kernel_status(page) != "idle" or any("*" in p for p in code_prompts(page))
        if busy:
            idle_since = None
        elif idle_since is None:
            idle_since = time.monotonic()
        elif time.monotonic() - idle_since >= quiet:
            return True
        time.sleep(POLL)
    return False


def run_all(page, timeout=RUN_TIMEOUT):
    """Run every cell from the Run menu and wait until all have run."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).first.click()
    page.locator("li[data-command='runmenu:run-all']").click()
    # Let the first cell get queued before looking for the end of the run.
    _wait(lambda: any(re.search(r"\[(\*|\d+)\]", p) for p in code_prompts(page)), 10)
    if not wait_until_settled(page, timeout):
        return [f"cells were still running after {timeout} s: prompts {code_prompts(page)}"]
    return []


def output_problems(page):
    """Error outputs, code cells that never ran, widgets that failed to render or show as text."""
    problems = []
    prompts = code_prompts(page)
    not_run = [i for i, p in enumerate(prompts, 1) if not re.search(r"\[\d+\]", p)]
    if not_run:
        problems.append(f"code cells {not_run} (of {len(prompts)}) did not run")
    outputs = page.locator(f"{PANEL} .jp-OutputArea-output").evaluate_all(
        "els => els.map(e => [e.dataset.mimeType || '', e.innerText])")
    for mime, text in outputs:
        if mime == "application/vnd.jupyter.stderr" and ERROR_LINE.search(text):
            problems.append(f"error output: {_short(text)}")
        for failure in WIDGET_FAILURES:
            if failure in text:
                problems.append(f"widget did not render ({failure!r}): {_short(text)}")
        if TEXT_REPR.search(text):
            problems.append(f"widget shown as its text repr instead of rendered: {_short(text, 120)}")
    return problems


def demo_problems(page):
    """Every Demo shows its figure: a `.course-figure` image with a source and a size."""
    problems = []
    states = page.locator(f"{PANEL} .course-demo").evaluate_all("""els => els.map(d => {
        const img = d.querySelector('img.course-figure');
        return img ? [img.getAttribute('src') || '', img.naturalWidth] : null; })""")
    for number, state in enumerate(states, 1):
        if state is None:
            problems.append(f"demo {number} has no figure image (.course-figure)")
        elif not state[0] or not state[1]:
            problems.append(f"demo {number}'s figure image is empty (src {state[0][:40]!r})")
    return problems


# --- Demo interaction (JupyterLab and Voila) ------------------------------------------------

def _demo_state(demo):
    return demo.evaluate("""d => {
        const img = d.querySelector('img.course-figure');
        const status = d.querySelector('.course-status');
        return {src: img ? img.getAttribute('src') : null,
                error: d.querySelector('.course-demo-error') ? status.innerText : null}; }""")


def _label(slider, index):
    labels = slider.locator(".widget-label").all_inner_texts()
    text = " ".join(label.strip() for label in labels if label.strip())
    return f"slider {index + 1} ({text!r})" if text else f"slider {index + 1}"


def _readout(slider):
    readout = slider.locator(".widget-readout")
    return readout.first.inner_text(timeout=2000).strip() if readout.count() else ""


def _move(page, demo, slider, key, settled):
    """Press `key` on the slider's handle; returns (old readout, new readout, state after)."""
    before = _readout(slider)
    old = _demo_state(demo)
    handle = slider.locator(".noUi-handle").first
    handle.focus()
    handle.press(key)
    after = _wait(lambda: _readout(slider) != before and _readout(slider), 2) or before
    if after == before:  # already at that end
        return before, after, old
    settled(lambda: (lambda s: s["src"] != old["src"] or s["error"])(_demo_state(demo)))
    return before, after, _demo_state(demo)


def lab_settled(page):
    """For slider moves in Lab: wait for the kernel to finish the callback, then for the view."""
    def settled(redrawn):
        if _wait(redrawn, 1):
            wait_until_settled(page, REDRAW_TIMEOUT, quiet=0.3)
        else:  # slow, or not wired at all: let the kernel finish, then give the view a moment
            wait_until_settled(page, REDRAW_TIMEOUT)
            _wait(redrawn, 2)
    return settled


def slider_problems(page, root, settled):
    """Move every slider of every Demo to its two ends (End, Home keys on the handle): each
    slider must re-draw its figure, and no move may make the Demo report an error.

    root: CSS selector of the container holding the demos; settled(redrawn): waits after a
    move until the callback has run (redrawn() tells whether the figure or status changed).
    """
    problems = []
    demos = page.locator(f"{root} .course-demo")
    for number in range(demos.count()):
        demo = demos.nth(number)
        sliders = demo.locator(".widget-slider")
        for index in range(sliders.count()):
            slider = sliders.nth(index)
            slider.scroll_into_view_if_needed(timeout=5000)
            name = f"demo {number + 1}, {_label(slider, index)}"
            redrawn, moves = False, []
            for key in ("End", "Home", "ArrowRight"):
                src = _demo_state(demo)["src"]
                before, after, state = _move(page, demo, slider, key, settled)
                if before == after:
                    continue
                moves.append(f"{before} -> {after}")
                if state["error"]:
                    last_line = state["error"].strip().splitlines()[-1]
                    problems.append(f"{name}: moving it ({before} -> {after}) raised {_short(last_line)}")
                    break
                redrawn = redrawn or state["src"] != src
            else:
                if not moves:
                    problems.append(f"{name}: keys End/Home/ArrowRight did not move it")
                elif not redrawn:
                    problems.append(f"{name}: moved ({', '.join(moves)}) but its figure did not change")
    return problems


def check_notebook(page, base_url, path, workspace):
    """Open, run all, then every check; returns the list of problems."""
    problems = open_notebook(page, base_url, path, workspace)
    if problems:
        return problems
    problems = run_all(page)
    problems += output_problems(page)
    problems += demo_problems(page)
    if not problems:
        problems += slider_problems(page, PANEL, lab_settled(page))
        problems += [p for p in output_problems(page) if p.startswith("error output")]
    return problems
