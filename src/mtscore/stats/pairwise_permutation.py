"""The pairwise permutation test between two metrics' tie-calibrated pairwise accuracies
(mt-metrics-eval's ``PairwisePermutationSigDiff``, ``perm_test='pairs'``; the WMT23–WMT25
segment-level test).

Each metric's tie threshold ε is calibrated once on the data (Deutsch et al., 2023, §5); then each
(item, system pair) — a *pair unit* — has an outcome per metric: right (the metric orders the two
systems as the humans do, or both tie) or wrong. A permutation swaps the two metrics' outcomes on
each pair unit with probability 1/2 (mt-metrics-eval draws a symmetric 0/1 matrix per item), and
recomputes both accuracies (mean over items of the share of right pairs). Swapping outcomes rather
than scores spares a re-calibration of ε per draw.

Accuracy is linear in the outcomes, so the null difference of a draw is Σ_u s_u·w_u·(c_B,u − c_A,u)
with s_u = ±1 the swap signs, c the 0/1 outcomes and w_u = 1/(pairs of the unit's item)/(items):
one matrix product gives a chunk of draws for every metric pair. The product sums integers (one
column per distinct weight), so the draws do not depend on BLAS's summation order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..errors import InputError
from .correlation import _matrices, _pair_arrays, pairwise_accuracy
from .defaults import DEFAULT_SEED
from .early_stopping import WMT_STOPPING, EarlyStopping
from .permutation_runs import MetricComparison, run_permutations
from .resampling import check_resampling


def pair_outcomes(metric: np.ndarray, human: np.ndarray, epsilon: float
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Per pair unit (item, system pair; both judged): the weighted outcome w_u·c_u (its sum is
    the accuracy acc23 at threshold ε, grouped by item) and the unit weights w_u."""
    x, y = _matrices(metric, human)
    (diff, htie, con, weight), _ = _pair_arrays(x, y, "item")
    right = np.where(diff <= epsilon, htie, con)
    return weight * right, weight


def _signs(rng: np.random.Generator, draws: int, units: int) -> np.ndarray:
    """draws × units swap signs ±1 (fair coin flips, eight per random byte)."""
    raw = rng.integers(0, 256, size=(draws, (units + 7) // 8), dtype=np.uint8)
    signs = np.unpackbits(raw, axis=1, count=units).astype(np.float64)
    signs *= 2.0                                  # in place: one float64 matrix, not three
    signs -= 1.0
    return signs


def _weight_columns(weight: np.ndarray, outcome_diffs: Sequence[np.ndarray]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The distinct unit weights, and per metric pair one column per weight holding the pair's
    outcome differences (−1, 0, 1) on the units of that weight (0 elsewhere). A draw's null
    difference is then Σ_k w_k·(signs @ column_k): sums of integers, exact whatever order BLAS
    adds them in (its thread count changes that order), so every process and machine gets the
    same draws to the last bit."""
    weights, which = np.unique(weight, return_inverse=True)
    columns = np.zeros((len(weight), len(outcome_diffs) * len(weights)))
    for p, d in enumerate(outcome_diffs):
        columns[np.arange(len(weight)), p * len(weights) + which] = d
    return weights, columns


def pairwise_permutation_tests(human: np.ndarray, metrics: Mapping[str, np.ndarray],
                               pairs: Sequence[tuple[str, str]], resamples: int = 1000,
                               seed: int = DEFAULT_SEED,
                               stopping: EarlyStopping = WMT_STOPPING,
                               epsilons: Mapping[str, float] | None = None
                               ) -> dict[tuple[str, str], MetricComparison]:
    """For each (A, B) in ``pairs``: is B's tie-calibrated acc23 (grouped by item) larger than
    A's? ``metrics``: systems × segments matrices, ``human`` NaN where unjudged. ε per metric
    from ``epsilons`` or calibrated once. One generator (``seed``) draws the swaps of all pairs."""
    check_resampling(resamples, seed)
    y = np.asarray(human, dtype=np.float64)
    if y.ndim != 2 or y.shape[0] < 2:
        raise InputError(f"the pairwise permutation test needs a systems × segments matrix with at "
                         f"least two systems, got shape {y.shape}")
    if np.all(y[~np.isnan(y)] == y[~np.isnan(y)][0]):
        raise InputError("all human scores are tied: no pair of systems is ordered")
    names = sorted({m for p in pairs for m in p})
    for m in names:
        if m not in metrics:
            raise InputError(f"no scores for metric {m!r}")
    right, stats = {}, {}
    for m in names:
        eps = epsilons[m] if epsilons is not None and m in epsilons else \
            pairwise_accuracy(metrics[m], y, "item").epsilon
        assert eps is not None
        weighted, weight = pair_outcomes(metrics[m], y, eps)
        stats[m] = float(weighted.sum())
        right[m] = (weighted > 0).astype(np.float64)  # every w_u > 0: the 0/1 outcome c_u
    weights, columns = _weight_columns(weight, [right[b] - right[a] for a, b in pairs])
    classes = len(weights)
    observed = (columns.sum(axis=0).reshape(len(pairs), classes) * weights).sum(axis=1)

    def null_chunk(rng: np.random.Generator, draws: int, active: np.ndarray) -> np.ndarray:
        cols = (active[:, None] * classes + np.arange(classes)).ravel()
        exact = _signs(rng, draws, columns.shape[0]) @ columns[:, cols]  # integers: any order
        return (exact.reshape(draws, -1, classes) * weights).sum(axis=2)

    pvalues, used, nulls = run_permutations(observed, null_chunk, resamples, seed, stopping,
                                            only_on_exceeding_draw=True)
    return {(a, b): MetricComparison(
        metric_a=a, metric_b=b, statistic=float(observed[k]), pvalue=float(pvalues[k]),
        statistic_a=stats[a], statistic_b=stats[b], resamples=resamples,
        resamples_used=int(used[k]), seed=seed, test="pairs", null=nulls[k])
        for k, (a, b) in enumerate(pairs)}


def pairwise_permutation_test(human: np.ndarray, metric_a: np.ndarray, metric_b: np.ndarray,
                              resamples: int = 1000, seed: int = DEFAULT_SEED,
                              stopping: EarlyStopping = WMT_STOPPING,
                              epsilon_a: float | None = None, epsilon_b: float | None = None
                              ) -> MetricComparison:
    """Is metric B's tie-calibrated acc23 larger than A's? (``PairwisePermutationSigDiff``)"""
    eps = {k: v for k, v in (("A", epsilon_a), ("B", epsilon_b)) if v is not None}
    return pairwise_permutation_tests(human, {"A": metric_a, "B": metric_b}, [("A", "B")],
                                      resamples, seed, stopping, eps)[("A", "B")]


__all__ = ["pair_outcomes", "pairwise_permutation_test", "pairwise_permutation_tests"]
