"""The standard-library docstring corpus: file integrity, counts, tokenizer and bag of words."""

import gzip
import hashlib
import json
import platform
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from course_lib import text
from course_lib.text import bag_of_words, load_stdlib_docstrings, tokenize

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "course_lib" / "resources" / "stdlib_docstrings.jsonl.gz"


def test_file_checksum_matches_the_loader_constant():
    assert hashlib.sha256(DATA.read_bytes()).hexdigest() == text.STDLIB_SHA256
    assert DATA.stat().st_size < 2_000_000


def test_counts_match_the_header_and_every_topic_is_populated():
    documents, topics, names = load_stdlib_docstrings()
    header = json.loads(gzip.open(DATA, "rt", encoding="utf-8").readline())
    assert len(documents) == len(topics) == header["n_documents"] == 3024
    assert names == header["topics"] and len(names) == 13
    per_topic = np.bincount(topics, minlength=len(names))
    assert {n: int(c) for n, c in zip(names, per_topic)} == header["per_topic"]
    assert per_topic.min() >= 100
    assert all(isinstance(d, str) and d for d in documents)
    assert len(set(documents)) == len(documents)  # duplicates were dropped


def test_names_point_to_the_real_docstrings():
    documents, topics, topic_names, origins = load_stdlib_docstrings(return_names=True)
    import inspect
    import json as json_module

    k = origins.index("json.decoder JSONDecoder.decode")
    assert documents[k] == inspect.cleandoc(json_module.JSONDecoder.decode.__doc__)
    assert topic_names[topics[k]] == "serialization"


def test_corrupt_file_gives_a_clear_error(tmp_path, monkeypatch):
    bad = tmp_path / "stdlib_docstrings.jsonl.gz"
    data = bytearray(DATA.read_bytes())
    data[100] ^= 0xFF
    bad.write_bytes(bytes(data))
    monkeypatch.setattr(text, "_stdlib_path", lambda: bad)
    with pytest.raises(ValueError, match="corrupt.*git checkout"):
        load_stdlib_docstrings()
    monkeypatch.setattr(text, "_stdlib_path", lambda: tmp_path / "missing.jsonl.gz")
    with pytest.raises(FileNotFoundError, match="missing"):
        load_stdlib_docstrings()


def test_freezing_script_rewrites_the_same_bytes(tmp_path):
    header = json.loads(gzip.open(DATA, "rt", encoding="utf-8").readline())
    if (platform.python_version(), sys.platform) != (header["python"], header["platform"]):
        pytest.skip(f"the corpus was frozen on Python {header['python']} ({header['platform']})")
    script = tmp_path / "freeze.py"
    shutil.copy(ROOT / "tools" / "freeze_stdlib_docstrings.py", script)
    source = script.read_text().replace(
        'OUTPUT = Path(__file__).resolve().parents[1] / "course_lib" / "resources" / "stdlib_docstrings.jsonl.gz"',
        f"OUTPUT = Path({str(tmp_path / 'out.jsonl.gz')!r})",
    )
    script.write_text(source)
    subprocess.run([sys.executable, str(script)], check=True, capture_output=True)
    assert (tmp_path / "out.jsonl.gz").read_bytes() == DATA.read_bytes()


def test_tokenize():
    assert tokenize("Return the get_payload(i=None) of a UTF8 Message.") == [
        "return", "the", "get", "payload", "none", "of", "utf8", "message"]
    assert tokenize("") == []
    with pytest.raises(TypeError, match="string"):
        tokenize(3)


def test_bag_of_words_counts_and_min_df():
    docs = ["the cat and the dog", "the dog barks", "a bird"]
    bags, vocabulary = bag_of_words(docs)
    assert vocabulary == ["and", "barks", "bird", "cat", "dog", "the"]
    assert bags[0] == {"the": 2, "cat": 1, "and": 1, "dog": 1}
    assert bags[2] == {"bird": 1}
    bags, vocabulary = bag_of_words(docs, min_df=2)
    assert vocabulary == ["dog", "the"]
    assert bags == [{"dog": 1, "the": 2}, {"dog": 1, "the": 1}, {}]
    held_out, same = bag_of_words(["the zebra and the cat"], vocabulary=["cat", "the"])
    assert held_out == [{"cat": 1, "the": 2}] and same == ["cat", "the"]


def test_bag_of_words_on_the_corpus_agrees_with_a_direct_count():
    documents, _, _ = load_stdlib_docstrings()
    bags, vocabulary = bag_of_words(documents, min_df=3)
    df = Counter(w for d in documents for w in set(tokenize(d)))
    assert vocabulary == sorted(w for w, n in df.items() if n >= 3)
    assert len(vocabulary) > 2000
    k = 123
    expected = Counter(w for w in tokenize(documents[k]) if df[w] >= 3)
    assert bags[k] == dict(expected)


def test_bag_of_words_validation():
    with pytest.raises(TypeError, match="list of strings"):
        bag_of_words("one string")
    with pytest.raises(TypeError, match="list of strings"):
        bag_of_words(["ok", 3])
    with pytest.raises(ValueError, match="min_df"):
        bag_of_words(["a b"], min_df=0)
    with pytest.raises(ValueError, match="one or the other"):
        bag_of_words(["ab cd"], min_df=2, vocabulary=["ab"])


@pytest.mark.parametrize("grouped", [False, True])
def test_split_docstrings_is_a_partition_and_grouped_keeps_siblings_together(grouped):
    from course_lib.text import docstring_group, split_docstrings

    _, _, _, names = load_stdlib_docstrings(return_names=True)
    train, held, test = split_docstrings(names, grouped=grouped, seed=0)
    np.testing.assert_array_equal(np.sort(np.r_[train, held, test]), np.arange(len(names)))
    assert 0.5 < len(train) / len(names) < 0.7 and 0.15 < len(test) / len(names) < 0.25
    groups = [docstring_group(n) for n in names]
    shared = {groups[i] for i in train} & {groups[i] for i in test}
    assert (len(shared) == 0) == grouped
    again = split_docstrings(names, grouped=grouped, seed=0)
    assert all(np.array_equal(p, q) for p, q in zip((train, held, test), again))
    assert docstring_group("email.message Message.get_payload") == "email.message Message"
