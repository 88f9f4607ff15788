"""Human scores: raw Direct Assessment means and per-rater z-scores, as WMT computes them.

WMT's DA protocol (Graham et al., 2013/2017; Kocmi et al., 2022, §3): each rater's judgments are
standardized by that rater's own mean and standard deviation (removing a rater's leniency and scale),
the standardized judgments of a (system, segment) are averaged, and a system's score is the mean
over its judged segments. WMT22's released z-scores use the sample standard deviation (ddof = 1):
every rater's z-scores in its judgments have standard deviation exactly 1 with ddof = 1.

Pure functions over parallel arrays, one element per judgment. The numeric rules (:func:`rater_z`,
the averaging of :func:`segment_means`) live in :mod:`mtscore.io.judgment_math`, where the data-set
reader uses them too; they are re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..io.judgment_math import rater_z, segment_matrix
from .display import ResultDisplay


@dataclass(frozen=True, repr=False)
class HumanScores(ResultDisplay):
    """Human scores per (system, segment): a systems × segments matrix, NaN where not judged."""

    systems: tuple[str, ...]
    #: ``scores[k, i]``: mean score of system k on segment i (seg ids are 1-based line numbers)
    scores: np.ndarray
    #: judgments behind each cell
    counts: np.ndarray

    def records(self) -> list[dict[str, object]]:
        """One row per judged (system, seg_id): the mean score and the judgments behind it."""
        return [{"system": name, "seg_id": i + 1, "score": float(self.scores[k, i]),
                 "judgments": int(self.counts[k, i])}
                for k, name in enumerate(self.systems) for i in np.flatnonzero(self.counts[k])]

    def by_system(self) -> dict[str, np.ndarray]:
        """system -> segment scores (NaN for unjudged), the input of the correlation functions."""
        return {name: self.scores[k] for k, name in enumerate(self.systems)}

    def system_scores(self) -> dict[str, float]:
        """WMT's system score: the mean over the system's judged segments."""
        out = {}
        for k, name in enumerate(self.systems):
            row = self.scores[k]
            out[name] = float(np.nanmean(row)) if np.any(~np.isnan(row)) else float("nan")
        return out


def segment_means(systems: Sequence[str] | np.ndarray, seg_ids: Sequence[int] | np.ndarray,
                  scores: Sequence[float] | np.ndarray, n_segments: int,
                  system_names: Sequence[str] | None = None) -> HumanScores:
    """Average the judgments of each (system, segment) into a systems × segments matrix.

    ``seg_ids`` are 1-based (line numbers); ``system_names`` fixes the row order (default: sorted
    names of the judged systems; a listed system without judgments gets a row of NaN). The rule is
    :func:`mtscore.io.judgment_math.segment_matrix`'s.
    """
    return HumanScores(*segment_matrix(systems, seg_ids, scores, n_segments, system_names))


def human_scores(systems: Sequence[str] | np.ndarray, seg_ids: Sequence[int] | np.ndarray,
                 raters: Sequence[str] | np.ndarray, raw: Sequence[float] | np.ndarray,
                 n_segments: int, standardize: bool = True, ddof: int = 1,
                 system_names: Sequence[str] | None = None) -> HumanScores:
    """WMT's human scores from judgments: per-rater z-scores (or raw scores), averaged per
    (system, segment); ``.system_scores()`` gives the system means."""
    values = rater_z(raters, raw, ddof) if standardize else np.asarray(raw, dtype=np.float64)
    return segment_means(systems, seg_ids, values, n_segments, system_names)


__all__ = ["HumanScores", "human_scores", "rater_z", "segment_means"]
