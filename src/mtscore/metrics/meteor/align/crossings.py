"""The crossing rule of Banerjee & Lavie (2005, §2.2) and the graph helpers that the stage rule
(:mod:`.stage`) and its branch-and-bound (:mod:`.search`) share: whether two matches cross, the
crossing matrix of two edge arrays, and disjoint sets for connected components.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np

Edge = tuple[int, int]


def crosses(i: Any, j: Any, k: Any, l: Any, distinct: bool = False) -> Any:
    """Whether the matches (i, j) and (k, l) cross: (i − k)(j − l) < 0 (§2.2). Works elementwise
    on numpy arrays too (comparisons only: the temporaries are boolean). ``distinct``: the caller
    knows that i ≠ k and j ≠ l (matches of different words), where (i > k) ≠ (j > l) says the same
    in half the operations."""
    if distinct:
        return (i > k) != (j > l)
    return ((i < k) & (j > l)) | ((i > k) & (j < l))


class UnionFind:
    """Disjoint sets of hashable items (path halving); ``groups`` lists them by first item."""

    def __init__(self, items: Iterable[Hashable] = ()):
        self.parent: dict[Hashable, Hashable] = {x: x for x in items}

    def find(self, x: Hashable) -> Hashable:
        parent = self.parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, x: Hashable, y: Hashable) -> None:
        rx, ry = self.find(x), self.find(y)
        if rx != ry:
            self.parent[rx] = ry

    def groups(self, items: Iterable[Hashable], key: Any = None) -> list[list[Any]]:
        """``items`` grouped by set, groups in order of their first item (``key`` maps an item to
        its node; default the item)."""
        out: dict[Hashable, list[Any]] = {}
        for item in items:
            out.setdefault(self.find(item if key is None else key(item)), []).append(item)
        return list(out.values())


def cross_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Boolean matrix: edge ``a[x]`` crosses edge ``b[y]`` (edges as (n, 2) integer arrays)."""
    return crosses(a[:, 0, None], a[:, 1, None], b[:, 0], b[:, 1])
