"""Early stopping of a permutation test, as mt-metrics-eval does it (``PermutationSigDiffParams``).

A test draws its permutations in blocks; at each block boundary (draw i, i a multiple of the block
size) the running p-value count/i is checked and the test stops when it is clearly small
(< ``early_min``) or clearly large (> ``early_max``): more draws would not change the decision at
the usual levels. The p-value is then count/i with i the draws made (no +1: mt-metrics-eval's
estimate).

mt-metrics-eval's two tests differ in one detail, reproduced here: ``PermutationSigDiff`` (scores
swapped, PERM-BOTH) checks at every block boundary; ``PairwisePermutationSigDiff`` (pairwise outcomes
swapped) checks only at a boundary whose draw itself reached the observed difference (its check
sits inside ``if c2 - c1 >= delta``), so a test with a small p-value seldom stops early.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import OptionError


@dataclass(frozen=True)
class EarlyStopping:
    """Block size and stopping bounds (mt-metrics-eval's ``Task`` defaults: 100, 0.02, 0.50)."""

    block_size: int = 100
    early_min: float = 0.02
    early_max: float = 0.50

    def __post_init__(self) -> None:
        if isinstance(self.block_size, bool) or not isinstance(self.block_size, int) or \
                self.block_size < 1:
            raise OptionError("block size", self.block_size, detail="must be a positive integer")
        if not 0.0 <= self.early_min <= self.early_max <= 1.0:
            raise OptionError("early stopping bounds", f"{self.early_min}, {self.early_max}",
                              detail="need 0 <= early_min <= early_max <= 1")


#: mt-metrics-eval's Task defaults (block 100, bounds 0.02 and 0.50)
WMT_STOPPING = EarlyStopping()
#: no early stopping: every draw is made
NEVER = EarlyStopping(block_size=2 ** 62, early_min=0.0, early_max=1.0)


def stopping_draw(exceed: np.ndarray, start: int, stopping: EarlyStopping,
                  only_on_exceeding_draw: bool) -> int | None:
    """The draw (1-based) at which the test stops, among draws ``start+1 … start+len(exceed)``
    given the exceedance indicators of all draws so far (``exceed[:start]`` earlier ones
    included); None if it does not stop there. ``only_on_exceeding_draw``: the pairwise test's
    rule (check only when the boundary draw itself exceeded)."""
    b = stopping.block_size
    end = len(exceed)
    first = (start // b + 1) * b
    if first > end:
        return None
    counts = np.cumsum(exceed)
    for i in range(first, end + 1, b):
        if only_on_exceeding_draw and not exceed[i - 1]:
            continue
        p = counts[i - 1] / i
        if p < stopping.early_min or p > stopping.early_max:
            return i
    return None


__all__ = ["NEVER", "WMT_STOPPING", "EarlyStopping", "stopping_draw"]
