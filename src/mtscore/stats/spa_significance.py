"""PERM-BOTH between two metrics' soft pairwise accuracies (the WMT24/WMT25 system-level test:
mt-metrics-eval's ``PermutationSigDiff`` with ``PairwiseConfidenceError`` as the correlation).

As Deutsch et al. (2021, §4) define PERM-BOTH: each metric's scores (the judged cells of the
systems × segments matrix, flattened) are z-normalized; a permutation swaps the two metrics'
scores in each cell with probability 1/2 and recomputes both SPAs; the p-value is the share of
permutations whose SPA difference is ≥ the observed one (count/draws, early stopping as
:mod:`.early_stopping`). Every SPA uses the same sign masks (:func:`.spa.sign_masks`), as
mt-metrics-eval's fixed seed makes. A chunk of draws is one matrix product: the masks times every
swapped matrix of the chunk.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..errors import InputError
from .defaults import DEFAULT_SEED
from .early_stopping import EarlyStopping
from .permutation_runs import MetricComparison, run_permutations
from .resampling import check_resampling
from .spa import SPA_PERMUTATIONS, SPA_SEED, check_spa_input, pairwise_pvalues, sign_masks


def _zscore(x: np.ndarray) -> np.ndarray:
    """z-normalized over every cell (scipy.stats.zscore of the flattened vector, ddof 0)."""
    sd = x.std()
    return (x - x.mean()) / (sd if sd > 0 else 1.0)


def _spa_of_many(hybrids: np.ndarray, masks: np.ndarray, human_p: np.ndarray) -> np.ndarray:
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
                          seed: int = DEFAULT_SEED, stopping: EarlyStopping = EarlyStopping(),
                          permutations: int = SPA_PERMUTATIONS, spa_seed: int = SPA_SEED
                          ) -> dict[tuple[str, str], MetricComparison]:
    """For each (A, B) in ``pairs``: is B's SPA larger than A's? (PERM-BOTH, ``seed`` drawing the
    swaps of every pair from one generator; ``spa_seed`` the SPA sign masks)."""
    check_resampling(resamples, seed)
    names = sorted({m for p in pairs for m in p})
    z: dict[str, np.ndarray] = {}
    y = np.zeros(0)
    for m in names:
        if m not in metrics:
            raise InputError(f"no scores for metric {m!r}")
        x, y, _ = check_spa_input(metrics[m], human, m)
        z[m] = _zscore(x)
    masks = sign_masks(y.shape[1], permutations, spa_seed)
    human_p = pairwise_pvalues(y, masks)
    spa_z = dict(zip(names, _spa_of_many(np.stack([z[m] for m in names]), masks, human_p)))
    observed = np.array([spa_z[b] - spa_z[a] for a, b in pairs])

    def null_chunk(rng: np.random.Generator, draws: int, active: np.ndarray) -> np.ndarray:
        swap = rng.integers(0, 2, size=(draws,) + y.shape, dtype=np.int8).astype(bool)
        out = np.empty((draws, len(active)))
        for col, k in enumerate(active):
            a, b = pairs[k]
            stack = np.concatenate([np.where(swap, z[b], z[a]), np.where(swap, z[a], z[b])])
            spa = _spa_of_many(stack, masks, human_p)
            out[:, col] = spa[draws:] - spa[:draws]
        return out

    pvalues, used, nulls = run_permutations(observed, null_chunk, resamples, seed, stopping,
                                            only_on_exceeding_draw=False)
    return {(a, b): MetricComparison(
        metric_a=a, metric_b=b, statistic=float(observed[k]), pvalue=float(pvalues[k]),
        statistic_a=float(spa_z[a]), statistic_b=float(spa_z[b]), resamples=resamples,
        resamples_used=int(used[k]), seed=seed, test="scores (PERM-BOTH)", null=nulls[k])
        for k, (a, b) in enumerate(pairs)}


__all__ = ["spa_permutation_tests"]
