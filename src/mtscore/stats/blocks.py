"""BLEU's block test (Papineni et al., 2002, §3, Table 2).

The paper splits the 500-sentence test corpus into 20 blocks of 25 sentences, computes BLEU on each
block, reports the mean and standard deviation of the block scores per system, and a paired t-test
between systems adjacent in the ranking (a t of about 1.7 or more is significant at 95%). Here each
block score is ``metric.compute`` on the sum of the block's statistics rows; the test is
``scipy.stats.ttest_rel`` on the block scores (two-sided, K − 1 degrees of freedom). The first K·B
segments are used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np
import scipy.stats

from ..errors import InputError, OptionError
from ..metrics.base import Metric, SegmentStats
from .display import ResultDisplay, StatisticResult, renamed
from .resampling import check_systems

METHOD = "block test (Papineni et al. 2002, §3, Table 2): paired t-test on per-block scores"


@dataclass(frozen=True, repr=False)
class BlockRow(StatisticResult):
    """One system's block scores and its test against the next system in the ranking."""

    system: str
    #: the metric on all K·B segments used
    score: float
    block_scores: tuple[float, ...]
    mean: float
    #: sample standard deviation (ddof = 1) of the block scores
    sd: float
    #: paired t against the next-ranked system (None for the last one)
    statistic: float | None
    pvalue: float | None
    next_system: str | None

    OUTPUT_KEYS = MappingProxyType({"statistic": "t", "pvalue": "p_value"})
    t = renamed("statistic")
    p_value = renamed("pvalue")


@dataclass(frozen=True, repr=False)
class BlockTestResult(ResultDisplay):
    """Per-system block statistics in rank order, and adjacent paired t-tests."""

    rows: tuple[BlockRow, ...]
    blocks: int
    block_size: int
    segments_used: int
    segments_total: int
    metric: str
    signature: str
    method: str = METHOD

    def describe(self) -> str:
        text = (f"{self.method}; {self.blocks} blocks of {self.block_size} segments "
                f"(segments 1–{self.segments_used}")
        if self.segments_used < self.segments_total:
            text += f" of {self.segments_total}"
        return text + f"); t-test df = {self.blocks - 1}"

    def records(self) -> list[dict[str, Any]]:
        """One row per system in rank order (the block scores themselves left out)."""
        return [{k: v for k, v in r.to_dict().items() if k != "block_scores"} for r in self.rows]

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["rows"] = [r.to_dict() for r in self.rows]
        return out


def block_scores(metric: Metric[Any], stats: SegmentStats, blocks: int, block_size: int) -> np.ndarray:
    """``metric.compute_many`` of each block of ``block_size`` consecutive segments (first K·B)."""
    used = blocks * block_size
    summed = np.asarray(stats.values[:used], dtype=np.float64).reshape(
        blocks, block_size, -1).sum(axis=1)
    return metric.compute_many(summed)


def block_test(metric: Metric[Any], stats_by_system: Mapping[str, SegmentStats], blocks: int = 20,
               block_size: int = 25) -> BlockTestResult:
    """The BLEU paper's block test for every system (ranked by the score on the K·B segments)."""
    for name, value in (("blocks", blocks), ("block size", block_size)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise OptionError(name, value, detail="must be a positive integer")
    if blocks < 2:
        raise OptionError("blocks", blocks, detail="a t-test needs at least 2 blocks")
    names, stats = check_systems(stats_by_system)
    total = len(stats[0])
    used = blocks * block_size
    if total < used:
        hint = []
        if total // block_size >= 2:
            hint.append(f"--blocks {total // block_size}")
        if total // blocks >= 1:
            hint.append(f"--block-size {total // blocks}")
        raise InputError(
            f"the block test needs {blocks} × {block_size} = {used} segments but the corpus has "
            f"{total}; " + (f"use fewer or smaller blocks, e.g. {' or '.join(hint)}" if hint else
                            "use fewer or smaller blocks"))
    per_block = {n: block_scores(metric, s, blocks, block_size) for n, s in zip(names, stats)}
    scores = {n: float(metric.compute_many(np.asarray(s.values[:used], dtype=np.float64)
                                     .sum(axis=0)[None, :])[0]) for n, s in zip(names, stats)}
    sign = -1.0 if metric.higher_is_better else 1.0
    ranking = sorted(names, key=lambda n: (sign * scores[n], n))
    rows = []
    for k, name in enumerate(ranking):
        b = per_block[name]
        t = p = nxt = None
        if k + 1 < len(ranking):
            nxt = ranking[k + 1]
            diff = b - per_block[nxt]
            if np.all(diff == diff[0]):  # no variance: t undefined (scipy would warn and give NaN)
                t, p = (float("nan"), float("nan"))
            else:
                res = scipy.stats.ttest_rel(b, per_block[nxt])
                t, p = float(res.statistic), float(res.pvalue)
        rows.append(BlockRow(system=name, score=scores[name], block_scores=tuple(map(float, b)),
                             mean=float(b.mean()), sd=float(b.std(ddof=1)), statistic=t, pvalue=p,
                             next_system=nxt))
    label = str(metric.signature(stats[0].meta)).split("|", 1)[0]
    return BlockTestResult(rows=tuple(rows), blocks=blocks, block_size=block_size,
                           segments_used=used, segments_total=total, metric=label,
                           signature=metric.signature(stats[0].meta))
