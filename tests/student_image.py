"""The environment a student gets on Binder or a JupyterHub, built the way repo2docker builds it
from a fresh clone of the committed HEAD (uncommitted changes are not part of it):

  1. the Python of `runtime.txt` ("python-3.11") makes a new virtual environment;
  2. `pip install --no-cache-dir -r requirements.txt`, repo2docker's own command (plus
     `--no-compile`, which skips writing .pyc files and changes nothing that is installed);
  3. `./postBuild`, run as repo2docker runs it (installs course_lib and our Jupyter settings);
  4. `requirements-hub.txt`: jupyterhub-singleuser, which repo2docker's own base environment
     brings (a hub starts each student's server with it).
Nothing else is installed, `make` is not used, and pip reads only the index configured on this
machine (`pip config list`).

Everything lives in one folder that every user of the machine can read and run, as an image's
files are: when the interpreter sits where other users cannot reach it (a Python under /root),
its runtime (the executable, libpython and the standard library, without site-packages) is
copied into that folder first, and `library_path` says where its libpython is.
"""

import os
import re
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class StudentImage:
    clone: Path  # the repository as the image was built from it
    prefix: Path  # the environment (bin/python, bin/jupyterhub-singleuser)
    env: dict  # the process environment to run its programs with (no PYTHONPATH)
    library_path: str  # LD_LIBRARY_PATH its Python needs ("" when none)

    @property
    def python(self):
        return str(self.prefix / "bin" / "python")


def run(args, cwd, env, timeout=600):
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{' '.join(map(str, args))} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result.stdout


def runtime_python(runtime_file):
    """The interpreter repo2docker would use: `python-X.Y` in runtime.txt, or None if this
    machine has no such Python."""
    match = re.fullmatch(r"python-(\d+)\.(\d+)", runtime_file.read_text().strip())
    assert match, f"runtime.txt must read python-X.Y (repo2docker's form), not {runtime_file.read_text()!r}"
    version = tuple(int(v) for v in match.groups())
    if sys.version_info[:2] == version:
        return sys._base_executable
    return shutil.which(f"python{version[0]}.{version[1]}")


def reachable_by_all(path):
    """Can any user of the machine run `path` (every folder above it traversable by others)?"""
    path = Path(path).resolve()
    return all(p.stat().st_mode & stat.S_IXOTH for p in [path, *path.parents])


def portable_runtime(python, folder):
    """`python` itself when every user can run it; else a copy of its runtime in `folder`
    (executable, libpython, standard library) and the LD_LIBRARY_PATH that copy needs."""
    if reachable_by_all(python):
        return python, ""
    source = Path(python).resolve()
    prefix, stdlib, version = subprocess.run(
        [str(source), "-c", "import sys, sysconfig; print(sys.base_prefix); print(sysconfig.get_paths()['stdlib']); "
                            "print(f'python{sys.version_info[0]}.{sys.version_info[1]}')"],
        capture_output=True, text=True, check=True).stdout.split()
    prefix, stdlib = Path(prefix), Path(stdlib)
    (folder / "bin").mkdir(parents=True)
    shutil.copy2(source, folder / "bin" / version)
    (folder / "lib").mkdir()
    for library in (prefix / "lib").glob(f"lib{version}.so*"):
        shutil.copy2(library, folder / "lib" / library.name, follow_symlinks=False)
    shutil.copytree(stdlib, folder / "lib" / version, symlinks=True, ignore=shutil.ignore_patterns(
        "site-packages", "test", "__pycache__", "idlelib", "tkinter", "turtledemo"))
    (folder / "lib" / version / "site-packages").mkdir()
    return str(folder / "bin" / version), str(folder / "lib")


def build(base, pip_cache=False):
    """Clone HEAD into `base`/repo and build the student's environment in `base`/env, all of it
    readable by every user. `pip_cache`: let pip use its cache (repo2docker does not)."""
    base = Path(base)
    base.mkdir(parents=True, exist_ok=True)
    os.chmod(base, 0o755)
    clone = base / "repo"
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "checkout", "--quiet", "--detach", head], cwd=clone, check=True)
    python = runtime_python(clone / "runtime.txt")
    if python is None:
        return None
    python, library_path = portable_runtime(python, base / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    if library_path:
        env["LD_LIBRARY_PATH"] = library_path
    prefix = base / "env"
    run([python, "-m", "venv", str(prefix)], clone, env)
    env.update(PATH=f"{prefix / 'bin'}{os.pathsep}{env.get('PATH', '')}", VIRTUAL_ENV=str(prefix))
    pip = [str(prefix / "bin" / "python"), "-m", "pip", "install", "--no-compile", "--disable-pip-version-check",
           "--quiet", *([] if pip_cache else ["--no-cache-dir"])]
    run([*pip, "-r", "requirements.txt"], clone, env, timeout=1200)
    assert os.access(clone / "postBuild", os.X_OK), "postBuild must be executable: repo2docker runs it as is"
    run([str(clone / "postBuild")], clone, env)
    run([*pip, "-r", "requirements-hub.txt"], clone, env, timeout=900)
    for path in [base, *base.rglob("*")]:  # as an image's files: everyone reads, nobody else writes
        if not path.is_symlink():
            mode = path.stat().st_mode
            path.chmod(mode | stat.S_IROTH | stat.S_IRGRP | (stat.S_IXOTH | stat.S_IXGRP if mode & stat.S_IXUSR else 0))
    return StudentImage(clone, prefix, env, library_path)
