"""The ROUGE fast paths equal the rules (hypothesis): bit-parallel LCS on Python integers
(:mod:`mtscore.metrics.rouge.lcs_int`, one pair at a time, and :mod:`~mtscore.metrics.rouge.lcs_lanes`,
every pair a lane of one integer), the equal tokens of ROUGE-1 (:mod:`~mtscore.metrics.rouge.token_join`)
and the corpus union LCS of ROUGE-Lsum
(:mod:`mtscore.metrics.rouge.lsum_fast`), with sentences of up to 64 tokens (one uint64 word), up
to 128 (two words) and longer (Python integers)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mtscore.metrics.rouge import counts, lcs_int, lcs_lanes, rules, token_join
from mtscore.metrics.rouge.corpus import EncodedTexts

_SMALL = st.lists(st.integers(0, 3), max_size=40)
_LONG = st.lists(st.integers(0, 5), min_size=60, max_size=150)
_SEQ = _SMALL | _LONG


@settings(max_examples=300, deadline=None)
@given(a=_SEQ, b=_SEQ)
def test_int_lcs_equals_the_table(a: list[int], b: list[int]) -> None:
    assert lcs_int.lcs_length(a, b) == rules.lcs_length(a, b)
    assert sorted(lcs_int.lcs_path(a, b)) == rules.lcs_indices(a, b)


def _flat(texts: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    return (np.array([t for x in texts for t in x], dtype=np.int64),
            np.array([len(x) for x in texts], dtype=np.int64))


_TEXTS = st.lists(st.tuples(_SEQ | st.lists(st.integers(0, 70000), max_size=30), _SEQ),
                  min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(pairs=_TEXTS, n=st.integers(2, 4))
def test_packed_and_sorted_ngram_hits_agree(pairs: list[tuple[list[int], list[int]]], n: int) -> None:
    """ROUGE-N's two groupings, one sort of packed (pair, n-gram, side) keys and stable sorts of
    the tokens, give the same hits on the same n-grams (ngram_hits takes the first where the keys
    fit 64 bits; the test above checks each against the rule)."""
    lay = token_join.layout(*_flat([x for x, _ in pairs]), *_flat([y for _, y in pairs]))
    last = token_join.shared_ngram_ends(lay, token_join.unigram_runs(lay), n)
    bits = token_join.packed_id_bits(lay, n)
    assume(bits is not None)  # (else ngram_hits takes the stable sorts)
    assert bits is not None
    packed = token_join._packed_ngram_hits(lay, n, np.flatnonzero(last), bits)
    assert packed.tolist() == token_join._sorted_ngram_hits(lay, n, last.copy()).tolist()


@settings(max_examples=300, deadline=None)
@given(pairs=_TEXTS)
def test_lanes_lcs_and_unigram_hits_equal_the_rules(pairs: list[tuple[list[int], list[int]]]) -> None:
    """Every pair a lane of one integer (lcs_lanes), the equal tokens from one stable sort
    (token_join; ids past 2**16 too): LCS lengths and ROUGE-1 hits of every pair."""
    a, b = _flat([x for x, _ in pairs]), _flat([y for _, y in pairs])
    assert lcs_lanes.lcs_lengths(*a, *b).tolist() == [rules.lcs_length(x, y) if x and y else 0
                                                     for x, y in pairs]
    lay = token_join.layout(*a, *b)
    assert token_join.join(lay).hits.tolist() == [rules.rouge_n(y, x, 1)[0] for x, y in pairs]
    for n in (1, 2, 3, 4):
        assert token_join.ngram_hits(lay, n).tolist() == [rules.rouge_n(y, x, n)[0]
                                                          for x, y in pairs]

    wide = token_join.layout(a[0] + 2**31, a[1], b[0] + 2**31, b[1])  # ids past 32 bits: int64
    narrow = max(max(x + y, default=0) for x, y in pairs) < 2**16
    assert lay.ids.dtype == (np.uint16 if narrow else np.int32)
    assert wide.ids.dtype == np.int64 or not len(wide.ids)
    for n in (1, 2, 3):
        assert token_join.ngram_hits(wide, n).tolist() == token_join.ngram_hits(lay, n).tolist()
    j, k = token_join.join(wide), token_join.join(lay)
    assert all(np.array_equal(x, y) for x, y in zip((j.pair, j.row, j.col), (k.pair, k.row, k.col)))
    want = sorted((p, i, m) for p, (x, y) in enumerate(pairs) for i, s in enumerate(x)
                  for m, t in enumerate(y) if s == t)  # every match, by brute force
    assert sorted(zip(k.pair.tolist(), k.row.tolist(), k.col.tolist())) == want



@settings(max_examples=200, deadline=None)
@given(pairs=_TEXTS, data=st.data())
def test_subset_hits_equal_the_rule(pairs: list[tuple[list[int], list[int]]],
                                    data: st.DataObject) -> None:
    """ROUGE-Lsum's clipping (token_join.subset_hits of subset_runs): per pair, Σ over tokens of
    min(count in the chosen tokens of a, count in b), by brute force."""
    a, b = _flat([x for x, _ in pairs]), _flat([y for _, y in pairs])
    chosen = data.draw(st.lists(st.booleans(), min_size=len(a[0]), max_size=len(a[0])))
    hits = token_join.subset_hits(token_join.subset_runs(*_layout_and_runs(a, b)),
                                  np.array(chosen, dtype=bool))
    want, at = [], 0
    for x, y in pairs:
        picked = [t for t, c in zip(x, chosen[at:at + len(x)]) if c]
        want.append(sum(min(picked.count(t), y.count(t)) for t in set(picked)))
        at += len(x)
    assert hits.tolist() == want


def _layout_and_runs(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
                     ) -> tuple[token_join.Layout, token_join.Runs]:
    lay = token_join.layout(*a, *b)
    return lay, token_join.unigram_runs(lay)

def _encoded(docs: list[list[list[int]]]) -> EncodedTexts:
    sentences = [s for doc in docs for s in doc]
    return EncodedTexts(np.array([t for s in sentences for t in s], dtype=np.int64),
                        np.array([sum(map(len, doc)) for doc in docs], dtype=np.int64),
                        np.ones(len(docs), dtype=bool),
                        np.array([len(s) for s in sentences], dtype=np.int64),
                        np.array([len(doc) for doc in docs], dtype=np.int64))


_DOC = st.lists(st.lists(st.integers(0, 4), max_size=20) | _LONG, min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), segments=st.integers(1, 5))
def test_corpus_union_lcs_equals_the_rule(data: st.DataObject, segments: int) -> None:
    hyp_docs = [data.draw(_DOC) for _ in range(segments)]
    ref_docs = [data.draw(_DOC) for _ in range(segments)]
    _assert_union_equals_the_rule(hyp_docs, ref_docs)


@pytest.mark.parametrize("block", [1 << 14, 7])
@pytest.mark.parametrize("vocabulary", [2, 6, 40])
def test_corpus_union_lcs_at_the_word_edges(vocabulary: int, block: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Sentences of 0, 1, 63, 64, 65, 127, 128 and 129 tokens against each other and against
    short ones: one word, two words (the carry and borrow between them, the path crossing from
    the high word to the low one, the steps past a two-word pair's own), and Python integers
    past them; the union of every reference sentence and the counts equal the rules, the match
    bits set a ``block`` of matches at a time."""
    monkeypatch.setattr(counts.lsum_fast, "_MATCHES_AT_ONCE", block)
    rng = np.random.default_rng(vocabulary)
    edges = [0, 1, 63, 64, 65, 127, 128, 129]
    for _ in range(4):
        hyp_docs, ref_docs = [], []
        for _ in range(6):
            sizes = rng.choice([*edges, 2, 9, 30], size=(2, 4))
            hyp_docs.append([rng.integers(0, vocabulary, n).tolist() for n in sizes[0]])
            ref_docs.append([rng.integers(0, vocabulary, n).tolist() for n in sizes[1]])
        _assert_union_equals_the_rule(hyp_docs, ref_docs)


def _assert_union_equals_the_rule(hyp_docs: list[list[list[int]]],
                                  ref_docs: list[list[list[int]]]) -> None:
    """The corpus union of every reference sentence and the Lsum counts equal the rules'."""
    hyp, ref = _encoded(hyp_docs), _encoded(ref_docs)
    union = counts.lsum_fast.union_marks(hyp, ref, *counts._sentence_pairs(hyp, ref))
    want = [i for h, doc in zip(hyp_docs, ref_docs) for r in doc
            for i in _as_mask(len(r), rules.union_lcs(r, h))]
    assert union.tolist() == want
    got = counts.lsum_counts(hyp, ref)
    rows = [rules.rouge_lsum(h, r) for h, r in zip(hyp_docs, ref_docs)]
    assert np.column_stack(got).tolist() == [list(row) for row in rows]


def _as_mask(n: int, positions: list[int]) -> list[bool]:
    out = [False] * n
    for i in positions:
        out[i] = True
    return out


def test_highest_bit_by_float_exponent() -> None:
    """lsum_fast._highest_exponent (the float exponent of the run tops) is int.bit_length + 1022
    (0 for 0), and _TOP/_BELOW there the highest bit and the bits up to it, on
    random words and on the edges of the 53-bit float mantissa."""
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.integers(0, 2**63, 20000, dtype=np.uint64) * np.uint64(2)
                        + rng.integers(0, 2, 20000, dtype=np.uint64),
                        np.array([0, 1, 2, 3, 2**64 - 1, 2**63, 2**63 - 1, 2**53 - 1, 2**53,
                                  2**53 + 1, 2**54 - 1], dtype=np.uint64),
                        (np.uint64(1) << np.arange(64, dtype=np.uint64)) - np.uint64(1)])
    exponent = counts.lsum_fast._highest_exponent(x, np.empty_like(x), np.empty(len(x)))
    want = [int(v).bit_length() for v in x.tolist()]
    assert exponent.tolist() == [0 if b == 0 else b + 1022 for b in want]
    assert counts.lsum_fast._TOP[exponent].tolist() == [0 if b == 0 else 1 << (b - 1) for b in want]
    assert counts.lsum_fast._BELOW[exponent].tolist() == [(1 << b) - 1 for b in want]



@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_vertical_steps_are_a_difference(x: int, y: int) -> None:
    """lsum_fast._stops reads D_i = (V_i & ~V_{i-1}) - (V_{i-1} & ~V_i) as V_i - V_{i-1} (mod
    2**64): the two are equal on any pair of words."""
    a, b = np.array([x], dtype=np.uint64), np.array([y], dtype=np.uint64)
    assert ((a & ~b) - (b & ~a)).tolist() == (a - b).tolist()


@settings(max_examples=100, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 9)),
                     min_size=1, max_size=8),
       rule=st.sampled_from(("best-f", "average", "best-recall")),
       beta=st.sampled_from((1.0, 0.5, 3.0)))
def test_one_reference_statistics_equal_combine(rows: list[tuple[int, int, int]], rule: str,
                                                beta: float) -> None:
    """``ROUGE.statistics`` takes one reference's counts as they are: what :func:`.metric.combine`
    keeps from one present reference, under every multi-reference rule."""
    from mtscore.metrics.rouge import ROUGE
    from mtscore.metrics.rouge.metric import combine, measures

    hits, hyp, ref = (np.array([r[i] for r in rows], dtype=np.int64) for i in range(3))
    present = np.ones(len(rows), dtype=bool)
    stream = EncodedTexts(np.zeros(0, dtype=np.int64), ref, present)
    got = ROUGE("rouge1", multiref=rule, beta=beta).statistics([(hits, hyp, ref)], [stream], "1")
    h, ht, rt = combine(rule, hits[None], hyp[None], ref[None], present[None], beta)
    p, r, f = measures(h, ht, rt, beta)
    want = np.column_stack([h, ht, rt, p, r, f, np.ones(len(h))]).astype(np.float64)
    assert got.values.tobytes() == want.tobytes()
