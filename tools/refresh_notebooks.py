"""Execute notebooks top to bottom in a fresh kernel and save them with their outputs.

    python tools/refresh_notebooks.py notebooks/01_linear_discriminants.ipynb [...]
    python tools/refresh_notebooks.py            # every notebook in notebooks/

Widget views are dropped from the saved outputs (their live state is not stored, so a saved
view could only show "model not found"), except a widget's own HTML rendering (a Quiz's
question and choices), kept in its place; a Quiz's answer is dropped, so that a chapter opened
before it runs shows no answer (the worked solutions, notebooks/solutions/, show the Quiz's
rendering with its answer folded, as the site does); everything else, text and figures, is kept so the
notebook reads well before it is run and `# NBVAL_CHECK_OUTPUT` cells have their reference.
Execution counts stay: nbval refuses stored outputs of a cell that has none.
"""

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
QUIZ_ANSWERS = "application/vnd.course.quiz-answers+html"  # course_lib.widgets.quiz.ANSWERS
ROOT = Path(__file__).resolve().parent.parent


def static(output, with_answer=False):
    """An output without its widget view and without a Quiz's answer; a widget with its own HTML
    rendering (a Quiz) keeps it, the one with the answer folded when `with_answer`."""
    data = output.get("data", {})
    if WIDGET_VIEW in data or QUIZ_ANSWERS in data:
        kept = {key: value for key, value in data.items() if key not in (WIDGET_VIEW, QUIZ_ANSWERS)}
        if with_answer and QUIZ_ANSWERS in data:
            kept["text/html"] = data[QUIZ_ANSWERS]
        output = nbformat.v4.new_output(output.output_type, data=kept, metadata=output.metadata,
            **({"execution_count": output.execution_count} if output.output_type == "execute_result" else {}))
    return output


def joined(outputs):
    """Consecutive outputs of one stream as one: under load, ipykernel can send one print as two
    messages, which would change a saved notebook without changing what it shows."""
    kept = []
    for output in outputs:
        if (kept and output.output_type == "stream" and kept[-1].output_type == "stream"
                and kept[-1].name == output.name):
            kept[-1] = nbformat.v4.new_output("stream", name=output.name, text=kept[-1].text + output.text)
        else:
            kept.append(output)
    return kept


def refresh(path):
    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(
        notebook, timeout=600, kernel_name="python3", record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = joined([static(out, with_answer=path.parent.name == "solutions") for out in cell.outputs
                                   if WIDGET_VIEW not in out.get("data", {}) or "text/html" in out["data"]])
            cell.metadata.pop("execution", None)  # timings of an earlier run
    notebook.metadata.pop("widgets", None)
    nbformat.write(notebook, path)
    return time.perf_counter() - start


def main(paths):
    paths = [Path(p) for p in paths] or sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
    for path in paths:
        print(f"{path.name}: executed in {refresh(path):.1f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
