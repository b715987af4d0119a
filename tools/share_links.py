"""The links to send students, made from the one place that names this repository: the GitHub
address of the clone's `origin` remote (or --repo owner/name), and your hub's address.

    python tools/share_links.py                                  # Binder links, from origin
    python tools/share_links.py --repo owner/name --hub https://hub.example.edu

Prints the Binder link and badge (JupyterLab on chapter 01), Binder's class-mode link, and,
with --hub, the nbgitpuller links of the README ("From your university's JupyterHub").
"""

import argparse
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GITHUB = re.compile(r"(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")
FIRST_CHAPTER = "01_linear_discriminants.ipynb"
CLASS_CHAPTER = "03_soft_margins.ipynb"


def repository(remote_url):
    """'owner/name' of a GitHub remote URL (https or ssh)."""
    found = GITHUB.match(remote_url.strip())
    if not found:
        raise ValueError(f"{remote_url!r} is not a GitHub address: pass --repo owner/name")
    return f"{found.group(1)}/{found.group(2)}"


def origin(root=ROOT):
    result = subprocess.run(["git", "remote", "get-url", "origin"], cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        raise ValueError("this clone has no 'origin' remote: pass --repo owner/name")
    return repository(result.stdout)


def binder(repo, notebook, branch="main"):
    """Binder's link opening `notebook` (a path under notebooks/) in JupyterLab."""
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repo or ""):
        raise ValueError(f"repo must be 'owner/name', got {repo!r}")
    return f"https://mybinder.org/v2/gh/{repo}/{branch}?urlpath=lab/tree/notebooks/{notebook}"


def links(repo, hub=None, branch="main"):
    """{name: link} for the repository 'owner/name' (and a hub's base URL)."""
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repo or ""):
        raise ValueError(f"repo must be 'owner/name', got {repo!r}")
    base = f"https://mybinder.org/v2/gh/{repo}/{branch}"
    found = {
        "binder": binder(repo, FIRST_CHAPTER, branch),
        "binder badge": f"[![Binder](https://mybinder.org/badge_logo.svg)]({base}?urlpath=lab/tree/notebooks)",
        "binder class mode": f"{base}?urlpath=voila/render/notebooks/{CLASS_CHAPTER}",
    }
    if hub:
        name = repo.split("/")[1]
        def pull(urlpath):
            query = urllib.parse.urlencode({"repo": f"https://github.com/{repo}", "branch": branch,
                                            "urlpath": urlpath}, safe="")
            return f"{hub.rstrip('/')}/hub/user-redirect/git-pull?{query}"
        found["hub"] = pull(f"lab/tree/{name}/notebooks/{FIRST_CHAPTER}?autodecode")
        found["hub class mode"] = pull(f"voila/render/{name}/notebooks/{CLASS_CHAPTER}")
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", help="owner/name on GitHub (default: from the 'origin' remote)")
    parser.add_argument("--hub", help="your JupyterHub's address, e.g. https://hub.example.edu")
    parser.add_argument("--branch", default="main")
    args = parser.parse_args(argv)
    try:
        found = links(args.repo or origin(), args.hub, args.branch)
    except ValueError as error:
        sys.exit(str(error))
    for name, link in found.items():
        print(f"{name}:\n  {link}")


if __name__ == "__main__":
    main()
