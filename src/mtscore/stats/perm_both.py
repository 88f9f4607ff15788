"""PERM-BOTH between two metrics as mt-metrics-eval runs it (``PermutationSigDiff``), vectorized:
the WMT24/WMT25 system-level test (between soft pairwise accuracies) and WMT23's tests between
Pearson correlations and system-level pairwise accuracies.

As Deutsch et al. (2021, §4) define PERM-BOTH: each metric's scores (every cell the statistic
uses, flattened) are z-normalized; a permutation swaps the two metrics' scores in each cell with
probability 1/2 and recomputes both statistics; the p-value is the share of permutations whose
difference is ≥ the observed one (count/draws, early stopping as :mod:`.early_stopping`). A chunk
of draws is computed at once: the statistic is evaluated on a stack of swapped score arrays (for
SPA one matrix product of the sign masks with every swapped matrix of the chunk).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from ..errors import InputError
from .defaults import DEFAULT_SEED
from .early_stopping import WMT_STOPPING, EarlyStopping
from .perm_both_spa_fast import SpaSwapNulls
from .permutation_runs import MetricComparison, run_permutations
from .resampling import check_resampling
from .spa import SPA_PERMUTATIONS, SPA_SEED, check_spa_input, pairwise_pvalues, sign_masks

#: a statistic of each score array in a stack (draws × the arrays' shape) -> one value per array
StackStatistic = Callable[[np.ndarray], np.ndarray]
#: a faster path to a chunk's null differences: (draws × shape swap booleans, running pairs) ->
#: draws × running pairs, equal to the rule's (the statistic of the swapped arrays)
SwapNulls = Callable[[np.ndarray, np.ndarray], np.ndarray]
#: builds a :data:`SwapNulls` from the z-normalized score arrays and the pairs
SwapNullsFactory = Callable[[Mapping[str, np.ndarray], Sequence[tuple[str, str]]], SwapNulls]


def zscore(x: np.ndarray) -> np.ndarray:
    """z-normalized over every cell (scipy.stats.zscore of the flattened vector, ddof 0)."""
    sd = x.std()
    return (x - x.mean()) / (sd if sd > 0 else 1.0)


def perm_both_tests(metrics: Mapping[str, np.ndarray], pairs: Sequence[tuple[str, str]],
                    statistic: StackStatistic, resamples: int = 1000, seed: int = DEFAULT_SEED,
                    stopping: EarlyStopping = WMT_STOPPING, test: str = "PERM-BOTH",
                    fast: SwapNullsFactory | None = None
                    ) -> dict[tuple[str, str], MetricComparison]:
    """For each (A, B) in ``pairs``: is ``statistic`` of B larger than of A? ``metrics``: score
    arrays of one shape (the cells the statistic uses, e.g. a systems × segments matrix of judged
    segments, or a vector of system scores); ``seed`` draws the swaps of every pair. ``fast``:
    a faster path to the null differences of the same swaps (tested equal to the rule)."""
    check_resampling(resamples, seed)
    names = sorted({m for p in pairs for m in p})
    for m in names:
        if m not in metrics:
            raise InputError(f"no scores for metric {m!r}")
    z = {m: zscore(np.asarray(metrics[m], dtype=np.float64)) for m in names}
    shape = z[names[0]].shape
    if any(v.shape != shape for v in z.values()):
        raise InputError("the metrics' score arrays differ in shape")
    observed_stat = dict(zip(names, statistic(np.stack([z[m] for m in names]))))
    observed = np.array([observed_stat[b] - observed_stat[a] for a, b in pairs])

    swap_nulls = fast(z, pairs) if fast is not None else None

    def null_chunk(rng: np.random.Generator, draws: int, active: np.ndarray) -> np.ndarray:
        swap = rng.integers(0, 2, size=(draws, *shape), dtype=np.int8).astype(bool)
        if swap_nulls is not None:
            return swap_nulls(swap, active)
        out = np.empty((draws, len(active)))
        for col, k in enumerate(active):
            a, b = pairs[k]
            values = statistic(np.concatenate([np.where(swap, z[b], z[a]),
                                               np.where(swap, z[a], z[b])]))
            out[:, col] = values[draws:] - values[:draws]
        return out

    pvalues, used, nulls = run_permutations(observed, null_chunk, resamples, seed, stopping,
                                            only_on_exceeding_draw=False)
    return {(a, b): MetricComparison(
        metric_a=a, metric_b=b, statistic=float(observed[k]), pvalue=float(pvalues[k]),
        statistic_a=float(observed_stat[a]), statistic_b=float(observed_stat[b]),
        resamples=resamples, resamples_used=int(used[k]), seed=seed, test=test, null=nulls[k])
        for k, (a, b) in enumerate(pairs)}


def spa_of_many(hybrids: np.ndarray, masks: np.ndarray, human_p: np.ndarray) -> np.ndarray:
    """SPA of each of a stack of systems × segments matrices (float32, as pce.py). The test
    "null difference ≥ observed difference" of systems i, j is rewritten as q_i ≥ q_j with
    q = masks·s − sum(s) (the same inequality, rearranged), which needs no pair differences."""
    stack = hybrids.astype(np.float32)
    count, systems, segments = stack.shape
    q = (masks @ stack.reshape(-1, segments).T).reshape(masks.shape[0], count, systems)
    q -= stack.sum(axis=2)
    error = np.zeros(count)
    for i in range(systems - 1):
        p = np.count_nonzero(q[:, :, i:i + 1] >= q[:, :, i + 1:], axis=0) / masks.shape[0]
        error += np.abs(p - human_p[i, i + 1:]).sum(axis=1)
    return 1.0 - error / (systems * (systems - 1) // 2)


def spa_permutation_tests(human: np.ndarray, metrics: Mapping[str, np.ndarray],
                          pairs: Sequence[tuple[str, str]], resamples: int = 1000,
                          seed: int = DEFAULT_SEED, stopping: EarlyStopping = WMT_STOPPING,
                          permutations: int = SPA_PERMUTATIONS, spa_seed: int = SPA_SEED,
                          fast: bool = True) -> dict[tuple[str, str], MetricComparison]:
    """For each (A, B) in ``pairs``: is B's SPA larger than A's? (PERM-BOTH over the judged
    cells; ``spa_seed`` gives the SPA sign masks, the same for every SPA.) ``fast``: null
    differences by :class:`.perm_both_spa_fast.SpaSwapNulls` (the same draws; tested equal to
    the rule, :func:`spa_of_many` of every swapped matrix)."""
    cells: dict[str, np.ndarray] = {}
    y = np.zeros((0, 0))
    for m in sorted({m for p in pairs for m in p}):
        if m not in metrics:
            raise InputError(f"no scores for metric {m!r}")
        cells[m], y, _ = check_spa_input(metrics[m], human, m)
    masks = sign_masks(y.shape[1], permutations, spa_seed)
    human_p = pairwise_pvalues(y, masks)
    def swap_nulls(z: Mapping[str, np.ndarray], test_pairs: Sequence[tuple[str, str]]
                   ) -> SwapNulls:
        return SpaSwapNulls(z, test_pairs, masks, human_p)

    return perm_both_tests(cells, pairs, lambda stack: spa_of_many(stack, masks, human_p),
                           resamples, seed, stopping, "PERM-BOTH of SPA",
                           swap_nulls if fast else None)


__all__ = ["StackStatistic", "SwapNulls", "SwapNullsFactory", "perm_both_tests", "spa_of_many",
           "spa_permutation_tests", "zscore"]
