"""Unigram P, R, F1, Fmean: the METEOR paper's formulas, brute force with Counters, best reference."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import given as _given
from hypothesis import settings as _settings
from hypothesis import strategies as _st
from hypothesis import strategies as st

from mtscore.data import sample_path
from mtscore.errors import OptionError
from mtscore.io.dataset import load_dataset
from mtscore.metrics.unigram.metric import MEASURES, Unigram, corpus_unigram, unigram_measures
from mtscore.text.tokenizers import get_tokenizer

from .conftest import WMT22 as _WMT22
from .conftest import needs_wmt22 as _needs_wmt22
from .test_nist import TEXT as _TEXT
from .test_nist import _assert_identical, line_encoder_stats

TOK = get_tokenizer("13a")


def _measure(name, m, h, r):
    p = m / h if h else 0.0
    rc = m / r if r else 0.0
    return {"precision": p, "recall": rc, "f1": 2 * p * rc / (p + rc) if p + rc else 0.0,
            "fmean": 10 * p * rc / (rc + 9 * p) if p + rc else 0.0}[name]


def brute(hyps, refs, measure, lower=True):
    """Summed (matches, hyp_len, ref_len) with the best reference per segment, by Counters."""
    M = H = R = 0
    for i, hyp in enumerate(hyps):
        norm = (lambda s: TOK(s).lower().split()) if lower else (lambda s: TOK(s).split())
        hc = Counter(norm(hyp))
        best = None
        for k, stream in enumerate(refs):
            if stream[i] is None:
                continue
            rc = Counter(norm(stream[i]))
            m, h, r = sum((hc & rc).values()), sum(hc.values()), sum(rc.values())
            key = (_measure(measure, m, h, r), m, -k)
            if best is None or key > best[0]:
                best = (key, m, h, r)
        M, H, R = M + best[1], H + best[2], R + best[3]
    return M, H, R


def test_meteor_paper_example():
    """Banerjee & Lavie (2005) §2: 'the president spoke to the audience' against
    'the president then spoke to the audience': 6 matches, P = 1, R = 6/7, Fmean = 60/69."""
    r = corpus_unigram(["the president spoke to the audience"],
                       [["the president then spoke to the audience"]])
    assert (r.matches, r.hyp_len, r.ref_len) == (6, 6, 7)
    assert r.precision == 1.0 and r.recall == pytest.approx(6 / 7)
    assert r.fmean == pytest.approx(60 / 69) and r.score == r.fmean
    assert r.f1 == pytest.approx(2 * (6 / 7) / (1 + 6 / 7))


def test_one_to_one_clipping():
    r = corpus_unigram(["the the the cat"], [["the cat sat"]], "precision")
    assert r.matches == 2 and r.precision == pytest.approx(0.5)


@pytest.mark.parametrize("measure", MEASURES)
def test_sample_two_references_brute_force(measure):
    d = load_dataset(sample_path())
    refs = [d.references["A"], d.references["B"]]
    for system in ("LT22", "Online-W"):
        r = corpus_unigram(d.systems[system], refs, measure)
        assert (r.matches, r.hyp_len, r.ref_len) == brute(d.systems[system], refs, measure)
        assert r.score == pytest.approx(_measure(measure, r.matches, r.hyp_len, r.ref_len), rel=1e-15)


def test_best_reference_depends_on_measure():
    hyp = ["a b c d"]
    refs = [["a b c d e f g h"], ["a b x"]]  # ref 0: R = 0.5, P = 1; ref 1: R = 2/3, P = 0.5
    assert corpus_unigram(hyp, refs, "precision").ref_len == 8
    assert corpus_unigram(hyp, refs, "recall").ref_len == 3


def test_missing_reference_is_skipped_and_ties_keep_first():
    r = Unigram("fmean").extract(["a b", "c d"], [["a b", None], ["a b", "c d"]])
    assert r.values.tolist() == [[2, 2, 2], [2, 2, 2]]
    assert r.meta["nrefs"] == "var"


def test_vectorized_scores_and_zero_denominators():
    metric = Unigram("f1")
    rows = np.array([[0, 0, 0], [3, 4, 6], [0, 5, 5]])
    out = metric.compute_many(rows)
    assert out[0] == 0.0 and out[2] == 0.0
    assert out[1] == pytest.approx(2 * 0.75 * 0.5 / 1.25)
    m = unigram_measures(3, 4, 6)
    assert float(m["fmean"]) == pytest.approx(10 * 0.75 * 0.5 / (0.5 + 9 * 0.75))


def test_options():
    with pytest.raises(OptionError, match="unigram measure"):
        Unigram("accuracy")
    assert Unigram("recall").signature({"nrefs": "2"}).startswith("Unigram-R|nrefs:2|best:recall|case:lc")


words = st.lists(st.sampled_from(["a", "b", "c", "A", "d"]), min_size=0, max_size=7).map(" ".join)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(MEASURES), st.booleans(), st.integers(1, 3).flatmap(
    lambda k: st.lists(st.tuples(words, st.lists(words, min_size=k, max_size=k)), min_size=1, max_size=5)))
def test_random_corpora_brute_force(measure, lower, corpus):
    hyps = [h for h, _ in corpus]
    refs = [[rs[k] for _, rs in corpus] for k in range(len(corpus[0][1]))]
    r = Unigram(measure, lowercase=lower).corpus_score(hyps, refs)
    assert (r.matches, r.hyp_len, r.ref_len) == brute(hyps, refs, measure, lower)


# ---- the byte-span encoder against the line tokenizer it replaced -------------------------------



@_settings(max_examples=150, deadline=None)
@_given(hyps=_st.lists(_TEXT, min_size=1, max_size=8), data=_st.data(),
        tokenize=_st.sampled_from(["13a", "intl", "zh", "char", "none"]), lowercase=_st.booleans(),
        measure=_st.sampled_from(["precision", "recall", "f1", "fmean"]))
def test_encoder_statistics_identical_to_line_tokenizer_random(hyps, data, tokenize, lowercase, measure):
    from mtscore.metrics import clipping
    from mtscore.metrics.unigram import metric as unigram

    streams = [[data.draw(_TEXT if k == 0 else _st.none() | _TEXT) for _ in hyps] for k in range(3)]
    metric = unigram.Unigram(measure, tokenize=tokenize, lowercase=lowercase)
    _assert_identical(metric.extract(hyps, streams), line_encoder_stats(clipping, metric, hyps, streams))


@_needs_wmt22
def test_encoder_statistics_identical_to_line_tokenizer_wmt22():
    from mtscore.io.text import read_lines
    from mtscore.metrics import clipping
    from mtscore.metrics.unigram import metric as unigram

    for pair in ("zh-en", "de-en"):
        folder = _WMT22 / pair
        refs = [read_lines(folder / "references" / f"{r}.txt") for r in ("A", "B")]
        refs[1] = [r if i % 5 else None for i, r in enumerate(refs[1])]
        for measure in ("precision", "fmean"):
            metric = unigram.Unigram(measure)
            for path in sorted((folder / "systems").glob("*.txt"))[:2]:
                hyps = read_lines(path)
                _assert_identical(metric.extract(hyps, refs),
                                  line_encoder_stats(clipping, metric, hyps, refs))
