"""PERM-BOTH of soft pairwise accuracy, fast: the null differences of a chunk of draws for the
metric pairs still running, from the same swap masks as the rule.

Equals :func:`mtscore.stats.perm_both.perm_both_tests` with the statistic
:func:`mtscore.stats.perm_both.spa_of_many` (the rule: each swapped matrix's SPA, as pce.py), draw
for draw — the swaps come from the same generator call — up to float32 rounding where two masked
sums tie (tested: the same p-values on random and WMT22 data, null differences within one count).
The rearrangements are exact in real arithmetic. With q(s) = masks·s − sum(s) per system (the
comparison of :func:`.spa.pairwise_pvalues`, q_i ≥ q_j) and g_m = q(swap ⊙ z_m):

* the swapped matrix of pair (A, B) is H_A = z_A + swap ⊙ (z_B − z_A), so
  q(H_A) = (q(z_A) − g_A) + g_B, and its complement H_B = z_A + z_B − H_A has
  q(H_B) = (q(z_B) − g_B) + g_A. A chunk's swaps are shared by every metric pair, so the chunk
  needs one matrix product per *metric* (g_m), not two per metric *pair*, and one addition
  per matrix of a pair;
* the products are laid out systems × draws × permutations (the swapped rows times the masks'
  transpose), so each system's masked sums of all draws form one contiguous block, compared at
  once with the blocks of the systems after it;
* the counts of both matrices of every draw of the chunk come from one comparison per system i
  against the systems after it (a loop over systems, not over draws).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


def count_true(flags: np.ndarray) -> np.ndarray:
    """The number of True values along the last axis (``np.count_nonzero(flags, axis=-1)``, as
    byte sums: a narrower accumulator when the axis is short)."""
    width = np.uint16 if flags.shape[-1] < 1 << 16 else np.int64
    return flags.view(np.uint8).sum(axis=-1, dtype=width)


class SpaSwapNulls:
    """Null differences SPA(H_B) − SPA(H_A) of a chunk of PERM-BOTH draws, for each metric pair
    (A, B); ``z``: each metric's z-normalized judged cells (systems × segments)."""

    def __init__(self, z: Mapping[str, np.ndarray], pairs: Sequence[tuple[str, str]],
                 masks: np.ndarray, human_p: np.ndarray) -> None:
        self.masks_t = np.asarray(masks, dtype=np.float32).T
        self.pairs = list(pairs)
        self.z = {m: np.asarray(v, dtype=np.float32) for m, v in z.items()}
        systems = next(iter(self.z.values())).shape[0]
        self.human = [np.asarray(human_p[i, i + 1:], dtype=np.float64)
                      for i in range(systems - 1)]
        self.system_pairs = systems * (systems - 1) // 2
        # masked sums minus sums of every metric's own matrix (systems × 1 × permutations)
        self.q = {m: (v @ self.masks_t - v.sum(axis=1)[:, None])[:, None, :]
                  for m, v in self.z.items()}

    def __call__(self, swap: np.ndarray, active: np.ndarray) -> np.ndarray:
        """``swap``: draws × systems × segments booleans (True: the cell comes from B in H_A);
        returns draws × len(active) null differences."""
        draws, systems, segments = swap.shape
        by_system = swap.transpose(1, 0, 2).astype(np.float32)  # 1.0: the cell is swapped
        g, own = {}, {}
        part = np.empty_like(by_system)
        for m in sorted({m for k in active for m in self.pairs[k]}):
            np.multiply(by_system, self.z[m][:, None, :], out=part)  # z where swapped, else ±0
            g[m] = (part.reshape(systems * draws, segments) @ self.masks_t).reshape(
                systems, draws, -1)
            g[m] -= part.sum(axis=2)[:, :, None]
            own[m] = self.q[m] - g[m]                           # q(z_m) − g_m
        out = np.empty((draws, len(active)))
        q = np.empty((systems, 2 * draws, self.masks_t.shape[1]), dtype=np.float32)
        for col, k in enumerate(active):
            a, b = self.pairs[k]
            np.add(own[a], g[b], out=q[:, :draws])              # q(H_A) = q(z_A) − g_A + g_B
            np.add(own[b], g[a], out=q[:, draws:])              # q(H_B) = q(z_B) − g_B + g_A
            spa = self._spa(q)
            out[:, col] = spa[draws:] - spa[:draws]
        return out

    def _spa(self, q: np.ndarray) -> np.ndarray:
        """SPA of each matrix from its q = masks·s − sum(s) (systems × stack × permutations)."""
        permutations = q.shape[2]
        error = np.zeros(q.shape[1])
        for i, human in enumerate(self.human):
            counts = count_true(q[i][None] >= q[i + 1:])
            error += np.abs(counts / permutations - human[:, None]).sum(axis=0)
        return 1.0 - error / self.system_pairs


__all__ = ["SpaSwapNulls", "count_true"]
