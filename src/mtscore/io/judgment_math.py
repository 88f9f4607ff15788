"""The numeric rules behind human scores, at the io layer (the data-set reader applies them).

WMT's DA protocol (Graham et al., 2013/2017; Kocmi et al., 2022, §3): each rater's judgments are
standardized by that rater's own mean and standard deviation (:func:`rater_z`), and the standardized
judgments of a (system, segment) are averaged (:func:`segment_matrix`). :mod:`mtscore.stats.human`
re-exports :func:`rater_z` and wraps :func:`segment_matrix` as ``segment_means`` (a result object).

Pure functions over parallel arrays, one element per judgment.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import InputError


def judgment_arrays(*columns: Sequence[object] | np.ndarray) -> list[np.ndarray]:
    """The columns as 1-D arrays of one non-zero length (else an :class:`InputError`)."""
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
    raters_a, raw = judgment_arrays(raters, scores)
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


def segment_matrix(systems: Sequence[str] | np.ndarray, seg_ids: Sequence[int] | np.ndarray,
                   scores: Sequence[float] | np.ndarray, n_segments: int,
                   system_names: Sequence[str] | None = None
                   ) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """The judgments of each (system, segment) averaged: (names, means, counts), systems × segments
    matrices with NaN means where a cell has no judgment.

    ``seg_ids`` are 1-based (line numbers); ``system_names`` fixes the row order (default: sorted
    names of the judged systems; a listed system without judgments gets a row of NaN).
    """
    sys_a, seg_a, val = judgment_arrays(systems, seg_ids, scores)
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
    return tuple(names), means, counts
