"""Resampling over the additive statistics (DESIGN.md): index matrices applied to ``stats.values``.

A bootstrap resample of segments is a row of a count matrix ``W`` (how often each segment was drawn);
the summed statistics of every resample at once are the matrix product ``W @ stats.values`` and the
scores ``metric.compute_many(W @ stats.values)``. Nothing is re-tokenized.

Indices are drawn as sacreBLEU 2.6.0 draws them (``numpy.random.default_rng(seed).choice(n,
size=(resamples, n))``), so with the same seed the resamples are the same as ``sacrebleu -pbs``'s
(its ``SACREBLEU_SEED``, default 12345). Unlike sacreBLEU, seed 0 is a seed.

The confidence interval is the percentile bootstrap (Efron & Tibshirani, 1993, §13.3): with ``n``
resamples and ``α = 1 - confidence``, the bounds are the order statistics ``k = ⌊n·α/2⌋`` and
``n - k - 1`` of the sorted resampled scores — at 95% exactly sacreBLEU's ``estimate_ci`` rule.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, OptionError
from ..metrics.base import Metric, SegmentStats
from ..progress import track
from .defaults import DEFAULT_SEED, MAX_RESAMPLES, check_seed
from .display import StatisticResult, renamed

#: what ``BootstrapCI.method`` says
PERCENTILE_METHOD = "percentile bootstrap over segments"

#: resamples whose count matrix is built at once (bounds memory: chunk × segments floats)
_CHUNK = 1000


def check_resampling(resamples: int, seed: int, confidence: float | None = None,
                     name: str = "resamples") -> None:
    """Validate the common resampling options (raises :class:`OptionError`)."""
    if isinstance(resamples, bool) or not isinstance(resamples, (int, np.integer)) or \
            not 1 <= resamples <= MAX_RESAMPLES:
        raise OptionError(name, resamples,
                          detail=f"must be an integer from 1 to {MAX_RESAMPLES:,} (the limit)")
    check_seed(seed, "seed")
    if confidence is not None and not (0.0 < confidence < 1.0):  # also refuses NaN
        raise OptionError("confidence", confidence, detail="must be strictly between 0 and 1")


def bootstrap_indices(n_segments: int, resamples: int, seed: int) -> np.ndarray:
    """``resamples × n_segments`` segment ids drawn with replacement (sacreBLEU's draw)."""
    rng = np.random.default_rng(seed)
    return rng.choice(n_segments, size=(resamples, n_segments), replace=True)


def chunk_rows(n_segments: int) -> int:
    """Resamples handled at once: at most ~4 million index entries (bounded memory)."""
    return max(1, min(_CHUNK, 4_000_000 // max(n_segments, 1)))


def bootstrap_index_chunks(n_segments: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """:func:`bootstrap_indices` in consecutive blocks of rows (the same draws, less memory)."""
    rng = np.random.default_rng(seed)
    step = chunk_rows(n_segments)
    for start in range(0, resamples, step):
        yield rng.choice(n_segments, size=(min(step, resamples - start), n_segments), replace=True)


def index_counts(indices: np.ndarray, n_segments: int) -> np.ndarray:
    """Count matrix of an index matrix: ``W[r, i]`` = how often segment i is in resample r."""
    R = indices.shape[0]
    flat = (indices + (np.arange(R, dtype=np.int64) * n_segments)[:, None]).ravel()
    return np.bincount(flat, minlength=R * n_segments).reshape(R, n_segments)


def stacked_values(stats: Sequence[SegmentStats]) -> tuple[np.ndarray, int]:
    """The statistics of several systems side by side (segments × (systems·columns)), as float64."""
    if not stats:
        raise InputError("no systems given")
    n = len(stats[0])
    width = stats[0].values.shape[1]
    for s in stats:
        if len(s) != n:
            raise InputError(f"systems have different numbers of segments ({n} and {len(s)}); "
                             "paired resampling needs the same segments for every system")
        if s.values.shape[1] != width:
            raise InputError("systems' statistics have different columns (different metrics?)")
    return np.concatenate([np.asarray(s.values, dtype=np.float64) for s in stats], axis=1), width


def _scores_of(metric: Metric[Any], values: np.ndarray, width: int,
               indices: np.ndarray) -> np.ndarray:
    counts = index_counts(indices, values.shape[0]).astype(np.float64)
    totals = counts @ values
    return np.stack([metric.compute_many(totals[:, k * width:(k + 1) * width])
                     for k in range(values.shape[1] // width)], axis=1)


def resampled_scores(metric: Metric[Any], stats: Sequence[SegmentStats],
                     indices: np.ndarray) -> np.ndarray:
    """Scores of every system on every resample: ``(resamples, systems)``.

    ``indices`` is a ``resamples × segments`` index matrix (e.g. :func:`bootstrap_indices`); the same
    resampled segment ids are used for every system (paired resampling).
    """
    values, width = stacked_values(stats)
    step = chunk_rows(values.shape[0])
    parts = [_scores_of(metric, values, width, indices[start:start + step])
             for start in range(0, indices.shape[0], step)]
    return np.concatenate(parts, axis=0)


def bootstrap_scores(metric: Metric[Any], stats: Sequence[SegmentStats], resamples: int,
                     seed: int) -> np.ndarray:
    """:func:`resampled_scores` on :func:`bootstrap_indices` draws, generated block by block."""
    values, width = stacked_values(stats)
    chunks = bootstrap_index_chunks(values.shape[0], resamples, seed)
    parts = [_scores_of(metric, values, width, idx)
             for idx in track(chunks, total=-(-resamples // chunk_rows(values.shape[0])),
                              min_total=10, desc="bootstrap")]
    return np.concatenate(parts, axis=0)


def percentile_bounds(samples: np.ndarray, confidence: float) -> tuple[float, float]:
    """Order statistics ``k = ⌊n·α/2⌋`` and ``n-k-1`` of the sorted samples (sacreBLEU's rule at 95%)."""
    ordered = np.sort(np.asarray(samples, dtype=np.float64))
    n = len(ordered)
    k = math.floor(n * (1.0 - confidence) / 2.0 + 1e-9)
    return float(ordered[k]), float(ordered[n - k - 1])


@dataclass(frozen=True, repr=False)
class BootstrapCI(StatisticResult):
    """A score with its bootstrap confidence interval (``confidence_interval()``: ``(low,
    high)``), and how the interval was obtained."""

    score: float
    #: the interval's ends: read them with ``confidence_interval()``
    ci_low: float
    ci_high: float
    #: mean of the resampled scores (what sacreBLEU prints as ``μ``)
    mean: float
    confidence: float
    resamples: int
    seed: int
    method: str = PERCENTILE_METHOD
    signature: str = ""

    low = renamed("ci_low", use="confidence_interval()[0]")
    high = renamed("ci_high", use="confidence_interval()[1]")

    @property
    def statistic(self) -> float:
        """The score (scipy's name)."""
        return self.score

    @property
    def pvalue(self) -> float:
        """NaN: an interval has no p-value."""
        return math.nan

    @property
    def half_width(self) -> float:
        """Half the interval's width (sacreBLEU's ``± ci``)."""
        return 0.5 * (self.ci_high - self.ci_low)

    @property
    def test_signature(self) -> str:
        """The metric's signature plus ``|bs:N|seed:S|ci:L%``."""
        return (f"{self.signature}|bs:{self.resamples}|seed:{self.seed}"
                f"|ci:{100 * self.confidence:g}%")

    def describe(self) -> str:
        return (f"{self.method}, {self.resamples} resamples, seed {self.seed}, "
                f"{100 * self.confidence:g}% level")


def interval_from_samples(score: float, samples: np.ndarray, confidence: float, resamples: int,
                          seed: int, signature: str = "",
                          method: str = PERCENTILE_METHOD) -> BootstrapCI:
    low, high = percentile_bounds(samples, confidence)
    return BootstrapCI(score=float(score), ci_low=low, ci_high=high, mean=float(np.mean(samples)),
                       confidence=confidence, resamples=resamples, seed=seed, method=method,
                       signature=signature)


def bootstrap_ci(metric: Metric[Any], stats: SegmentStats, resamples: int = 1000,
                 seed: int = DEFAULT_SEED,
                 confidence: float = 0.95) -> BootstrapCI:
    """Percentile bootstrap confidence interval of a corpus score (segments resampled).

    The score is recomputed on each resample with ``metric.compute_many`` from the summed rows.
    """
    check_resampling(resamples, seed, confidence)
    if len(stats) == 0:
        raise InputError("empty corpus: no segments to resample")
    score = float(metric.compute_many(stats.total()[None, :])[0])
    samples = bootstrap_scores(metric, [stats], resamples, seed)[:, 0]
    return interval_from_samples(score, samples, confidence, resamples, seed,
                                 metric.signature(stats.meta))


def check_systems(stats_by_system: Mapping[str, SegmentStats]) -> tuple[list[str], list[SegmentStats]]:
    """Names and statistics of the systems, checked to be paired (same number of segments)."""
    if not isinstance(stats_by_system, Mapping) or not stats_by_system:
        raise InputError("give the systems as a non-empty dict name -> SegmentStats")
    names = list(stats_by_system)
    stats = [stats_by_system[name] for name in names]
    n = len(stats[0])
    for name, s in zip(names, stats):
        if not isinstance(s, SegmentStats):
            raise InputError(f"system {name!r}: expected SegmentStats, got {type(s).__name__}")
        if len(s) != n:
            raise InputError(f"system {name!r} has {len(s)} segments but {names[0]!r} has {n}; "
                             "systems must be scored on the same segments")
    if n == 0:
        raise InputError("empty corpus: no segments")
    return names, stats
