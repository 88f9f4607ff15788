"""PERM-BOTH of SPA: the fast path (stats/perm_both_spa_fast.py) equals the rule (``spa_of_many``
of every swapped matrix, as pce.py) draw for draw: the same swaps, the same p-values and draws
used; null differences equal up to float32 rounding where two masked sums tie (then they differ
by one count of one system pair's p-value)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mtscore.stats.early_stopping import NEVER, WMT_STOPPING, EarlyStopping
from mtscore.stats.perm_both import spa_permutation_tests
from mtscore.stats.perm_both_spa_fast import count_true
from mtscore.stats.spa import SPA_PERMUTATIONS
from mtscore.study.meta_eval import spa_human

from .metaeval_oracle import wmt22


def _random(seed: int, systems: int, segments: int) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    human = rng.normal(size=(systems, segments))
    metrics = {f"m{i}": human + rng.normal(size=human.shape) * s
               for i, s in enumerate((0.7, 1.0, 1.3, 3.0))}
    metrics["coarse"] = np.round(human * 2 + rng.normal(size=human.shape))  # many ties
    return human, metrics


def _assert_equal(human: np.ndarray, metrics: dict[str, np.ndarray], draws: int, seed: int,
                  stopping: EarlyStopping) -> None:
    pairs = list(itertools.combinations(sorted(metrics), 2))
    rule = spa_permutation_tests(human, metrics, pairs, draws, seed, stopping, fast=False)
    fast = spa_permutation_tests(human, metrics, pairs, draws, seed, stopping, fast=True)
    systems = human.shape[0]
    step = 1.0 / (SPA_PERMUTATIONS * (systems * (systems - 1) // 2))  # one count of one pair
    for key in pairs:
        r, f = rule[key], fast[key]
        assert (f.pvalue, f.resamples_used) == (r.pvalue, r.resamples_used), key
        assert (f.statistic, f.statistic_a, f.statistic_b) == \
            (r.statistic, r.statistic_a, r.statistic_b)
        differ = np.abs(f.null - r.null)
        assert differ.max() <= 2 * step + 1e-12, (key, differ.max() / step)
        assert np.count_nonzero(differ > 1e-12) <= max(2, len(differ) // 50), key


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("stopping", [NEVER, WMT_STOPPING], ids=["all-draws", "early-stopping"])
def test_fast_equals_rule_random(seed: int, stopping: EarlyStopping) -> None:
    human, metrics = _random(seed, systems=6 + seed, segments=40 + 30 * seed)
    _assert_equal(human, metrics, 250, seed, stopping)


def test_fast_equals_rule_with_unjudged_segments() -> None:
    human, metrics = _random(7, systems=5, segments=80)
    human[:, [3, 10, 11]] = np.nan                  # left out for every metric
    _assert_equal(human, metrics, 200, 4, NEVER)


def test_fast_equals_rule_on_wmt22() -> None:
    """de-en: BLEU, chrF, METEOR against DA z on the segments judged for every system."""
    d = wmt22("de-en")
    _assert_equal(spa_human(d.human, True), dict(d.metrics), 200, 12345, WMT_STOPPING)


@pytest.mark.parametrize("length", [1, 7, 1000, 70_000])
def test_count_true_equals_count_nonzero(length: int) -> None:
    flags = np.random.default_rng(length).random((3, 2, length)) < 0.6
    flags[0, 0] = True  # every value True: the count equals the length
    assert np.array_equal(count_true(flags), np.count_nonzero(flags, axis=-1))
