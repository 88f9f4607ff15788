"""How the reports state what a significance cluster is, and which pairs inside a cluster differ.

A cluster (:func:`mtscore.stats.significance.significance_clusters`) is *not* a group of systems
that are pairwise not significantly different: systems in rank order are cut only where every
system above is significantly better than every system below. Two systems of one cluster can still
differ significantly (the best and the worst of a long cluster, say). Every report, table and
caption states that rule (:func:`cluster_rule`) and names the significant pairs inside a cluster
(:func:`pairs_inside`, :func:`inside_note`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..stats.defaults import p_text
from ..stats.significance import SignificanceResult


def cluster_rule(alpha: float, test: str = "paired bootstrap, Holm") -> str:
    """The rule that cuts a ranking into clusters, in words."""
    return (f"systems in rank order, cut where every system above is significantly "
            f"better than every system below ({test}, p < {alpha:g}); two systems of one cluster "
            "can still differ significantly (listed when they do)")


@dataclass(frozen=True)
class InsidePair:
    """Two systems of the same cluster whose corrected p-value is below alpha."""

    cluster: int
    better: str
    worse: str
    p: float


def _pvalue(comparison: object, corrected: bool) -> float:
    """The comparison's (Holm-corrected) p-value, whichever field name the result has."""
    names = ("p_holm", "pvalue_holm") if corrected else ("p_value", "pvalue")
    for name in names:
        if hasattr(comparison, name):
            return float(getattr(comparison, name))
    raise AttributeError(f"no p-value field among {names}")


def pairs_inside(result: SignificanceResult, clusters: Sequence[Sequence[str]], alpha: float,
                 corrected: bool = True) -> list[InsidePair]:
    """The pairs of systems of one cluster (numbered from 1) that differ significantly, best pair
    first within each cluster; the better system (by score) first."""
    cluster_of = {s: k + 1 for k, c in enumerate(clusters) for s in c}
    rank = {s: k for k, s in enumerate(result.ranking())}
    out = []
    for c in result.comparisons:
        p = _pvalue(c, corrected)
        k = cluster_of.get(c.system)
        if k is None or k != cluster_of.get(c.other) or not p < alpha:
            continue
        better, worse = sorted((c.system, c.other), key=rank.__getitem__)
        out.append(InsidePair(k, better, worse, p))
    return sorted(out, key=lambda x: (x.cluster, rank[x.better], rank[x.worse]))


def inside_note(metric: str, result: SignificanceResult, clusters: Sequence[Sequence[str]],
                alpha: float) -> str | None:
    """A note naming the significant pairs inside the clusters of ``metric`` (None if none)."""
    pairs = pairs_inside(result, clusters, alpha)
    if not pairs:
        return None
    by_cluster: dict[int, list[InsidePair]] = {}
    for x in pairs:
        by_cluster.setdefault(x.cluster, []).append(x)
    return (f"{metric}: significant pairs inside a cluster (Holm p < {alpha:g}; not cut there "
            "because another pair across the cut is not significant): " +
            "; ".join(f"cluster {k}: " + ", ".join(f"{x.better} > {x.worse} (p {_p(x.p)})"
                                                    for x in xs) for k, xs in by_cluster.items()))


def _p(p: float) -> str:
    text = p_text(p, None, 4)
    return text if text.startswith("<") else f"= {text}"
