"""How much do scores and rankings depend on the references? (Papineni et al., 2002, §3: BLEU with
one vs four references ranks the systems the same way.)

Every non-empty subset of the references is scored (each single reference, every combination, all
of them); statistics are extracted once per (subset, system) and the references prepared once per
subset. A system that *is* a reference (a human translation HUMAN-X is reference X) is never
scored against a subset containing its own reference: its score there is NaN and it is left out of
that subset's ranking comparison. Each subset's ranking is compared with the all-reference ranking on
the systems scored in both: Kendall τ_b (scipy) and the number of swapped (discordant) pairs.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.stats

from ..errors import InputError
from ..metrics.base import Metric
from ..progress import track
from .display import ResultDisplay


@dataclass(frozen=True, repr=False)
class SubsetComparison(ResultDisplay):
    """One reference subset's ranking against the all-reference ranking."""

    references: tuple[str, ...]
    systems: int
    kendall_tau: float
    swapped_pairs: int
    pairs: int

    @property
    def changed(self) -> bool:
        return self.swapped_pairs > 0

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "changed": self.changed}


@dataclass(frozen=True, repr=False)
class ReferenceSensitivity(ResultDisplay):
    """Scores of every system with every reference subset, and ranking changes."""

    systems: tuple[str, ...]
    subsets: tuple[tuple[str, ...], ...]
    #: ``scores[j, k]``: system k against subset j (NaN: the subset holds the system's own reference)
    scores: np.ndarray
    comparisons: tuple[SubsetComparison, ...]
    metric: str
    signatures: tuple[str, ...]

    @property
    def rankings_changed(self) -> int:
        """How many subsets rank the common systems differently from all references."""
        return sum(c.changed for c in self.comparisons)

    def records(self) -> list[dict[str, Any]]:
        """One row per (subset, system): the score (None where the subset holds the system's own
        reference)."""
        return [{"references": "+".join(subset), "system": name, "metric": self.metric,
                 "score": None if np.isnan(self.scores[j, k]) else float(self.scores[j, k])}
                for j, subset in enumerate(self.subsets) for k, name in enumerate(self.systems)]

    def to_dict(self) -> dict[str, Any]:
        return {"systems": list(self.systems), "subsets": [list(s) for s in self.subsets],
                "scores": [[None if np.isnan(v) else float(v) for v in row] for row in self.scores],
                "comparisons": [c.to_dict() for c in self.comparisons], "metric": self.metric,
                "signatures": list(self.signatures)}


def reference_subsets(ids: Sequence[str]) -> list[tuple[str, ...]]:
    """Every non-empty subset, singles first, all references last."""
    return [c for size in range(1, len(ids) + 1) for c in itertools.combinations(ids, size)]


def reference_sensitivity(metric: Metric[Any], hyps_by_system: Mapping[str, Sequence[str]],
                          refs_by_id: Mapping[str, Sequence[str]],
                          exclude: Mapping[str, str] | None = None) -> ReferenceSensitivity:
    """Score every system with every reference subset; compare each ranking with all references.

    ``exclude`` maps a system to the reference it must not be scored against (``HUMAN-B -> B``).
    """
    if not refs_by_id:
        raise InputError("no references given")
    if not hyps_by_system:
        raise InputError("no systems given")
    exclude = dict(exclude or {})
    ids = list(refs_by_id)
    for system, ref in exclude.items():
        if ref not in refs_by_id:
            raise InputError(f"system {system!r} is to be kept away from reference {ref!r}, "
                             f"which is not among the references ({', '.join(ids)})")
    names = list(hyps_by_system)
    subsets = reference_subsets(ids)
    scores = np.full((len(subsets), len(names)), np.nan)
    signatures = []
    for j, subset in enumerate(track(subsets, total=len(subsets), desc="reference subsets",
                                     min_total=4)):
        streams = [list(refs_by_id[r]) for r in subset]
        prepared = metric.prepare_references(streams) if hasattr(metric, "prepare_references") \
            else streams
        signature = ""
        for k, name in enumerate(names):
            if exclude.get(name) in subset:
                continue
            stats = metric.extract(hyps_by_system[name], prepared)
            scores[j, k] = float(metric.compute_many(stats.total()[None, :].astype(np.float64))[0])
            signature = signature or metric.signature(stats.meta)
        signatures.append(signature)
    full = scores[-1]
    comparisons = []
    for j, subset in enumerate(subsets):
        common = ~np.isnan(scores[j]) & ~np.isnan(full)
        a, b = scores[j][common], full[common]
        i1, i2 = np.triu_indices(len(a), 1)
        swapped = int(np.sum(np.sign(a[i1] - a[i2]) * np.sign(b[i1] - b[i2]) < 0))
        tau = float(scipy.stats.kendalltau(a, b).statistic) if len(a) >= 2 else float("nan")
        comparisons.append(SubsetComparison(references=subset, systems=int(common.sum()),
                                            kendall_tau=tau, swapped_pairs=swapped, pairs=len(i1)))
    label = metric.name.upper() if metric.name else type(metric).__name__
    return ReferenceSensitivity(systems=tuple(names), subsets=tuple(subsets), scores=scores,
                                comparisons=tuple(comparisons), metric=label,
                                signatures=tuple(signatures))
