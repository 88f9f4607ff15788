"""Soft pairwise accuracy: mt-metrics-eval's fixture and WMT22 values (committed oracle), brute
force for the p-values, the fast stacked path, bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mtscore.errors import InputError
from mtscore.stats.perm_both import spa_of_many
from mtscore.stats.spa import (
    pairwise_pvalues,
    sign_masks,
    soft_pairwise_accuracies,
    soft_pairwise_accuracy,
    spa_from_pvalues,
)
from mtscore.study.meta_eval import spa_human

from .metaeval_oracle import oracle, oracle_part, wmt22


def test_fixture_of_mt_metrics_eval() -> None:
    # stats.Correlation(2, [1,2,3,2,3,4], [2,2,4,1,3,5]).PairwiseConfidenceError() -> 0.872
    res = soft_pairwise_accuracy(np.array([[2, 2, 4], [1, 3, 5.]]), np.array([[1, 2, 3], [2, 3, 4.]]))
    assert res.statistic == pytest.approx(0.872, abs=1e-12)
    assert (res.systems, res.segments, res.segments_dropped, res.seed) == (2, 3, 0, 4)


def test_fixture_equals_committed_oracle() -> None:
    res = soft_pairwise_accuracy(np.array([[2, 2, 4], [1, 3, 5.]]), np.array([[1, 2, 3], [2, 3, 4.]]))
    assert res.statistic == pytest.approx(oracle()["spa_fixture"], abs=1e-12)


def test_pvalues_brute_force() -> None:
    """Each p-value by its definition: one mask at a time, sums of ±1-weighted segment scores
    (small integers: every sum exact in float32, so ties — null = observed — count exactly)."""
    rng = np.random.default_rng(3)
    scores = rng.integers(-5, 6, size=(5, 40)).astype(np.float64)
    masks = sign_masks(40, 200, seed=11)
    got = pairwise_pvalues(scores, masks)
    for i, j in itertools.combinations(range(5), 2):
        hits = sum(int(np.dot(m, scores[i]) - np.dot(m, scores[j]) >=
                       scores[i].sum() - scores[j].sum()) for m in masks)
        assert got[i, j] == hits / 200
    assert np.isnan(got[np.tril_indices(5)]).all()
    assert set(np.unique(masks)) == {-1.0, 1.0}


def test_stacked_spa_equals_rule() -> None:
    rng = np.random.default_rng(5)
    human = rng.normal(size=(6, 50))
    metrics = [human + rng.normal(size=human.shape) * s for s in (0.5, 1, 2)]
    masks = sign_masks(50)
    hp = pairwise_pvalues(human, masks)
    fast = spa_of_many(np.stack(metrics), masks, hp)
    rule = [spa_from_pvalues(hp, pairwise_pvalues(m, masks)) for m in metrics]
    assert fast == pytest.approx(rule, abs=1e-12)


def test_unjudged_segments_are_left_out_and_counted() -> None:
    rng = np.random.default_rng(8)
    human = rng.normal(size=(4, 30))
    metric = human + rng.normal(size=human.shape)
    h = human.copy()
    h[:, [3, 7, 8]] = np.nan
    res = soft_pairwise_accuracy(metric, h)
    assert (res.segments, res.segments_dropped) == (27, 3)
    keep = np.setdiff1d(np.arange(30), [3, 7, 8])
    assert res.statistic == soft_pairwise_accuracy(metric[:, keep], human[:, keep]).statistic


def test_bad_input() -> None:
    rng = np.random.default_rng(9)
    human = rng.normal(size=(3, 10))
    metric = human + 1
    h = human.copy()
    h[0, 2] = np.nan
    with pytest.raises(InputError, match="systems judged on different items: segment 3"):
        soft_pairwise_accuracy(metric, h)
    m = metric.copy()
    m[1, 4] = np.nan
    with pytest.raises(InputError, match="no score for system #2"):
        soft_pairwise_accuracy(m, human)
    with pytest.raises(InputError, match="at least two systems"):
        soft_pairwise_accuracy(metric[:1], human[:1])
    with pytest.raises(InputError, match="all human scores are tied"):
        soft_pairwise_accuracy(metric, np.ones_like(human))
    with pytest.raises(InputError, match="one shape"):
        soft_pairwise_accuracy(metric[:, :5], human)


@pytest.mark.parity
@pytest.mark.slow
@pytest.mark.parametrize("pair", ["cs-en", "de-en", "ja-en", "zh-en"])
def test_wmt22_equals_mt_metrics_eval(pair: str) -> None:
    """BLEU, chrF, METEOR against DA z, seed 4: mt-metrics-eval's values to 1e-9."""
    want = oracle_part("spa_wmt22")[pair]
    d = wmt22(pair)
    assert list(d.systems) == want["systems"]
    res = soft_pairwise_accuracies(d.metrics, spa_human(d.human, True))
    for label, value in want["spa"].items():
        assert res[label].statistic == pytest.approx(value, abs=1e-9)
        assert res[label].segments == want["segments_used"]
