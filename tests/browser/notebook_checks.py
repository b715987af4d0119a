"""What a student would see go wrong in a notebook, checked in a real browser.

Every check returns a list of problems (plain sentences, empty when all is well), so a test
asserts `problems == []` and a negative test asserts which problem was found.

The page structure relied on: JupyterLab 4 (cells, prompts, outputs, the toolbar's kernel
execution indicator), ipywidgets 8 sliders (noUiSlider handles and a readout) and
course_lib's Demo: a `.course-demo` box holding a `.course-figure` image whose `src` changes
at each redraw and a `.course-status` line that gets `.course-demo-error` when drawing fails.
"""

import json
import re
import time
from pathlib import Path

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


def run_all(page, timeout=RUN_TIMEOUT, attempts=3):
    """Run every cell from the Run menu and wait until all have run.

    Lab sometimes ignores a Run All sent soon after its kernel starts (no cell gets queued,
    nothing runs, no error): then it is sent again, up to `attempts` times in all.
    """
    started = lambda: any(re.search(r"\[(\*|\d+)\]", p) for p in code_prompts(page))  # noqa: E731
    for _ in range(attempts):
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).first.click()
        page.locator("li[data-command='runmenu:run-all']").click()
        if _wait(started, 10):
            break
        wait_until_settled(page, KERNEL_TIMEOUT)
    if not wait_until_settled(page, timeout):
        return [f"cells were still running after {timeout} s: prompts {code_prompts(page)}"]
    return []


def cells_not_run(page):
    prompts = code_prompts(page)
    not_run = [i for i, p in enumerate(prompts, 1) if not re.search(r"\[\d+\]", p)]
    return [f"code cells {not_run} (of {len(prompts)}) did not run"] if not_run else []


def expected_error_cells(notebook_path):
    """Numbers (1-based, among code cells) of the cells tagged `raises-exception`, whose error
    output is part of the lesson (as nbval reads the same tag)."""
    cells = [c for c in json.loads(Path(notebook_path).read_text(encoding="utf-8"))["cells"]
             if c["cell_type"] == "code"]
    return {i for i, c in enumerate(cells, 1) if "raises-exception" in c.get("metadata", {}).get("tags", [])}


def output_problems(page, root=PANEL, expected_errors=()):
    """Error outputs (except in cells of `expected_errors`), widgets that failed to render or
    are shown as their text repr."""
    problems = []
    outputs = page.locator(f"{root} .jp-CodeCell").evaluate_all(
        """cells => cells.flatMap((cell, i) => Array.from(cell.querySelectorAll('.jp-OutputArea-output'))
            .map(e => [i + 1, e.dataset.mimeType || '', e.innerText]))""")
    for cell, mime, text in outputs:
        if mime == "application/vnd.jupyter.stderr" and ERROR_LINE.search(text) and cell not in expected_errors:
            problems.append(f"error output in code cell {cell}: {_short(text)}")
        for failure in WIDGET_FAILURES:
            if failure in text:
                problems.append(f"widget did not render ({failure!r}): {_short(text)}")
        if TEXT_REPR.search(text):
            problems.append(f"widget shown as its text repr instead of rendered: {_short(text, 120)}")
    return problems


def demo_problems(page, root=PANEL):
    """Every Demo shows its figure: a `.course-figure` image with a source and a size."""
    problems = []
    states = page.locator(f"{root} .course-demo").evaluate_all("""els => els.map(d => {
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
        return {src: img ? img.getAttribute('src') : null, status: status ? status.innerText : null,
                error: d.querySelector('.course-demo-error') ? status.innerText : null}; }""")


def _changed(demo, old):
    """A predicate: has the Demo redrawn (new figure or status line) or failed since `old`?"""
    return lambda: (lambda s: s["src"] != old["src"] or s["status"] != old["status"] or s["error"])(
        _demo_state(demo))


def _label(slider, index):
    labels = slider.locator(".widget-label").all_inner_texts()
    text = " ".join(label.strip() for label in labels if label.strip())
    return f"slider {index + 1} ({text!r})" if text else f"slider {index + 1}"


def _readout(slider):
    readout = slider.locator(".widget-readout")
    return readout.first.inner_text(timeout=2000).strip() if readout.count() else ""


def _move(demo, slider, key, settled):
    """Press `key` on the slider's handle; returns (old readout, new readout, state after)."""
    before = _readout(slider)
    old = _demo_state(demo)
    handle = slider.locator(".noUi-handle").first
    handle.focus()
    handle.press(key)
    after = _wait(lambda: _readout(slider) != before and _readout(slider), 2) or before
    if after == before:  # already at that end
        return before, after, old
    settled(_changed(demo, old))
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


def _error_line(state):
    return _short(state["error"].strip().splitlines()[-1])


def _sweep(demo, slider, settled):
    """Press End, Home, ArrowRight on a slider; returns (moves, redrawn, error sentence)."""
    moves, redrawn = [], False
    for key in ("End", "Home", "ArrowRight"):
        src = _demo_state(demo)["src"]
        before, after, state = _move(demo, slider, key, settled)
        if before == after:
            continue
        moves.append(f"{before} -> {after}")
        if state["error"]:
            return moves, redrawn, f"moving it ({before} -> {after}) raised {_error_line(state)}"
        redrawn = redrawn or state["src"] != src
    return moves, redrawn, None


def _choose(demo, select, index, settled):
    """Pick option `index` of a dropdown; returns the Demo's state once redrawn."""
    old = _demo_state(demo)
    select.select_option(index=index)
    settled(_changed(demo, old))
    return _demo_state(demo)


def _options(select):
    return select.evaluate("s => [s.selectedIndex, Array.from(s.options).map(o => o.textContent)]")


def _dropdown_failures(demo, selects, settled):
    """Choose every option of every dropdown (then the first choice again); the errors raised."""
    for select in selects:
        current, labels = _options(select)
        for index in [i for i in range(len(labels)) if i != current] + [current]:
            state = _choose(demo, select, index, settled)
            if state["error"]:
                return [f"choosing {labels[index]!r} raised {_error_line(state)}"]
    return []


def control_problems(page, root, settled):
    """Drive every control of every Demo: each dropdown option must draw without error; each
    slider is moved to both ends (End, Home keys on its handle) and one step (ArrowRight), and
    must re-draw the figure without error. A slider that changes nothing at the dropdowns'
    current choice (the polynomial degree under a Gaussian kernel) is retried at their other
    choices before it is reported as not wired.

    root: CSS selector of the container holding the demos; settled(redrawn): waits after a
    change until the callback has run (redrawn() tells whether the Demo redrew or failed).
    """
    problems = []
    demos = page.locator(f"{root} .course-demo")
    for number in range(demos.count()):
        demo = demos.nth(number)
        selects = demo.locator(".widget-dropdown select")
        selects = [selects.nth(i) for i in range(selects.count())]
        failures = _dropdown_failures(demo, selects, settled)
        if failures:
            problems += [f"demo {number + 1}: {failure}" for failure in failures]
            continue
        sliders = demo.locator(".widget-slider")
        for index in range(sliders.count()):
            slider = sliders.nth(index)
            slider.scroll_into_view_if_needed(timeout=5000)
            name = f"demo {number + 1}, {_label(slider, index)}"
            moves, redrawn, error = _sweep(demo, slider, settled)
            # a slider that does not apply to the current choice is disabled, or changes nothing:
            # try the other choices of the dropdowns, where it must move and redraw
            for select in selects if not redrawn and not error else []:
                current, labels = _options(select)
                for option in [i for i in range(len(labels)) if i != current]:
                    _choose(demo, select, option, settled)
                    moved, redrawn, error = _sweep(demo, slider, settled)
                    moves = moves or moved
                    if redrawn or error:
                        break
                _choose(demo, select, current, settled)
                if redrawn or error:
                    break
            if error:
                problems.append(f"{name}: {error}")
            elif not moves:
                problems.append(f"{name}: keys End/Home/ArrowRight did not move it")
            elif not redrawn:
                problems.append(f"{name}: moved ({', '.join(moves)}) but its figure did not change")
    return problems


def check_notebook(page, base_url, root, path, workspace):
    """Open `path` (relative to the served `root` folder), run all, then every check; returns
    the list of problems."""
    problems = open_notebook(page, base_url, path, workspace)
    if problems:
        return problems
    expected = expected_error_cells(Path(root) / path)
    problems = run_all(page)
    problems += cells_not_run(page)
    problems += output_problems(page, PANEL, expected)
    problems += demo_problems(page)
    if not problems:
        problems += control_problems(page, PANEL, lab_settled(page))
        problems += [p for p in output_problems(page, PANEL, expected) if p.startswith("error output")]
    return problems


# --- Voila (the in-class mode) ----------------------------------------------------------------

VOILA_ROOT = "body"
CODE = ".jp-CodeCell:not(.jp-mod-noInput) .jp-InputArea, .cm-editor, .CodeMirror, .jp-InputPrompt"


def _stable(read, quiet=1.5):
    """A predicate: has read() been the same, and free of "Loading widget...", for `quiet` s?"""
    last = {"value": None, "since": time.monotonic()}

    def stable():
        value = read()
        if value != last["value"] or "Loading widget..." in value:
            last.update(value=value, since=time.monotonic())
        return time.monotonic() - last["since"] >= quiet
    return stable


def code_problems(page):
    """Code inputs on the page (Voila uses JupyterLab's cell classes, so does this check)."""
    code = [text for text in page.locator(CODE).evaluate_all(
        "els => els.filter(e => e.checkVisibility()).map(e => e.innerText)") if text.strip()]
    return [f"{len(code)} code inputs are visible, e.g. {_short(code[0], 80)}"] if code else []


def voila_settled(redrawn):
    _wait(redrawn, REDRAW_TIMEOUT)


def check_voila(page, url, expected_errors=()):
    """Open a Voila dashboard (the server runs the notebook before sending the page), wait for
    its widgets, then the same checks as in Lab plus: no code is visible."""
    page.goto(url, wait_until="load", timeout=RUN_TIMEOUT * 1000)
    if not _wait(lambda: page.locator(".jp-OutputArea-output").count() > 0, KERNEL_TIMEOUT):
        return ["the dashboard shows no output at all"]
    _wait(_stable(lambda: page.inner_text("body")), KERNEL_TIMEOUT)
    problems = output_problems(page, VOILA_ROOT, expected_errors) + demo_problems(page, VOILA_ROOT)
    problems += code_problems(page)
    if not problems:
        problems += control_problems(page, VOILA_ROOT, voila_settled)
    return problems
