"""Metric rank clusters from a matrix of pairwise p-values, as WMT ranks metrics
(mt-metrics-eval's ``AssignRanks``; Freitag et al., 2023, Findings of the WMT23 Metrics Shared
Task, §4: "significance clusters").

The metrics are sorted by decreasing correlation; ``pvalues[i, j]`` (i < j) is the p-value of
"metric i correlates better than metric j". Walking down the list, a metric opens a new cluster
(rank + 1) when some metric of the current cluster, from the cluster's first member on, is
significantly better than it (p ≤ α); otherwise it joins the current cluster.
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError, OptionError


def assign_ranks(pvalues: np.ndarray, alpha: float = 0.05) -> list[int]:
    """Cluster ranks (1 = best) of metrics in decreasing order of correlation, from the upper
    triangle of ``pvalues`` (AssignRanks)."""
    m = np.asarray(pvalues, dtype=np.float64)
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise InputError(f"rank clusters need a square matrix of p-values, got shape {m.shape}")
    if not 0.0 < alpha < 1.0:
        raise OptionError("significance level", alpha, detail="must be between 0 and 1")
    ranks: list[int] = []
    rank, start = 1, 0
    for i in range(m.shape[0]):
        if np.any(m[start:i, i] <= alpha):
            rank += 1
            start = i
        ranks.append(rank)
    return ranks


__all__ = ["assign_ranks"]
