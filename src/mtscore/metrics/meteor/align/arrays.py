"""numpy helpers of the corpus-wide aligner (:mod:`.corpus`, :mod:`.classes`): sorting-based unique
and stable order of non-negative integers, and connected components; and of the batched 1.5
searches (:mod:`.jar_batch`, :mod:`.phrases_batch`): their chains' walk back and their loop over
reference positions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import numpy as np

from ... import sorting

#: fewer descents than this: :func:`stable_order` merges the sorted runs
_FEW_RUNS = 16


def firsts(x: np.ndarray) -> np.ndarray:
    """Mask of the elements of a sorted array that differ from the one before."""
    out = np.ones(len(x), dtype=bool)
    np.not_equal(x[1:], x[:-1], out=out[1:])
    return out


def unique(x: np.ndarray) -> np.ndarray:
    """``np.unique(x)`` by sorting (numpy 2's hash-based unique is several times slower here)."""
    x = np.sort(x)
    return x[firsts(x)]


def stable_order(x: np.ndarray) -> np.ndarray:
    """``np.argsort(x, kind="stable")`` of integers: for a few sorted runs one after the other
    (matches stage by stage, each in flat order) the stable argsort itself, a merge of runs, which
    orders them in linear time; else :func:`mtscore.metrics.sorting.stable_order` (one sort of
    the keys packed with their indices)."""
    n = len(x)
    if n > 1 and np.count_nonzero(x[1:] < x[:-1]) < _FEW_RUNS:
        return np.argsort(x, kind="stable")
    return sorting.stable_order(x)


def unique_inverse(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(x, return_inverse=True)`` (inverse flat) of non-negative integers by one sort."""
    order = stable_order(x)
    s = x[order]
    first = firsts(s)
    inverse = np.empty(len(x), dtype=np.int64)
    inverse[order] = np.cumsum(first) - 1
    return s[first], inverse


def starts_of(counts: np.ndarray) -> np.ndarray:
    """Where each of consecutive runs of ``counts`` elements starts."""
    return np.cumsum(counts) - counts


def components_of(u: np.ndarray, v: np.ndarray, n: int) -> np.ndarray:
    """Connected components of the graph with edges (u[e], v[e]) on nodes 0..n−1: each node's
    component, numbered in order of their least node (minimum-label propagation with pointer
    jumping; the vectorised counterpart of :class:`.stage.UnionFind`)."""
    label = np.arange(n)
    while True:
        m = np.minimum(label[u], label[v])
        new = label.copy()
        np.minimum.at(new, u, m)
        np.minimum.at(new, v, m)
        new = new[new]
        if (new == label).all():
            break
        label = new
    roots = label == np.arange(n)
    return (np.cumsum(roots) - 1)[label]


def chain_nodes(parents: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The nodes of the chains ending at ``ends`` (node -1: an empty chain), walked back through
    ``parents`` (-1 ends a chain) every chain one step at once: (chain index, node) for every node
    on a chain, last nodes first."""
    owners, chosen = [], []
    owner, k = np.arange(len(ends), dtype=np.int64), np.asarray(ends, dtype=np.int64)
    while len(k):
        alive = k >= 0
        owner, k = owner[alive], k[alive]
        owners.append(owner)
        chosen.append(k)
        k = parents[k]
    return np.concatenate(owners), np.concatenate(chosen)


class _Rows(Protocol):
    @property
    def seg(self) -> np.ndarray: ...

    def take(self: _R, rows: np.ndarray) -> _R: ...


_R = TypeVar("_R", bound=_Rows)


def by_reference_position(rows: _R, n_ref: np.ndarray, finish: Callable[[_R, np.ndarray], None],
                          step: Callable[[_R, int], _R]) -> None:
    """The jar's left-to-right program of many segments at once, one reference position t at a
    time: the rows (states or paths, ``rows.seg`` their segments) of a segment whose reference has
    t words are its last (``finish(rows, done)``) and leave; the others take position t
    (``step(rows, t)``)."""
    t = 0
    ending = np.bincount(n_ref)  # segments whose reference has t words
    while len(rows.seg):
        done = n_ref[rows.seg] == t if t < len(ending) and ending[t] else None
        if done is not None and done.any():
            finish(rows, done)
            rows = rows.take(np.flatnonzero(~done))
            if not len(rows.seg):
                break
        rows = step(rows, t)
        t += 1
