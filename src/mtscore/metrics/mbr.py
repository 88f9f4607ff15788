"""Minimum-Bayes-risk (MBR) selection with a metric as the utility.

Among the candidate translations of a source, MBR decoding picks the one with the highest expected
utility, estimated against pseudo-references — usually the candidates themselves, as samples of the
model (Kumar & Byrne 2004; Eikema & Aziz 2020): the expected utility of candidate i is the mean of
``utility(i, j)`` over the pseudo-references j, each weighing the same (the candidate itself
included when the candidates are the pseudo-references, as in ``mbrs`` and ZurichNLP's ``mbr``).
With ``aggregate=True`` (BLEU, chrF) it is instead the utility of i against the aggregated
pseudo-references (Vamvas & Sennrich 2024; see :mod:`.pairwise`). The candidate of highest expected
utility wins (lowest, for a metric where lower is better); ties go to the first.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .base import Metric
from .pairwise import Source, checked_sources, is_batch, score_sources, utility_metric


@dataclass(frozen=True, eq=False)
class MBRResult:
    """The selected candidate of one source and every candidate's expected utility."""

    #: position of the selected candidate among the source's candidates
    index: int
    #: the source's candidates, in input order
    candidates: tuple[str, ...]
    #: expected utility of every candidate, in input order
    utilities: np.ndarray
    #: the utility metric's signature: ``nrefs:1`` (one pseudo-reference at a time) or, aggregated,
    #: ``nrefs:mean`` (the mean statistics of all of them)
    signature: str
    aggregate: bool = False

    @property
    def candidate(self) -> str:
        """The selected candidate."""
        return self.candidates[self.index]

    @property
    def utility(self) -> float:
        """The selected candidate's expected utility."""
        return float(self.utilities[self.index])


def expected_utilities(scores: np.ndarray) -> np.ndarray:
    """Expected utility of each candidate: the mean of its row of pairwise utilities (uniform
    weights over the pseudo-references); an aggregated score vector is its own expectation."""
    return scores.mean(axis=1) if scores.ndim == 2 else scores


def select(utilities: np.ndarray, higher_is_better: bool = True) -> int:
    """The candidate of best expected utility (the first of equal ones)."""
    return int(np.argmax(utilities) if higher_is_better else np.argmin(utilities))


def mbr(metric: Metric[Any] | str, candidates: Sequence[Any], references: Sequence[Any] | None = None,
        *, aggregate: bool = False) -> MBRResult | list[MBRResult]:
    """MBR selection among ``candidates`` (a list of strings; a batch: a list of such lists, one per
    source) against ``references`` (pseudo-references, same shape; ``None``: the candidates).
    ``metric``: a metric object or a name (``bleu``, ``chrf``, ``chrf++``, ``meteor``; see
    :func:`.pairwise.utility_metric`). Returns one :class:`MBRResult`, for a batch a list."""
    batch = is_batch(candidates)
    results = list(mbr_stream(metric, checked_sources(candidates, references, batch), aggregate=aggregate))
    return results if batch else results[0]


def mbr_stream(metric: Metric[Any] | str, sources: Iterable[Source], *, aggregate: bool = False
               ) -> Iterator[MBRResult]:
    """:func:`mbr` over a stream of (candidates, pseudo-references or None) per source, read lazily
    and scored in chunks (:func:`.pairwise.score_sources`): memory stays bounded."""
    metric = utility_metric(metric)
    signature = str(metric.signature({"nrefs": "mean" if aggregate else "1"}))
    pending: deque[list[str]] = deque()

    def remembered() -> Iterator[Source]:
        for candidates, refs in sources:
            pending.append(candidates)
            yield candidates, refs

    for scores in score_sources(metric, remembered(), aggregate):
        candidates = pending.popleft()
        utilities = expected_utilities(scores)
        best = select(utilities, metric.higher_is_better)
        yield MBRResult(best, tuple(candidates), utilities, signature, aggregate)
