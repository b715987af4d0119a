"""Binder and JupyterHub build the companion with repo2docker: that environment must be the one
`make lab` gives, and every chapter must run in it with no `make` and no PYTHONPATH.

The environment is built as repo2docker builds it (tests/student_image.py: a fresh clone of
the committed HEAD, a new virtual environment from the Python of `runtime.txt`, `pip install
--no-cache-dir -r requirements.txt`, `./postBuild`, and jupyterhub-singleuser, which
repo2docker's base environment brings); `make` is not used. The hub test shares it.

Then, in that environment, with the working directory in `notebooks/` and no PYTHONPATH:
  - every chapter (all 12) is executed top to bottom, and a last cell checks that `course_lib`
    is the installed copy (04 needs the sliders and figures, 09 the docstring corpus, 11 the OCR
    letters and the trained chain models the package must carry); every chapter is also
    import-checked first, each `import`/`from` statement of its code cells run from
    `notebooks/`, so a missing module is named at once;
  - the pinned versions of `requirements.txt` are exactly what is installed, here and in
    `make lab`'s `.venv` (when present), the installed `course_lib` has the same version and
    the same files as the clone's `course_lib/`, JupyterLab's widget extension and Voila's
    server extension are there, and JupyterLab's defaults are ours (`etc/jupyter/`), the file
    `make lab` passes to JupyterLab too.
"""

import json
import re
import subprocess
import textwrap
from pathlib import Path

import pytest
from student_image import run

ROOT = Path(__file__).resolve().parent.parent
EXECUTED = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))  # every chapter
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def pins(requirements):
    found = {}
    for line in requirements.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"requirements.txt must pin every package: {line!r}"
            found[normalise(name)] = version.strip()
    return found


def normalise(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def installed(python, env, cwd):
    listing = json.loads(run([python, "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
                             cwd, env))
    return {normalise(p["name"]): p["version"] for p in listing}


@pytest.fixture(scope="module")
def built(student_image):
    """(clone, venv python, environment without PYTHONPATH) after the repo2docker steps."""
    return student_image.clone, student_image.python, student_image.env


def test_pinned_versions_are_installed_here_and_in_make_labs_venv(built):
    clone, python, env = built
    wanted = pins(clone / "requirements.txt")
    have = installed(python, env, clone)
    assert {n: v for n, v in wanted.items() if have.get(n) != v} == {}, "pins not installed as pinned"
    hub = pins(clone / "requirements-hub.txt")  # what repo2docker's base environment brings
    assert {n: v for n, v in hub.items() if have.get(n) != v} == {}, "requirements-hub.txt not installed as pinned"
    extra = set(have) - set(wanted) - set(hub) - {"pip", "course-lib"}
    assert not extra, f"installed but not pinned in requirements.txt: {sorted(extra)}"
    lab_python = ROOT / ".venv" / "bin" / "python"
    if lab_python.exists():  # the environment of `make lab`
        lab = installed(str(lab_python), env, clone)
        assert {n: (v, lab.get(n)) for n, v in wanted.items() if lab.get(n) != v} == {}, \
            "make lab's .venv differs from requirements.txt: rerun make lab after updating the pins"
        assert lab["course-lib"] == have["course-lib"]


def test_course_lib_is_the_repositorys_and_imports_from_notebooks(built):
    clone, python, env = built
    script = textwrap.dedent("""
        import json, pathlib, course_lib
        root = pathlib.Path(course_lib.__file__).parent
        print(json.dumps(sorted(str(p.relative_to(root)) for p in root.rglob("*")
                                if p.is_file() and "__pycache__" not in p.parts)))
        print(root)
    """)
    out = run([python, "-c", script], clone / "notebooks", env).splitlines()
    files, location = json.loads(out[0]), Path(out[1])
    assert "site-packages" in location.parts, f"course_lib imported from {location}, not the installed copy"
    tracked = subprocess.run(["git", "ls-files", "course_lib"], cwd=clone, capture_output=True, text=True,
                             check=True).stdout.split()
    assert files == sorted(str(Path(t).relative_to("course_lib")) for t in tracked)
    for name in files:
        assert (location / name).read_bytes() == (clone / "course_lib" / name).read_bytes(), name


def test_jupyterlab_extensions_and_our_settings(built):
    clone, python, env = built
    prefix = Path(run([python, "-c", "import sys; print(sys.prefix)"], clone, env).strip())
    assert (prefix / "share/jupyter/labextensions/@jupyter-widgets/jupyterlab-manager/package.json").exists()
    assert (prefix / "share/jupyter/labextensions/course-companion/remoteEntry.js").exists()  # ours
    voila = json.loads((prefix / "etc/jupyter/jupyter_server_config.d/voila.json").read_text())
    assert voila["ServerApp"]["jpserver_extensions"]["voila.server_extension"] is True
    settings = prefix / "share/jupyter/lab/settings"
    script = ("import json, sys; from jupyterlab_server.settings_utils import _get_overrides; "
              "print(json.dumps(_get_overrides(sys.argv[1])))")
    overrides, error = json.loads(run([python, "-c", script, str(settings)], clone, env))
    assert not error
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    # the very files make lab and make class use (through JUPYTER_CONFIG_PATH and JUPYTER_PATH)
    for name in ("etc/jupyter/labconfig/default_setting_overrides.json",
                 "share/jupyter/voila/templates/course/index.html.j2"):
        assert (prefix / name).read_bytes() == (ROOT / name).read_bytes(), name
    assert 'JUPYTER_CONFIG_PATH="$(CURDIR)/etc/jupyter"' in (ROOT / "Makefile").read_text()


def import_lines(notebook):
    import ast

    lines = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        try:
            tree = ast.parse(source)
        except SyntaxError:  # IPython magics
            continue
        lines += [ast.get_source_segment(source, node) for node in ast.walk(tree)
                  if isinstance(node, (ast.Import, ast.ImportFrom))]
    return lines


def test_every_chapter_imports_from_notebooks(built):
    clone, python, env = built
    chapters = sorted((clone / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert len(chapters) == 12
    imports = {c.name: "\n".join(import_lines(json.loads(c.read_text(encoding="utf-8")))) for c in chapters}
    assert all(imports.values()), [name for name, lines in imports.items() if not lines]
    script = textwrap.dedent("""
        import json, sys, traceback
        failed = {}
        for name, lines in json.loads(sys.stdin.read()).items():
            try:
                exec(lines, {})  # a fresh namespace per chapter, one interpreter for all
            except Exception:
                failed[name] = traceback.format_exc(limit=1)
        print(json.dumps(failed))
    """)
    result = subprocess.run([python, "-c", script], input=json.dumps(imports), cwd=clone / "notebooks", env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.splitlines()[-1]) == {}


@pytest.mark.parametrize("name", EXECUTED)
def test_chapter_runs_from_notebooks_without_make(built, name):
    clone, python, env = built
    script = textwrap.dedent("""
        import sys, nbformat
        from nbclient import NotebookClient
        notebook = nbformat.read(sys.argv[1], as_version=4)
        notebook.cells.append(nbformat.v4.new_code_cell(
            "import course_lib, os; print(course_lib.__file__, os.environ.get('PYTHONPATH'))"))
        NotebookClient(notebook, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": "."}}).execute()
        print("".join(output.get("text", "") for output in notebook.cells[-1].outputs  # a print may
                      if output.get("name") == "stdout"))  # come in several stream messages under load
    """)
    out = run([python, "-c", script, name], clone / "notebooks", env, timeout=800)
    where, pythonpath = out.split()[-2:]
    assert "site-packages" in where and pythonpath == "None", out
