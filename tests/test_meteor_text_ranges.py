"""METEOR's ranges encoded where they are aligned (:mod:`mtscore.metrics.meteor.text_ranges`): the
command line's path (``prepare_chunk`` → ``extract``) gives what ``extract`` of the prepared
references gives, whether the corpus is split before it is encoded, after, or not at all — and
whatever ids the words get (each process numbers its new words in its own order)."""

from __future__ import annotations

import sys
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtscore.metrics.meteor.workers as workers
from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.metrics.meteor import METEOR
from mtscore.metrics.meteor import text_ranges as tr
from mtscore.metrics.meteor.extract import aligned_range, joined_ranges
from mtscore.metrics.meteor.results import TextReferences

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="worker processes are forked (Linux)")


def _pretend(monkeypatch, cpus: int) -> None:
    """``cpus`` CPUs, no other thread, every corpus of 50 segments or more worth a process each."""
    monkeypatch.setattr(workers.os, "sched_getaffinity", lambda pid: set(range(cpus)), raising=False)
    monkeypatch.setattr(workers.threading, "active_count", lambda: 1)
    monkeypatch.setattr(workers.sys, "platform", "linux")
    monkeypatch.setattr(workers, "MIN_SEGMENTS_PER_WORKER", 50)
    monkeypatch.setattr(workers, "SPLIT_WORK", 1.0)


def _sample(n: int) -> tuple[list[str], list[list[str | None]]]:
    folder = sample_path()
    hyps = read_lines(folder / "systems" / "Online-A.txt")[:n]
    refs: list[list[str | None]] = [list(read_lines(folder / "references" / f"{r}.txt")[:n])
                                    for r in ("A", "B")]
    return hyps, refs


def test_prepare_chunk_gives_text_only_where_a_corpus_may_split() -> None:
    refs = _sample(5)[1]
    assert isinstance(METEOR().prepare_chunk(refs, None, 0), TextReferences)
    for kwargs in ({"workers": 1}, {"variant": "1.5"}, {"exclude_stopwords": True}, {"fast": False}):
        assert not isinstance(METEOR(**kwargs).prepare_chunk(refs, None, 0), TextReferences)


def test_word_counts_and_the_text_estimate(monkeypatch) -> None:
    assert tr.word_counts(["a b c", "ab", None, "x"]).tolist() == [3, 1, 0, 1]
    hyps, refs = _sample(300)
    assert tr.word_counts(hyps).tolist() == [len(h.split()) for h in hyps]  # single spaces
    metric = METEOR()
    text = metric.prepare_chunk(refs, None, 0)
    _pretend(monkeypatch, 2)
    monkeypatch.setattr(workers, "SPLIT_WORK", 1e12)
    assert tr.text_ranges(metric, hyps, text) == [(0, 300)]
    monkeypatch.setattr(workers, "SPLIT_WORK", 1.0)
    cuts = tr.text_ranges(metric, hyps, text)
    assert len(cuts) == 2 and cuts[0][0] == 0 and cuts[-1][1] == 300 and cuts[0][1] == cuts[1][0]


@linux_only
@pytest.mark.parametrize("kwargs", [{}, {"modules": ("exact", "wn_stem"), "delta": 0.5}])
def test_text_ranges_in_processes_give_one_process_statistics(monkeypatch, kwargs) -> None:
    hyps, refs = _sample(300)
    refs[1][7] = None  # a missing reference: the label and the kept reference still agree
    one = METEOR(workers=1, **kwargs)
    alone = one.extract(hyps, one.prepare_references(refs))
    _pretend(monkeypatch, 3)
    split = METEOR(**kwargs)
    text = split.prepare_chunk(refs, None, 0)
    assert isinstance(text, TextReferences)
    assert len(tr.text_ranges(split, hyps, text)) == 3
    together = split.extract(hyps, text)
    np.testing.assert_array_equal(alone.values, together.values)
    assert alone.meta == together.meta
    assert one.bounded_searches == split.bounded_searches
    # a second system against the same references, and one corpus not split: the same again
    assert np.array_equal(split.extract(hyps[::-1], text).values,
                          one.extract(hyps[::-1], one.prepare_references(refs)).values)
    monkeypatch.setattr(workers, "SPLIT_WORK", 1e12)
    assert np.array_equal(split.extract(hyps, text).values, alone.values)


def test_text_references_are_checked_like_prepared_ones() -> None:
    from mtscore.errors import InputError, OptionError

    hyps, refs = _sample(20)
    text = METEOR().prepare_chunk(refs, None, 0)
    with pytest.raises(InputError, match="20 segments but the hypotheses have 19"):
        METEOR().extract(hyps[:19], text)
    with pytest.raises(OptionError):
        METEOR(lowercase=False).extract(hyps, text)
    with pytest.raises(InputError):
        METEOR().prepare_chunk([refs[0], refs[1][:3]], None, 0)


VOCABULARY = ("the", "a", "cat", "cats", "sat", "sitting", "on", "mat", "mats", "dog", ",", ".", "of")
words = st.lists(st.sampled_from(VOCABULARY), max_size=12)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(words, words), min_size=1, max_size=12), st.data())
def test_ranges_with_their_own_vocabularies_give_the_whole(pairs, data) -> None:
    """Each range encoded by a METEOR of its own (fresh ids, in its own order), joined: the
    statistics of the whole corpus encoded at once (what the forked processes rely on)."""
    hyps = [" ".join(h) for h, _ in pairs]
    refs = [[" ".join(r) for _, r in pairs]]
    whole = METEOR(workers=1)
    expected = whole.extract(hyps, whole.prepare_references(refs))
    cuts = sorted(set(data.draw(st.lists(st.integers(1, len(pairs) - 1), max_size=3)))) \
        if len(pairs) > 1 else []
    edges = [0, *cuts, len(pairs)]
    parts = []
    for lo, hi in pairwise(edges):
        own = METEOR(workers=1)
        own.encode(data.draw(st.permutations(hyps)))  # other ids for the same words
        prepared = own.prepare_references([stream[lo:hi] for stream in refs])
        parts.append(aligned_range(own, own.encode(hyps[lo:hi]), prepared.ids, prepared, False, False))
    got = joined_ranges(whole, parts, expected.meta["nrefs"], False)[0]
    np.testing.assert_array_equal(expected.values, got.values)
    assert expected.meta == got.meta
