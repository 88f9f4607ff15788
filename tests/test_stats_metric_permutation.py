"""Tests between metrics: the pairwise permutation test (perm_test='pairs'), PERM-BOTH (SPA,
Pearson; and the older permutation_test) against mt-metrics-eval's p-values within Monte-Carlo
error (10,000 draws each), early stopping, rank clusters (AssignRanks, exactly)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from mtscore.errors import InputError
from mtscore.stats.correlation import pairwise_accuracy, tau_counts
from mtscore.stats.early_stopping import NEVER, EarlyStopping, stopping_draw
from mtscore.stats.metric_difference import permutation_test
from mtscore.stats.pairwise_permutation import (
    _signs,
    pair_outcomes,
    pairwise_permutation_test,
    pairwise_permutation_tests,
)
from mtscore.stats.perm_both import perm_both_tests, spa_permutation_tests
from mtscore.stats.rank_clusters import assign_ranks

from .metaeval_oracle import (
    check_against_oracle,
    monte_carlo_close,
    oracle_columns,
    oracle_pairs,
    oracle_part,
    wmt22,
)


def _matrices(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    human = rng.integers(0, 5, size=(5, 12)).astype(float)
    human[rng.random(human.shape) < 0.2] = np.nan
    a = human + rng.normal(size=human.shape)
    b = np.round(human + rng.normal(size=human.shape) * 2)
    return human, np.nan_to_num(a), np.nan_to_num(b)


def test_outcomes_sum_to_acc23() -> None:
    human, a, _ = _matrices()
    res = pairwise_accuracy(a, human, "item")
    weighted, _ = pair_outcomes(a, human, res.epsilon)
    assert weighted.sum() == pytest.approx(res.statistic, abs=1e-12)


def test_null_difference_by_swapping_outcomes() -> None:
    """One draw by hand: swap the two metrics' outcomes on the units whose sign is −1, then each
    item's acc23 from its own counts, averaged over items."""
    human, a, b = _matrices(1)
    ea = pairwise_accuracy(a, human, "item").epsilon
    eb = pairwise_accuracy(b, human, "item").epsilon
    wa, weight = pair_outcomes(a, human, ea)
    wb, _ = pair_outcomes(b, human, eb)
    ra, rb = np.round(wa / weight).astype(bool), np.round(wb / weight).astype(bool)
    signs = _signs(np.random.default_rng(4), 1, len(ra))[0]
    swapped_a = np.where(signs > 0, ra, rb)  # s = +1 keeps each metric's own outcome
    swapped_b = np.where(signs > 0, rb, ra)
    # units are (system pair, item) cells in row-major order of the system pairs × items grid
    i, j = np.triu_indices(human.shape[0], 1)
    item_of = np.nonzero(~np.isnan(human[i] - human[j]))[1]
    assert len(item_of) == len(ra)
    items, acc_a, acc_b = 0, 0.0, 0.0
    for col in range(human.shape[1]):
        judged = ~np.isnan(human[:, col])
        n = int(judged.sum())
        if n < 2:
            continue
        units = item_of == col
        # the item's own acc23 (tau_counts) equals the mean of its outcomes
        c = tau_counts(human[judged, col], a[judged, col], ea)
        assert (c.concordant + c.ties_both) / (n * (n - 1) // 2) == pytest.approx(ra[units].mean())
        acc_a += swapped_a[units].mean()
        acc_b += swapped_b[units].mean()
        items += 1
    by_hand = acc_b / items - acc_a / items
    assert signs @ (wb - wa) == pytest.approx(by_hand, abs=1e-12)


def test_stopping_rules() -> None:
    stop = EarlyStopping(block_size=10)
    low = np.zeros(30, dtype=bool)
    assert stopping_draw(low, 0, stop, only_on_exceeding_draw=False) == 10
    # the pairwise test checks only at a boundary whose own draw exceeded (mt-metrics-eval)
    assert stopping_draw(low, 0, stop, only_on_exceeding_draw=True) is None
    high = np.ones(30, dtype=bool)
    assert stopping_draw(high, 0, stop, only_on_exceeding_draw=True) == 10
    assert stopping_draw(high, 10, stop, only_on_exceeding_draw=False) == 20
    mid = np.resize([True, False, False, False], 30)
    assert stopping_draw(mid, 0, stop, only_on_exceeding_draw=False) is None
    with pytest.raises(ValueError):
        EarlyStopping(block_size=0)


def test_early_stopping_and_seed() -> None:
    human, a, b = _matrices(2)
    r1 = pairwise_permutation_test(human, a, b, resamples=500, seed=3,
                                   stopping=EarlyStopping(block_size=50))
    r2 = pairwise_permutation_test(human, a, b, resamples=500, seed=3,
                                   stopping=EarlyStopping(block_size=50))
    assert (r1.pvalue, r1.resamples_used) == (r2.pvalue, r2.resamples_used)
    full = pairwise_permutation_test(human, a, b, resamples=500, seed=3, stopping=NEVER)
    assert full.resamples_used == 500 and len(full.null) == 500
    assert full.pvalue == np.mean(full.null >= full.statistic)


def test_bad_input() -> None:
    human, a, b = _matrices(3)
    with pytest.raises(InputError, match="at least two systems"):
        pairwise_permutation_test(human[:1], a[:1], b[:1])
    with pytest.raises(InputError, match="all human scores are tied"):
        pairwise_permutation_test(np.ones_like(a), a, b)
    with pytest.raises(InputError, match="no scores for metric 'C'"):
        pairwise_permutation_tests(human, {"A": a, "B": b}, [("A", "C")])
    bad = a.copy()
    bad[~np.isnan(human)] = np.nan
    with pytest.raises(InputError, match="NaN"):
        pairwise_permutation_test(human, bad, b)


@pytest.mark.parametrize("matrix", [np.zeros((3, 3)), np.triu(np.full((4, 4), 0.5), 1)])
def test_rank_cluster_edges(matrix: np.ndarray) -> None:
    n = matrix.shape[0]
    assert assign_ranks(matrix) == (list(range(1, n + 1)) if not matrix.any() else [1] * n)


def test_rank_clusters_equal_assign_ranks() -> None:
    for case in oracle_part("permutation")["cluster_cases"]:
        assert assign_ranks(np.array(case["pvalues"]), case["alpha"]) == case["ranks"]


def _oracle_data() -> tuple[dict, np.ndarray, dict[str, np.ndarray]]:
    perm = oracle_part("permutation")
    d = wmt22(perm["pair"])
    cols = oracle_columns(d.human, len(perm["segments"]))
    assert [int(c) + 1 for c in cols] == perm["segments"]
    return perm, d.human[:, cols], {k: v[:, cols] for k, v in d.metrics.items()}


@pytest.mark.parity
@pytest.mark.slow
def test_pairwise_test_equals_mt_metrics_eval() -> None:
    perm, human, metrics = _oracle_data()
    got = pairwise_permutation_tests(human, metrics, oracle_pairs(sorted(metrics)), perm["draws"],
                                     seed=11, stopping=NEVER)
    acc = {m: pairwise_accuracy(x, human, "item").statistic for m, x in metrics.items()}
    check_against_oracle(perm, "pairs_acc23", got, acc)


@pytest.mark.parity
@pytest.mark.slow
def test_perm_both_spa_equals_mt_metrics_eval() -> None:
    perm, human, metrics = _oracle_data()
    got = spa_permutation_tests(human, metrics, oracle_pairs(sorted(metrics)), perm["draws"], seed=12,
                                stopping=NEVER)
    spa = {m: got[p].statistic_a if p[0] == m else got[p].statistic_b
           for p in got for m in p}
    check_against_oracle(perm, "perm_both_spa", got, spa)


@pytest.mark.parity
def test_perm_both_pearson_equals_mt_metrics_eval() -> None:
    perm, human, metrics = _oracle_data()
    h = human.ravel()
    flat = {k: v.ravel() for k, v in metrics.items()}
    got = perm_both_tests(flat, oracle_pairs(sorted(flat)),
                          lambda s: np.array([scipy.stats.pearsonr(r, h)[0] for r in s]),
                          perm["draws"], seed=13, stopping=NEVER)
    r = {m: scipy.stats.pearsonr(v, h)[0] for m, v in flat.items()}
    check_against_oracle(perm, "perm_both_pearson", got, r)
    # the older PERM-BOTH (p = (count + 1)/(k + 1), its own swaps) agrees within the same error
    for key, want in perm["perm_both_pearson"]["tests"].items():
        b, a = key.split(">")
        old = permutation_test(human, metrics[a], metrics[b], "pearson", "none",
                               resamples=perm["draws"], seed=14)
        assert monte_carlo_close(old.pvalue, want["pvalue"], perm["draws"]), (key, old.pvalue)


_DRAWS_SCRIPT = """
import sys
import numpy as np
from mtscore.stats.pairwise_permutation import pairwise_permutation_tests
rng = np.random.default_rng(1)
human = rng.normal(size=(8, 400))
human[rng.random(human.shape) < 0.1] = np.nan  # items with fewer judged systems: several weights
metrics = {k: human * 0.3 + rng.normal(size=human.shape) for k in "ABCD"}
res = pairwise_permutation_tests(human, metrics, [("A", "B"), ("A", "C"), ("B", "D")], 300, 5)
sys.stdout.write(np.concatenate([r.null for r in res.values()]).tobytes().hex())
"""


def test_pairs_null_draws_do_not_depend_on_blas_threads() -> None:
    """The null draws are the same to the last bit with one BLAS thread or two (a worker process
    may start with another thread count than its parent; BLAS's summation order follows it)."""
    import os
    import subprocess
    import sys

    def draws(threads: str) -> str:
        env = {**os.environ, "OPENBLAS_NUM_THREADS": threads, "OMP_NUM_THREADS": threads}
        return subprocess.run([sys.executable, "-c", _DRAWS_SCRIPT], env=env, check=True,
                              capture_output=True, text=True).stdout

    one = draws("1")
    assert one and one == draws("2")
