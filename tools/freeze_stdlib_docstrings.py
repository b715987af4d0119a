"""Freeze the docstrings of the Python standard library into a small text corpus.

Run from the repository root with the project's Python:

    .venv/bin/python tools/freeze_stdlib_docstrings.py

It writes `course_lib/resources/stdlib_docstrings.jsonl.gz` and prints its sha256, to be
copied into `STDLIB_SHA256` in `course_lib/text.py` when the file changes.

One document is the docstring of one module, class, function, method or property of the
standard library, cleaned with `inspect.cleandoc`. Its topic is the family of modules it
comes from (the `TOPICS` table below: email, web, xml, ...). An object is kept only in the
module that defines it (its `__module__` is that module or its C accelerator), so re-exports
are not counted twice; docstrings that occur more than once anywhere (boilerplate such as
"Return repr(self).") and docstrings shorter than `MIN_WORDS` words are dropped.

The output is deterministic for a given Python version: modules, members and documents are
visited in sorted order, the JSON is written with sorted keys and the gzip header carries no
time stamp or file name. (Module contents differ slightly between operating systems: the
platform is recorded too.) The first line of the file is a header record (Python version,
topic names, counts); every other line is one document:
`{"module": ..., "name": ..., "text": ..., "topic": ...}`.
"""

import gzip
import hashlib
import importlib
import inspect
import json
import platform
import re
import sys
import warnings
from pathlib import Path

OUTPUT = Path(__file__).resolve().parents[1] / "course_lib" / "resources" / "stdlib_docstrings.jsonl.gz"
MIN_WORDS = 6

# topic name -> public modules of that family (each also accepts its C accelerator `_name`)
TOPICS = {
    "asyncio": ["asyncio", "asyncio.base_events", "asyncio.events", "asyncio.exceptions",
                "asyncio.futures", "asyncio.locks", "asyncio.protocols", "asyncio.queues",
                "asyncio.runners", "asyncio.selector_events", "asyncio.streams",
                "asyncio.subprocess", "asyncio.tasks", "asyncio.taskgroups", "asyncio.timeouts",
                "asyncio.transports", "asyncio.unix_events"],
    "concurrency": ["concurrent.futures", "concurrent.futures._base",
                    "concurrent.futures.process", "concurrent.futures.thread",
                    "multiprocessing", "multiprocessing.connection", "multiprocessing.context",
                    "multiprocessing.managers", "multiprocessing.pool", "multiprocessing.process",
                    "multiprocessing.queues", "multiprocessing.shared_memory",
                    "multiprocessing.synchronize", "queue", "sched", "subprocess", "threading"],
    "datetime": ["calendar", "datetime", "time", "zoneinfo"],
    "email": ["email", "email.charset", "email.contentmanager", "email.encoders",
              "email.errors", "email.feedparser", "email.generator", "email.header",
              "email.headerregistry", "email.iterators", "email.message", "email.mime.application",
              "email.mime.audio", "email.mime.base", "email.mime.image", "email.mime.multipart",
              "email.mime.nonmultipart", "email.mime.text", "email.parser", "email.policy",
              "email.utils", "imaplib", "mailbox", "poplib", "smtplib"],
    "files": ["filecmp", "fnmatch", "glob", "os", "pathlib", "posixpath", "shutil", "stat",
              "tarfile", "tempfile", "zipfile"],
    "functional": ["bisect", "collections", "collections.abc", "contextlib", "functools",
                   "heapq", "itertools", "operator"],
    "logging": ["logging", "logging.config", "logging.handlers", "warnings"],
    "numeric": ["cmath", "decimal", "fractions", "math", "numbers", "random", "statistics"],
    "serialization": ["base64", "binascii", "configparser", "copyreg", "csv", "json",
                      "json.decoder", "json.encoder", "marshal", "pickle", "pickletools",
                      "plistlib", "shelve", "struct"],
    "tkinter": ["tkinter", "tkinter.colorchooser", "tkinter.commondialog", "tkinter.dialog",
                "tkinter.dnd", "tkinter.filedialog", "tkinter.font", "tkinter.messagebox",
                "tkinter.scrolledtext", "tkinter.simpledialog", "tkinter.ttk"],
    "unittest": ["doctest", "unittest", "unittest.async_case", "unittest.case",
                 "unittest.loader", "unittest.main", "unittest.mock", "unittest.result",
                 "unittest.runner", "unittest.signals", "unittest.suite", "unittest.util"],
    "web": ["cgi", "ftplib", "html", "html.entities", "html.parser", "http", "http.client",
            "http.cookiejar", "http.cookies", "http.server", "socketserver", "urllib",
            "urllib.error", "urllib.parse", "urllib.request", "urllib.response",
            "urllib.robotparser", "wsgiref.handlers", "wsgiref.headers", "wsgiref.simple_server",
            "wsgiref.util", "wsgiref.validate", "xmlrpc.client", "xmlrpc.server"],
    "xml": ["xml.dom", "xml.dom.domreg", "xml.dom.expatbuilder", "xml.dom.minicompat",
            "xml.dom.minidom", "xml.dom.pulldom", "xml.dom.xmlbuilder", "xml.etree.ElementPath",
            "xml.etree.ElementTree", "xml.parsers.expat", "xml.sax", "xml.sax.expatreader",
            "xml.sax.handler", "xml.sax.saxutils", "xml.sax.xmlreader"],
}


def _defined_in(obj, module_name):
    """True when obj is defined in module_name or in its C accelerator (`_json` for json)."""
    owner = getattr(obj, "__module__", None)
    last = module_name.rsplit(".", 1)[-1]
    return owner in (module_name, "_" + last)


def _members(module):
    """Yield (qualified name, docstring) of a module, its public classes, functions and methods."""
    yield module.__name__, module.__doc__
    for name in sorted(vars(module)):
        obj = vars(module)[name]
        if name.startswith("_") or not _defined_in(obj, module.__name__):
            continue
        if inspect.isclass(obj):
            yield name, obj.__doc__
            for attr in sorted(vars(obj)):
                if attr.startswith("_") and attr != "__init__":
                    continue
                member = vars(obj)[attr]
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if callable(member) or isinstance(member, property):
                    yield f"{name}.{attr}", getattr(member, "__doc__", None)
        elif callable(obj):
            yield name, obj.__doc__


def collect():
    """Return the sorted list of document records, boilerplate and short docstrings removed."""
    records, seen_objects = [], set()
    for topic in sorted(TOPICS):
        for module_name in sorted(TOPICS[topic]):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # cgi is deprecated in 3.11
                module = importlib.import_module(module_name)
            for name, doc in _members(module):
                key = (module_name, name)
                if not isinstance(doc, str) or key in seen_objects:
                    continue
                seen_objects.add(key)
                text = inspect.cleandoc(doc)
                if len(re.findall(r"[A-Za-z]+", text)) >= MIN_WORDS:
                    records.append({"topic": topic, "module": module_name, "name": name, "text": text})
    counts = {}
    for record in records:
        counts[record["text"]] = counts.get(record["text"], 0) + 1
    records = [r for r in records if counts[r["text"]] == 1]
    return sorted(records, key=lambda r: (r["topic"], r["module"], r["name"]))


def main():
    records = collect()
    topics = sorted(TOPICS)
    header = {
        "python": platform.python_version(),
        "implementation": sys.implementation.name,
        "platform": sys.platform,
        "source": "docstrings of the Python standard library (tools/freeze_stdlib_docstrings.py)",
        "topics": topics,
        "n_documents": len(records),
        "per_topic": {t: sum(r["topic"] == t for r in records) for t in topics},
    }
    lines = [json.dumps(header, sort_keys=True, ensure_ascii=False)]
    lines += [json.dumps(r, sort_keys=True, ensure_ascii=False) for r in records]
    payload = ("\n".join(lines) + "\n").encode("utf-8")
    with open(OUTPUT, "wb") as raw, gzip.GzipFile(
        filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0
    ) as out:
        out.write(payload)
    data = OUTPUT.read_bytes()
    print(f"{len(records)} documents, {len(data):,} bytes -> {OUTPUT}")
    print(json.dumps(header["per_topic"]))
    print(f"sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
