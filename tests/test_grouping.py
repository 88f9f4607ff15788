"""mtscore.metrics.grouping: exact groups of equal keys without sorting (checked against np.unique),
and the clipping kernel built on it in blocks of segments (checked against Counters)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics import clipping
from mtscore.metrics.grouping import group_counts, representatives

from .test_bleu_speedpaths import as_streams, counter_clipped, id_corpora


def _check(keys: np.ndarray) -> None:
    rep = representatives([keys])
    assert rep.shape == keys.shape
    np.testing.assert_array_equal(keys[rep], keys)  # a representative has the same key
    np.testing.assert_array_equal(rep[rep], rep)  # ... and is its own representative
    # one representative per distinct key
    assert len(np.unique(rep)) == len(np.unique(keys))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-2**63, 2**63 - 1), max_size=300), st.integers(1, 300))
def test_representatives_group_equal_keys(values, repeat) -> None:
    keys = np.array(values, dtype=np.int64)
    _check(np.repeat(keys, 1 + np.arange(len(keys)) % 3)[:repeat * 3])
    _check(keys)


def test_representatives_with_colliding_slots() -> None:
    """Keys that share their slots (many distinct keys, few repeated, large and small) take several
    rounds; every element still gets a representative of its own key."""
    rng = np.random.default_rng(7)
    for size in (1, 5, 1000, 70_000):
        keys = rng.integers(0, max(size // 3, 1), size) * (1 << 40) + rng.integers(0, 3, size)
        _check(keys.astype(np.int64))
    _check(np.arange(0, 1 << 62, 1 << 44, dtype=np.int64))  # only high bits differ
    _check(np.zeros(10, dtype=np.int64))
    assert len(representatives([np.empty(0, dtype=np.int64)])) == 0


def test_representatives_of_several_columns() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 4, 5000), rng.integers(0, 5, 5000)
    rep = representatives([a, b.astype(np.uint64)])
    np.testing.assert_array_equal(a[rep], a)
    np.testing.assert_array_equal(b[rep], b)
    np.testing.assert_array_equal(rep[rep], rep)
    assert len(np.unique(rep)) == len(np.unique(a * 5 + b))


def test_group_counts_per_source() -> None:
    keys = np.array([5, 7, 5, 5, 9, 7], dtype=np.int64)
    rep = representatives([keys])
    first, second = group_counts(rep, np.array([0, 3, 6]))
    assert first[rep[0]] == 2 and first[rep[1]] == 1 and first.sum() == 3
    assert second[rep[0]] == 1 and second[rep[4]] == 1 and second[rep[1]] == 1 and second.sum() == 3


@settings(max_examples=150, deadline=None)
@given(id_corpora(), st.sampled_from([1, 3, 16, 1 << 15]))
def test_kernel_in_blocks_equals_counters(data, block) -> None:
    """clipped_counts (any block size: blocks of whole segments) equals Counter clipping, and
    matches_per_reference equals clipping against each reference alone."""
    hyps, refs, V, N = data
    hyp_ids, hyp_lengths, streams = as_streams(hyps, refs)
    keys = [np.where(hyp_ids < 0, V, hyp_ids)]
    key_streams = [([ids], lengths, present) for ids, lengths, present in streams]
    kept = clipping.BLOCK_TOKENS, clipping.SMALL_CORPUS_TOKENS
    try:
        clipping.BLOCK_TOKENS, clipping.SMALL_CORPUS_TOKENS = block, 0
        np.testing.assert_array_equal(clipping.clipped_counts(hyp_ids, hyp_lengths, streams, V, N),
                                      counter_clipped(hyps, refs, N))
        each = clipping.matches_per_reference(keys, hyp_lengths, key_streams, N)
        for k, stream in enumerate(refs):
            np.testing.assert_array_equal(each[k], counter_clipped(hyps, [stream], N))
    finally:
        clipping.BLOCK_TOKENS, clipping.SMALL_CORPUS_TOKENS = kept


def test_representatives_with_and_without_the_dict_of_the_last_few(monkeypatch) -> None:
    """The elements left after the first round grouped by a dict (FEW large), or only by more
    rounds (FEW 0): exact groups either way, one and several columns."""
    from mtscore.metrics import grouping

    rng = np.random.default_rng(11)
    keys = rng.integers(0, 3000, 20_000).astype(np.int64) << 33
    extra = rng.integers(0, 3, 20_000).astype(np.uint64)
    for few in (0, 10**9):
        monkeypatch.setattr(grouping, "FEW", few)
        _check(keys)
        rep = representatives([keys, extra])
        np.testing.assert_array_equal(keys[rep], keys)
        np.testing.assert_array_equal(extra[rep], extra)
        np.testing.assert_array_equal(rep[rep], rep)
        assert len(np.unique(rep)) == len(np.unique(keys + extra.astype(np.int64)))
