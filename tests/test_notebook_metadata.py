"""A notebook names the kernel JupyterLab starts for it exactly as that kernel names itself:
otherwise Lab rewrites the name when the kernel starts, and a chapter the reader has only
opened shows as modified (and asks to be saved when closed)."""

from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*.ipynb")) + sorted(NOTEBOOKS.glob("solutions/*.ipynb"))


def test_every_notebook_is_read():
    assert len(PATHS) >= 25


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.relative_to(NOTEBOOKS).as_posix())
def test_a_notebook_names_its_kernel_as_the_kernel_does(path):
    spec = nbformat.read(path, as_version=4).metadata.kernelspec
    installed = KernelSpecManager().get_kernel_spec(spec.name)
    assert (spec.display_name, spec.language) == (installed.display_name, installed.language)
