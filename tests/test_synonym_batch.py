"""The synonym index's batch lookup (``SynonymIndex.synset_keys_many``, numpy) against its word-by-word
lookup (the same key sets), and against the pre-hash-index implementation kept here as the reference
(a bisect over block starts and a search in the sorted text; synset ids as keys) and the full WordNet
tables (the same synonym pairs): for lemmas, inflected forms, exception forms, unknown words,
collocations, upper case, whitespace, empty strings, newlines, non-ASCII and very long words; and a
hash collision that the verification rejects."""

from __future__ import annotations

import importlib.util
import random
from bisect import bisect_right
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.lexicon import SynonymIndex, load_synonyms, load_wordnet
from mtscore.lexicon.morphology import DETACHMENT_RULES
from mtscore.lexicon.synonyms import _RULES, HASH_MODULUS, string_hash

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "mtscore" / "lexicon" / "data"
SHARED = ROOT.parent / "shared" / "data" / "wmt22"


class ReferenceIndex:
    """The synonym index as mtscore read it before the hash index (cbf6b1b): the text in memory, the
    first lemma of every ~2 KB block, a bisect and a ``str.find`` per lookup, exceptions in a dict."""

    RULES = tuple(dict.fromkeys(rule for pos in "nva" for rule in DETACHMENT_RULES[pos]))

    def __init__(self, text: str):
        head, tail = text.find("\n[lemmas]\n"), text.find("\n[exceptions]\n")
        self.text = text
        start, end = head + len("\n[lemmas]\n"), tail + 1
        self.starts, self.firsts = [], []
        pos = start
        while pos < end:
            self.starts.append(pos)
            self.firsts.append(text[pos:text.find(" ", pos)])
            nxt = text.find("\n", pos + 2048)
            pos = end if nxt < 0 or nxt >= end else nxt + 1
        self.starts.append(end)
        self.exceptions = {}
        for row in text[tail + len("\n[exceptions]\n"):].rstrip("\n").split("\n"):
            form, *bases = row.split(" ")
            self.exceptions[form] = tuple(bases)

    def offsets(self, word: str) -> str | None:
        b = bisect_right(self.firsts, word) - 1
        if b < 0 or "\n" in word:
            return None
        needle = f"\n{word} "
        pos = self.text.find(needle, self.starts[b] - 1, self.starts[b + 1])
        if pos < 0:
            return None
        pos += len(needle)
        return self.text[pos:self.text.find("\n", pos)]

    def synset_keys(self, word: str) -> frozenset[int]:
        word = word.strip().lower().replace(" ", "_")
        found: dict[str, str] = {}
        own = self.offsets(word)
        if own is not None:
            found[word] = own
        exc = self.exceptions.get(word)
        if exc is not None:
            for base in exc:
                if base not in found and (offsets := self.offsets(base)) is not None:
                    found[base] = offsets
        elif len(word) > 2 and not word.endswith("ss"):
            for suffix, ending in self.RULES:
                if word.endswith(suffix):
                    candidate = word[: len(word) - len(suffix)] + ending
                    if (offsets := self.offsets(candidate)) is not None:
                        found.setdefault(candidate, offsets)
                        break
        return frozenset(int(o) for offsets in found.values() for o in offsets.split())


def synonym_pairs(keysets: list[frozenset[int]]) -> set[tuple[int, int]]:
    """The (i, j) whose key sets meet (i and j may be equal)."""
    holders: dict[int, list[int]] = defaultdict(list)
    for i, keys in enumerate(keysets):
        for k in keys:
            holders[k].append(i)
    return {(i, j) for group in holders.values() for i in group for j in group}


def fresh() -> SynonymIndex:
    """A new index over the shared mapped files, with an empty cache."""
    shared = load_synonyms()
    return SynonymIndex(shared._text, shared._index)


REFERENCE = ReferenceIndex((DATA / "wordnet-3.0-synonyms.txt").read_text(encoding="ascii"))
_WN = load_wordnet()
_LEMMAS = sorted(_WN.lemmas())
_EXCEPTION_FORMS = sorted(set().union(*(_WN._exceptions[p] for p in "nvar")))
_SUFFIXES = ["", "s", "es", "ed", "ing", "er", "est", "ies", "men", "ses", "xes", "zes", "ches", "shes", "ss",
             "x", "y", "e", "d", "g"]


def _case(word: str, how: int) -> str:
    return (word, word.upper(), word.title(), f" {word}\t", word.replace("_", " "))[how]


known = st.builds(lambda w, s, c: _case(w + s, c), st.sampled_from(_LEMMAS + _EXCEPTION_FORMS),
                  st.sampled_from(_SUFFIXES), st.integers(0, 4))
cut = st.builds(lambda w, k: w[:max(1, len(w) - k)], st.sampled_from(_LEMMAS), st.integers(0, 4))
odd = st.sampled_from(["", " ", "\n", "a\nb", "cars\n", "\ncars", "x", "ab", "abc", "ss", "ies", "ing", "men",
                       "\u212aing", "caf\u00e9s", "\u0130stanbul", "na\u00efve", "stra\u00dfe", "\x00",
                       "car\x00", "new york", "NEW_YORK", "'hood", ".22-caliber", "a" * 300, "b" * 256 + "s",
                       "c" * 255 + "s", "A" * 253 + "ies", "\t", "x\ty", "ru\u0301n"])
unknown = st.text(alphabet="abcdefghijklmnopqrstuvwxyzAEIOUS_-'.0123456789 \u00e9\u212a\n", max_size=14)
words = st.one_of(known, known, cut, odd, unknown)


@settings(max_examples=300, deadline=None)
@given(st.lists(words, max_size=40))
def test_batch_equals_word_by_word(batch: list[str]) -> None:
    one, many = fresh(), fresh()
    expected = [one.synset_keys(w) for w in batch]
    got = many.synset_keys_many(batch)
    assert got == expected
    for w, keys in zip(batch, got):  # the same cache, the same objects
        assert many._ids[w] is keys and many.synset_keys(w) is keys


@settings(max_examples=150, deadline=None)
@given(st.lists(words, max_size=25))
def test_batch_pairs_are_the_reference_and_wordnet_synonyms(batch: list[str]) -> None:
    index = fresh()
    got = index.synset_keys_many(batch)
    reference = [REFERENCE.synset_keys(w) for w in batch]
    assert synonym_pairs(got) == synonym_pairs(reference)
    assert [bool(k) for k in got] == [bool(k) for k in reference]
    assert [index.synset_ids(w) for w in batch] == reference == [frozenset(_WN.synset_ids(w)) for w in batch]


@settings(max_examples=60, deadline=None)
@given(st.lists(words, max_size=30), st.lists(words, max_size=30))
def test_batches_share_the_cache(first: list[str], second: list[str]) -> None:
    """A second batch sees the first's words (and their normalized forms) as cached."""
    index, one = fresh(), fresh()
    index.synset_keys_many(first)
    assert index.synset_keys_many(second + first) == [one.synset_keys(w) for w in second + first]


@pytest.mark.slow
def test_every_lemma_exception_form_and_inflection_at_once() -> None:
    rng = random.Random(7)
    batch = _LEMMAS + _EXCEPTION_FORMS + [w + rng.choice(_SUFFIXES) for w in _LEMMAS]
    got = fresh().synset_keys_many(batch)
    one = fresh()
    assert got == [one.synset_keys(w) for w in batch]
    sample = rng.sample(range(len(batch)), 5000)
    assert synonym_pairs([got[i] for i in sample]) \
        == synonym_pairs([REFERENCE.synset_keys(batch[i]) for i in sample])
    assert all(got[i] for i in range(len(_LEMMAS)))  # every lemma has keys


@pytest.mark.parity
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared data not available")
def test_real_corpora_words() -> None:
    """Every word type of a few WMT22 systems and references, lowercased as METEOR does and not."""
    from mtscore.io.text import read_lines

    texts = []
    for pair in sorted(p.name for p in SHARED.iterdir() if p.is_dir())[:3]:
        texts.append(SHARED / pair / "references" / "A.txt")
        systems = sorted((SHARED / pair / "systems").glob("*.txt"))
        texts.extend(systems[:2])
    vocabulary = {w for path in texts if path.is_file()
                  for line in read_lines(str(path)) for w in line.split()}
    batch = sorted(vocabulary) + sorted({w.lower() for w in vocabulary})
    assert len(batch) > 5000
    got = fresh().synset_keys_many(batch)
    one = fresh()
    assert got == [one.synset_keys(w) for w in batch]
    assert synonym_pairs(got) == synonym_pairs([REFERENCE.synset_keys(w) for w in batch])


def _colliding(word: bytes) -> bytes:
    """A different printable lowercase ASCII string with the same :func:`string_hash`
    (value + k * modulus)."""
    value = int.from_bytes(word, "little")
    for k in range(1, 10**7):
        other = (value + k * HASH_MODULUS).to_bytes(10, "little").rstrip(b"\0")
        if all(0x21 <= b <= 0x7E and not 0x41 <= b <= 0x5A for b in other) and other != word:
            return other
    raise AssertionError("no collision found")


def test_a_hash_collision_never_gives_a_wrong_answer() -> None:
    spec = importlib.util.spec_from_file_location("build_lexicon", ROOT / "scripts" / "build_lexicon.py")
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    lemma = b"carpets"
    twin = _colliding(lemma)
    assert string_hash(twin) == string_hash(lemma) and twin != lemma
    text = (b"# test\n[lemmas]\n" + b"\n".join(sorted([lemma + b" 00000001", b"carpet 00000002 00000003"]))
            + b"\n[exceptions]\n" + lemma + b" carpet\n")
    index = SynonymIndex(text, build.build_synonym_index(text))
    words = [lemma.decode(), twin.decode(), twin.decode() + "s", "carpet", "carpets"]
    expected = [frozenset({1, 2, 3}), frozenset(), frozenset(), frozenset({2, 3}), frozenset({1, 2, 3})]
    assert [index.synset_ids(w) for w in words] == expected
    keys = index.synset_keys_many(words)
    assert [bool(k) for k in keys] == [bool(e) for e in expected] and keys[0] == keys[4] and keys[3] < keys[0]
    index = SynonymIndex(text, build.build_synonym_index(text))
    assert [index.synset_keys(w) for w in words] == keys
    # both strings lemmas: one bucket, one fingerprint, two entries; each finds its own line
    text = (b"# test\n[lemmas]\n" + b"\n".join(sorted([lemma + b" 00000001", twin + b" 00000004"]))
            + b"\n[exceptions]\nzzz zz\n")
    index = SynonymIndex(text, build.build_synonym_index(text))
    one, two = index.synset_keys_many([lemma.decode(), twin.decode()])
    assert one and two and one.isdisjoint(two) and [one, two] == [index.synset_keys(lemma.decode()),
                                                                  index.synset_keys(twin.decode())]
    assert index.is_lemma(twin.decode()) and index.synsets(twin.decode()) == frozenset({4})
    # a verification that would read past the text's end (a long string matched with its last line)
    import numpy as np

    last = text.rindex(b"\n", 0, len(text) - 1) + 1
    long_word = np.frombuffer(b"zzz" + b"q" * 40, np.uint8)
    ok = index._verify(np.array([last, last]), long_word, np.array([0, 0]), np.array([43, 3]),
                       np.array([len(_RULES), len(_RULES)]))
    assert ok.tolist() == [False, True]
