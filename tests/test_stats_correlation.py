"""Correlation with human judgments: scipy's values, hand-worked Kendall variants and pairwise
accuracy, brute force for groupings, tie calibration and the bootstrap interval, the Williams test
against a hand computation, and the permutation test's basic properties."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore import InputError, OptionError
from mtscore.metrics.base import Metric, Score, SegmentStats
from mtscore.stats import (
    bootstrap_indices,
    kendall_variants,
    pairwise_accuracy,
    pairwise_agreement,
    permutation_test,
    segment_correlation,
    system_correlation,
    system_correlation_ci,
    tau_counts,
    williams_test,
)


class Ratio(Metric[Score]):
    name = "ratio"

    @property
    def columns(self):
        return ("matches", "total")

    def prepare_references(self, refs, names=None):  # pragma: no cover
        raise NotImplementedError

    def extract(self, hyps, refs):  # pragma: no cover
        raise NotImplementedError

    def compute_many(self, totals):
        t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        return 100.0 * t[:, 0] / t[:, 1]

    def compute(self, totals, meta: Mapping[str, str] | None = None):
        return Score("ratio", float(self.compute_many(totals)[0]), "ratio")

    def signature(self, meta=None):
        return "ratio"

    def settings_key(self):  # pragma: no cover - no references are prepared
        return ("ratio",)


# ---- system level = scipy ----------------------------------------------------------------------

def test_system_level_equals_scipy():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=12), rng.normal(size=12)
    r = system_correlation(x, y, "pearson")
    assert (r.statistic, r.pvalue) == pytest.approx(tuple(scipy.stats.pearsonr(x, y)))
    assert system_correlation(x, y, "spearman").statistic == pytest.approx(
        scipy.stats.spearmanr(x, y).statistic)
    for method, variant in (("kendall", "b"), ("kendall-b", "b"), ("kendall-c", "c")):
        assert system_correlation(x, y, method).statistic == pytest.approx(
            scipy.stats.kendalltau(x, y, variant=variant).statistic)


def test_system_level_dicts_align_by_name_and_report_missing():
    m = {"a": 1.0, "b": 2.0, "c": 3.5}
    h = {"c": 0.9, "a": 0.1, "b": 0.4}
    assert system_correlation(m, h).statistic == pytest.approx(
        scipy.stats.pearsonr([1, 2, 3.5], [0.1, 0.4, 0.9]).statistic)
    with pytest.raises(InputError, match="no human score for d"):
        system_correlation({**m, "d": 1.0}, h)
    with pytest.raises(OptionError):
        system_correlation(m, h, "cosine")


def test_system_pairwise_accuracy_hand_worked():
    # pairs (ab, ac, bc): metric signs (-, -, -), human signs (-, +, +) -> 1 of 3 agree
    assert pairwise_agreement(np.array([1., 2., 3.]), np.array([1., 3., 0.])) == pytest.approx(1 / 3)
    assert system_correlation([1, 2, 3], [1, 3, 0], "accuracy").statistic == pytest.approx(1 / 3)


# ---- Kendall variants and accuracy by hand ------------------------------------------------------

H = np.array([1., 2., 2., 3.])
M = np.array([1., 3., 2., 2.])
# pairs: 01 con, 02 con, 03 con, 12 tie in human only, 13 discordant, 23 tie in metric only


def test_tau_counts_hand_worked():
    c = tau_counts(H, M)
    assert (c.concordant, c.discordant, c.ties_human, c.ties_metric, c.ties_both) == (3, 1, 1, 1, 0)
    # ε = 1: every pair with |Δm| ≤ 1 is a metric tie; pair 12 is then tied in both
    c = tau_counts(H, M, epsilon=1.0)
    assert (c.concordant, c.discordant, c.ties_human, c.ties_metric, c.ties_both) == (1, 0, 0, 4, 1)


def test_kendall_variants_hand_worked():
    assert kendall_variants(H, M, "b") == pytest.approx(2 / 5)          # (3-1)/√(5·5)
    assert kendall_variants(H, M, "c") == pytest.approx(0.375)          # 2·2/(16·2/3)
    assert kendall_variants(H, M, "23") == pytest.approx(0.0)           # (3+0-1-1-1)/6
    assert kendall_variants(H, M, "acc23") == pytest.approx(0.5)        # (3+0)/6
    assert kendall_variants(H, M, "acc23", epsilon=1.0) == pytest.approx(2 / 6)
    with pytest.raises(OptionError):
        kendall_variants(H, M, "d")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=3, max_size=15))
def test_kendall_b_c_equal_scipy_with_ties(pairs):
    h = np.array([p[0] for p in pairs], dtype=float)
    m = np.array([p[1] for p in pairs], dtype=float)
    for variant in ("b", "c"):
        ours = kendall_variants(h, m, variant)
        theirs = scipy.stats.kendalltau(m, h, variant=variant).statistic
        if math.isnan(theirs):
            assert math.isnan(ours) or ours == pytest.approx(0.0)
        else:
            assert ours == pytest.approx(theirs)


def test_tie_calibration_hand_worked():
    # human (1, 1, 2), metric (1.0, 1.1, 3): ε = 0 gets 2/3 (pair 01 tied in human only);
    # ε = |1.0 - 1.1| ties pair 01 in both -> 3/3; larger ε ties pair 12 too -> 2/3
    res = pairwise_accuracy(np.array([[1.0, 1.1, 3.0]]), np.array([[1.0, 1.0, 2.0]]),
                            grouping="none")
    assert res.statistic == pytest.approx(1.0)
    assert res.epsilon == pytest.approx(0.1)
    fixed = pairwise_accuracy(np.array([[1.0, 1.1, 3.0]]), np.array([[1.0, 1.0, 2.0]]),
                              grouping="none", epsilon=0.0)
    assert fixed.statistic == pytest.approx(2 / 3) and fixed.epsilon == 0.0


def _brute_accuracy(x, y, grouping):
    """acc23 of every candidate ε by the definition, best one."""
    if grouping == "item":
        x, y = x.T, y.T
    elif grouping == "none":
        x, y = x.reshape(1, -1), y.reshape(1, -1)
    groups = [(gx[~np.isnan(gy)], gy[~np.isnan(gy)]) for gx, gy in zip(x, y)]
    groups = [g for g in groups if len(g[0]) >= 2]
    candidates = {0.0} | {abs(a - b) for gx, _ in groups for a, b in itertools.combinations(gx, 2)}
    best = -1.0
    for eps in sorted(candidates):
        value = np.mean([kendall_variants(gy, gx, "acc23", epsilon=eps) for gx, gy in groups])
        best = max(best, value)
    return best


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from(["none", "item", "system"]))
def test_tie_calibration_equals_brute_force(seed, grouping):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 5, size=(3, 6)).astype(float) / 2
    y = rng.integers(0, 4, size=(3, 6)).astype(float)
    y[rng.random(size=y.shape) < 0.2] = np.nan
    if sum(int(np.sum(~np.isnan(r))) >= 2 for r in (y.T if grouping == "item" else y)) == 0 \
            and grouping != "none":
        return
    res = pairwise_accuracy(x, y, grouping=grouping)
    assert res.statistic == pytest.approx(_brute_accuracy(x, y, grouping))
    # the chosen ε reproduces the value
    again = pairwise_accuracy(x, y, grouping=grouping, epsilon=res.epsilon)
    assert again.statistic == pytest.approx(res.statistic)


# ---- segment level groupings = explicit loops over scipy ----------------------------------------

def _matrices(seed=0):
    rng = np.random.default_rng(seed)
    human = rng.normal(size=(5, 30))
    metric = human + rng.normal(scale=1.0, size=human.shape)
    human[rng.random(size=human.shape) < 0.25] = np.nan
    return metric, human


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall", "kendall-c"])
def test_segment_groupings_equal_loops(method):
    metric, human = _matrices()
    fn = {"pearson": scipy.stats.pearsonr, "spearman": scipy.stats.spearmanr,
          "kendall": scipy.stats.kendalltau,
          "kendall-c": lambda a, b: scipy.stats.kendalltau(a, b, variant="c")}[method]
    ok = ~np.isnan(human)
    pooled = fn(metric[ok], human[ok]).statistic
    rows = [fn(metric[k][ok[k]], human[k][ok[k]]).statistic for k in range(5)]
    cols = [fn(metric[:, i][ok[:, i]], human[:, i][ok[:, i]]).statistic
            for i in range(30) if ok[:, i].sum() >= 2]
    cols = [c for c in cols if not math.isnan(c)]
    assert segment_correlation(metric, human, method, "none").statistic == pytest.approx(pooled)
    res = segment_correlation(metric, human, method, "system")
    assert res.statistic == pytest.approx(np.mean(rows)) and res.groups == 5
    res = segment_correlation(metric, human, method, "item")
    assert res.statistic == pytest.approx(np.mean(cols)) and res.groups == len(cols)
    assert res.n == int(ok.sum())


def test_segment_errors():
    metric, human = _matrices()
    with pytest.raises(OptionError):
        segment_correlation(metric, human, "pearson", "document")
    with pytest.raises(InputError, match="shape"):
        segment_correlation(metric[:, :3], human, "pearson")
    bad = metric.copy()
    bad[~np.isnan(human)] = np.nan
    with pytest.raises(InputError, match="NaN"):
        segment_correlation(bad, human)


# ---- bootstrap interval of a system-level correlation -------------------------------------------

def test_system_correlation_ci_brute_force():
    rng = np.random.default_rng(3)
    S, names = 20, ["a", "b", "c", "d", "e"]
    stats, human = {}, {}
    for k, name in enumerate(names):
        total = rng.integers(5, 20, size=S)
        matches = rng.binomial(total, 0.2 + 0.1 * k)
        stats[name] = SegmentStats(("matches", "total"), np.stack([matches, total], axis=1))
        h = matches / total + rng.normal(scale=0.1, size=S)
        h[rng.random(S) < 0.2] = np.nan
        human[name] = h
    metric = Ratio()
    res = system_correlation_ci(metric, stats, human, "pearson", resamples=40, seed=5)
    corpus = [metric.compute(stats[n].total()).score for n in names]
    hmeans = [np.nanmean(human[n]) for n in names]
    assert res.statistic == pytest.approx(scipy.stats.pearsonr(corpus, hmeans).statistic)
    samples = []
    for idx in bootstrap_indices(S, 40, 5):
        m = [metric.compute(stats[n].take(idx).total()).score for n in names]
        h = [np.nanmean(human[n][idx]) for n in names]
        samples.append(scipy.stats.pearsonr(m, h).statistic)
    samples = np.sort(samples)
    assert res.ci_low == pytest.approx(samples[1]) and res.ci_high == pytest.approx(samples[38])
    assert res.resamples == 40 and res.seed == 5 and res.confidence == 0.95
    assert "jointly" in res.ci_method
    with pytest.raises(InputError, match="no human scores for e"):
        system_correlation_ci(metric, stats, {n: human[n] for n in names[:4]})


# ---- Williams and permutation --------------------------------------------------------------------

def test_williams_hand_computed():
    # r12 = .8, r13 = .6, r23 = .7, n = 20:
    # |R| = 1 - .64 - .36 - .49 + 2·.8·.6·.7 = .182
    # t = .2·√(19·1.7) / √(2·19/17·.182 + .7²·.3³) = 1.136662 / .648116 = 1.753795, df = 17
    res = williams_test(0.8, 0.6, 0.7, 20)
    assert res.statistic == pytest.approx(1.753795, abs=1e-6)
    assert res.df == 17
    assert res.pvalue == pytest.approx(scipy.stats.t.sf(1.753795, 17), abs=1e-6)
    assert 0.045 < res.pvalue < 0.05
    two = williams_test(0.8, 0.6, 0.7, 20, one_sided=False)
    assert two.pvalue == pytest.approx(2 * res.pvalue)
    # symmetric: swapping the metrics negates t
    assert williams_test(0.6, 0.8, 0.7, 20).statistic == pytest.approx(-res.statistic)
    with pytest.raises(OptionError):
        williams_test(1.2, 0.5, 0.5, 10)
    with pytest.raises(OptionError):
        williams_test(0.2, 0.5, 0.5, 3)


def test_permutation_test_properties():
    rng = np.random.default_rng(0)
    human = rng.normal(size=(4, 40))
    good = human + rng.normal(scale=0.3, size=human.shape)
    noise = rng.normal(size=human.shape)
    res = permutation_test(human, noise, good, "pearson", "system", resamples=200, seed=1)
    assert res.statistic > 0 and res.pvalue < 0.01
    assert res == permutation_test(human, noise, good, "pearson", "system", resamples=200, seed=1)
    back = permutation_test(human, good, noise, "pearson", "system", resamples=200, seed=1)
    assert back.pvalue > 0.9
    same = permutation_test(human, good, good, "pearson", "none", resamples=50, seed=0)
    assert same.statistic == 0 and same.pvalue == 1.0
    sys_level = permutation_test(human.mean(axis=1), noise.mean(axis=1), good.mean(axis=1),
                                 "kendall", resamples=50, seed=0)
    assert sys_level.level == "system" and 0 < sys_level.pvalue <= 1


# ---- intervals for scores given as numbers ------------------------------------------------------

from mtscore.stats import (  # noqa: E402
    SegmentMean,
    segment_correlation_ci,
    system_correlation_ci_from_segments,
    system_correlation_ci_over_systems,
)


@pytest.mark.parametrize("grouping", ["item", "system", "none"])
def test_segment_correlation_ci_brute_force(grouping):
    metric, human = _matrices(1)
    res = segment_correlation_ci(metric, human, "pearson", grouping, resamples=30, seed=2)
    samples = []
    for idx in bootstrap_indices(metric.shape[1], 30, 2):
        x, y = metric[:, idx], human[:, idx]
        if grouping == "none":
            ok = ~np.isnan(y)
            samples.append(scipy.stats.pearsonr(x[ok], y[ok]).statistic)
            continue
        if grouping == "item":
            x, y = x.T, y.T
        values = []
        for gx, gy in zip(x, y):
            ok = ~np.isnan(gy)
            if ok.sum() >= 2:
                r = scipy.stats.pearsonr(gx[ok], gy[ok]).statistic
                if not math.isnan(r):
                    values.append(r)
        samples.append(np.mean(values))
    samples = np.sort(samples)
    assert res.statistic == pytest.approx(segment_correlation(metric, human, "pearson",
                                                              grouping).statistic)
    assert res.ci_low == pytest.approx(samples[0]) and res.ci_high == pytest.approx(samples[29])
    assert res.ci_low <= res.statistic <= res.ci_high


def test_system_ci_from_segments_and_over_systems():
    metric, human = _matrices(2)
    res = system_correlation_ci_from_segments(metric, human, method="spearman", resamples=40,
                                              seed=1)
    assert res.statistic == pytest.approx(scipy.stats.spearmanr(
        metric.mean(axis=1), np.nanmean(human, axis=1)).statistic)
    samples = np.sort([scipy.stats.spearmanr(metric[:, idx].mean(axis=1),
                                             np.nanmean(human[:, idx], axis=1)).statistic
                       for idx in bootstrap_indices(metric.shape[1], 40, 1)])
    assert res.ci_low == pytest.approx(samples[1]) and res.ci_high == pytest.approx(samples[38])
    x, y = metric.mean(axis=1), np.nanmean(human, axis=1)
    over = system_correlation_ci_over_systems(x, y, resamples=25, seed=0)
    samples = [scipy.stats.pearsonr(x[i], y[i]).statistic if len(set(i)) > 1 else np.nan
               for i in bootstrap_indices(5, 25, 0)]
    valid = np.sort([s for s in samples if not np.isnan(s)])
    k = int(len(valid) * 0.025)
    assert over.ci_low == pytest.approx(valid[k]) and over.ci_high == pytest.approx(valid[-k - 1])
    assert "over systems" in over.ci_method


def test_segment_mean_metric():
    stats = SegmentMean.stats(np.array([1.0, np.nan, 3.0]))
    assert SegmentMean().compute(stats.total()).score == pytest.approx(2.0)
    assert np.isnan(SegmentMean().compute_many(np.zeros((1, 2))))[0]


def test_permutation_system_level_from_segments_brute_force():
    rng = np.random.default_rng(4)
    human = rng.normal(size=(6, 30))
    a = human + rng.normal(scale=2.0, size=human.shape)
    b = human + rng.normal(scale=0.5, size=human.shape)
    human[rng.random(human.shape) < 0.2] = np.nan
    res = permutation_test(human, a, b, "pearson", level="system", resamples=60, seed=9)
    hm = np.nanmean(human, axis=1)
    assert res.statistic_a == pytest.approx(scipy.stats.pearsonr(a.mean(axis=1), hm).statistic)
    assert res.statistic_b == pytest.approx(scipy.stats.pearsonr(b.mean(axis=1), hm).statistic)
    za, zb = (a - a.mean()) / a.std(), (b - b.mean()) / b.std()

    def r(m):
        return scipy.stats.pearsonr(m.mean(axis=1), hm).statistic

    delta = r(zb) - r(za)
    assert res.statistic == pytest.approx(delta)
    gen = np.random.default_rng(9)
    count = 0
    for _ in range(60):
        swap = gen.integers(2, size=human.shape, dtype=bool)
        count += r(np.where(swap, za, zb)) - r(np.where(swap, zb, za)) >= delta
    assert res.pvalue == pytest.approx((count + 1) / 61)
    with pytest.raises(OptionError):
        permutation_test(human, a, b, level="document")


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=12),
       st.sampled_from([0.0, 0.5, 1.0, 2.5]))
def test_tau_counts_partition_all_pairs(pairs, eps):
    h = np.array([p[0] for p in pairs], dtype=float)
    m = np.array([p[1] for p in pairs], dtype=float)
    c = tau_counts(h, m, eps)
    n = len(pairs)
    assert c.pairs == n * (n - 1) // 2
    # brute force over pairs
    con = dis = th = tm = tb = 0
    for i in range(n):
        for j in range(i + 1, n):
            dh, dm = h[i] - h[j], m[i] - m[j]
            if dh == 0 and abs(dm) <= eps:
                tb += 1
            elif dh == 0:
                th += 1
            elif abs(dm) <= eps:
                tm += 1
            elif dh * dm > 0:
                con += 1
            else:
                dis += 1
    assert (c.concordant, c.discordant, c.ties_human, c.ties_metric, c.ties_both) == \
        (con, dis, th, tm, tb)


def test_test_results_render_as_tables():
    from mtscore.report.stats_tables import permutation_table, williams_table
    from mtscore.report.tables import render
    w = williams_table(williams_test(0.8, 0.6, 0.7, 20), "bleu", "meteor")
    assert w.rows[0][:2] == ("bleu", "meteor") and "one-sided" in w.notes[0]
    rng = np.random.default_rng(0)
    h = rng.normal(size=6)
    p = permutation_table(permutation_test(h, h + rng.normal(size=6), h, resamples=20, seed=0))
    assert "20 permutations, seed 0" in p.notes[0]
    assert render([w, p], "markdown")
