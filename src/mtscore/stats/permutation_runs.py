"""The loop shared by the metric-versus-metric permutation tests: draws made in chunks for every
metric pair still running, from one seeded generator, with mt-metrics-eval's early stopping
(:mod:`.early_stopping`). Each test supplies the null differences of a chunk of draws for the
pairs still running (a matrix product, no Python loop per draw)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .display import ResultDisplay
from .early_stopping import EarlyStopping, stopping_draw

#: draws computed at once (memory: a chunk holds draws × units signs)
CHUNK = 100

#: (generator, draws, indexes of the running pairs) -> draws × running pairs null differences
NullChunk = Callable[[np.random.Generator, int, np.ndarray], np.ndarray]


@dataclass(frozen=True, repr=False, eq=False)
class MetricComparison(ResultDisplay):
    """Is metric B's correlation with the humans larger than metric A's? (one-sided test)"""

    metric_a: str
    metric_b: str
    #: corr(B) − corr(A) on the data
    statistic: float
    #: share of permutations whose difference is ≥ ``statistic`` (mt-metrics-eval: count/draws)
    pvalue: float
    statistic_a: float
    statistic_b: float
    resamples: int
    #: draws made before early stopping
    resamples_used: int
    seed: int
    test: str
    #: corr(B)* − corr(A)* of every draw made (for averages over tasks)
    null: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out.pop("null")
        return out


def run_permutations(observed: np.ndarray, null_chunk: NullChunk, resamples: int, seed: int,
                     stopping: EarlyStopping, only_on_exceeding_draw: bool
                     ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """p-values, draws used and null differences of every pair: draw i of pair k exceeds when its
    null difference is ≥ ``observed[k]``; a pair stops as :func:`.early_stopping.stopping_draw`
    says; the others go on with the same generator."""
    pairs = len(observed)
    rng = np.random.default_rng(seed)
    nulls: list[list[np.ndarray]] = [[] for _ in range(pairs)]
    exceed: list[np.ndarray] = [np.zeros(0, dtype=bool) for _ in range(pairs)]
    used = np.full(pairs, resamples)
    running = np.ones(pairs, dtype=bool)
    done = 0
    while done < resamples and running.any():
        n = min(CHUNK, resamples - done)
        active = np.flatnonzero(running)
        block = null_chunk(rng, n, active)
        for col, k in enumerate(active):
            start = len(exceed[k])
            exceed[k] = np.concatenate([exceed[k], block[:, col] >= observed[k]])
            nulls[k].append(block[:, col])
            stop = stopping_draw(exceed[k], start, stopping, only_on_exceeding_draw)
            if stop is not None:
                used[k] = stop
                running[k] = False
        done += n
    pvalues = np.array([exceed[k][:used[k]].sum() / used[k] for k in range(pairs)])
    null_list = [np.concatenate(nulls[k])[:used[k]] for k in range(pairs)]
    return pvalues, used, null_list


__all__ = ["CHUNK", "MetricComparison", "NullChunk", "run_permutations"]
