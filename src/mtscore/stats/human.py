"""Human scores: raw Direct Assessment means and per-rater z-scores, as WMT computes them.

WMT's DA protocol (Graham et al., 2013/2017; Kocmi et al., 2022, §3): each rater's judgments are
standardized by that rater's own mean and standard deviation (removing a rater's leniency and scale),
the standardized judgments of a (system, segment) are averaged, and a system's score is the mean
over its judged segments. WMT22's released z-scores use the sample standard deviation (ddof = 1):
every rater's z-scores in its judgments have standard deviation exactly 1 with ddof = 1.

Pure functions over parallel arrays, one element per judgment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from .display import ResultDisplay


def _arrays(*columns: Sequence[object] | np.ndarray) -> list[np.ndarray]:
    arrays = [np.asarray(c) for c in columns]
    n = len(arrays[0])
    for a in arrays:
        if a.ndim != 1 or len(a) != n:
            raise InputError("judgment columns must be 1-D arrays of one length")
    if n == 0:
        raise InputError("no judgments")
    return arrays


def rater_z(raters: Sequence[str] | np.ndarray, scores: Sequence[float] | np.ndarray,
            ddof: int = 1) -> np.ndarray:
    """Each judgment standardized by its rater's mean and standard deviation.

    A rater whose judgments are all equal (standard deviation 0, or a single judgment with
    ddof = 1) gets z = 0 for every judgment: it carries no information about differences.
    """
    raters_a, raw = _arrays(raters, scores)
    raw = raw.astype(np.float64)
    if np.isnan(raw).any():
        raise InputError("a raw human score is NaN")
    _, inverse, counts = np.unique(raters_a, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=raw)
    means = sums / counts
    dev = raw - means[inverse]
    sq = np.bincount(inverse, weights=dev ** 2)
    denom = counts - ddof
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(np.where(denom > 0, sq / np.where(denom > 0, denom, 1), 0.0))
    safe = np.where(sd > 0, sd, 1.0)
    return np.where(sd[inverse] > 0, dev / safe[inverse], 0.0)


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
    names of the judged systems; a listed system without judgments gets a row of NaN).
    """
    sys_a, seg_a, val = _arrays(systems, seg_ids, scores)
    val = val.astype(np.float64)
    seg = seg_a.astype(np.int64)
    if np.any(seg < 1) or np.any(seg > n_segments):
        bad = int(seg[(seg < 1) | (seg > n_segments)][0])
        raise InputError(f"segment id {bad} is out of range 1..{n_segments}")
    names = list(system_names) if system_names is not None else sorted(set(sys_a.tolist()))
    index = {name: k for k, name in enumerate(names)}
    unknown = sorted(set(sys_a.tolist()) - set(index))
    if unknown:
        raise InputError(f"judgments for systems not listed: {', '.join(map(str, unknown))}")
    row = np.array([index[s] for s in sys_a.tolist()], dtype=np.int64)
    cell = row * n_segments + (seg - 1)
    size = len(names) * n_segments
    counts = np.bincount(cell, minlength=size).reshape(len(names), n_segments)
    sums = np.bincount(cell, weights=val, minlength=size).reshape(len(names), n_segments)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(counts > 0, sums / np.where(counts > 0, counts, 1), np.nan)
    return HumanScores(tuple(names), means, counts)


def human_scores(systems: Sequence[str] | np.ndarray, seg_ids: Sequence[int] | np.ndarray,
                 raters: Sequence[str] | np.ndarray, raw: Sequence[float] | np.ndarray,
                 n_segments: int, standardize: bool = True, ddof: int = 1,
                 system_names: Sequence[str] | None = None) -> HumanScores:
    """WMT's human scores from judgments: per-rater z-scores (or raw scores), averaged per
    (system, segment); ``.system_scores()`` gives the system means."""
    values = rater_z(raters, raw, ddof) if standardize else np.asarray(raw, dtype=np.float64)
    return segment_means(systems, seg_ids, values, n_segments, system_names)
