"""Exact grouping of equal integer keys with numpy, without sorting: the counting step of the
n-gram kernels (:mod:`.clipping`, :mod:`.chrf.fast`).

Sorting a corpus's n-gram keys costs tens of nanoseconds per key; grouping only needs every key
to know *one* element of its group. :func:`representatives` scatters each element's index into a
hash table at its key's slot, reads the slot back and keeps the index read when that element's key
is the key of the element read (compared exactly: a slot shared by two keys only delays one of
them). The elements whose slot another key won go round again with another hash, until none is
left; every key wins its slot in some round, and all elements of a key share its slot in every
round, so they always get the same representative (the last few left are grouped with a dict
of their keys instead). Counts per group are then ``np.bincount`` over
the representatives.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

_GOLDEN = 0x9E3779B97F4A7C15  # 2^64 / φ: Fibonacci hashing keeps the top bits of key × multiplier


def _multiplier(round_: int, column: int, width: int) -> np.unsignedinteger:
    """An odd multiplier of ``width`` bits for each round and key column."""
    value = (_GOLDEN * (2 * (8 * round_ + column) + 1)) % (1 << 64) >> (64 - width)
    return (np.uint64 if width == 64 else np.uint32)(value | 1)


def representatives(columns: Sequence[np.ndarray]) -> np.ndarray:
    """For every element, the index of an element with the same key: the same index for all
    elements of one key, an index whose own representative is itself. A key is one value of
    each of the equally long integer ``columns`` (equal keys: equal in every column); hashed in
    32-bit arithmetic when every column has 32 bits or fewer (fewer fresh pages for numpy's
    temporaries), else in 64-bit. The last few elements left (:data:`FEW`) are grouped with a
    dict of their keys instead of more rounds."""
    n = len(columns[0])
    index_type = np.intp  # numpy gathers with other index types take a slower, casting path
    if n == 0:
        return np.empty(0, dtype=index_type)
    rep = np.empty(0, dtype=index_type)  # the first round's winners
    words = [c.view(f"u{c.itemsize}") for c in columns]
    width = 64 if any(c.itemsize > 4 for c in columns) else 32
    todo: np.ndarray | None = None  # None: every element (the first round)
    left, r = n, 0
    while left:
        if todo is not None and left <= FEW:
            _group_few(words, todo, rep)
            break
        # a table at least as large as the keys; twice that after the first round (few keys)
        bits = max((left - 1).bit_length() + (r > 0), 4)
        # (np.take with mode="clip": the indices are in range, and it is cheaper than a[indices])
        wanted = words if todo is None else [w.take(todo, mode="clip") for w in words]
        # (temporaries are reused where they can be: fresh memory costs more than the arithmetic;
        # the columns are folded in one at a time, xor then multiply, in place)
        slot = wanted[0] * _multiplier(r, 0, width)  # numpy scalars keep their width
        for j, w in enumerate(wanted[1:], 1):
            slot ^= w
            slot *= _multiplier(r, j, width)
        slot >>= slot.dtype.type(width - bits)
        # numpy indexes with intp: the 64-bit slots are already that (values below 2^bits)
        at = slot.view(np.intp) if width == 64 else slot.astype(np.intp)
        table = np.empty(1 << bits, dtype=index_type)  # only slots written this round are read
        index = np.arange(n, dtype=index_type) if todo is None else todo
        table[at] = index  # elements of keys sharing a slot: one of them wins it
        # the first round's index is not needed any more: its memory takes the winners
        won = table.take(at, mode="clip", out=index if todo is None else None)
        del table, at
        spare = slot  # (the slots are not needed any more: their memory takes the gathered keys)
        differs = _gather(words[0], won, spare) != wanted[0]
        for w, v in zip(words[1:], wanted[1:]):
            differs |= _gather(w, won, spare) != v
        lost = differs.nonzero()[0]
        if todo is None:
            rep = won
            todo = lost
        else:
            rep[index] = won
            todo = todo.take(lost, mode="clip")
        left, r = len(todo), r + 1
    return rep


def _gather(values: np.ndarray, at: np.ndarray, spare: np.ndarray) -> np.ndarray:
    """``values[at]``, written into ``spare`` when it has their type (its old contents are lost)."""
    if spare.dtype == values.dtype:
        return values.take(at, mode="clip", out=spare)
    return values.take(at, mode="clip")


#: at most this many elements left after a round are grouped with a dict (cheaper than rounds)
FEW = 48


def _group_few(words: Sequence[np.ndarray], todo: np.ndarray, rep: np.ndarray) -> None:
    """Set ``rep`` of the elements ``todo`` (a few, whose keys no round has settled: every element
    of those keys is among them) to the first of them with the same key."""
    first: dict[tuple[int, ...], int] = {}
    indices = todo.tolist()
    keys = zip(*(w.take(todo).tolist() for w in words))
    rep[todo] = [first.setdefault(key, i) for key, i in zip(keys, indices)]


def group_counts(rep: np.ndarray, bounds: np.ndarray) -> list[np.ndarray]:
    """Per source (the elements ``bounds[k]:bounds[k + 1]``), how many of its elements each group
    has, indexed by the group's representative (0 elsewhere)."""
    n = len(rep)
    return [np.bincount(rep[bounds[k]:bounds[k + 1]], minlength=n) for k in range(len(bounds) - 1)]
