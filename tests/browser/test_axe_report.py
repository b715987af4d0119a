"""`tools/axe_report.py`, the table of axe's findings per page and surface, runs: asked for the
English glossary's page of the site at one size, it prints the table's header and that one row."""

import re
import subprocess
import sys

from axe_check import require_axe
from conftest import CHROMIUM
from course_notebooks import ROOT
from prerequisites import needs

ROW = re.compile(r"^\| site \| glossary \| 1366x768 \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (.+) \|$")


def test_the_accessibility_report_prints_a_row_per_page_and_size():
    needs(CHROMIUM.exists(), "the accessibility report", f"{CHROMIUM} is missing: `make browser-deps`")
    require_axe()
    needs((ROOT / "tools" / "search" / "node_modules" / ".bin" / "pagefind").exists(), "the accessibility report",
          "Pagefind is missing: `make search-deps`")
    done = subprocess.run([sys.executable, "tools/axe_report.py", "--surface", "site", "--page", "glossary",
                           "--language", "en", "--size", "1366x768"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("| surface | page | size | critical | serious | moderate | minor |"), lines
    rows = [ROW.match(line) for line in lines[2:]]
    assert len(rows) == 1 and rows[0], lines
    critical, serious = int(rows[0].group(1)), int(rows[0].group(2))
    assert critical + serious == 0 and (rows[0].group(5) == "none") == (sum(map(int, rows[0].groups()[:4])) == 0)
