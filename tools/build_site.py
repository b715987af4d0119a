"""Build the readable site: every notebook executed fresh, as static HTML with its figures, and
an index by chapter and by syllabus ID. The site works offline: no page loads anything from
another host (MathJax is copied from the installed jupyter-server-mathjax package).

    python tools/build_site.py                      # every notebook, into site/
    python tools/build_site.py NB.ipynb --out DIR   # only these

A live widget cannot run in a static page, so each Demo is shown as what it draws at its
initial values (its figure, taken from the saved widget state, and the values of its
controls); the static grid beside every Demo shows the other settings. A widget whose output carries its
own HTML rendering (a concept question, `course_lib.widgets.quiz.Quiz`) is shown as that.
"""

import argparse
import html
import re
import shutil
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
CONTROL_MODELS = ("SliderModel", "DropdownModel", "ButtonsModel", "CheckboxModel", "SelectModel")
SYLLABUS_ID = re.compile(r"^[KMPSV]\d+$")
# What a page may load: a resource attribute or CSS url() pointing at another host is an error.
RESOURCE = re.compile(r"""(?:\b(?:src|href|data)\s*=\s*["']?|url\(\s*["']?|@import\s+["'])(https?:)?//([^/"')\s>]+)""", re.I)
NOT_LOADED = re.compile(r"<a\s[^>]*>", re.I)  # links the reader may follow are not loads
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full,Safe"  # the configuration the package ships


MATHJAX_ANCHOR = "displayAlign: 'center',"
MATHJAX_FONTS = '"HTML-CSS": {availableFonts: [], webFont: "STIX-Web", imageFont: null}, '


def discover(folder=NOTEBOOKS):
    """The chapters (NN_name.ipynb), then the solutions."""
    return sorted(folder.glob("[0-9][0-9]_*.ipynb")) + sorted(folder.glob("solutions/*.ipynb"))


def execute(path):
    """Run the notebook top to bottom in a fresh kernel, keeping outputs and widget state."""
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3", store_widget_state=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return notebook


def _widget_models(notebook):
    return notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


def _control_text(model):
    state = model["state"]
    name = state.get("description") or model["model_name"].removesuffix("Model")
    if "_options_labels" in state:
        index = state.get("index")
        value = state["_options_labels"][index] if index is not None else ""
    else:
        value = state.get("value")
        value = f"{value:.3g}" if isinstance(value, float) else value
    return f"{name} = {value}"


def _freeze(model_id, models):
    """The static stand-in of a widget: its images (PNG from the saved state) and the values
    of its controls, walking the widget tree."""
    images, controls = [], []

    def walk(ref):
        model = models.get(ref.removeprefix("IPY_MODEL_"))
        if model is None:
            return
        name, state = model["model_name"], model["state"]
        if name == "ImageModel" and state.get("format") == "png":
            images.extend(b["data"] for b in model.get("buffers", []) if b["path"] == ["value"])  # base64
        elif name.endswith(CONTROL_MODELS):
            controls.append(_control_text(model))
        for child in state.get("children", []):
            walk(child)

    walk(model_id)
    return images, controls


def static_output(output):
    """A widget output without its view: what it carries for pages without widgets."""
    data = {key: value for key, value in output["data"].items() if key != WIDGET_VIEW}
    return nbformat.v4.new_output("display_data", data=data, metadata=output.get("metadata", {}))


def freeze_widgets(notebook):
    """Replace every widget view by its figure at the initial values; drop the widget state
    (it would make the page load the widget manager from a CDN)."""
    models = _widget_models(notebook)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.outputs:
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view is None:
                outputs.append(output)
                continue
            if "text/html" in output["data"]:  # a widget with its own static rendering (a Quiz)
                outputs.append(static_output(output))
                continue
            images, controls = _freeze(view["model_id"], models)
            caption = ("Interactive in JupyterLab (<code>make lab</code>) or in class "
                       "(<code>make class</code>); here at its initial values")
            if controls:
                caption += ": " + html.escape(", ".join(controls))
            outputs.append(nbformat.v4.new_output("display_data", data={
                "text/html": f"<p class='course-frozen-demo'><em>{caption}.</em></p>"}))
            for image in images:
                outputs.append(nbformat.v4.new_output("display_data", data={"image/png": image}))
        cell.outputs = outputs
    notebook.metadata.pop("widgets", None)
    return notebook


def render(notebook, mathjax_url):
    exporter = HTMLExporter(template_name="lab", embed_images=True, mathjax_url=mathjax_url,
                            require_js_url="", exclude_input_prompt=True, exclude_output_prompt=True)
    body, _ = exporter.from_notebook_node(notebook)
    # Scripts left without a source: require.js (no widgets left), MathJax when not installed.
    body = re.sub(r'<script src="">\s*</script>', "", body)
    if mathjax_url:  # the packaged MathJax has the STIX-Web fonts only
        if MATHJAX_ANCHOR not in body:
            raise RuntimeError("nbconvert's MathJax configuration changed: update MATHJAX_ANCHOR")
        body = body.replace(MATHJAX_ANCHOR, MATHJAX_FONTS + MATHJAX_ANCHOR, 1)
    return body


def headings(page_html):
    """(level, text, anchor, syllabus IDs) of each h1-h3 of a rendered page."""
    found = []
    for level, anchor, inner in re.findall(r'<h([1-3]) id="([^"]*)"[^>]*>(.*?)</h\1>', page_html, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", inner)).replace("¶", "").strip()
        ids = [t for tag in re.findall(r"\[([^\]]+)\]", text) for t in re.split(r"[,\s]+", tag)
               if SYLLABUS_ID.match(t)]
        found.append((int(level), text, anchor, ids))
    return found


def external_resources(page_html):
    """Hosts a page would load something from (scripts, styles, images, fonts): must be empty."""
    text = NOT_LOADED.sub("", page_html)
    return sorted({host for scheme, host in RESOURCE.findall(text) if host not in ("", "localhost", "127.0.0.1")})


def copy_mathjax(out):
    """MathJax 2 from the installed jupyter-server-mathjax package; None if it is missing."""
    try:
        import jupyter_server_mathjax
    except ImportError:
        return None
    source = Path(jupyter_server_mathjax.__file__).parent / "static"
    target = out / "mathjax"
    if not target.exists():
        shutil.copytree(source, target)
    return target


def _link(entry, anchor=None):
    return html.escape(entry["href"] + (f"#{anchor}" if anchor else ""), quote=True)


def index_page(entries, mathjax_url=""):
    """The table of contents: chapters with their sections, then every syllabus ID."""
    rows, by_id = [], {}
    for entry in entries:
        sections = []
        for level, text, anchor, ids in entry["headings"][1:]:
            sections.append(f"<li class='level{level}'><a href='{_link(entry, anchor)}'>{html.escape(text)}</a></li>")
            for syllabus_id in ids:
                by_id.setdefault(syllabus_id, []).append(
                    f"<a href='{_link(entry, anchor)}'>{html.escape(entry['stem'])}: {html.escape(text)}</a>")
        rows.append(f"<tr><td><a href='{_link(entry)}'>{html.escape(entry['stem'])}</a></td>"
                    f"<td>{html.escape(entry['title'])}</td><td><ul>{''.join(sections)}</ul></td></tr>")
    key = lambda i: (i[0], int(i[1:]))  # noqa: E731  K2 before K10
    id_rows = [f"<tr><td id='{i}'>{i}</td><td>{'<br>'.join(by_id[i])}</td></tr>" for i in sorted(by_id, key=key)]
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Course companion: the notebooks</title>
<style>
body {{ font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; line-height: 1.4; }}
table {{ border-collapse: collapse; width: 100%; margin-bottom: 2em; }}
td, th {{ border: 1px solid #ccc; padding: 0.3em 0.6em; vertical-align: top; text-align: left; }}
ul {{ margin: 0; padding-left: 1.2em; }} li.level3 {{ margin-left: 1.2em; font-size: 0.95em; }}
</style>{_index_mathjax(mathjax_url)}</head><body>
<h1>Course companion: kernels, multiclass and structured prediction</h1>
<p>Every chapter notebook, executed, with its figures. The sliders are live in JupyterLab
(<code>make lab</code>) and in class (<code>make class</code>); here each demo shows its initial
figure, and the static grid beside it shows other settings.</p>
<h2>Chapters</h2>
<table><tr><th>notebook</th><th>title</th><th>sections</th></tr>
{chr(10).join(rows)}
</table>
<h2>By syllabus ID</h2>
<table><tr><th>ID</th><th>where</th></tr>
{chr(10).join(id_rows)}
</table>
</body></html>
"""


def _index_mathjax(url):
    """MathJax for the TeX in section titles ($...$), configured as on the pages."""
    if not url:
        return ""
    config = ("MathJax.Hub.Config({tex2jax: {inlineMath: [['$', '$']], processEscapes: true}, "
              f"{MATHJAX_FONTS}messageStyle: 'none'}});")
    return f'\n<script type="text/x-mathjax-config">{config}</script><script src="{url}"></script>'


def build(paths, out):
    out.mkdir(parents=True, exist_ok=True)
    mathjax = copy_mathjax(out)
    if mathjax is None:
        print("jupyter-server-mathjax is not installed: formulas stay as TeX source", file=sys.stderr)
    entries = []
    for path in paths:
        start = time.perf_counter()
        relative = path.relative_to(path.parent.parent if path.parent.name == "solutions" else path.parent)
        target = out / relative.with_suffix(".html")
        target.parent.mkdir(parents=True, exist_ok=True)
        depth = "../" * (len(relative.parts) - 1)
        page = render(freeze_widgets(execute(path)), f"{depth}mathjax/MathJax.js?config={MATHJAX_CONFIG}"
                      if mathjax else "")
        hosts = external_resources(page)
        if hosts:
            raise RuntimeError(f"{path.name} would load from {hosts}: the site must work offline")
        target.write_text(page, encoding="utf-8")
        found = headings(page)
        entries.append({"stem": relative.with_suffix("").as_posix(), "href": relative.with_suffix(".html").as_posix(),
                        "title": found[0][1] if found else path.stem, "headings": found})
        print(f"{relative}: {time.perf_counter() - start:.1f} s", flush=True)
    index_mathjax = f"mathjax/MathJax.js?config={MATHJAX_CONFIG}" if mathjax else ""
    (out / "index.html").write_text(index_page(entries, index_mathjax), encoding="utf-8")
    return out / "index.html"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks (default: all of notebooks/)")
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="output folder (default: site/)")
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.notebooks] or discover()
    print(f"site: {build(paths, args.out)}")


if __name__ == "__main__":
    main()
