"""What :mod:`.jar_batch`'s steps read: the exact search's precomputed problem (:class:`.jar._Problem`)
of every segment of a batch, flattened into arrays per reference position and per candidate.

Two ways, the same arrays (tested: ``tests/test_meteor_jar_batch.py``): :func:`batch_of_lists`
runs the rule's ``_Problem.of`` segment by segment; :func:`batch_of_arrays` computes the same from
the candidates as flat arrays, with numpy and no Python object per candidate:

* a fixed candidate is the only one of its reference word and of its hypothesis word (two counts);
* the hypothesis words still wanted after position j: the words of the open candidates after j
  (one reverse scan over positions, all segments at once);
* a candidate continues a chunk into j + 1 when (j + 1, i + 1) is a candidate (a sorted search);
* the classes are the distinct sets of positive-gain hypothesis words of the open positions: each
  set is hashed (a sum of mixed words), positions grouped by (segment, size, hash) and every group's
  sets compared word for word (a collision hands the batch to :func:`batch_of_lists`); a class's
  number is its first position's, and a hypothesis word in several classes takes the last one's,
  as the rule's loop leaves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import jar
from .arrays import firsts, unique
from .jar import Candidates, _Problem

_ONE = np.uint64(1)
#: odd multiplier mixing a hypothesis word into a class's set hash
_SET_MIX = np.uint64(0x9E3779B97F4A7C15)


@dataclass(frozen=True)
class Packing:
    """The rule's score ``(weight, −chunks, −distance)`` as ``weight << W | (C − chunks) << D |
    (2^D − 1 − distance)``: larger is better, as the tuple; each field stays in its bits."""

    chunk_bits: int
    dist_bits: int

    @property
    def weight_shift(self) -> int:
        return self.chunk_bits + self.dist_bits

    def zero(self) -> int:
        return ((1 << self.chunk_bits) - 1 << self.dist_bits) | ((1 << self.dist_bits) - 1)


class Unpackable(Exception):
    """A batch whose scores do not fit one 63-bit integer (never within the work budget)."""


@dataclass
class Batch:
    """A batch's problems: per reference position (segment offset + j) the words still wanted
    (``relevant``, 64-bit words), the state cap, its class and the class's reference words from it
    on, the fixed match (word, doubled gain, module, continuation word; -1: none); per open
    position its candidates ``ptr[p]:ptr[p + 1]`` (word, module, distance, doubled gain,
    continuation word, class of a zero-gain match's word or -1, -2 for a positive gain, the
    class's reference words after the position); per class its hypothesis words; per segment the
    fixed matches' words."""

    n_ref: np.ndarray
    offset: np.ndarray
    words: int
    relevant: np.ndarray
    cap: np.ndarray
    tj: np.ndarray
    left_j: np.ndarray
    fixed_i: np.ndarray
    fixed_gain: np.ndarray
    fixed_mod: np.ndarray
    fixed_to: np.ndarray
    ptr: np.ndarray
    c_i: np.ndarray
    c_mod: np.ndarray
    c_dist: np.ndarray
    c_gain: np.ndarray
    c_to: np.ndarray
    c_class: np.ndarray
    c_left: np.ndarray
    class_mask: np.ndarray
    used0: np.ndarray
    pack: Packing


def _packing(n_ref: np.ndarray, dist_total: int, weights: Sequence[float]) -> Packing:
    """The score packing of a batch (distances at most ``dist_total``); :class:`Unpackable` when
    the fields need more than 62 bits."""
    most_ref = int(n_ref.max())
    pack = Packing(max(1, most_ref + 1).bit_length(), max(1, dist_total + 1).bit_length())
    most_gain = 2 * max([0, *(int(w) for w in weights)])
    if pack.weight_shift + (most_gain * most_ref + 1).bit_length() > 62:
        raise Unpackable
    return pack


def words_of(masks: list[int], n: int) -> np.ndarray:
    """Python int bit masks as rows of ``n`` 64-bit words (lowest first)."""
    if n == 1:
        return np.array(masks, dtype=np.uint64).reshape(len(masks), 1)
    low = (1 << 64) - 1
    return np.array([[(m >> (64 * w)) & low for w in range(n)] for m in masks],
                    dtype=np.uint64).reshape(len(masks), n)


def batch_of_lists(segments: Sequence[tuple[int, int, Candidates]], weights: Sequence[float]) -> Batch:
    """The batch of ``(n_hyp, n_ref, cands)`` segments from the rule's ``_Problem`` of each."""
    n_ref = np.array([m for _, m, _ in segments], dtype=np.int64)
    words = max(1, (max(h for h, _, _ in segments) + 63) // 64)
    relevant: list[int] = []
    at_rows: list[tuple[int, int, int, int, int, int, int]] = []
    counts: list[int] = []
    cand_rows: list[tuple[int, ...]] = []
    class_masks: list[int] = []
    used0: list[int] = []
    dist_total = 0
    for n_hyp, m, cands in segments:
        p = _Problem.of(n_hyp, m, cands, weights)
        first_class = len(class_masks)
        used0.append(sum(1 << i for i, _ in p.fixed.values()))
        class_masks.extend(p.class_mask)
        relevant.extend(p.relevant[:m])
        for j, cs in enumerate(cands):
            tj = p.class_of_ref[j]
            tj, left_j = (first_class + tj, p.refs_from[j]) if tj >= 0 else (-1, 0)
            cont, cap = p.continues[j], max(8, jar.WORK_CAP // max(len(cs), 1))
            fixed = p.fixed.get(j)
            if fixed is not None:
                i, mod = fixed
                at_rows.append((cap, tj, left_j, i, 2 * p.gains[mod], mod, i if i in cont else -1))
                dist_total += abs(j - i)
                counts.append(0)
                continue
            at_rows.append((cap, tj, left_j, -1, 0, -1, -1))
            counts.append(len(cs))
            for i, mod in cs:
                ti = p.class_of_hyp[i] if p.gains[mod] == 0 else -2
                cand_rows.append((i, mod, abs(j - i), 2 * p.gains[mod], i if i in cont else -1,
                                  first_class + ti if ti >= 0 else ti,
                                  p.refs_after(ti, j) if ti >= 0 else 0))
                dist_total += abs(j - i)
    at = np.array(at_rows, dtype=np.int64).reshape(len(at_rows), 7).T.copy()
    cand = np.array(cand_rows, dtype=np.int64).reshape(len(cand_rows), 7).T.copy()
    return Batch(n_ref, _offsets(n_ref), words, words_of(relevant, words), at[0], at[1], at[2], at[3],
                 at[4], at[5], at[6], _offsets(np.array(counts, dtype=np.int64)), cand[0], cand[1],
                 cand[2], cand[3], cand[4], cand[5], cand[6], words_of(class_masks, words),
                 words_of(used0, words), _packing(n_ref, dist_total, weights))


def _offsets(counts: np.ndarray) -> np.ndarray:
    return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)


def _bits(i: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(64-bit word, bit) of hypothesis word i in a mask."""
    return i >> 6, _ONE << (i & 63).astype(np.uint64)


def _or_into(out: np.ndarray, rows: np.ndarray, i: np.ndarray) -> None:
    """Set hypothesis words ``i`` in mask rows ``rows`` of ``out``."""
    w, bit = _bits(i)
    np.bitwise_or.at(out, (rows, w), bit)


def _relevant(n_ref: np.ndarray, offset: np.ndarray, own: np.ndarray) -> np.ndarray:
    """Per position, the OR of ``own`` over the segment's later positions."""
    out = np.zeros_like(own)
    for t in range(int(n_ref.max()) - 2, -1, -1):
        at = offset[:-1][n_ref > t + 1] + t
        out[at] = out[at + 1] | own[at + 1]
    return out


def _mix(x: np.ndarray) -> np.ndarray:
    x = (x.astype(np.uint64) + _ONE) * _SET_MIX
    x ^= x >> np.uint64(31)
    return x * np.uint64(0xBF58476D1CE4E5B9)


@dataclass
class _Classes:
    """Per open position with positive-gain candidates (``pos``): its class (``group``); per class
    its first position, its positions in order (``key`` = class × positions + position, sorted)
    and where they end; per (class, hypothesis word) membership, both."""

    pos: np.ndarray
    group: np.ndarray
    first: np.ndarray
    key: np.ndarray
    end: np.ndarray
    member_group: np.ndarray
    member_word: np.ndarray


def _classes(pos: np.ndarray, word: np.ndarray, seg_of_pos: np.ndarray, positions: int
             ) -> _Classes | None:
    """The classes of the open positions' positive-gain words (``pos``, ``word``: one row per
    candidate, hypothesis words offset per segment); None if two different sets share a hash."""
    width = int(word.max()) + 1 if len(word) else 1
    pair = unique(pos * width + word)  # (a word found by two modules: once)
    u_pos, u_word = pair // width, pair % width
    start = np.flatnonzero(firsts(u_pos))
    cpos, size = u_pos[start], np.diff(np.append(start, len(u_pos)))
    set_hash = np.add.reduceat(_mix(u_word), start) if len(start) else np.zeros(0, dtype=np.uint64)
    order = np.lexsort((cpos, set_hash, size, seg_of_pos[cpos]))
    g_seg, g_size, g_hash = seg_of_pos[cpos][order], size[order], set_hash[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = (g_seg[1:] != g_seg[:-1]) | (g_size[1:] != g_size[:-1]) | (g_hash[1:] != g_hash[:-1])
    group = np.empty(len(cpos), dtype=np.int64)
    group[order] = np.cumsum(new) - 1
    first_of_group = order[np.flatnonzero(new)]  # (index into cpos: the class's first position)
    owner = np.repeat(np.arange(len(cpos), dtype=np.int64), size)
    k = np.arange(len(u_word), dtype=np.int64) - np.repeat(start, size)
    if not np.array_equal(u_word, u_word[start[first_of_group[group[owner]]] + k]):
        return None
    first = cpos[first_of_group]
    number = np.empty(len(first), dtype=np.int64)  # classes numbered in order of first position
    number[np.argsort(first)] = np.arange(len(first), dtype=np.int64)
    group = number[group]
    by_class = np.lexsort((cpos, group))
    key = group[by_class] * positions + cpos[by_class]
    end = np.cumsum(np.bincount(group, minlength=len(first)))
    return _Classes(cpos, group, np.sort(first), key, end, group[owner], u_word)


def batch_of_arrays(n_hyp: np.ndarray, n_ref: np.ndarray, seg: np.ndarray, j: np.ndarray, i: np.ndarray,
                    mod: np.ndarray, weights: Sequence[float]) -> Batch | None:
    """:func:`batch_of_lists` from the candidates as arrays (one row per candidate: segment,
    reference word, hypothesis word, module; in the rule's order per reference word, reference
    words in order); None where two classes' hashes collide."""
    words = max(1, (int(n_hyp.max()) + 63) // 64)
    offset, h_off = _offsets(n_ref), _offsets(n_hyp)
    positions, n_seg = int(offset[-1]), len(n_ref)
    pos, hpos = offset[seg] + j, h_off[seg] + i
    gain = np.array([int(w) for w in weights], dtype=np.int64)[mod] if len(mod) else mod
    count = np.bincount(pos, minlength=positions)
    fixed = (count[pos] == 1) & (np.bincount(hpos, minlength=int(h_off[-1]))[hpos] == 1)
    opened = ~fixed
    relevant = np.zeros((positions, words), dtype=np.uint64)
    _or_into(relevant, pos[opened], i[opened])
    relevant = _relevant(n_ref, offset, relevant)
    width = int(n_hyp.max()) + 2
    known = np.sort(pos * width + i)
    after = (pos + 1) * width + i + 1
    found = known[np.minimum(np.searchsorted(known, after), max(len(known) - 1, 0))] == after \
        if len(known) else np.zeros(0, dtype=bool)
    to = np.where(found & (j + 1 < n_ref[seg]), i, -1)
    seg_of_pos = np.repeat(np.arange(n_seg, dtype=np.int64), n_ref)
    positive = opened & (gain > 0)
    cl = _classes(pos[positive], hpos[positive], seg_of_pos, positions)
    if cl is None:
        return None
    tj, left_j = np.full(positions, -1, dtype=np.int64), np.zeros(positions, dtype=np.int64)
    tj[cl.pos] = cl.group
    left_j[cl.pos] = cl.end[cl.group] - np.searchsorted(cl.key, cl.group * positions + cl.pos)
    class_of_hyp = np.full(int(h_off[-1]), -1, dtype=np.int64)
    last = np.lexsort((cl.first[cl.member_group], cl.member_word))  # the last-made class wins
    w_sorted = cl.member_word[last]
    tail = np.append(w_sorted[1:] != w_sorted[:-1], True) if len(last) else np.zeros(0, dtype=bool)
    class_of_hyp[w_sorted[tail]] = cl.member_group[last][tail]
    class_mask = np.zeros((len(cl.end), words), dtype=np.uint64)
    _or_into(class_mask, cl.member_group, cl.member_word - h_off[seg_of_pos[cl.first[cl.member_group]]])
    o_pos, o_gain = pos[opened], gain[opened]
    ti = np.where(o_gain == 0, class_of_hyp[hpos[opened]], -2)
    c_left = np.where(ti >= 0, cl.end[np.maximum(ti, 0)] - np.searchsorted(
        cl.key, np.maximum(ti, 0) * positions + o_pos, side="right"), 0) if len(cl.end) else 0 * ti
    f_rows = np.flatnonzero(fixed)
    f_at = np.full((4, positions), -1, dtype=np.int64)
    f_at[:, pos[f_rows]] = i[f_rows], 2 * gain[f_rows], mod[f_rows], to[f_rows]
    f_at[1][f_at[1] < 0] = 0
    used0 = np.zeros((n_seg, words), dtype=np.uint64)
    _or_into(used0, seg[f_rows], i[f_rows])
    return Batch(n_ref, offset, words, relevant, np.maximum(8, jar.WORK_CAP // np.maximum(count, 1)), tj,
                 left_j, f_at[0], f_at[1], f_at[2], f_at[3], _offsets(np.where(f_at[0] >= 0, 0, count)),
                 i[opened], mod[opened],
                 np.abs(j - i)[opened], 2 * o_gain, to[opened], ti, c_left, class_mask, used0,
                 _packing(n_ref, int(np.abs(j - i).sum()), weights))


@dataclass(frozen=True)
class FlatCandidates:
    """Segments' candidates as arrays: per segment its lengths; per candidate its segment,
    reference word, hypothesis word and module, in the rule's order per reference word, reference
    words in order, segments in order."""

    n_hyp: np.ndarray
    n_ref: np.ndarray
    seg: np.ndarray
    j: np.ndarray
    i: np.ndarray
    mod: np.ndarray

    @classmethod
    def of_lists(cls, segments: Sequence[tuple[int, int, Candidates]]) -> FlatCandidates:
        rows = [(s, j, i, m) for s, (_, _, cands) in enumerate(segments) for j, cs in enumerate(cands)
                for i, m in cs]
        cols = np.array(rows, dtype=np.int64).reshape(len(rows), 4).T
        return cls(np.array([n for n, _, _ in segments], dtype=np.int64),
                   np.array([m for _, m, _ in segments], dtype=np.int64), *cols)

    def take(self, part: np.ndarray) -> FlatCandidates:
        """The segments ``part`` (numbered 0, 1, ... in that order)."""
        ptr = _offsets(np.bincount(self.seg, minlength=len(self.n_ref)))
        lo, n = ptr[part], ptr[part + 1] - ptr[part]
        rows = np.repeat(lo - np.cumsum(n) + n, n) + np.arange(int(n.sum()), dtype=np.int64)
        seg = np.repeat(np.arange(len(part), dtype=np.int64), n)
        return FlatCandidates(self.n_hyp[part], self.n_ref[part], seg, self.j[rows], self.i[rows],
                              self.mod[rows])

    def lists(self) -> list[tuple[int, int, list[list[tuple[int, int]]]]]:
        """The segments as ``(n_hyp, n_ref, cands)``."""
        out: list[tuple[int, int, list[list[tuple[int, int]]]]] = [
            (n, m, [[] for _ in range(m)]) for n, m in zip(self.n_hyp.tolist(), self.n_ref.tolist())]
        for s, j, i, m in zip(self.seg.tolist(), self.j.tolist(), self.i.tolist(), self.mod.tolist()):
            out[s][2][j].append((i, m))
        return out

    def batch(self, weights: Sequence[float]) -> Batch:
        """:func:`batch_of_arrays`, or :func:`batch_of_lists` where two class hashes collide."""
        return batch_of_arrays(self.n_hyp, self.n_ref, self.seg, self.j, self.i, self.mod, weights) \
            or batch_of_lists(self.lists(), weights)
