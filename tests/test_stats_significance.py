"""Bootstrap intervals, paired bootstrap, approximate randomization, Holm and clusters.

Checked against sacreBLEU 2.6.0's own ``PairedTest`` on real WMT22 data (same seed -> same draws ->
the same p-values), against brute force on small cases, and with hypothesis properties.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore import BLEU, InputError, OptionError
from mtscore.io.text import read_lines
from mtscore.metrics.base import Metric, Score, SegmentStats
from mtscore.stats import (
    approximate_randomization,
    bootstrap_ci,
    bootstrap_indices,
    holm,
    paired_bootstrap,
    significance_clusters,
)
from mtscore.stats.significance import PairComparison, SignificanceResult, randomization_masks

DEDE = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22" / "de-en"
needs_data = pytest.mark.skipif(not DEDE.is_dir(), reason="../shared/data/wmt22 not present")


class Ratio(Metric[Score]):
    """A small additive test metric: 100 · Σmatches / Σtotal."""

    name = "ratio"

    @property
    def columns(self) -> tuple[str, ...]:
        return ("matches", "total")

    def prepare_references(self, refs, names=None):  # pragma: no cover - not used
        raise NotImplementedError

    def extract(self, hyps, refs) -> SegmentStats:  # pragma: no cover - not used
        raise NotImplementedError

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        return np.where(t[:, 1] > 0, 100.0 * t[:, 0] / np.where(t[:, 1] > 0, t[:, 1], 1), 0.0)

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> Score:
        return Score("ratio", float(self.compute_many(totals)[0]), self.signature(meta))

    def signature(self, meta: Mapping[str, str] | None = None) -> str:
        return "ratio"

    def settings_key(self):  # pragma: no cover - no references are prepared
        return ("ratio",)


def _stats(rows) -> SegmentStats:
    return SegmentStats(("matches", "total"), np.asarray(rows, dtype=np.int64))


def _random_systems(seed: int, systems: int = 3, segments: int = 40) -> dict[str, SegmentStats]:
    rng = np.random.default_rng(seed)
    out = {}
    for k in range(systems):
        total = rng.integers(1, 30, size=segments)
        matches = rng.binomial(total, 0.3 + 0.1 * k)
        out[f"sys{k}"] = _stats(np.stack([matches, total], axis=1))
    return out


# ---- sacreBLEU on real data -------------------------------------------------------------------

@pytest.fixture(scope="module")
def wmt_small():
    refs = [read_lines(DEDE / "references" / "A.txt")[:300]]
    names = ["Online-B", "Online-A", "LT22", "PROMT"]
    hyps = {n: read_lines(DEDE / "systems" / f"{n}.txt")[:300] for n in names}
    bleu = BLEU()
    prepared = bleu.prepare_references(refs)
    stats = {n: bleu.extract(h, prepared) for n, h in hyps.items()}
    return names, hyps, refs, bleu, stats


def _sacrebleu_paired(names, hyps, refs, test_type, n, seed, monkeypatch):
    significance = pytest.importorskip("sacrebleu.significance")
    from sacrebleu.metrics import BLEU as SacreBLEU
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    test = significance.PairedTest([(k, hyps[k]) for k in names], {"BLEU": SacreBLEU()}, refs,
                                   test_type=test_type, n_samples=n)
    _, scores = test()
    return scores["BLEU"]


@pytest.mark.parity
@needs_data
def test_paired_bootstrap_equals_sacrebleu(wmt_small, monkeypatch):
    names, hyps, refs, bleu, stats = wmt_small
    ours = paired_bootstrap(bleu, stats, baseline="Online-B", resamples=1000, seed=12345)
    theirs = _sacrebleu_paired(names, hyps, refs, "bs", 1000, 12345, monkeypatch)
    for comparison, result in zip(ours.comparisons, theirs[1:]):
        assert comparison.score == pytest.approx(result.score, abs=1e-9)
        assert comparison.pvalue == result.p_value  # same draws, same rule: identical
    for ci, result in zip(ours.intervals, theirs):
        # sacreBLEU sums float32 statistics; the resample means agree to float32 precision
        assert ci.mean == pytest.approx(result.mean, abs=1e-4)
        assert ci.half_width == pytest.approx(result.ci, abs=1e-4)


@pytest.mark.parity
@needs_data
def test_approximate_randomization_equals_sacrebleu(wmt_small, monkeypatch):
    names, hyps, refs, bleu, stats = wmt_small
    ours = approximate_randomization(bleu, stats, baseline="Online-B", trials=2000, seed=12345)
    theirs = _sacrebleu_paired(names, hyps, refs, "ar", 2000, 12345, monkeypatch)
    for comparison, result in zip(ours.comparisons, theirs[1:]):
        assert comparison.pvalue == pytest.approx(result.p_value, abs=1.5 / 2001)


# ---- brute force on small cases ---------------------------------------------------------------

def test_resamples_equal_brute_force():
    systems = _random_systems(1)
    metric = Ratio()
    result = paired_bootstrap(metric, systems, resamples=50, seed=7)
    idx = bootstrap_indices(40, 50, 7)
    names = list(systems)
    samples = np.array([[metric.compute(systems[n].take(row).total()).score for n in names]
                        for row in idx])
    for k in range(len(names)):
        ordered = np.sort(samples[:, k])
        kk = int(50 * 0.05 / 2)
        assert result.intervals[k].ci_low == pytest.approx(ordered[kk])
        assert result.intervals[k].ci_high == pytest.approx(ordered[50 - kk - 1])
        assert result.intervals[k].mean == pytest.approx(samples[:, k].mean())
    for c in result.comparisons:
        a, b = names.index(c.system), names.index(c.other)
        observed = abs(result.scores[a] - result.scores[b])
        diffs = np.abs(samples[:, a] - samples[:, b])
        expected = (np.sum(diffs - diffs.mean() > observed) + 1) / 51
        assert c.pvalue == pytest.approx(expected)


def test_randomization_equals_brute_force():
    systems = _random_systems(2, systems=3, segments=25)
    metric = Ratio()
    result = approximate_randomization(metric, systems, trials=200, seed=3)
    masks = randomization_masks(25, 200, 3)
    names = list(systems)
    for c in result.comparisons:
        a, b = systems[c.system].values, systems[c.other].values
        observed = abs(c.score - c.other_score)
        count = 0
        for mask in masks:
            one = np.where(mask[:, None], a, b).sum(axis=0)
            two = np.where(mask[:, None], b, a).sum(axis=0)
            diff = abs(metric.compute(one).score - metric.compute(two).score)
            count += diff > observed
        assert c.pvalue == pytest.approx((count + 1) / 201)
    assert len(result.comparisons) == 3 and result.baseline is None
    assert set(names) == set(result.systems)


def test_seed_reproducible_and_zero_is_a_seed():
    systems = _random_systems(4)
    metric = Ratio()
    a = paired_bootstrap(metric, systems, resamples=200, seed=0)
    b = paired_bootstrap(metric, systems, resamples=200, seed=0)
    c = paired_bootstrap(metric, systems, resamples=200, seed=1)
    assert a == b
    assert [x.ci_low for x in a.intervals] != [x.ci_low for x in c.intervals]
    r1 = approximate_randomization(metric, systems, trials=300, seed=0)
    r2 = approximate_randomization(metric, systems, trials=300, seed=0)
    assert [x.pvalue for x in r1.comparisons] == [x.pvalue for x in r2.comparisons]


def test_bootstrap_ci_single_system():
    systems = _random_systems(5)
    ci = bootstrap_ci(Ratio(), systems["sys1"], resamples=500, seed=0, confidence=0.9)
    assert ci.ci_low <= ci.score <= ci.ci_high
    assert ci.resamples == 500 and ci.seed == 0 and ci.confidence == 0.9
    assert "percentile" in ci.method
    from mtscore.report.stats_tables import interval_table

    assert interval_table(ci, "sys1").rows[0][0] == "sys1"


def test_bad_options():
    systems = _random_systems(6)
    with pytest.raises(OptionError):
        paired_bootstrap(Ratio(), systems, resamples=0)
    with pytest.raises(OptionError):
        paired_bootstrap(Ratio(), systems, seed=-1)
    with pytest.raises(OptionError, match="baseline"):
        paired_bootstrap(Ratio(), systems, baseline="nope")
    with pytest.raises(OptionError):
        bootstrap_ci(Ratio(), systems["sys0"], confidence=1.5)
    with pytest.raises(InputError, match="segments"):
        paired_bootstrap(Ratio(), {"a": _stats([[1, 2]]), "b": _stats([[1, 2], [1, 2]])})
    with pytest.raises(InputError, match="two systems"):
        paired_bootstrap(Ratio(), {"a": _stats([[1, 2]])})


# ---- Holm --------------------------------------------------------------------------------------

def test_holm_textbook_example():
    # four tests, p = .01 .04 .03 .005: sorted .005 .01 .03 .04 scaled by 4 3 2 1 ->
    # .02 .03 .06 .04, running maximum .02 .03 .06 .06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    out = holm([0.02, np.nan, 0.03])
    assert np.isnan(out[1]) and out[0] == pytest.approx(0.04) and out[2] == pytest.approx(0.04)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_properties(ps):
    adj = holm(ps)
    p = np.asarray(ps)
    assert np.all(adj >= p - 1e-15) and np.all(adj <= 1.0)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adj[order]) >= -1e-15)  # monotone in the raw p-values
    # brute force of the definition
    m = len(p)
    srt = p[order]
    expected = [max(min(1.0, (m - j) * srt[j]) for j in range(i + 1)) for i in range(m)]
    assert adj[order] == pytest.approx(expected)


# ---- clusters ----------------------------------------------------------------------------------

def _result(scores: dict[str, float], pvalues: dict[tuple[str, str], float]) -> SignificanceResult:
    names = tuple(scores)
    comps = tuple(PairComparison(a, b, scores[a], scores[b], scores[a] - scores[b], p, p)
                  for (a, b), p in pvalues.items())
    ci = bootstrap_ci(Ratio(), _stats([[1, 2]]), resamples=1)
    return SignificanceResult("test", "X", "sig", names, tuple(scores.values()),
                              tuple(ci for _ in names), comps, 1, 0, 0.95, None)


def test_clusters_greedy_in_rank_order():
    scores = {"A": 30.0, "B": 29.0, "C": 25.0, "D": 24.5}
    p = {("A", "B"): 0.3, ("A", "C"): 0.001, ("A", "D"): 0.001, ("B", "C"): 0.01,
         ("B", "D"): 0.002, ("C", "D"): 0.4}
    assert significance_clusters(_result(scores, p)) == [["A", "B"], ["C", "D"]]
    # B not significantly better than C: no boundary between {A,B} and {C,D}; A vs B vs C chain
    p[("B", "C")] = 0.2
    assert significance_clusters(_result(scores, p)) == [["A", "B", "C", "D"]]
    p[("B", "C")] = 0.01
    p[("C", "D")] = 0.01
    assert significance_clusters(_result(scores, p)) == [["A", "B"], ["C"], ["D"]]


def test_clusters_need_all_pairs():
    systems = _random_systems(8)
    res = paired_bootstrap(Ratio(), systems, baseline="sys0", resamples=50)
    with pytest.raises(InputError, match="every pair"):
        significance_clusters(res)


# ---- properties --------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.integers(1, 20), st.integers(0, 20), st.integers(1, 30), st.integers(0, 2**31))
def test_constant_rows_give_degenerate_interval(n, m, extra, seed):
    """Every segment with the same statistics: every resample has the corpus score."""
    stats = _stats([[m, m + extra]] * n)
    ci = bootstrap_ci(Ratio(), stats, resamples=20, seed=seed)
    assert ci.ci_low == pytest.approx(ci.score) and ci.ci_high == pytest.approx(ci.score)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31))
def test_pvalues_in_range_and_tables_render(seed):
    systems = _random_systems(seed % 1000, systems=3, segments=15)
    for res in (paired_bootstrap(Ratio(), systems, resamples=30, seed=seed),
                approximate_randomization(Ratio(), systems, trials=30, seed=seed,
                                          confidence_resamples=10)):
        for c in res.comparisons:
            assert 0 < c.pvalue <= 1 and c.pvalue <= c.p_holm <= 1
        from mtscore.report.stats_tables import significance_tables

        tables = significance_tables(res)
        assert len(tables) == 2 and len(tables[0].rows) == 3
        assert res.ranking()[0] == max(zip(res.scores, res.systems))[1]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31))
def test_pvalues_do_not_depend_on_system_order(seed):
    systems = _random_systems(seed % 997, systems=3, segments=20)
    reordered = dict(reversed(list(systems.items())))
    for test in (lambda s: paired_bootstrap(Ratio(), s, resamples=40, seed=seed),
                 lambda s: approximate_randomization(Ratio(), s, trials=40, seed=seed,
                                                     confidence_resamples=5)):
        one = {frozenset((c.system, c.other)): c.pvalue for c in test(systems).comparisons}
        two = {frozenset((c.system, c.other)): c.pvalue for c in test(reordered).comparisons}
        assert one == two


def test_blockwise_draws_equal_one_draw():
    """Long corpora draw resamples block by block; the draws equal one sacreBLEU-style call."""
    from mtscore.stats import bootstrap_index_chunks, bootstrap_scores, resampled_scores
    rng = np.random.default_rng(0)
    total = rng.integers(1, 9, size=5000)
    stats = [_stats(np.stack([rng.binomial(total, 0.4), total], axis=1))]
    chunks = list(bootstrap_index_chunks(5000, 1200, 11))
    assert len(chunks) > 1
    assert np.array_equal(np.concatenate(chunks), bootstrap_indices(5000, 1200, 11))
    assert np.allclose(bootstrap_scores(Ratio(), stats, 1200, 11),
                       resampled_scores(Ratio(), stats, bootstrap_indices(5000, 1200, 11)))
