"""tools/share_links.py makes the README's Binder and hub links from one repository name."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("share_links", ROOT / "tools" / "share_links.py")
share_links = importlib.util.module_from_spec(spec)
spec.loader.exec_module(share_links)


def test_the_readme_shows_the_links_the_tool_makes():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = share_links.links("OWNER/REPO", "https://hub.example.edu")
    for name in ("binder", "binder badge", "hub"):
        assert found[name] in readme, name
    assert "urlpath=voila%2Frender%2FREPO%2Fnotebooks%2F03_soft_margins.ipynb" in found["hub class mode"]
    assert "urlpath=voila/render/notebooks/03_soft_margins.ipynb" in found["binder class mode"]


@pytest.mark.parametrize("remote", ["https://github.com/ulaval/ml-course.git", "git@github.com:ulaval/ml-course.git",
                                    "https://github.com/ulaval/ml-course"])
def test_the_repository_is_read_from_a_github_remote(remote):
    assert share_links.repository(remote) == "ulaval/ml-course"
    assert share_links.links("ulaval/ml-course")["binder"].startswith("https://mybinder.org/v2/gh/ulaval/ml-course/main?")


def test_a_remote_elsewhere_or_a_bad_name_is_refused_with_the_fix():
    with pytest.raises(ValueError, match="--repo owner/name"):
        share_links.repository("https://gitlab.com/a/b.git")
    with pytest.raises(ValueError, match="owner/name"):
        share_links.links("just-a-name")
