"""Corpus-wide n-gram ids with numpy: the kernel behind NIST, whose information weights need every
reference n-gram's identity across the whole corpus (BLEU and the unigram metrics count with
:mod:`.clipping`, which keeps n-grams apart only within a segment; README, "Two n-gram kernels").

Instead of one ``Counter`` per sentence, every token of a corpus becomes an integer id and every
n-gram a dense integer id, built order by order: an n-gram is the pair (id of its first n-1 words,
id of its last word), packed into one int64 key and looked up in the sorted table of the
references' n-grams. N-grams that never occur in a reference get id -1: they count in the
hypothesis totals but can never match. Per-segment counts are then ``np.unique`` over
``segment * G + gram`` keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Encoded:
    """A tokenized corpus as one flat array of token ids (-1: not in the vocabulary)."""

    ids: np.ndarray  # int64, all tokens of all segments, in order
    lengths: np.ndarray  # int64, tokens per segment

    @property
    def segments(self) -> int:
        return len(self.lengths)

    def segment_of_token(self) -> np.ndarray:
        return np.repeat(np.arange(self.segments, dtype=np.int64), self.lengths)

    def start_positions(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Flat start positions of all n-grams lying inside one segment, and their segment index."""
        seg = self.segment_of_token()
        offsets = np.concatenate(([0], np.cumsum(self.lengths)[:-1])).astype(np.int64)
        pos_in_seg = np.arange(len(self.ids), dtype=np.int64) - offsets[seg]
        keep = pos_in_seg + (n - 1) < self.lengths[seg]
        return np.nonzero(keep)[0], seg[keep]


class NgramSpace:
    """Dense ids for every n-gram (orders 1..max_order) occurring in a set of reference corpora."""

    def __init__(self, refs: Sequence[Encoded], vocab_size: int, max_order: int):
        self.max_order = max_order
        self._base = max(vocab_size, 1)
        self._tables: list[np.ndarray] = []
        #: per reference corpus, per order: (start positions, segment index, gram id)
        self.ref_grams: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in refs]
        prev = [enc.ids for enc in refs]  # gram ids of order n-1 at every position
        for n in range(1, max_order + 1):
            per_ref = []
            for enc, p in zip(refs, prev):
                starts, seg = enc.start_positions(n)
                per_ref.append((starts, seg, self._keys(p, enc.ids, starts, n)))
            table = sorted_unique(np.concatenate([k for _, _, k in per_ref])) if per_ref else \
                np.empty(0, dtype=np.int64)
            self._tables.append(table)
            for r, (enc, (starts, seg, keys)) in enumerate(zip(refs, per_ref)):
                gid = np.searchsorted(table, keys)
                self.ref_grams[r].append((seg, gid))
                full = np.full(len(enc.ids), -1, dtype=np.int64)
                full[starts] = gid
                prev[r] = full

    def size(self, n: int) -> int:
        """How many distinct reference n-grams of order n there are."""
        return len(self._tables[n - 1])

    def _keys(self, prev: np.ndarray, ids: np.ndarray, starts: np.ndarray, n: int) -> np.ndarray:
        if n == 1:
            return ids[starts]
        head = prev[starts]
        last = ids[starts + (n - 1)]
        keys = head * self._base + last
        keys[(head < 0) | (last < 0)] = -1
        return keys

    def lookup(self, enc: Encoded) -> list[tuple[np.ndarray, np.ndarray]]:
        """For each order: (segment index, gram id or -1) of every n-gram of ``enc``."""
        out = []
        prev = enc.ids
        for n in range(1, self.max_order + 1):
            starts, seg = enc.start_positions(n)
            keys = self._keys(prev, enc.ids, starts, n)
            table = self._tables[n - 1]
            gid = np.searchsorted(table, keys)
            gid = np.minimum(gid, max(len(table) - 1, 0))
            found = (keys >= 0) & (len(table) > 0)
            if len(table):
                found &= table[gid] == keys
            gid = np.where(found, gid, -1)
            out.append((seg, gid))
            full = np.full(len(enc.ids), -1, dtype=np.int64)
            full[starts] = gid
            prev = full
        return out


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """``np.unique`` by sorting (numpy 2's default hash-based unique is much slower on int64 keys)."""
    ordered = np.sort(values)
    keep = np.ones(len(ordered), dtype=bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    return ordered[keep]


def segment_counts(seg: np.ndarray, gid: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Distinct (segment, gram) keys ``seg * size + gid`` (sorted) and how often each occurs.

    Grams with id -1 are left out.
    """
    keep = gid >= 0
    keys = seg[keep] * max(size, 1) + gid[keep]
    return np.unique(keys, return_counts=True)


def max_counts(parts: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Merge several (keys, counts) tables keeping, for each key, the largest count."""
    if len(parts) == 1:
        return parts[0]
    keys = np.concatenate([k for k, _ in parts])
    counts = np.concatenate([c for _, c in parts])
    order = np.lexsort((counts, keys))
    keys, counts = keys[order], counts[order]
    last = np.ones(len(keys), dtype=bool)
    last[:-1] = keys[1:] != keys[:-1]  # the last row of each key holds its largest count
    return keys[last], counts[last]


def lookup_counts(table_keys: np.ndarray, table_counts: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Counts of ``keys`` in a sorted table (0 where absent)."""
    if len(table_keys) == 0:
        return np.zeros(len(keys), dtype=np.int64)
    pos = np.minimum(np.searchsorted(table_keys, keys), len(table_keys) - 1)
    return np.where(table_keys[pos] == keys, table_counts[pos], 0)
