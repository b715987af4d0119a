"""A real text corpus and the sparse bag-of-words features the multiclass chapters use.

The corpus is the docstrings of the Python standard library (3,024 documents in 13 topics,
frozen by `tools/freeze_stdlib_docstrings.py`, provenance in `course_lib/resources/README.md`).
A document becomes a dict {word: count}: the sparse format of the averaged-perceptron notes,
where only the active features of an example are stored.
"""

import gzip
import json
import re
from collections import Counter
from importlib import resources

import numpy as np

from course_lib._validation import check_int, check_random_state, finite_arguments
from course_lib.data import read_checked
from course_lib.i18n import _

STDLIB_SHA256 = "e9fb0e6ce5ee490c5a0f7b9c12eef478bec75c9663b21ff8a15395400ec0b005"
_WORD = re.compile(r"[a-z][a-z0-9]*")


def _stdlib_path():
    return resources.files("course_lib") / "resources" / "stdlib_docstrings.jsonl.gz"


def load_stdlib_docstrings(return_names=False):
    """Load the standard-library docstring corpus shipped with the package.

    Returns `(documents, topics, topic_names)`: `documents` a list of 3,024 strings (one
    docstring each), `topics` an int array with the topic index of each document and
    `topic_names` the 13 topic names (`topic_names[topics[i]]` is the topic of document i).
    With `return_names=True` a fourth item lists where each docstring comes from
    ("email.message Message.get_payload"). The file is gzip'd JSON lines checked by sha256.
    """
    raw = read_checked(_stdlib_path(), STDLIB_SHA256, _("The docstring corpus"),
                       missing_fix=_("Reinstall the package from a fresh clone (`pip install -e .`) or "
                                     "rebuild it with `python tools/freeze_stdlib_docstrings.py`"))
    lines = gzip.decompress(raw).decode("utf-8").splitlines()
    header, records = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    topic_names = list(header["topics"])
    index = {name: k for k, name in enumerate(topic_names)}
    documents = [record["text"] for record in records]
    topics = np.array([index[record["topic"]] for record in records], dtype=np.int64)
    if return_names:
        names = [f"{record['module']} {record['name']}" for record in records]
        return documents, topics, topic_names, names
    return documents, topics, topic_names


def tokenize(text):
    """Lower-case words of a text: runs of letters and digits starting with a letter, length >= 2.

    Underscores and punctuation separate words: "get_payload(i=None)" -> ["get", "payload", "none"].
    """
    if not isinstance(text, str):
        raise TypeError(_("text must be a string; got {type}.").format(type=type(text).__name__))
    return [word for word in _WORD.findall(text.lower()) if len(word) >= 2]


def bag_of_words(documents, min_df=1, vocabulary=None):
    """Count words per document: returns `(bags, vocabulary)`.

    `bags[i]` is a dict {word: count of the word in document i} holding only the words of the
    vocabulary (the notes' sparse feature dicts). Without `vocabulary`, it is built here: the
    sorted words occurring in at least `min_df` documents (the document frequency DF). Pass the
    vocabulary of a training set to encode held-out documents with the same words.
    """
    if isinstance(documents, str) or not all(isinstance(d, str) for d in documents):
        raise TypeError(_("documents must be a list of strings (one text per document)."))
    min_df = check_int(min_df, "min_df", 1)
    counts = [Counter(tokenize(d)) for d in documents]
    if vocabulary is None:
        df = Counter(word for c in counts for word in c)
        vocabulary = sorted(word for word, n in df.items() if n >= min_df)
    elif min_df != 1:
        raise ValueError(_("min_df only applies when the vocabulary is built here: pass one or "
                           "the other."))
    else:
        vocabulary = list(vocabulary)
    keep = set(vocabulary)
    bags = [{word: n for word, n in sorted(c.items()) if word in keep} for c in counts]
    return bags, vocabulary


def docstring_group(name):
    """The Python class (or module-level function) a docstring belongs to, from its source name:
    "email.message Message.get_payload" -> "email.message Message". Siblings share a group."""
    module, _, qualified = name.partition(" ")
    return f"{module} {qualified.split('.')[0]}"


@finite_arguments
def split_docstrings(names, grouped=False, seed=0):
    """The corpus's one split, used by chapters 08 and 09: (train, held_out, test) index arrays,
    60% / 20% / 20%.

    Default: documents dealt at random, part = rng.permutation(m) % 5 with
    rng = np.random.default_rng(seed) (parts 0-2 train, 3 held-out, 4 test). Sibling docstrings
    (the methods of one class) then fall on both sides and share rare words, which flatters the
    test accuracy. With grouped=True whole groups (`docstring_group`) are dealt instead, so no
    class has docstrings on both sides.
    """
    if isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise TypeError(_("names must be the list of source names of "
                          "load_stdlib_docstrings(return_names=True)."))
    rng = check_random_state(seed)
    if grouped:
        groups = [docstring_group(n) for n in names]
        keys = sorted(set(groups))
        part_of = {keys[k]: p % 5 for p, k in enumerate(rng.permutation(len(keys)))}
        part = np.array([part_of[g] for g in groups])
    else:
        part = rng.permutation(len(names)) % 5
    return np.flatnonzero(part <= 2), np.flatnonzero(part == 3), np.flatnonzero(part == 4)
