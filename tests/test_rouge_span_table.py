"""The one-call token ids of ROUGE (:mod:`mtscore.metrics.rouge.span_table`, what
:func:`~mtscore.metrics.rouge.corpus.encode_streams` reads) equal a dict's ids up to the numbering:
equal ids exactly for equal tokens (hypothesis; tokens of 1-40 bytes around the 8- and 16-byte
word limits, and corpora large enough for collisions in the table)."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.rouge import corpus
from mtscore.metrics.rouge.span_table import word_ids
from mtscore.text.interning import token_words

_TOKEN = st.text(alphabet="ab0", min_size=1, max_size=3) | st.text(alphabet="abz09", min_size=6,
                                                                    max_size=40)


def _spans(tokens: list[str]) -> tuple[bytes, np.ndarray, np.ndarray]:
    data = " ".join(tokens).encode("ascii")
    found = [m.span() for m in re.finditer(rb"[a-z0-9]+", data)]
    starts = np.array([s for s, _ in found], dtype=np.int64)
    ends = np.array([e for _, e in found], dtype=np.int64)
    return data, starts, ends


def _check(tokens: list[str]) -> None:
    data, starts, ends = _spans(tokens)
    ids, owner = word_ids(token_words(data, starts, ends, {}))
    first: dict[str, int] = {}
    want = [first.setdefault(t, len(first)) for t in tokens]
    assert len(owner) == len(first) and sorted(set(ids.tolist())) == list(range(len(first)))
    # equal ids exactly for equal tokens: the map between the numberings is one to one
    assert len(set(zip(ids.tolist(), want))) == len(first)
    assert [tokens[i] for i in owner.tolist()] == [tokens[ids.tolist().index(k)]
                                                  for k in range(len(first))]


@settings(max_examples=300, deadline=None)
@given(st.lists(_TOKEN, max_size=60))
def test_word_ids_equal_dict_ids(tokens: list[str]) -> None:
    _check(tokens)


def test_word_ids_many_tokens_with_collisions() -> None:
    rng = np.random.default_rng(0)
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz0123456789"))
    vocab = ["".join(rng.choice(letters, size=int(n))) for n in rng.integers(1, 24, 3000)]
    _check([vocab[i] for i in rng.integers(0, len(vocab), 20000)])


_TEXT = st.lists(st.sampled_from(["a", "b", "0", " ", "\n", "\x00", "é", "-", "abcdefghij",
                                  "abcdefghijklmnopqr", "running", "flies"]),
                max_size=12).map("".join)


@settings(max_examples=150, deadline=None)
@given(streams=st.lists(st.lists(st.none() | _TEXT, min_size=3, max_size=3), min_size=1,
                        max_size=3), stem=st.booleans(), sentences=st.booleans())
def test_encode_streams_equals_one_vocabulary(streams, stem, sentences) -> None:
    """Every stream encoded in one call = each encoded in turn with one vocabulary: the same
    lengths, sentences and presence, and the same tokens (ids equal exactly where the
    vocabulary's are)."""
    stems = corpus.Stems() if stem else None
    vocabulary = corpus.ByteVocabulary()
    want = [corpus.encode_rouge_score(vocabulary, s, stems, sentences) for s in streams]
    got = corpus.encode_streams(streams, stems, sentences)
    pairs = set()
    for g, w in zip(got, want):
        assert g.lengths.tolist() == w.lengths.tolist()
        assert g.present.tolist() == w.present.tolist()
        for a, b in ((g.sentence_lengths, w.sentence_lengths),
                     (g.sentence_counts, w.sentence_counts)):
            assert (a is None) == (b is None) and (a is None or a.tolist() == b.tolist())
        pairs |= set(zip(g.ids.tolist(), w.ids.tolist()))
    assert len(pairs) == len({x for x, _ in pairs}) == len({y for _, y in pairs})
