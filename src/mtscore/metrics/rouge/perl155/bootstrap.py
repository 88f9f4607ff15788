"""The average and confidence interval ROUGE-1.5.5.pl prints (``computeAverages``,
``bootstrapResampling``), bit for bit.

The printed average is not the plain mean: it is the mean of ``-r`` bootstrap resample means. Resample
i (i = 0 .. r-1) calls ``srand(i)`` and draws N document indices ``int(rand(N))``; Perl's ``rand`` is
drand48 (Perl's own copy since 5.20, the same generator everywhere). The drawn documents' scores are
added in draw order (``-t 0``: then divided by N; ``-t 1``: the drawn counts are pooled and scored).
The r resample values are sorted, averaged in sorted order, and the interval is read off the sorted
values by the script's interpolation. Everything printed is rounded to 5 decimals.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

DRAND48_A = 0x5DEECE66D
DRAND48_C = 0xB
DRAND48_MASK = (1 << 48) - 1
DRAND48_SEED_LOW = 0x330E


def drand48_draws(resamples: int, n: int) -> Iterator[np.ndarray]:
    """For resample i = 0 .. resamples-1 at once: ``srand(i)``, then n times ``int(rand(n))``; yields
    the k-th draw of every resample (an int array of length ``resamples``) for k = 0 .. n-1.

    srand(s) sets X = s·2^16 + 0x330E; each ``rand`` steps X = (a·X + c) mod 2^48 (a = 0x5DEECE66D,
    c = 0xB) and returns X·2^-48; ``rand(n)`` is that times n, truncated by ``int``."""
    state = (np.arange(resamples, dtype=np.uint64) << np.uint64(16)) + np.uint64(DRAND48_SEED_LOW)
    a, c, mask = np.uint64(DRAND48_A), np.uint64(DRAND48_C), np.uint64(DRAND48_MASK)
    for _ in range(n):
        state = (state * a + c) & mask  # uint64 products wrap mod 2^64, a multiple of 2^48
        yield (np.ldexp(state.astype(np.float64), -48) * n).astype(np.int64)


def resample_values(values: np.ndarray, resamples: int, counting: int, alpha: float) -> np.ndarray:
    """``bootstrapResampling`` for i = 0 .. resamples-1: a ``resamples`` x 3 array of (R, P, F).

    ``values`` is N x 3: per document (R, P, F) for ``counting`` 0, (model total, peer total, hit)
    for ``counting`` 1. The drawn rows are added in draw order, as the script adds them."""
    n = len(values)
    sums = np.zeros((resamples, 3))
    for draw in drand48_draws(resamples, n):
        sums += values[draw]
    if counting == 0:
        return sums / n if n else sums
    return pooled_scores(sums, alpha)


def pooled_scores(sums: np.ndarray, alpha: float) -> np.ndarray:
    """``-t 1``: R = hit/model, P = hit/peer (0 when the total is 0), F = R·P/((1-α)P + αR) (0 when
    the denominator is 0), unrounded; rows of ``sums`` are (model total, peer total, hit)."""
    model, peer, hit = sums[:, 0], sums[:, 1], sums[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(model > 0, hit / model, 0.0)
        precision = np.where(peer > 0, hit / peer, 0.0)
        denominator = (1 - alpha) * precision + alpha * recall
        f = np.where(denominator > 0, recall * precision / denominator, 0.0)
    return np.stack([recall, precision, f], axis=1)


@dataclass(frozen=True)
class Interval:
    """One printed score: the bootstrap average and the interval, as the printed strings and as numbers."""

    average: str
    low: str
    high: str

    @property
    def values(self) -> tuple[float, float, float]:
        return float(self.average), float(self.low), float(self.high)


@dataclass(frozen=True)
class Perl155Average:
    """What the script prints for one ROUGE type: ``Average_R``, ``Average_P``, ``Average_F``."""

    recall: Interval
    precision: Interval
    f: Interval


def _at(ranked: np.ndarray, index: int) -> float:
    """``$array[index]`` of Perl for index >= 0: past the end it is undef, i.e. 0."""
    if index >= len(ranked):
        return 0.0
    return float(ranked[index])


def interval(ranked: np.ndarray, resamples: int, confidence: float) -> tuple[float, float]:
    """The script's interval on sorted resample values: delta = r·((100-c)/2)/100, upper index
    int(r - delta - 1), lower index int(delta), both interpolated towards the next value by the
    fraction r - delta - 1 - int(r - delta - 1)."""
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(resamples - delta - 1)
    lower_a = int(delta)
    ratio = resamples - delta - 1 - upper_a
    low = _at(ranked, lower_a) + (_at(ranked, lower_a + 1) - _at(ranked, lower_a)) * ratio
    high = _at(ranked, upper_a) + (_at(ranked, upper_a + 1) - _at(ranked, upper_a)) * ratio
    return low, high


def summarize(samples: np.ndarray, resamples: int, confidence: float) -> Perl155Average:
    """Sort each column, average it in sorted order (left to right), read the interval, round."""
    ranked = np.sort(samples, axis=0)
    means = np.cumsum(ranked, axis=0)[-1] / resamples  # cumsum adds strictly left to right
    parts = []
    for col in range(3):
        low, high = interval(ranked[:, col], resamples, confidence)
        parts.append(Interval(f"{means[col]:.5f}", f"{low:.5f}", f"{high:.5f}"))
    return Perl155Average(*parts)


def bootstrap_average(rows: np.ndarray, counting: int = 0, resamples: int = 1000,
                      confidence: float = 95.0, alpha: float = 0.5) -> Perl155Average:
    """The printed average and interval of R, P and F from per-document rows (``document.COLUMNS``),
    given in the script's instance order (``instance_order``): ``counting`` 0 resamples the rounded
    per-document scores, 1 the counts."""
    values = rows[:, 3:6] if counting == 0 else rows[:, 0:3]
    samples = resample_values(np.ascontiguousarray(values, dtype=np.float64), resamples, counting, alpha)
    return summarize(samples, resamples, confidence)


def plain_average(rows: np.ndarray, counting: int = 0, alpha: float = 0.5) -> tuple[float, float, float]:
    """The average the script does not print but rouge-score-style reports use: ``counting`` 0, the
    mean of the (rounded) per-document R, P, F; ``counting`` 1, the pooled counts scored once
    (``pooled_scores`` of the column sums). Unrounded; (0, 0, 0) for no documents."""
    if len(rows) == 0:
        return 0.0, 0.0, 0.0
    if counting == 0:
        r, p, f = rows[:, 3:6].mean(axis=0)
    else:
        r, p, f = pooled_scores(rows[:, 0:3].sum(axis=0, keepdims=True), alpha)[0]
    return float(r), float(p), float(f)
