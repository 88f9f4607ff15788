"""mtscore.pairwise: every pair equals the metric's sentence score (sacreBLEU's where it has one)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtscore
from mtscore import InputError, OptionError
from mtscore.metrics import pairwise as pw
from mtscore.metrics import registry
from mtscore.metrics.bleu import BLEU
from mtscore.metrics.chrf import CHRF, sentence_chrf
from mtscore.metrics.pairwise_counts import Counts, pair_matches, pair_matches_by_loop, pair_offsets

sacrebleu = pytest.importorskip("sacrebleu")

from .registry_metrics import NAMES  # noqa: E402

CANDIDATES = [
    "The cat sat on the mat.", "The cat sat on the hat.", "A cat sat on a mat!", "", "the the the the",
    "The cat sat on the mat.", "Ein Hund (bellt) laut, sehr laut.", "on the mat the cat sat",
    "  spaced   out   text ", "x", "The fat cat sat on the mat.", "Übermäßig große Straße — 2 km.",
]


def _close(a: np.ndarray, b: np.ndarray) -> None:
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-9)


def _loop(fn, hyps: list[str], refs: list[str]) -> np.ndarray:
    return np.array([[fn(h, r) for r in refs] for h in hyps], dtype=np.float64).reshape(len(hyps), len(refs))


# ---- the pair kernel ---------------------------------------------------------------------------

def _table(dicts: list[Counter]) -> Counts:
    rows, grams, counts = [], [], []
    for i, d in enumerate(dicts):
        for g in sorted(d):
            rows.append(i)
            grams.append(g)
            counts.append(d[g])
    return Counts(np.array(rows, dtype=np.int64), np.array(grams, dtype=np.int64),
                  np.array(counts, dtype=np.int64))


bags = st.lists(st.lists(st.integers(0, 5), max_size=8).map(Counter), max_size=4)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(bags, bags.filter(len)), min_size=1, max_size=3))
def test_pair_matches_is_the_sum_of_minima(groups: list) -> None:
    hyps = [d for h, _ in groups for d in h]
    refs = [d for _, r in groups for d in r]
    hb = np.concatenate(([0], np.cumsum([len(h) for h, _ in groups])))
    rb = np.concatenate(([0], np.cumsum([len(r) for _, r in groups])))
    out = pair_matches(_table(hyps), _table(refs), hb, rb)
    at = pair_offsets(hb, rb)
    for s, (h, r) in enumerate(groups):
        expected = pair_matches_by_loop(h, r)
        assert np.array_equal(out[at[s]:at[s + 1]].reshape(len(h), len(r)), expected)


# ---- BLEU --------------------------------------------------------------------------------------

@pytest.mark.parity
@pytest.mark.parametrize("smooth", ["none", "floor", "add-k", "exp"])
@pytest.mark.parametrize("effective_order", [True, False])
def test_bleu_equals_sacrebleu_sentence_score(smooth: str, effective_order: bool) -> None:
    ours = BLEU(smooth=smooth, effective_order=effective_order)
    theirs = sacrebleu.metrics.BLEU(smooth_method=smooth, effective_order=effective_order)
    hyps, refs = CANDIDATES, CANDIDATES[2:]
    expected = _loop(lambda h, r: theirs.sentence_score(h, [r]).score, hyps, refs)
    _close(mtscore.pairwise(ours, hyps, refs), expected)
    own = _loop(lambda h, r: ours.sentence_score(h, [r]).score, hyps, refs)
    _close(mtscore.pairwise(ours, hyps, refs), own)


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char", "none", "zh"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_bleu_tokenizers_and_case(tokenize: str, lowercase: bool) -> None:
    metric = BLEU(tokenize=tokenize, lowercase=lowercase, effective_order=True, max_order=3)
    cands = [*CANDIDATES, "我们 去 学校。", "我们去学校了"]
    expected = _loop(lambda h, r: metric.sentence_score(h, [r]).score, cands, cands)
    _close(mtscore.pairwise(metric, cands), expected)


def test_bleu_by_name_is_sentence_bleu() -> None:
    expected = _loop(lambda h, r: mtscore.sentence_bleu(h, [r]).score, CANDIDATES, CANDIDATES)
    _close(mtscore.pairwise("bleu", CANDIDATES), expected)


# ---- chrF --------------------------------------------------------------------------------------

@pytest.mark.parity
@pytest.mark.parametrize(("word_order", "lowercase", "whitespace", "eps"),
                         [(0, False, False, False), (2, False, False, False), (0, True, False, True),
                          (2, True, True, False), (1, False, True, True)])
def test_chrf_equals_sacrebleu_sentence_score(word_order: int, lowercase: bool, whitespace: bool,
                                              eps: bool) -> None:
    ours = CHRF(word_order=word_order, lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps)
    theirs = sacrebleu.metrics.CHRF(word_order=word_order, lowercase=lowercase, whitespace=whitespace,
                                    eps_smoothing=eps)
    hyps, refs = CANDIDATES[:9], CANDIDATES
    _close(mtscore.pairwise(ours, hyps, refs),
           _loop(lambda h, r: theirs.sentence_score(h, [r]).score, hyps, refs))


@pytest.mark.parametrize("name", ["chrf", "chrf++"])
def test_chrf_by_name_is_sentence_chrf(name: str) -> None:
    order = 2 if name == "chrf++" else 0
    expected = _loop(lambda h, r: sentence_chrf(h, [r], word_order=order).score, CANDIDATES, CANDIDATES)
    _close(mtscore.pairwise(name, CANDIDATES), expected)


def test_chrf_matches_fastchrf() -> None:
    fastchrf = pytest.importorskip("fastchrf")
    hyps, refs = CANDIDATES[:5], CANDIDATES[4:]
    ours = mtscore.pairwise("chrf", [hyps, hyps], [refs, refs[:3]])
    theirs = fastchrf.pairwise_chrf([hyps, hyps], [refs, refs[:3]])
    for mine, their in zip(ours, theirs):
        np.testing.assert_allclose(mine, np.array(their), atol=1e-3)  # fastchrf computes in float32


# ---- METEOR ------------------------------------------------------------------------------------

def test_meteor_equals_sentence_meteor() -> None:
    hyps, refs = CANDIDATES, [*CANDIDATES[3:], "the cats are sitting on mats", "a feline sat"]
    expected = _loop(lambda h, r: mtscore.sentence_meteor(h, [r]).score, hyps, refs)
    _close(mtscore.pairwise("meteor", hyps, refs), expected)


# ---- property tests: empty strings, identical candidates, one candidate -------------------------

texts = st.lists(st.sampled_from(["the", "cat", "sat", "mat", ".", "(a)", "a,", "Cat", "", "é"]),
                 max_size=7).map(" ".join)


@settings(max_examples=40, deadline=None)
@given(st.lists(texts, min_size=1, max_size=5), st.lists(texts, min_size=1, max_size=4))
def test_properties_bleu_and_chrf(hyps: list[str], refs: list[str]) -> None:
    bleu = _loop(lambda h, r: mtscore.sentence_bleu(h, [r]).score, hyps, refs)
    _close(mtscore.pairwise("bleu", hyps, refs), bleu)
    for name, order in (("chrf", 0), ("chrf++", 2)):
        def score(h: str, r: str, order: int = order) -> float:
            return sentence_chrf(h, [r], word_order=order).score

        _close(mtscore.pairwise(name, hyps, refs), _loop(score, hyps, refs))
        _close(mtscore.pairwise(name, hyps), _loop(score, hyps, hyps))


@settings(max_examples=15, deadline=None)
@given(st.lists(texts, min_size=1, max_size=4))
def test_properties_meteor(cands: list[str]) -> None:
    expected = _loop(lambda h, r: mtscore.sentence_meteor(h, [r]).score, cands, cands)
    _close(mtscore.pairwise("meteor", cands), expected)


@pytest.mark.parametrize("name", ["bleu", "chrf", "chrf++", "meteor"])
def test_identical_and_single_candidates(name: str) -> None:
    one = mtscore.pairwise(name, ["the cat sat on the mat"])
    assert one.shape == (1, 1)
    same = mtscore.pairwise(name, ["the cat sat on the mat"] * 3)
    assert same.shape == (3, 3) and np.all(same == one[0, 0])
    empty = mtscore.pairwise(name, ["", ""])
    assert empty.shape == (2, 2) and np.all(empty == 0.0)


# ---- batches, chunks -----------------------------------------------------------------------------

def test_batch_shapes() -> None:
    a, b = CANDIDATES[:4], CANDIDATES[4:7]
    stacked = mtscore.pairwise("bleu", [a, a[::-1]])
    assert isinstance(stacked, np.ndarray) and stacked.shape == (2, 4, 4)
    _close(stacked[1], mtscore.pairwise("bleu", a[::-1]))
    ragged = mtscore.pairwise("chrf", [a, b], [b, a])
    assert isinstance(ragged, list) and [m.shape for m in ragged] == [(4, 3), (3, 4)]
    _close(ragged[1], mtscore.pairwise("chrf", b, a))


@pytest.mark.parametrize("name", ["bleu", "chrf++", "meteor"])
def test_small_chunks_give_the_same_scores(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    batch = [CANDIDATES, CANDIDATES[:3], CANDIDATES[5:]]
    whole = mtscore.pairwise(name, batch)
    monkeypatch.setattr(pw, "PAIR_BUDGET", 7)  # sources one by one, big ones split by hypotheses
    for mine, expected in zip(mtscore.pairwise(name, batch), whole):
        _close(mine, expected)
    monkeypatch.setattr(pw, "PAIR_BUDGET", 1 << 18)
    monkeypatch.setattr(pw, "CHARACTER_BUDGET", 30)  # sources one by one for their characters
    for mine, expected in zip(mtscore.pairwise(name, batch), whole):
        _close(mine, expected)


@pytest.mark.parametrize("name", ["bleu", "chrf++", "meteor"])
def test_fast_paths_equal_the_definition(name: str) -> None:
    """The kernels against ``fast=False``: every pair through the metric's own ``extract``."""
    hyps, refs = [CANDIDATES, CANDIDATES[:4]], [CANDIDATES[3:], CANDIDATES]
    for fast, slow in zip(mtscore.pairwise(name, hyps, refs), mtscore.pairwise(name, hyps, refs, fast=False)):
        _close(fast, slow)


def test_nist_entry_is_the_pair_alone() -> None:
    """A pairwise NIST entry is NIST of that pair as a corpus of its own (its information weights
    from its one reference), whatever else is in the batch (issue 26's repro)."""
    c = ["the cat sat on the mat", "a cat sat on a mat", "the dog sat on the log", "cats sit"]
    r = ["the cat sat on the mat today", "a dog is on the log"]
    other = (["stock markets fell sharply", "the markets fell", "the the the cat"],
             ["stock markets fell sharply today", "the market fell"])
    alone = [[mtscore.corpus_nist([h], [[ref]]).score for ref in r] for h in c]
    assert alone[0][0] == pytest.approx(2.6000372194763472, abs=1e-12)
    for fast in (True, False):
        _close(mtscore.pairwise(mtscore.NIST(), c, r, fast=fast), np.array(alone))
        batched = mtscore.pairwise(mtscore.NIST(), [c, other[0]], [r, other[1]], fast=fast)
        _close(batched[0], np.array(alone))


@pytest.mark.parametrize("name", NAMES)
def test_a_batch_never_changes_an_entry(name: str) -> None:
    """Every registry metric: an entry equals the metric's score of its pair alone (``extract`` of
    the one pair, ``compute_many``), alone or batched with another source."""
    metric = registry.get(name).create()
    hyps, refs = CANDIDATES[:4], CANDIDATES[2:5]
    other_h, other_r = CANDIDATES[4:], CANDIDATES[:3]
    alone = np.array([[metric.compute_many(metric.extract([h], [[r]]).values)[0] for r in refs]
                      for h in hyps])
    _close(mtscore.pairwise(metric, hyps, refs), alone)
    _close(mtscore.pairwise(metric, [other_h, hyps], [other_r, refs])[1], alone)


# ---- reference aggregation -----------------------------------------------------------------------

def _mean_counts(counters: list[Counter]) -> dict:
    total: Counter = Counter()
    for c in counters:
        total.update(c)
    return {g: v / len(counters) for g, v in total.items()}


def test_chrf_aggregate_by_definition() -> None:
    """Per order: matches Σ min(h_g, mean r_g), reference count the mean count (chrF's compute)."""
    from mtscore.metrics.chrf.rules import string_ngrams

    metric = CHRF(word_order=2)
    hyps, refs = CANDIDATES[:6], CANDIDATES[2:]
    ref_counts = [string_ngrams(r, 6, 2) for r in refs]
    rows = []
    for h in hyps:
        row: list[float] = []
        for k, hc in enumerate(string_ngrams(h, 6, 2)):
            mean = _mean_counts([rc[k] for rc in ref_counts])
            ref_total = sum(mean.values())
            row += [sum(hc.values()) if ref_total else 0, ref_total,
                    sum(min(c, mean.get(g, 0.0)) for g, c in hc.items())]
        rows.append(row)
    expected = metric.compute_many(np.array(rows))
    _close(mtscore.pairwise(metric, hyps, refs, aggregate=True), expected)


def test_chrf_aggregate_matches_fastchrf() -> None:
    fastchrf = pytest.importorskip("fastchrf")
    ours = mtscore.pairwise("chrf", [CANDIDATES, CANDIDATES[:4]], aggregate=True)
    theirs = fastchrf.aggregate_chrf([CANDIDATES, CANDIDATES[:4]], [CANDIDATES, CANDIDATES[:4]])
    for mine, their in zip(ours, theirs):
        np.testing.assert_allclose(mine, np.array(their), atol=1e-3)


def test_bleu_aggregate_by_definition() -> None:
    """Clipped matches min(h_g, mean r_g), mean reference length; BLEU's compute (effective order)."""
    metric = BLEU(effective_order=True)
    hyps, refs = CANDIDATES[:6], CANDIDATES[1:8]
    words = [metric.tokenizer(r).split() for r in refs]
    rows = []
    for h in hyps:
        hw = metric.tokenizer(h).split()
        row = [len(hw), sum(map(len, words)) / len(words)]
        matches, totals = [], []
        for n in range(1, 5):
            hc = Counter(tuple(hw[i:i + n]) for i in range(len(hw) - n + 1))
            mean = _mean_counts([Counter(tuple(w[i:i + n]) for i in range(len(w) - n + 1)) for w in words])
            matches.append(sum(min(c, mean.get(g, 0.0)) for g, c in hc.items()))
            totals.append(max(len(hw) - n + 1, 0))
        rows.append(row + matches + totals)
    _close(mtscore.pairwise(metric, hyps, refs, aggregate=True), metric.compute_many(np.array(rows)))


def test_aggregate_keeps_repeated_references() -> None:
    once = mtscore.pairwise("chrf", ["a b c"], ["a b c", "x y z"], aggregate=True)
    twice = mtscore.pairwise("chrf", ["a b c"], ["a b c", "a b c", "x y z"], aggregate=True)
    assert twice[0] > once[0]


# ---- errors ---------------------------------------------------------------------------------------

def test_errors() -> None:
    with pytest.raises(InputError, match="non-empty list"):
        mtscore.pairwise("bleu", [])
    with pytest.raises(InputError, match="non-empty list"):
        mtscore.pairwise("bleu", "a string")
    with pytest.raises(InputError, match=r"hypotheses\[1\] is int"):
        mtscore.pairwise("bleu", ["a", 3])
    with pytest.raises(InputError, match="source 1: references: none given"):
        mtscore.pairwise("bleu", [["a"], ["b"]], [["a"], []])
    with pytest.raises(InputError, match="2 sources of hypotheses but 1"):
        mtscore.pairwise("bleu", [["a"], ["b"]], [["a"]])
    with pytest.raises(InputError, match="both"):
        mtscore.pairwise("bleu", [["a"]], ["a"])
    with pytest.raises(OptionError, match="utility metric"):
        mtscore.pairwise("ter", ["a"])
    with pytest.raises(OptionError, match="aggregation"):
        mtscore.pairwise("meteor", ["a"], aggregate=True)
