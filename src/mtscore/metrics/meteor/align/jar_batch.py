"""The exact 1.5 search of many segments at once, with numpy: equal to :func:`.jar.align_jar`
segment by segment, state for state (tested equal on random candidates and on WMT22:
``tests/test_meteor_jar_batch.py``, ``benchmarks/meteor_align.py --mode jar``).

The rule's dynamic program keeps, per reference position, a dict of states ``(used hypothesis words
& relevant, continuation word) -> (score, chain)`` in insertion order; a key's first insertion
fixes its place, a later strictly better value replaces its value; dominated states are dropped
(:func:`.jar._undominated`); where a segment holds more states than its cap, the best are kept in
``heapq.nlargest``'s order (score descending, then place). Every one of these orders decides ties,
and the cap decides the result of a bounded search, so all are kept here:

* all segments of a batch step through their reference positions together; a state is a row
  (segment, used words as 64-bit words, continuation word, score, chain node), rows ordered by
  segment, then place;
* the score ``(doubled weight, −chunks, −distance)`` is one integer (:class:`_Packing`: fields
  that never borrow, compared as the tuple);
* a step makes each state's children in the rule's order (the fixed match; or each candidate,
  then the skip); one sort on (hash of segment and used words, continuation word, row) groups
  each key's children in that order (hash collisions are checked: the full sort then): the first
  of best score is the rule's value, the first row its place;
* the same sort groups the states of equal used words: their best gives the dominance test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import jar
from .arrays import by_reference_position, chain_nodes
from .jar import Candidates, Match, align_jar
from .jar_batch_setup import Batch, FlatCandidates, Unpackable

_ONE = np.uint64(1)


@dataclass
class _States:
    """One row per state, rows ordered by segment then the rule's dict order."""

    seg: np.ndarray
    used: np.ndarray
    last: np.ndarray
    score: np.ndarray
    node: np.ndarray

    def take(self, rows: np.ndarray) -> _States:
        return _States(self.seg[rows], _rows(self.used, rows), self.last[rows], self.score[rows],
                       self.node[rows])


def _rows(masks: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``masks[rows]`` (``take``: several times faster on rows of 64-bit words)."""
    return masks.take(rows, axis=0)


def _popcount(masks: np.ndarray) -> np.ndarray:
    """The number of bits set in each row of 64-bit words."""
    counts = np.bitwise_count(masks)
    return counts[:, 0] if counts.shape[1] == 1 else counts.sum(axis=1, dtype=np.int64)


def _group_firsts(keys: np.ndarray) -> np.ndarray:
    """Whether each row of sorted ``keys`` starts a run."""
    return np.concatenate([[True], keys[1:] != keys[:-1]]) if len(keys) else np.zeros(0, dtype=bool)


def _capped(seg: np.ndarray, score: np.ndarray, caps: np.ndarray | int, n_seg: int, inexact: np.ndarray
            ) -> np.ndarray | None:
    """The rule's ``dict(nlargest(cap, states.items(), key=score))`` for every segment holding
    more than its cap (``caps``: per row, its segment's, or one for all), marking those segments
    inexact: the rows kept, in their new order (None: none over its cap). (Rows are in the rule's
    order per segment; segments may interleave.)"""
    per_seg = np.bincount(seg, minlength=n_seg)
    over = per_seg[seg] > caps
    if not over.any():
        return None
    inexact[seg[over]] = True
    rows = np.flatnonzero(over)
    order = rows[_by_segment_best_first(seg[rows], score[rows])]
    s = seg[order]
    first = np.flatnonzero(_group_firsts(s))
    rank = np.arange(len(s), dtype=np.int64) - np.repeat(first, np.diff(np.append(first, len(s))))
    return np.concatenate([np.flatnonzero(~over), order[rank < (caps[order] if isinstance(caps, np.ndarray)
                                                                 else caps)]])


def _by_segment_best_first(seg: np.ndarray, score: np.ndarray) -> np.ndarray:
    """``np.lexsort((-score, seg))`` (stable: ties in row order), as one stable sort of
    ``seg · 2^b + (most − score)`` where that fits in 63 bits."""
    most = int(score.max())
    bits = (most - int(score.min())).bit_length()
    if int(seg.max()).bit_length() + bits > 62:
        return np.lexsort((-score, seg))
    return np.argsort((seg << bits) | (most - score), kind="stable")


def _cap(st: _States, caps: np.ndarray | int, n_seg: int, inexact: np.ndarray) -> _States:
    """:func:`_capped` of the states."""
    rows = _capped(st.seg, st.score, caps, n_seg, inexact)
    return st if rows is None else st.take(rows)


@dataclass
class _Open:
    """What a batch's children read, by their source: each candidate; then one more, the skip, a
    candidate of no word (bit 0: never taken; class -3: blocked exactly where the reference word
    may not go without its exact match; distance, gain and chunk 0; no continuation); then
    (``fixed`` on) each position's fixed match (bit 0: its word is used from the start). Per source:
    the 64-bit word and bit of its hypothesis word, the hypothesis word, module and continuation
    word; per candidate and the skip: the word before it (-2 for none: no chunk continues), its
    score change when it starts a chunk (doubled gain shifted, less a chunk), class, the class's
    reference words after the position, and distance."""

    i: np.ndarray
    word: np.ndarray
    bit: np.ndarray
    mod: np.ndarray
    to: np.ndarray
    prev: np.ndarray
    gain: np.ndarray
    cls: np.ndarray
    left: np.ndarray
    dist: np.ndarray
    skip: int
    fixed: int
    #: per reference position t: whether some segment's cap there is below STATE_CAP (else no
    #: segment can hold more states than its cap at t: the last step kept at most STATE_CAP)
    tight: np.ndarray

    @classmethod
    def of(cls, b: Batch) -> _Open:
        chunk = np.int64(1 << b.pack.dist_bits)
        n = len(b.c_i)

        def plus(x: np.ndarray, last: int, then: np.ndarray | None = None) -> np.ndarray:
            tail = np.zeros(0, dtype=np.int64) if then is None else then
            return np.concatenate([x.astype(np.int64), [last], tail.astype(np.int64)])
        c_i = b.c_i.astype(np.int64)
        zeros = np.zeros(len(b.fixed_i), dtype=np.int64)
        bit = np.zeros(n + 1 + len(zeros), dtype=np.uint64)
        bit[:n] = _ONE << (c_i & 63).astype(np.uint64)
        return cls(plus(c_i, -1, b.fixed_i), plus(c_i >> 6, 0, zeros), bit, plus(b.c_mod, -1, b.fixed_mod),
                   plus(b.c_to, -1, b.fixed_to), plus(np.where(c_i > 0, c_i - 1, -2), -2),
                   plus((b.c_gain << np.int64(b.pack.weight_shift)) - chunk, 0), plus(b.c_class, -3),
                   plus(b.c_left, 0), plus(b.c_dist, 0), n, n + 1, _tight(b))


def _tight(b: Batch) -> np.ndarray:
    """:attr:`_Open.tight`."""
    seg_of = np.repeat(np.arange(len(b.n_ref), dtype=np.int64), b.n_ref)
    low = np.flatnonzero(b.cap < jar.STATE_CAP)
    tight = np.zeros(int(b.n_ref.max()) + 1, dtype=bool)
    tight[low - b.offset[seg_of[low]]] = True
    return tight


def _taken(used: np.ndarray, rows: np.ndarray, word: np.ndarray, bit: np.ndarray) -> np.ndarray:
    """Whether the bits ``bit`` of 64-bit words ``word`` are set in mask rows ``rows``."""
    if used.shape[1] == 1:
        return (used[:, 0][rows] & bit) != 0
    return (used.reshape(-1).take(rows * used.shape[1] + word) & bit) != 0


def _children(b: Batch, o: _Open, st: _States, at: np.ndarray) -> tuple[np.ndarray, ...]:
    """Every child of every state (``at``: its position), in the rule's order per segment (by
    parent row, then the fixed match, or each candidate then the skip): parent row, score and
    source (:class:`_Open`)."""
    pack = b.pack
    wshift, chunk = np.int64(pack.weight_shift), np.int64(1 << pack.dist_bits)
    fixed = b.fixed_i[at] >= 0
    f_rows = np.flatnonzero(fixed)
    f_at = at[f_rows]
    f_i = b.fixed_i[f_at]
    f_cont = (st.last[f_rows] >= 0) & (st.last[f_rows] == f_i - 1)
    f_score = st.score[f_rows] + (b.fixed_gain[f_at] << wshift) - np.where(f_cont, 0, chunk) \
        - np.abs(f_at - b.offset[st.seg[f_rows]] - f_i)
    o_rows = np.flatnonzero(~fixed)
    o_at = at[o_rows]
    lo = b.ptr[o_at]
    counts = b.ptr[o_at + 1] - lo + 1  # candidates, then the skip
    n = int(counts.sum())
    ends = np.cumsum(counts)
    starts = ends - counts
    rep = np.repeat(o_rows, counts)
    cand = np.repeat(lo - starts, counts) + np.arange(n, dtype=np.int64)
    cand[ends - 1] = o.skip
    # free: may this reference word go without its exact match?
    tj = b.tj[o_at]
    has_class = tj >= 0
    free = np.ones(len(o_rows), dtype=bool)
    if has_class.any():
        cls = _rows(b.class_mask, tj[has_class])
        free[has_class] = b.left_j[o_at][has_class] > _popcount(cls & ~_rows(st.used, o_rows[has_class]))
    free_rep = np.repeat(free, counts)
    taken = _taken(st.used, rep, o.word[cand], o.bit[cand])
    ti = o.cls[cand]
    lose = free_rep & (ti >= 0)
    if lose.any():
        idx = np.flatnonzero(lose)
        lose[idx] = _popcount(_rows(b.class_mask, ti[idx]) & ~_rows(st.used, rep[idx])) <= o.left[cand[idx]]
    blocked = (ti != -2) & (~free_rep | lose)
    counted = np.where(taken, 0, o.dist[cand])
    before = np.cumsum(counted) - counted
    passed = before - np.repeat(before[starts], counts)
    keep = np.flatnonzero(~taken & ~blocked)
    rep, cand = rep[keep], cand[keep]
    o_score = st.score[rep] + o.gain[cand] - passed[keep]
    o_score += (st.last[rep] == o.prev[cand]) * chunk
    return np.concatenate([f_rows, rep]), np.concatenate([f_score, o_score]), \
        np.concatenate([f_at + o.fixed, cand])


class _Nodes:
    """The chains of chosen matches: node -> (parent node or -1, hypothesis word, reference word,
    module)."""

    def __init__(self) -> None:
        self.parts: list[tuple[np.ndarray, ...]] = []
        self.count = 0

    def add(self, parents: np.ndarray, i: np.ndarray, j: np.ndarray, mod: np.ndarray) -> np.ndarray:
        self.parts.append((parents, i, j, mod))
        self.count += len(parents)
        return self.count - len(parents) + np.arange(len(parents), dtype=np.int64)

    def chains(self, ends: Sequence[int]) -> list[list[Match]]:
        """The sorted matches of the chains ending at nodes ``ends`` (-1: none)."""
        out: list[list[Match]] = [[] for _ in ends]
        if not self.parts:
            return out
        parents, ii, jj, mm = (np.concatenate([part[c] for part in self.parts]) for c in range(4))
        who, what = chain_nodes(parents, np.asarray(ends, dtype=np.int64))
        order = np.lexsort((mm[what], jj[what], ii[what], who))
        for s, i, j, m in zip(who[order].tolist(), ii[what][order].tolist(), jj[what][order].tolist(),
                              mm[what][order].tolist()):
            out[s].append((i, j, m))
        return out


def _step(b: Batch, o: _Open, st: _States, t: int, nodes: _Nodes, inexact: np.ndarray) -> _States:
    """Reference position t of every segment's program (the rule's loop body)."""
    n_seg = len(b.n_ref)
    if o.tight[t]:
        st = _cap(st, b.cap[b.offset[st.seg] + t], n_seg, inexact)
    at = b.offset[st.seg] + t
    parent, score, src = _children(b, o, st, at)
    if not len(parent):
        return st.take(np.zeros(0, dtype=np.int64))
    seg, to, bit = st.seg[parent], o.to[src], o.bit[src]
    used = _rows(st.used, parent)
    if used.shape[1] == 1:
        used[:, 0] |= bit
    else:
        flat = used.reshape(-1)
        flat[np.arange(0, flat.size, used.shape[1], dtype=np.int64) + o.word[src]] |= bit
    used &= _rows(b.relevant, at[parent])
    # rows in the rule's order per segment (a segment's parents are all fixed or all open), the
    # only order that matters: segments never share a key
    number = np.arange(len(parent), dtype=np.int64)
    groups = _hashed_groups(seg, used, to, score, number) or _sorted_groups(seg, used, to, score, number)
    win, place_of, used_group = groups
    # dominance (.jar._undominated): against the best of the states with the same used words
    sw = score[win]
    best = np.maximum.reduceat(sw, np.flatnonzero(_group_firsts(used_group)))[used_group]
    pack = b.pack
    wshift, dbits = pack.weight_shift, pack.dist_bits
    cmask = (1 << pack.chunk_bits) - 1
    s_w, b_w = sw >> wshift, best >> wshift
    gap = ((best >> dbits) & cmask) - ((sw >> dbits) & cmask)
    dmask = (1 << dbits) - 1
    drop = (b_w > s_w) | ((b_w == s_w) & ((gap > 1) | ((gap == 1) & ((best & dmask) > (sw & dmask)))))
    at_place = np.full(len(parent), -1, dtype=np.int64)  # the kept states in place order
    at_place[place_of[~drop]] = win[~drop]
    win = at_place[at_place >= 0]
    kept = _capped(seg[win], score[win], jar.STATE_CAP, n_seg, inexact)
    if kept is not None:
        win = win[kept]
    mod = o.mod[src[win]]
    took = np.flatnonzero(mod >= 0)
    node = st.node[parent[win]]
    node[took] = nodes.add(node[took], o.i[src[win[took]]], np.full(len(took), t, dtype=np.int64), mod[took])
    return _States(seg[win], _rows(used, win), to[win], score[win], node)


def _sorted_groups(seg: np.ndarray, used: np.ndarray, to: np.ndarray, score: np.ndarray,
                   number: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per key (segment, used words, continuation word) of the children: the row of its best child
    (the first by number of those of best score: the rule's value), its smallest number (its
    place in the rule's dict) and the index of its group of equal (segment, used words); keys
    ordered by group. One sort on all the key's columns."""
    keys = (number, -score, to, *(used[:, w] for w in range(used.shape[1] - 1, -1, -1)), seg)
    order = np.lexsort(keys)
    same_used = np.ones(len(order), dtype=bool)
    same_used[0] = False
    for w in range(used.shape[1]):
        u = used[order, w]
        same_used[1:] &= u[1:] == u[:-1]
    s_sorted = seg[order]
    same_used[1:] &= s_sorted[1:] == s_sorted[:-1]
    t_sorted = to[order]
    first = ~same_used
    first[1:] |= t_sorted[1:] != t_sorted[:-1]
    starts = np.flatnonzero(first)
    return order[starts], np.minimum.reduceat(number[order], starts), np.cumsum(~same_used[starts]) - 1


#: odd multipliers of the hash of (segment, used words)
_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9))
#: bits of the grouping key holding the continuation word + 1 (at most JAR_WORDS words)
_TO_BITS = 11


def _hashed_groups(seg: np.ndarray, used: np.ndarray, to: np.ndarray, score: np.ndarray,
                   number: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`_sorted_groups` for children in number order, from one sort of 64-bit keys: a hash
    of (segment, used words), the continuation word, the row. Rows of one hash are checked equal
    (None, for the full sort, if two ever collide)."""
    n = len(to)
    row_bits = max(1, (n - 1).bit_length())
    low = row_bits + _TO_BITS
    if 64 - low < 24 or int(to.max()) + 1 >= 1 << _TO_BITS:
        return None
    key = seg.astype(np.uint64)
    key *= _MIX[0]
    for w in range(used.shape[1]):
        key ^= used[:, w]
        key *= _MIX[1]
        key ^= key >> np.uint64(29)
    key >>= np.uint64(low)
    key <<= np.uint64(low)
    key |= ((to + 1) << row_bits).view(np.uint64)
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    order = (key & np.uint64((1 << row_bits) - 1)).view(np.int64)
    key >>= np.uint64(row_bits)
    change = key[1:] ^ key[:-1]  # (continuation word + 1 in the low _TO_BITS bits, the hash above)
    new_key, new_used = np.ones(n, dtype=bool), np.ones(n, dtype=bool)
    np.not_equal(change, 0, out=new_key[1:])
    np.greater_equal(change, np.uint64(1 << _TO_BITS), out=new_used[1:])
    pairs = np.flatnonzero(~new_used[1:])  # rows of one hash: equal (segment, used words)?
    a, b = order[pairs], order[pairs + 1]
    if not (seg[a] == seg[b]).all() or not (_rows(used, a) == _rows(used, b)).all():
        return None
    starts = np.flatnonzero(new_key)
    sc = score[order]
    best = np.maximum.reduceat(sc, starts)
    rows = np.arange(n, dtype=np.int64)
    at_best = np.minimum.reduceat(np.where(sc == np.repeat(best, np.diff(np.append(starts, n))), rows, n),
                                  starts)
    return order[at_best], number[order[starts]], np.cumsum(new_used[starts]) - 1


def _final(st: _States, done: np.ndarray, ends: np.ndarray) -> None:
    """The rule's ``max(states.values())`` of the segments whose rows are ``done``: the first
    state of best score."""
    rows = np.flatnonzero(done)
    seg = st.seg[rows]
    order = np.lexsort((-st.score[rows], seg))  # (stable: ties in row order)
    firsts = order[_group_firsts(seg[order])]
    ends[seg[firsts]] = st.node[rows[firsts]]


def align_jar_batch(segments: Sequence[tuple[int, int, Candidates]], align_weights: Sequence[float]
                    ) -> list[tuple[list[Match], bool]]:
    """:func:`.jar.align_jar` of every ``(n_hyp, n_ref, cands)`` in ``segments`` (both sides
    non-empty)."""
    return _search(FlatCandidates.of_lists(segments), align_weights) if segments else []


def _search(flat: FlatCandidates, align_weights: Sequence[float]) -> list[tuple[list[Match], bool]]:
    """:func:`.jar.align_jar` of every segment of ``flat``, all at once."""
    try:
        b = flat.batch(align_weights)
    except Unpackable:  # the rule, segment by segment
        return [(list(a), ok) for a, ok in (align_jar(n, m, c, align_weights) for n, m, c in flat.lists())]
    n_seg = len(flat.n_ref)
    st = _States(np.arange(n_seg, dtype=np.int64), b.used0.copy(), np.full(n_seg, -1, dtype=np.int64),
                 np.full(n_seg, b.pack.zero(), dtype=np.int64), np.full(n_seg, -1, dtype=np.int64))
    o = _Open.of(b)
    nodes = _Nodes()
    inexact = np.zeros(n_seg, dtype=bool)
    ends = np.full(n_seg, -1, dtype=np.int64)
    by_reference_position(st, b.n_ref, lambda rows, done: _final(rows, done, ends),
                          lambda rows, t: _step(b, o, rows, t, nodes, inexact))
    return list(zip(nodes.chains(ends.tolist()), (~inexact).tolist()))


#: most reference positions plus candidates of a batch of :func:`align_jar_many`
BATCH_WORK = 1 << 16
#: a mask width's segments with less load than BATCH_WORK // SMALL_CLASS join the next wider one's
SMALL_CLASS = 4


def _mask_words(n_hyp: np.ndarray, load: np.ndarray, work: int) -> np.ndarray:
    """64-bit words per mask of each segment: enough for its hypothesis, or more where its width's
    segments have less than ``work // SMALL_CLASS`` load (``load``: per segment) and a wider width
    has segments: they share its batches (a batch's steps cost alike whatever its rows; a wider
    mask changes no result)."""
    words = (n_hyp + 63) // 64
    widths = sorted(set(words.tolist()))
    for narrow in widths[-2::-1]:
        mine = words == narrow
        if int(load[mine].sum()) < work // SMALL_CLASS:
            words[mine] = words[words > narrow].min()
    return words


def align_jar_many(segments: Sequence[tuple[int, int, Candidates]], align_weights: Sequence[float],
                   work: int = BATCH_WORK) -> list[tuple[list[Match], bool]]:
    """:func:`align_jar_batch` in batches (:func:`align_jar_flat`); results in input order."""
    return align_jar_flat(FlatCandidates.of_lists(segments), align_weights, work) if segments else []


def align_jar_flat(flat: FlatCandidates, align_weights: Sequence[float], work: int = BATCH_WORK
                   ) -> list[tuple[list[Match], bool]]:
    """:func:`.jar.align_jar` of every segment of ``flat`` (both sides non-empty), in batches of
    segments with the same number of 64-bit words per mask and, past the first, at most ``work``
    reference positions plus candidates, shorter references first (a batch steps through its
    longest reference: batches of similar lengths take fewer steps); results in segment order."""
    n_seg = len(flat.n_ref)
    load_of = flat.n_ref + np.bincount(flat.seg, minlength=n_seg)
    words = _mask_words(flat.n_hyp, load_of, work)
    load = load_of.tolist()
    order = np.lexsort((flat.n_ref, words)).tolist()
    out: list[tuple[list[Match], bool]] = [([], True)] * n_seg
    lo = 0
    while lo < len(order):
        hi, total = lo + 1, load[order[lo]]
        while hi < len(order) and words[order[hi]] == words[order[lo]] and total + load[order[hi]] <= work:
            total += load[order[hi]]
            hi += 1
        part = order[lo:hi]
        for k, result in zip(part, _search(flat.take(np.array(part, dtype=np.int64)), align_weights)):
            out[k] = result
        lo = hi
    return out
