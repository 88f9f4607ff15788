"""``SignificanceResult.to_pandas()``: one row per system in rank order with its interval and
cluster (and the test against a baseline); ``pairs_to_pandas()``: every paired test's p-values,
whether it is significant and whether the cluster rule left the pair in one cluster. Checked
against the result's own comparisons, ``p_matrix`` and ``clusters``; pandas stays optional."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from mtscore.errors import MissingExtraError
from mtscore.metrics.base import SegmentStats
from mtscore.metrics.mean import SegmentMean
from mtscore.stats import SignificanceResult, approximate_randomization, paired_bootstrap

pd = pytest.importorskip("pandas")

#: five systems: two pairs close together (one cluster each at any sensible level), one far apart
MEANS = {"a": 0.70, "b": 0.69, "c": 0.60, "d": 0.595, "e": 0.40}


def _stats() -> dict[str, SegmentStats]:
    rng = np.random.default_rng(7)
    base = rng.random(400)
    return {name: SegmentMean.stats(np.clip(base * 0.3 + mean - 0.15 + rng.normal(0, 0.05, 400),
                                            0, 1))
            for name, mean in MEANS.items()}


@pytest.fixture(scope="module")
def result() -> SignificanceResult:
    return paired_bootstrap(SegmentMean("M"), _stats(), resamples=2000)


def test_one_row_per_system_in_rank_order_with_its_cluster(result: SignificanceResult) -> None:
    frame = result.to_pandas(alpha=0.05)
    assert list(frame.columns) == ["rank", "system", "metric", "score", "mean", "low", "high",
                                   "cluster"]
    assert list(frame["system"]) == result.ranking()
    assert list(frame["rank"]) == list(range(1, len(MEANS) + 1))
    clusters = result.clusters(alpha=0.05)
    assert len(clusters) >= 2  # the data separate some systems
    expected = {name: k + 1 for k, group in enumerate(clusters) for name in group}
    assert dict(zip(frame["system"], frame["cluster"])) == expected
    for row in frame.itertuples():
        k = result.systems.index(row.system)
        ci = result.intervals[k]
        assert (row.score, row.low, row.high) == (result.scores[k], *ci.confidence_interval())


def test_every_pair_with_its_p_values(result: SignificanceResult) -> None:
    pairs = result.pairs_to_pandas(alpha=0.05)
    assert len(pairs) == len(MEANS) * (len(MEANS) - 1) // 2
    index = {name: k for k, name in enumerate(result.systems)}
    raw, holm = result.p_matrix(corrected=False), result.p_matrix()
    cluster = dict(zip(result.to_pandas()["system"], result.to_pandas()["cluster"]))
    for row in pairs.itertuples():
        i, j = index[row.system], index[row.other]
        assert (row.p_value, row.p_holm) == (raw[i, j], holm[i, j])
        assert row.significant == (holm[i, j] < 0.05)
        assert row.same_cluster == (cluster[row.system] == cluster[row.other])
        assert row.difference == pytest.approx(row.score - row.other_score)
    # across clusters every pair is significant (the cluster rule)
    assert pairs[~pairs["same_cluster"]]["significant"].all()


def test_alpha_changes_the_clusters(result: SignificanceResult) -> None:
    strict = result.to_pandas(alpha=1e-9)
    assert set(strict["cluster"]) == {1}  # nothing reaches that level with 2,000 resamples
    assert not result.pairs_to_pandas(alpha=1e-9)["significant"].any()


def test_against_a_baseline_each_row_carries_its_test() -> None:
    result = approximate_randomization(SegmentMean("M"), _stats(), baseline="c", trials=2000)
    frame = result.to_pandas()
    assert list(frame.columns)[-5:] == ["cluster", "vs", "difference", "p_value", "p_holm"]
    assert frame["cluster"].isna().all()  # clusters need every pair tested
    tests = {c.system: c for c in result.comparisons}
    for row in frame.itertuples():
        if row.system == "c":
            assert pd.isna(row.p_value) and pd.isna(row.vs)
        else:
            test = tests[row.system]
            assert (row.vs, row.difference, row.p_value, row.p_holm) == \
                ("c", test.difference, test.pvalue, test.p_holm)
    assert result.pairs_to_pandas()["same_cluster"].isna().all()


def test_missing_pandas_is_one_error_naming_the_extra(result: SignificanceResult,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    for call in (result.to_pandas, result.pairs_to_pandas):
        with pytest.raises(MissingExtraError, match=r"pip install 'mtscore\[pandas\]'"):
            call()
