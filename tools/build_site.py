"""Build the readable site: every notebook executed fresh, as static HTML with its figures, and
an index by chapter and by syllabus ID. The site works offline: no page loads anything from
another host (MathJax is copied from the installed jupyter-server-mathjax package).

    python tools/build_site.py                      # every notebook, both languages, into site/
    python tools/build_site.py NB.ipynb --out DIR   # only these
    python tools/build_site.py --stored-outputs     # the notebooks' stored outputs (quick)

Two languages: the English notebooks at the site's root, the French edition (notebooks/fr/,
the notebooks locale/fr/manifest.toml lists as translated) under fr/. Each page has its
<html lang>, its language's index and search (Pagefind indexes each language apart, by that
attribute) and a link to the same page in the other language, or to that language's index
when the page has no twin there; the French index lists the chapters not translated yet,
linked to their English page.

A live widget cannot run in a static page, so each Demo is shown as what it draws at its
initial values (its figure, taken from the saved widget state, and the values of its
controls); the static grid beside every Demo shows the other settings. A widget whose output carries its
own HTML rendering (a concept question, `course_lib.widgets.quiz.Quiz`) is shown as that.

Every page has the index, the previous and next chapters and a table of contents of its
sections with their syllabus IDs; the index has a search over section titles and IDs that
runs in the page (no server, works over file://). Every local link of a page resolves inside
the site: links to notebooks become links to their pages (chapter <-> solutions), Markdown
files they link (the glossary) are rendered as pages, other files are copied; a link to a
missing file stops the build. Every figure has alt text (its titles, else its section). An
exercise shows its task and a link to the worked solutions, not the check's "Not yet" to the
unanswered cell. Every page links to its notebook on Binder (the repository named by the
clone's `origin` remote on GitHub, or --repo owner/name; none without either).
"""

import argparse
import base64
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import nbformat
from babel.messages.pofile import read_po
from nbclient import NotebookClient
from nbconvert import HTMLExporter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import share_links  # noqa: E402  (the repository's name, read in one place: the Binder links)
NOTEBOOKS = ROOT / "notebooks"
# The French edition: notebooks/fr/ (built by tools/french.py), the chapters listed as translated
# in its manifest; its pages go into the site's fr/ folder, beside the English ones.
MANIFEST = ROOT / "locale" / "fr" / "manifest.toml"
LANGUAGES = ("en", "fr")  # the first is the site's root, each other one its own folder
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}  # each language's name in itself (the switch's link)
SITE_CATALOG = ROOT / "locale" / "{language}" / "LC_MESSAGES" / "site.po"


def N_(message):
    """Mark an English word of the site for its catalogs (tools/french.py extracts them)."""
    return message


# The words of the site around the notebooks' own text, in English; another language's are the
# translations of its gettext catalog, locale/<language>/LC_MESSAGES/site.po (Poedit, Weblate),
# which tools/french.py keeps in step with these.
WORDS = {
    "index": N_("Index of the chapters"), "search": N_("Search"), "previous": N_("Previous: "),
    "next": N_("Next: "), "contents": N_("Contents of this chapter"), "chapters_nav": N_("Chapters"),
    "frozen": N_("Interactive in JupyterLab (<code>make lab</code>) or in class (<code>make class</code>); "
                 "here at its initial values"),
    # TRANSLATORS: {} is the title of the section the figure is in
    "figure_of": N_("Figure of the section {}"), "the_notebook": N_("the notebook"),
    "exercise": N_("Your answer goes in this cell"), "checked": N_("Checked: "), "code_hint": N_("code"),
    "check_code": N_("Code of this check"), "code": N_("Code"),
    # TRANSLATORS: the start of a claim cell's first line, as the chapters' catalogs translate it
    "claim_markers": [N_("# claim")],
    "search_text": N_("Search the text"), "colon": N_(": "),
    "exercise_note": N_("Write your answer in JupyterLab (<code>make lab</code>) and run the cell: the check "
                        "answers there."),
    "solution_link": N_("The worked solution"),
    # TRANSLATORS: the link that opens the page's notebook in JupyterLab on mybinder.org
    "binder": N_("Run it on Binder"),
}


def catalog_translator(language):
    """`text` -> its translation in `language`'s site catalog (English when the catalog has none,
    or only an empty or fuzzy one)."""
    if language == "en":
        return lambda text: text
    with open(str(SITE_CATALOG).format(language=language), "rb") as file:
        catalog = read_po(file, locale=language)

    def translate(text):
        message = catalog.get(text)
        return message.string if message is not None and message.string and not message.fuzzy else text
    return translate


def localised(words, language):
    """`words` (a dict of English texts, lists and tuples of them) in `language`."""
    translate = catalog_translator(language)

    def each(value):
        return type(value)(each(v) for v in value) if isinstance(value, (list, tuple)) else translate(value)
    return {key: each(value) for key, value in words.items()}


TEXT = {language: {**localised(WORDS, language), "language": LANGUAGE_NAMES[language]} for language in LANGUAGES}
for _words in TEXT.values():  # a chapter's claim cell whose marker is left in English is a claim too
    _words["claim_markers"] = list(dict.fromkeys(_words["claim_markers"] + WORDS["claim_markers"]))
TEMPLATES = ROOT / "tools" / "site_templates"  # course_site/: the lab template, code folded
# Pagefind, pinned in tools/search/package-lock.json and installed by `make search-deps`.
PAGEFIND = ROOT / "tools" / "search" / "node_modules" / ".bin" / "pagefind"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
QUIZ_ANSWERS = "application/vnd.course.quiz-answers+html"  # course_lib.widgets.quiz.ANSWERS
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
CONTROL_MODELS = ("SliderModel", "DropdownModel", "ButtonsModel", "CheckboxModel", "SelectModel")
SYLLABUS_ID = re.compile(r"^[KMPSV]\d+$")
# What a page may load: a resource attribute or CSS url() pointing at another host is an error.
RESOURCE = re.compile(r"""(?:\b(?:src|href|data)\s*=\s*["']?|url\(\s*["']?|@import\s+["'])(https?:)?//([^/"')\s>]+)""", re.I)
NOT_LOADED = re.compile(r"<a\s[^>]*>", re.I)  # links the reader may follow are not loads
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full,Safe"  # the configuration the package ships
DEMO_PIXEL_RATIO = 2  # a Demo's image has 2 pixels per CSS pixel (course_lib.widgets.core)
# Links and images the reader follows or sees: rewritten to resolve inside the site.
LOCAL_LINK = re.compile(r"""(<(?:a|img)\b[^>]*?\b(?:href|src)=)(["'])(?!#|[a-zA-Z][a-zA-Z0-9+.-]*:|//)([^"']+)\2""")


MATHJAX_ANCHOR = "displayAlign: 'center',"
MATHJAX_FONTS = '"HTML-CSS": {availableFonts: [], webFont: "STIX-Web", imageFont: null}, '


def discover(folder=NOTEBOOKS):
    """The chapters (NN_name.ipynb), then the solutions, then the other notebooks of the
    folder (the glossary); then the same of the French edition, folder/fr/, for the
    notebooks its manifest lists as translated."""
    chapters = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    others = sorted(set(folder.glob("*.ipynb")) - set(chapters))
    return chapters + sorted(folder.glob("solutions/*.ipynb")) + others + french(folder)


def translated(manifest=MANIFEST):
    """The stems of the notebooks the French manifest lists as translated."""
    if not manifest.exists():
        return []
    return list(tomllib.loads(manifest.read_text(encoding="utf-8")).get("translated", []))


def french(folder=NOTEBOOKS, manifest=MANIFEST):
    """The French notebooks of the site, in the order of discover(): the translated chapters
    (the manifest's list), their solutions when translated, then the other translated notebooks.
    A chapter the manifest does not list has no French page: the French index links its English
    page. A listed notebook missing from folder/fr/ stops the build (`make french` builds it)."""
    stems = translated(manifest)
    missing = [stem for stem in stems if not (folder / "fr" / f"{stem}.ipynb").exists()]
    if missing:
        raise RuntimeError(f"{manifest.relative_to(ROOT) if manifest.is_relative_to(ROOT) else manifest} lists "
                           f"{', '.join(missing)} as translated, but notebooks/fr/ lacks them: `make french` builds them")
    chapters = [folder / "fr" / f"{s}.ipynb" for s in stems if re.match(r"\d\d_", s)]
    solutions = [folder / "fr" / "solutions" / f"{p.name[:2]}_solutions.ipynb" for p in chapters]
    others = [folder / "fr" / f"{s}.ipynb" for s in stems if not re.match(r"\d\d_", s)]
    return sorted(chapters) + sorted(p for p in solutions if p.exists()) + sorted(others)


CELL_TIMEOUT = 1800  # seconds a cell may take: the slowest trains for minutes on a busy machine


def execute(path):
    """Run the notebook top to bottom in a fresh kernel, keeping outputs and widget state."""
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3", store_widget_state=True,
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
            images.extend((b["data"], state.get("tooltip") or "") for b in model.get("buffers", [])
                          if b["path"] == ["value"])  # base64
        elif name == "HTMLModel" and 'class="course-figure"' in state.get("value", ""):  # a Demo's figure
            figure = re.search(r'alt="([^"]*)"[^>]*src="data:image/png;base64,([^"]+)"', state["value"])
            if figure:
                images.append((figure.group(2), html.unescape(figure.group(1))))
        elif name.endswith(CONTROL_MODELS):
            controls.append(_control_text(model))
        for child in state.get("children", []):
            walk(child)

    walk(model_id)
    return images, controls


def static_output(output):
    """A widget output without its view: what it carries for pages without widgets; a Quiz's
    rendering with its answer folded (QUIZ_ANSWERS), the site being a reading copy beside the
    worked solutions."""
    data = {key: value for key, value in output["data"].items() if key not in (WIDGET_VIEW, QUIZ_ANSWERS)}
    if QUIZ_ANSWERS in output["data"]:
        data["text/html"] = output["data"][QUIZ_ANSWERS]
    return nbformat.v4.new_output("display_data", data=data, metadata=output.get("metadata", {}))


def _png_width(base64_png):
    """The pixel width of a base64 PNG (from its IHDR header)."""
    return struct.unpack(">I", base64.b64decode(base64_png[:44])[16:20])[0]


def freeze_widgets(notebook, language="en"):
    """Replace every widget view by its figure at the initial values; drop the widget state
    (it would make the page load the widget manager from a CDN). The caption is in `language`."""
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
            caption = TEXT[language]["frozen"]
            if controls:
                caption += TEXT[language]["colon"] + html.escape(", ".join(controls))
            outputs.append(nbformat.v4.new_output("display_data", data={
                "text/html": f"<p class='course-frozen-demo'><em>{caption}.</em></p>"}))
            for image, alt in images:
                shown = {"width": _png_width(image) // DEMO_PIXEL_RATIO, **({"alt": alt} if alt else {})}
                outputs.append(nbformat.v4.new_output("display_data", data={"image/png": image},
                                                      metadata={"image/png": shown}))
        cell.outputs = outputs
    notebook.metadata.pop("widgets", None)
    return notebook


def exercise_notes(notebook, path, language="en"):
    """A chapter's exercise cells without their stored outputs (the check's answer to the
    unanswered `...`, a "Not yet" meant for someone working in JupyterLab): in their place, a
    note saying where the check runs and a link to the chapter's worked solutions, when they
    exist. The solutions' own pages keep their outputs (the checks' verdicts on the answers)."""
    path = Path(path)
    if path.parent.name == "solutions":
        return notebook
    solutions = path.parent / "solutions" / f"{path.name[:2]}_solutions.ipynb"
    words = TEXT[language]
    link = (f' <a href="solutions/{solutions.name}">{words["solution_link"]}</a>.' if solutions.exists() else "")
    note = f"<p class='course-exercise-note'><em>{words['exercise_note']}</em>{link}</p>"
    for cell in notebook.cells:
        if cell.cell_type == "code" and "exercise" in cell.metadata.get("tags", []):
            cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": note})]
    return notebook


STATIC_FIGURE = re.compile(r'<img class="course-static-figure" alt="(?P<alt>[^"]*)"(?: data-text-share="[\d.]+")? '
                           r'style="width: (?P<width>\d+)px'
                           r'[^"]*" src="data:image/png;base64,(?P<png>[^"]+)">')


def describe_images(notebook, language="en"):
    """Give every PNG output alt text: the figure's own description (its titles, stored by
    CourseFigure or a Demo's image), else the section it is in. The image becomes HTML."""
    section = TEXT[language]["the_notebook"]
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            found = re.findall(r"^#{1,3}\s+(.+)$", cell.source, re.M)
            section = found[-1].strip() if found else section
            continue
        if cell.cell_type != "code":
            continue
        for output in cell.outputs:
            data = output.get("data", {})
            static = STATIC_FIGURE.search(data.get("text/html", "") if "image/png" not in data else "")
            if static:  # a CourseFigure's own <img>: its PNG, alt text and width
                data = {"image/png": static.group("png")}
                shown = {"alt": html.unescape(static.group("alt")), "width": int(static.group("width"))}
            elif "image/png" in data:
                shown = output.get("metadata", {}).get("image/png", {})
            else:
                continue
            alt = shown.get("alt") or TEXT[language]["figure_of"].format(section)
            # Wider than the text column when the figure is (a grid of panels), centred on the
            # page, never wider than the window: its text keeps its size on a large screen.
            width = (f' style="width: min({int(shown["width"])}px, max(100%, 96vw - 2rem))"'
                     if "width" in shown else "")
            src = data["image/png"].replace("\n", "")
            output["data"] = {"text/html": f'<img class="course-output-figure" src="data:image/png;base64,{src}"'
                                           f' alt="{html.escape(alt, quote=True)}"{width}>'}
            output["metadata"] = {}
    return notebook


def render(notebook, mathjax_url, source_dir=None, language="en"):
    """The page of `notebook` in `language` (its <html lang> and the site's words around it)."""
    exporter = HTMLExporter(template_name="course_site", extra_template_basedirs=[str(TEMPLATES)],
                            embed_images=True, mathjax_url=mathjax_url, language_code=language,
                            require_js_url="", exclude_input_prompt=True, exclude_output_prompt=True)
    resources = {"course_text": TEXT[language]}
    if source_dir:
        resources["metadata"] = {"path": str(source_dir)}
    body, _ = exporter.from_notebook_node(describe_images(notebook, language), resources=resources)
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


SITE_CSS = """
/* A book page: one column of 65-90 characters at 17 px, figures up to the window's width. */
:root { --jp-content-font-size1: 17px; --jp-content-line-height: 1.6; --jp-code-font-size: 14px;
  --jp-ui-font-size1: 15px; --course-column: 42rem; }
html { -webkit-text-size-adjust: 100%; font-size: 17px; }
body.jp-Notebook { padding: 0 1rem; overflow-x: hidden; }
main { max-width: var(--course-column); margin: 0 auto; }
.jp-RenderedHTMLCommon { font-size: 17px; line-height: 1.6; padding-right: 0; }
.jp-RenderedHTMLCommon p, .jp-RenderedHTMLCommon li { line-height: 1.6; }
.jp-Cell { padding: 0; }
.jp-Cell-inputWrapper, .jp-OutputArea-child { max-width: 100%; }
img { max-width: 100%; height: auto; }
img.course-output-figure { max-width: none; display: block; margin-left: 50%; transform: translateX(-50%); }
.jp-OutputArea-output:has(img.course-output-figure), .jp-OutputArea-child:has(img.course-output-figure),
.jp-Cell-outputArea:has(img.course-output-figure) { overflow: visible; }
.jp-RenderedHTMLCommon table, .course-table-wrap { display: block; overflow-x: auto; max-width: 100%; }
pre { overflow-x: auto; }
.jp-OutputArea-output pre { font-size: 14px; white-space: pre; word-break: normal; overflow-x: auto; }
/* A printed line longer than the column (a table, a verdict with its numbers) runs on to the
   window's right edge, from the column's left edge, rather than scrolling sideways inside it. */
.jp-OutputArea-output:not(.jp-RenderedHTMLCommon) > pre { width: max-content; min-width: 100%; box-sizing: border-box;
  max-width: min(calc(100vw - 2rem), calc((100vw + var(--course-column)) / 2 - 1rem)); }
.jp-OutputArea-output:has(> pre), .jp-OutputArea-child:has(> .jp-OutputArea-output > pre),
.jp-Cell-outputArea:has(.jp-OutputArea-output > pre) { overflow: visible; }
/* Code folded: the summary says what the cell does, the code opens on a click. */
details.course-code { margin: 0.2em 0; }
details.course-code > summary { cursor: pointer; font-family: sans-serif; font-size: 15px; color: #3d3d3d;
  padding: 0.15em 0; }
details.course-code[open] > summary { margin-bottom: 0.2em; }
.course-claim-code > summary { color: #1d4d1d; } .course-code-hint { color: #3d3d3d; font-size: 0.9em; }
.course-nav { font-family: sans-serif; font-size: 16px; line-height: 1.5; max-width: var(--course-column);
  margin: 0 auto; padding: 0.6em 0; display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; }
.course-nav a { color: #0b57a4; }
.course-toc { font-family: sans-serif; font-size: 16px; max-width: var(--course-column); margin: 0 auto 1em; }
.course-toc ol { padding-left: 1.4em; margin: 0.3em 0; }
.course-toc ul { list-style: none; padding-left: 1.2em; margin: 0; }
.course-toc .course-ids { color: #444; font-size: 0.9em; }
a, .jp-RenderedHTMLCommon a, .jp-RenderedHTMLCommon a:link, .jp-RenderedHTMLCommon a:visited { color: #0b57a4 !important; text-decoration: underline !important; }
/* Code colours with a contrast of at least 4.5:1 on the cells' background (WCAG AA). */
.highlight .c, .highlight .c1, .highlight .cm, .highlight .ch, .highlight .cs, .highlight .cp { color: #3b5e3b; }
.highlight .m, .highlight .mi, .highlight .mf, .highlight .mh, .highlight .mo { color: #0a6b16; }
.highlight .s, .highlight .s1, .highlight .s2, .highlight .sd, .highlight .sa, .highlight .se,
.highlight .si, .highlight .sb { color: #9c1f17; }
.highlight .o, .highlight .ow, .highlight .p { color: #5b2b8c; }
.highlight .k, .highlight .kn, .highlight .kc, .highlight .kd, .highlight .nb, .highlight .bp { color: #0b5e1c; }
.highlight .nf, .highlight .nc, .highlight .nn, .highlight .nd { color: #1a4f9c; }
/* Formulas wider than a phone scroll inside their line. */
.MathJax_Display, .MJXc-display, mjx-container[display="true"] { overflow-x: auto; overflow-y: hidden; max-width: 100%; }
@media (max-width: 700px) {
  body.jp-Notebook { padding: 0 0.6rem; }
  .jp-Cell { padding: 2px 0 !important; }
  .jp-InputArea-editor, .jp-OutputArea-output { max-width: 100%; overflow-x: auto; }
}
"""


def _link(entry, anchor=None, here="index.html"):
    """The link to `entry` (at `anchor`) from the site page `here`."""
    return html.escape(_relative(entry["href"], here) + (f"#{anchor}" if anchor else ""), quote=True)


def _relative(target, page):
    """The URL of site path `target` from the page at site path `page` (both POSIX, relative
    to the site's root)."""
    return os.path.relpath(target, start=os.path.dirname(page) or ".").replace(os.sep, "/")


class Links:
    """Where each local file a page links to lives in the site: notebooks become their pages,
    Markdown files are rendered as pages, other files are copied (into project/ when outside
    notebooks/); `missing` collects links whose file does not exist."""

    def __init__(self, notebooks, base=NOTEBOOKS):
        self.base = Path(base).resolve()  # the chapters' folder: the site's root
        self.pages = {path.resolve(): href for path, href in notebooks.items()}
        self.extra = {}  # source path -> site path, to render or copy
        self.missing = []

    def site_path(self, source):
        source = source.resolve()
        if source in self.pages:
            return self.pages[source]
        if source in self.extra:
            return self.extra[source]
        if source.is_relative_to(self.base):
            relative = source.relative_to(self.base).as_posix()
        elif source.is_relative_to(ROOT):
            relative = "project/" + source.relative_to(ROOT).as_posix()
        else:
            return None
        if source.suffix == ".md":
            relative = relative.removesuffix(".md") + ".html"
        self.extra[source] = relative
        return relative

    def rewrite(self, page_html, source_dir, page):
        """Rewrite the local links and images of `page_html` (its sources relative to
        `source_dir`) to resolve from site path `page`."""
        def replace(match):
            url = html.unescape(match.group(3))
            path, hash_, fragment = url.partition("#")
            path = path.split("?")[0]
            if not path:
                return match.group(0)
            source = (Path(source_dir) / path)
            target = self.site_path(source) if source.exists() else None
            if target is None:
                self.missing.append(f"{page}: {url}")
                return match.group(0)
            new = _relative(target, page) + (hash_ + fragment if hash_ else "")
            return f"{match.group(1)}{match.group(2)}{html.escape(new, quote=True)}{match.group(2)}"
        return LOCAL_LINK.sub(replace, page_html)


def folder_of(language):
    """The site folder of a language's pages: the root for the first, else its code + "/"."""
    return "" if language == LANGUAGES[0] else f"{language}/"


def language_switch(here, language, twins):
    """The link from site page `here` (in `language`) to the same page in each other language,
    or to that language's index when the page has no twin there. `twins`: every page's path."""
    links = []
    for other in LANGUAGES:
        if other == language or f"{folder_of(other)}index.html" not in twins:
            continue  # the site has no page in that language
        relative = here.removeprefix(folder_of(language))
        twin = folder_of(other) + relative
        words = TEXT[other]
        if twin in twins:
            text = words["language"]
        else:
            twin, text = folder_of(other) + "index.html", f"{words['language']}{words['colon']}{words['index']}"
        links.append(f"<a class='course-language' href='{_relative(twin, here)}' hreflang='{other}' "
                     f"lang='{other}'>{html.escape(text)}</a>")
    return "".join(links)


def navigation(entries, index, twins=()):
    """The bar at the top of page `index` of `entries` (the pages of one language): the index,
    previous and next page (by chapter order, solutions after the chapters), the same page in
    the other language, and its table of contents with syllabus IDs."""
    entry = entries[index]
    here, language = entry["href"], entry["language"]
    words = TEXT[language]
    home = folder_of(language) + "index.html"
    links = [f"<a href='{_relative(home, here)}'>{words['index']}</a>",
             f"<a href='{_relative(home, here)}#search'>{words['search']}</a>"]
    if index > 0:
        previous = entries[index - 1]
        links.append(f"<a rel='prev' href='{_relative(previous['href'], here)}'>{words['previous']}"
                     f"{html.escape(previous['title'])}</a>")
    if index + 1 < len(entries):
        following = entries[index + 1]
        links.append(f"<a rel='next' href='{_relative(following['href'], here)}'>{words['next']}"
                     f"{html.escape(following['title'])}</a>")
    links.append(language_switch(here, language, twins))
    if entry.get("binder"):
        links.append(f"<a class='course-binder' href='{html.escape(entry['binder'], quote=True)}'>{words['binder']}</a>")
    items = []  # a section's subsections (level 3) in a list of their own inside its item
    for level, text, anchor, ids in entry["headings"][1:]:
        shown = all(re.search(rf"\b{re.escape(i)}\b", text) for i in ids)  # "Exercises [M6] [M8]" names them
        tag = f" <span class='course-ids'>[{', '.join(ids)}]</span>" if ids and not shown else ""
        link = f"<a href='#{html.escape(anchor, quote=True)}'>{html.escape(text)}</a>{tag}"
        if level > 2 and items:
            items[-1][1].append(f"<li class='level{level}'>{link}</li>")
        else:
            items.append((f"<li class='level{level}'>{link}", []))
    listed = "".join(item + (f"<ul>{''.join(subsections)}</ul>" if subsections else "") + "</li>"
                     for item, subsections in items)
    toc = (f"<details class='course-toc' open><summary>{words['contents']}</summary>"
           f"<ol>{listed}</ol></details>") if items else ""
    return (f"<nav class='course-nav' aria-label='{words['chapters_nav']}'>{''.join(links)}</nav>"
            f"<nav aria-label='{words['contents']}'>{toc}</nav>")


# A block that scrolls sideways (a wide table printed by a cell, a long formula) can be reached
# and scrolled with the keyboard: it takes the focus (WCAG 2.1.1).
SCROLLERS_SCRIPT = """<script>
(function () {
  function reach() {
    document.querySelectorAll("pre, .MathJax_Display, .jp-RenderedHTMLCommon table, .jp-RenderedMarkdown").forEach(function (e) {
      if (e.scrollWidth > e.clientWidth + 1) { e.tabIndex = 0; } else if (e.tabIndex === 0) { e.removeAttribute("tabindex"); }
    });
  }
  window.addEventListener("load", function () { reach(); setTimeout(reach, 1500); });
  window.addEventListener("resize", reach);
  if (window.MathJax && MathJax.Hub) MathJax.Hub.Queue(reach);
})();
</script>"""


# TeX the notebooks use that MathJax 2 lacks (JupyterLab's MathJax 3 has it): as macros.
MATHJAX_MACROS = ("<script type=\"text/x-mathjax-config\">MathJax.Hub.Config({TeX: {Macros: "
                  "{llbracket: '[\\\\![', rrbracket: ']\\\\!]'}}});</script>")


def add_navigation(page_html, bar, title):
    """Insert the navigation bar at the top of the body, the site's CSS in the head, and the
    page's title (its first heading)."""
    page_html = re.sub(r"<title>.*?</title>", "", page_html, count=1, flags=re.S)
    page_html = page_html.replace("</head>", f"<title>{html.escape(title)}</title>\n"
                                             f"<style>{SITE_CSS}</style>\n{MATHJAX_MACROS}\n</head>", 1)
    page_html = page_html.replace("</body>", SCROLLERS_SCRIPT + "\n</body>", 1)
    page_html = page_html.replace('<a class="anchor-link"', '<a data-pagefind-ignore class="anchor-link"')  # no ¶ in results
    return re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + bar, page_html, count=1)


def search_entries(entries, here="index.html"):
    """What the index's search looks through: one record per section (title, IDs, link from
    the index page at site path `here`)."""
    records = []
    for entry in entries:
        for level, text, anchor, ids in entry["headings"]:
            records.append({"t": text, "i": ids, "h": _relative(entry["href"], here) + (f"#{anchor}" if level > 1 else ""),
                            "c": entry["title"]})
    return records


SEARCH_SCRIPT = """
(function () {
  var records = JSON.parse(document.getElementById('course-search-data').textContent);
  var input = document.getElementById('course-search'), list = document.getElementById('course-results');
  var status = document.getElementById('course-search-status');
  var found1 = status.dataset.one, foundN = status.dataset.many;
  function fold(s) { return s.normalize('NFD').replace(/[\\u0300-\\u036f]/g, '').toLowerCase(); }
  function show() {
    var words = fold(input.value).split(/\\s+/).filter(Boolean);
    list.innerHTML = '';
    if (!words.length) { status.textContent = ''; return; }
    var found = records.filter(function (r) {
      var text = fold(r.t + ' ' + r.i.join(' ') + ' ' + r.c);
      return words.every(function (w) { return text.indexOf(w) >= 0; });
    });
    found.slice(0, 50).forEach(function (r) {
      var li = document.createElement('li'), a = document.createElement('a');
      a.href = r.h; a.textContent = r.t + (r.i.length && r.t.indexOf(r.i[0]) < 0 ? ' [' + r.i.join(', ') + ']' : '');
      li.appendChild(a); li.appendChild(document.createTextNode(' (' + r.c + ')')); list.appendChild(li);
    });
    status.textContent = found.length + ' ' + (found.length === 1 ? found1 : foundN);
  }
  input.addEventListener('input', show);
  show();
})();
"""


# The index page's words, in English (their translations: SITE_CATALOG, as for WORDS).
INDEX_WORDS = {
    "title": N_("Course companion: the notebooks"),
    "heading": N_("Course companion: kernels, multiclass and structured prediction"),
    "intro": N_("Every chapter notebook, executed, with its figures. The sliders are live in JupyterLab "
                "(<code>make lab</code>) and in class (<code>make class</code>); here each demo shows its initial "
                "figure, and the static grid beside it shows other settings."),
    "search_intro": N_("Every word of the chapters, the solutions and the glossary, in English or in the slides' "
                       "French (<code>noyau</code>, <code>marge douce</code>, <code>Viterbi</code>)."),
    "served": N_("The index is in <code>pagefind/</code> at the site's root: the search runs in the browser, "
                 "without a network, once the folder is served (<code>python3 -m http.server -d site</code>, then "
                 "<code>http://localhost:8000</code>); opened as a file, only the search of section titles below works."),
    "titles": N_("Search the section titles"),
    "titles_label": N_("Words of a section title or a syllabus ID (e.g. <code>K9</code>, <code>Viterbi</code>):"),
    "one": N_("section found"), "many": N_("sections found"),
    "chapters": N_("Chapters"), "columns": (N_("notebook"), N_("title"), N_("sections")),
    "by_id": N_("By syllabus ID"), "id_columns": (N_("ID"), N_("where")),
    # TRANSLATORS: beside a chapter of the index that has no translation yet (a link to its English page)
    "untranslated": N_("not translated yet: the English version"),
}
INDEX_TEXT = {language: localised(INDEX_WORDS, language) for language in LANGUAGES}


def text_search(language, here):
    """The full-text search (Pagefind) of the index page at site path `here`: Pagefind's files
    are at the site's root; it searches the pages of the language of the page (its lang)."""
    words, root = INDEX_TEXT[language], _relative(".", here) + "/"
    root = "" if root == "./" else root
    label = TEXT[language]["search_text"]
    return f"""<h2 id="search">{label}</h2>
<p>{words['search_intro']} {words['served']}</p>
<div id="course-text-search"></div>
<link href="{root}pagefind/pagefind-ui.css" rel="stylesheet">
<script src="{root}pagefind/pagefind-ui.js"></script>
<script>
if (window.PagefindUI) {{
  new PagefindUI({{element: "#course-text-search", showSubResults: true, showImages: false,
                  baseUrl: new URL("{root or './'}", location.href).pathname,
                  bundlePath: new URL("{root}pagefind/", location.href).pathname,
                  resetStyles: false, translations: {{placeholder: "{label}"}}}});
  (function name() {{  // the field's name for a screen reader (Pagefind gives it a title only)
    var input = document.querySelector(".pagefind-ui__search-input");
    if (input) input.setAttribute("aria-label", "{label}"); else setTimeout(name, 50);
  }})();
}}
</script>
"""


def _index_order(entries):
    """The sort key of the index's rows: the pages in their order, a chapter not translated
    (an English page) just before the first chapter that follows it."""
    def key(entry):
        if entry in entries:
            return (entries.index(entry), 0)
        name = entry["href"].rsplit("/", 1)[-1]
        after = [i for i, e in enumerate(entries) if "/" not in e["stem"] and e["href"].rsplit("/", 1)[-1] > name]
        return (after[0] if after else len(entries), -1)
    return key


def index_page(entries, mathjax_url="", text_search_on=True, language="en", twins=(), untranslated=()):
    """The table of contents of one language's pages: the full-text search (Pagefind), a
    search over section titles and syllabus IDs that works over file:// too, chapters with
    their sections (and, in a translation, the chapters not translated yet, linked to their
    English page), then every syllabus ID. `mathjax_url` is relative to the site's root."""
    here = folder_of(language) + "index.html"
    words = INDEX_TEXT[language]
    rows, by_id = [], {}
    for entry in sorted([*entries, *untranslated], key=_index_order(entries)):
        if entry in untranslated:
            rows.append(f"<tr><td><a href='{_link(entry, None, here)}' hreflang='en'>{html.escape(entry['stem'])}</a></td>"
                        f"<td lang='en'>{html.escape(entry['title'])}</td><td>({words['untranslated']})</td></tr>")
            continue
        sections = []
        for level, text, anchor, ids in entry["headings"][1:]:
            sections.append(f"<li class='level{level}'><a href='{_link(entry, anchor, here)}'>{html.escape(text)}</a></li>")
            for syllabus_id in ids:
                by_id.setdefault(syllabus_id, []).append(
                    f"<a href='{_link(entry, anchor, here)}'>{html.escape(entry['stem'])}: {html.escape(text)}</a>")
        rows.append(f"<tr><td><a href='{_link(entry, None, here)}'>{html.escape(entry['stem'])}</a></td>"
                    f"<td>{html.escape(entry['title'])}</td><td><ul>{''.join(sections)}</ul></td></tr>")
    key = lambda i: (i[0], int(i[1:]))  # noqa: E731  K2 before K10
    id_rows = [f"<tr><td id='{i}'>{i}</td><td>{'<br>'.join(by_id[i])}</td></tr>" for i in sorted(by_id, key=key)]
    data = json.dumps(search_entries(entries, here), ensure_ascii=False).replace("</", "<\\/")
    head = "".join(f"<th>{c}</th>" for c in words["columns"])
    id_head = "".join(f"<th>{c}</th>" for c in words["id_columns"])
    mathjax = _index_mathjax(_relative(mathjax_url, here) if mathjax_url else "")
    return f"""<!DOCTYPE html>
<html lang="{language}"><head><meta charset="utf-8"><title>{words['title']}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; line-height: 1.4; }}
table {{ border-collapse: collapse; width: 100%; margin-bottom: 2em; }}
td, th {{ border: 1px solid #ccc; padding: 0.3em 0.6em; vertical-align: top; text-align: left; }}
ul {{ margin: 0; padding-left: 1.2em; }} li.level3 {{ margin-left: 1.2em; font-size: 0.95em; }}
a {{ color: #0b57a4; }}
.course-nav {{ display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; }}
#course-search {{ font-size: 1.1em; padding: 0.4em; width: 100%; max-width: 30em; box-sizing: border-box; }}
@media (max-width: 700px) {{
  body {{ margin: 0.5em auto; }}
  table, thead, tbody, tr, td, th {{ display: block; width: auto; }}
  tr {{ margin-bottom: 0.8em; }} th {{ display: none; }}
}}
</style>{mathjax}</head><body>
<nav class='course-nav' aria-label='{TEXT[language]['chapters_nav']}'>{language_switch(here, language, twins)}</nav>
<main>
<h1>{words['heading']}</h1>
<p>{words['intro']}</p>
{text_search(language, here) if text_search_on else ""}<h2 id="{"sections-search" if text_search_on else "search"}">{words['titles']}</h2>
<p><label for="course-search">{words['titles_label']}</label><br>
<input id="course-search" type="search" autocomplete="off"></p>
<p id="course-search-status" role="status" aria-live="polite" data-one="{words['one']}" data-many="{words['many']}"></p>
<ul id="course-results"></ul>
<script type="application/json" id="course-search-data">{data}</script>
<script>{SEARCH_SCRIPT}</script>
<h2>{words['chapters']}</h2>
<table><tr>{head}</tr>
{chr(10).join(rows)}
</table>
<h2>{words['by_id']}</h2>
<table><tr>{id_head}</tr>
{chr(10).join(id_rows)}
</table>
</main></body></html>
"""


def _index_mathjax(url):
    """MathJax for the TeX in section titles ($...$), configured as on the pages."""
    if not url:
        return ""
    config = ("MathJax.Hub.Config({tex2jax: {inlineMath: [['$', '$']], processEscapes: true}, "
              f"{MATHJAX_FONTS}messageStyle: 'none'}});")
    return f'\n<script type="text/x-mathjax-config">{config}</script><script src="{url}"></script>'


def markdown_page(source, title, language="en"):
    """A Markdown file of the project (a README) as a plain readable page in `language`."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    body = markdown2html_mistune(source.read_text(encoding="utf-8"))
    return f"""<!DOCTYPE html>
<html lang="{language}"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body {{ font-family: sans-serif; max-width: 48em; margin: 2em auto; padding: 0 1em; line-height: 1.5; }}
table {{ border-collapse: collapse; display: block; overflow-x: auto; }} td, th {{ border: 1px solid #ccc; padding: 0.2em 0.5em; }}
a {{ color: #0b57a4; }}</style></head><body><main>
{body}
</main></body></html>
"""


def index_text(out, pagefind=PAGEFIND):
    """Pagefind's full-text index of the built pages (the prose and outputs of the notebooks,
    inside <main data-pagefind-body>; code is left out) into out/pagefind/, with its search UI."""
    if not Path(pagefind).exists():
        raise RuntimeError(f"{pagefind} is missing: `make search-deps` installs Pagefind (npm ci in tools/search)")
    subprocess.run([str(pagefind), "--site", str(out), "--output-subdir", "pagefind", "--silent"],
                   check=True, timeout=600)


def site_root(paths):
    """The folder whose layout the site keeps: the folder of the chapters (the parent of a
    solutions/ folder, of a language's folder such as fr/)."""
    if not paths:
        return NOTEBOOKS
    base = paths[0].parent
    base = base.parent if base.name == "solutions" else base
    return base.parent if base.name in LANGUAGES[1:] else base


def page_name(path, root):
    """The site path of notebook `path`: its path under the site's root folder; a notebook from
    elsewhere (a test's fixture) sits at the top, as solutions/ sits under its chapters."""
    if not path.is_relative_to(root):
        root = path.parent.parent if path.parent.name == "solutions" else path.parent
    return path.relative_to(root).with_suffix(".html").as_posix()


def language_of(href):
    """The language of the site page `href`: its folder's, else the site's first."""
    top = href.split("/", 1)[0]
    return top if "/" in href and top in LANGUAGES[1:] else LANGUAGES[0]


def build(paths, out, execute_notebooks=True, search=True, repo=None):
    """The site of the notebooks `paths` in folder `out`; `execute_notebooks=False` takes
    their stored outputs (quick, for tests), `search=False` skips the full-text index. With
    `repo` ('owner/name' on GitHub), every page links to its notebook on Binder."""
    out.mkdir(parents=True, exist_ok=True)
    mathjax = copy_mathjax(out)
    if mathjax is None:
        print("jupyter-server-mathjax is not installed: formulas stay as TeX source", file=sys.stderr)
    root = site_root(paths)
    pages = {path: page_name(path, root) for path in paths}
    links = Links(pages, root)
    entries = []
    for path in paths:
        start = time.perf_counter()
        href = pages[path]
        language = language_of(href)
        depth = "../" * href.count("/")
        notebook = execute(path) if execute_notebooks else nbformat.read(path, as_version=4)
        notebook = exercise_notes(freeze_widgets(notebook, language), path, language)
        page = render(notebook, f"{depth}mathjax/MathJax.js?config={MATHJAX_CONFIG}"
                      if mathjax else "", source_dir=path.parent, language=language)
        hosts = external_resources(page)
        if hosts:
            raise RuntimeError(f"{path.name} would load from {hosts}: the site must work offline")
        page = links.rewrite(page, path.parent, href)
        found = headings(page)
        binder = share_links.binder(repo, path.relative_to(root).as_posix()) if repo else None
        entries.append({"stem": href.removeprefix(folder_of(language)).removesuffix(".html"), "href": href,
                        "page": page, "language": language, "title": found[0][1] if found else path.stem,
                        "headings": found, "binder": binder})
        print(f"{href}: {time.perf_counter() - start:.1f} s", flush=True)
    by_language = {language: [e for e in entries if e["language"] == language] for language in LANGUAGES}
    by_language = {language: same for language, same in by_language.items() if same or language == LANGUAGES[0]}
    twins = {entry["href"] for entry in entries} | {f"{folder_of(language)}index.html" for language in by_language}
    for same in by_language.values():
        for index, entry in enumerate(same):
            target = out / entry["href"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(add_navigation(entry.pop("page"), navigation(same, index, twins), entry["title"]),
                              encoding="utf-8")
    done = set()
    while set(links.extra) - done:  # files the pages link to (and the files those link to)
        for source in sorted(set(links.extra) - done):
            done.add(source)
            target = out / links.extra[source]
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.suffix == ".md":
                page = markdown_page(source, source.stem.replace("_", " ").capitalize(),
                                     language_of(links.extra[source]))
                target.write_text(links.rewrite(page, source.parent, links.extra[source]), encoding="utf-8")
            elif source.is_file():
                shutil.copyfile(source, target)
    if links.missing:
        raise RuntimeError("links to files that do not exist (fix them in the notebooks):\n  "
                           + "\n  ".join(links.missing))
    index_mathjax = f"mathjax/MathJax.js?config={MATHJAX_CONFIG}" if mathjax else ""
    first = LANGUAGES[0]
    for language, same in by_language.items():
        translated_pages = {e["href"].removeprefix(folder_of(language)) for e in same}
        untranslated = [] if language == first else [  # the chapters without this language's page
            e for e in by_language[first] if "/" not in e["stem"] and re.match(r"\d\d_", e["stem"])
            and e["href"] not in translated_pages]
        target = out / folder_of(language) / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(index_page(same, index_mathjax, search, language, twins, untranslated), encoding="utf-8")
    if search:
        index_text(out)
    return out / "index.html"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks (default: all of notebooks/)")
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="output folder (default: site/)")
    parser.add_argument("--stored-outputs", action="store_true",
                        help="take the notebooks' stored outputs instead of executing them (quick)")
    parser.add_argument("--repo", help="owner/name on GitHub, for the pages' Binder links "
                                       "(default: from the clone's 'origin' remote)")
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.notebooks] or discover()
    try:
        repo = args.repo or share_links.origin()
        share_links.binder(repo, "")  # a well-formed name, before any notebook runs
    except ValueError as error:
        if args.repo:
            parser.error(str(error))
        repo = None
        print(f"no Binder links: {error}", file=sys.stderr)
    print(f"site: {build(paths, args.out, execute_notebooks=not args.stored_outputs, repo=repo)}")


if __name__ == "__main__":
    main()
