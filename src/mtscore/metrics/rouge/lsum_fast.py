"""The union LCS of ROUGE-Lsum for a whole corpus at once: the positions of every reference sentence
on the path :func:`.rules.lcs_indices` reads with any hypothesis sentence of its segment. Equals
:func:`.rules.union_lcs` for every reference sentence (tested); the fast path of
:func:`.counts.lsum_counts`.

Let T[i][j] be the LCS table of reference sentence a (rows i) and hypothesis sentence b (columns j).
The rule's step at a cell that is not a match goes left when T[i][j-1] > T[i-1][j], which is the
vertical step d(i, j) = T[i][j] - T[i-1][j] = 1 (then T[i][j] = T[i][j-1] = T[i-1][j] + 1), else
up. Every pair whose sentences fit one uint64 word on one side is read back in one of two
orientations, each with bit vectors of the bit-parallel LCS (:mod:`.lcs_fast`):

* **by column** (a of at most 64 tokens, the bits; b the steps): with W_j the bit vector of column j
  over the rows (bit i-1 is 0 where d(i, j) = 1), the path in column j goes up over every row with
  no match and d = 0 and stops at the highest row i' <= i set in E_j = M_j | ~W_j (M_j: the rows
  holding b[j-1]): diagonally (a marked position) on a match, else left. E_j is read off W_j itself.
* **by row** (b of at most 64 tokens, the bits; a the steps): with V_i the bit vector of row i over
  the columns, d(j) is bit j-1 of D_i = (V_i & ~V_{i-1}) - (V_{i-1} & ~V_i) (mod 2^64), which is
  V_i - V_{i-1}: a row moves the 0 bit that closes a block of 1 bits of V_{i-1} down to the block's
  lowest match, so d = 1 from that match up to the old 0 bit. From column j of row i the path goes
  left over every column with no match and d = 1 and stops at the highest column j' <= j set in
  E_i = M_i | ~D_i: diagonally (a marked position) on a match, else up.

A pair goes by column when a fits a word and b is shorter or does not (fewer steps), else by row;
with no such column or row the path has reached the table's edge and ends. Each step is one numpy
step for every pair at once, whatever its orientation: the steps of all pairs are stored ragged,
pairs ordered by decreasing number of steps, step s of the pairs that have one (a prefix of that
order) at ``offsets[s]``. The match masks are read from the equal tokens of the whole texts
(:func:`.token_join.join`, which ROUGE-1 and ROUGE-L share). Pairs with both sentences longer than
64 tokens go through :func:`.lcs_int.lcs_path` (Python integers).
"""

from __future__ import annotations

import numpy as np

from . import lcs_fast, lcs_int
from .corpus import EncodedTexts
from .token_join import Join, join, layout, stable_order, starts

_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_WORD = 64


def _token_places(lengths: np.ndarray, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every token's sentence key (``key``: one per sentence) and its place in its sentence
    (sentences of these lengths, tokens in order)."""
    token_key = np.repeat(key, lengths)
    place = np.arange(len(token_key), dtype=np.int64)
    place -= np.repeat(starts(lengths), lengths)
    return token_key, place


def _ragged_masks(hyp: EncodedTexts, ref: EncodedTexts, rank: np.ndarray, by_column: np.ndarray,
                  first_pair: np.ndarray, hyp_first: np.ndarray, offsets: np.ndarray,
                  matches: Join) -> np.ndarray:
    """The match masks of every step of every kept pair (``rank``: its place in the ragged
    layout, ``offsets[-1]`` if not kept), from the equal tokens of every segment (``matches``:
    :func:`.token_join.join` of the references (a) and the hypotheses (b), whole texts). A match
    of reference token r and hypothesis token h sets, in the cell of step h of pair
    first_pair[sentence of r] + (place of h's sentence in its segment), bit r (by column), or in
    its cell of step r, bit h (by row). The bits of one cell are distinct, so adding them is
    OR-ing them; the matches of pairs not kept all go to one cell past the end, dropped."""
    assert ref.sentence_lengths is not None and hyp.sentence_lengths is not None
    assert hyp.sentence_counts is not None
    total = int(offsets[-1])
    out = np.zeros(total + 1, dtype=np.uint64)
    r_key, r_place = _token_places(ref.sentence_lengths, first_pair)
    h_key, h_place = _token_places(hyp.sentence_lengths, np.arange(
        len(hyp.sentence_lengths), dtype=np.int64) - np.repeat(hyp_first, hyp.sentence_counts))
    segment = matches.pair.astype(np.int64)
    r_at = np.take(starts(ref.lengths), segment)  # the token in the whole corpus
    r_at += matches.row
    h_at = np.take(starts(hyp.lengths), segment)
    h_at += matches.col
    p = np.take(r_key, r_at)
    p += np.take(h_key, h_at)
    p = np.take(rank, p)
    step, bit = np.take(r_place, r_at), np.take(h_place, h_at)
    swap = np.subtract(bit, step)
    swap *= by_column.take(p, mode="clip")  # by column: the step is h, the bit r
    step += swap
    bit -= swap
    cell = offsets.take(step, mode="clip")  # past the end for a pair not kept
    cell += p
    np.minimum(cell, total, out=cell)
    np.add.at(out, cell, np.left_shift(np.uint64(1), bit.view(np.uint64), out=bit.view(np.uint64)))
    return out[:total]


def _stops(masks: np.ndarray, offsets: np.ndarray, by_row: np.ndarray) -> np.ndarray:
    """E = M | ~W (by column) or M | ~(V_i - V_{i-1}) (by row) of every step of every pair
    (ragged, like ``masks``; ``by_row``: per pair, in the ragged order). The steps, one numpy step
    each for all pairs: V = (V + U) | (V & ~M) with U = V & M (V & ~M is V ^ U), V the vector of
    the step before (all ones before the first), and V - (V_before & R) with R all ones by row,
    0 by column; E of all steps at once after."""
    stops = np.empty_like(masks)
    if not len(masks):
        return stops
    width = int(offsets[1])
    rows = np.empty(2 * width, dtype=np.uint64)  # two steps' vectors, in turn
    u = np.empty(width, dtype=np.uint64)
    keep = np.where(by_row, _ONES, np.uint64(0))
    old = rows[:width]
    old.fill(_ONES)
    bounds = offsets.tolist()
    for i in range(len(bounds) - 1):
        lo, hi = bounds[i], bounds[i + 1]
        n, at = hi - lo, (i + 1) % 2 * width
        new, u_here, old = rows[at:at + n], u[:n], old[:n]
        np.bitwise_and(old, masks[lo:hi], out=u_here)
        np.add(old, u_here, out=new)
        np.bitwise_xor(old, u_here, out=u_here)
        np.bitwise_or(new, u_here, out=new)
        np.bitwise_and(old, keep[:n], out=u_here)
        np.subtract(new, u_here, out=stops[lo:hi])
        old = new
    np.invert(stops, out=stops)
    return np.bitwise_or(stops, masks, out=stops)


#: the biased binary exponent of a positive float64 (its bits shifted right by 52: the sign is 0)
_BIAS = 1023
#: indexed by the biased exponent e of a word's highest bit alone as a float (bit length
#: k = e - 1022; 0 for the word 0): that bit (_TOP) and the bits below it and it (_BELOW)
_TOP = np.zeros(_BIAS + 64, dtype=np.uint64)
_TOP[_BIAS:] = [1 << k for k in range(64)]
_BELOW = np.zeros(_BIAS + 64, dtype=np.uint64)
_BELOW[_BIAS:] = [(1 << (k + 1)) - 1 for k in range(64)]


#: shift amounts as arrays of no dimension: numpy takes a scalar operand on a slower path, which
#: costs more than the operation on the few words of a deep step
_ONE = np.array(1, dtype=np.uint64)
_EXPONENT_AT = np.array(52, dtype=np.int64)


def _highest_exponent(x: np.ndarray, y: np.ndarray, f: np.ndarray) -> np.ndarray:
    """The biased float exponent of the highest set bit of each x (0 for x = 0), as int64 (numpy
    gathers with other index types take a slower, casting path): the exponent of
    y = x & ~(x >> 1) as a float. y keeps the top bit of each run of ones, so its bits are at
    least two apart and y < 4/3 of its highest bit, which rounding to 53 bits cannot carry to
    the next power of two. (``y``, ``f``: uint64 and float64 buffers of x's length; the
    exponent is written over ``f``.)"""
    np.right_shift(x, _ONE, y)
    np.invert(y, y)
    np.bitwise_and(y, x, y)
    np.copyto(f, y, casting="unsafe")
    exponent = f.view(np.int64)
    return np.right_shift(exponent, _EXPONENT_AT, exponent)


def _walk(masks: np.ndarray, stops: np.ndarray, offsets: np.ndarray, start: np.ndarray
          ) -> np.ndarray:
    """The marked bit (the match stepped on diagonally) of every cell: every pair's path from
    its last cell (the bits below ``start``), a step at a time. The steps are walked from the
    deepest up, every pair joining at its own last step, so that all pairs on the walk are at the
    same step: the prefix of the pairs that have it, read as slices of the ragged cells. At each
    step the path stops at the highest bit of E below it, and goes on below that bit after a
    diagonal step, from that bit otherwise: the mask of the bits up to it without the marked bit.
    A path that has marked its LCS length is at a cell of table value 0 (each diagonal step lowers
    the value by one, the other steps keep it), with no match before it: it marks nothing more,
    so it needs no stopping. (The temporaries are buffers of the widest step, reused, and an
    operation in place is given the same view as input and output: numpy checks two views of
    one buffer for overlap, which costs more than a deep step's words.)"""
    below = lcs_fast._LOW[start]
    marked = np.zeros(len(masks), dtype=np.uint64)
    y, f = np.empty_like(below), np.empty(len(below), dtype=np.float64)
    bounds = offsets.tolist()
    for i in range(len(bounds) - 2, -1, -1):
        lo, hi = bounds[i], bounds[i + 1]
        here = below[:hi - lo]
        e = _highest_exponent(np.bitwise_and(stops[lo:hi], here, here), y[:hi - lo], f[:hi - lo])
        diagonal = np.bitwise_and(masks[lo:hi], _TOP[e], marked[lo:hi])
        np.bitwise_xor(_BELOW[e], diagonal, here)
    return marked


def _plan(la: np.ndarray, lb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the pairs read back on uint64 words, ordered by decreasing steps (stably); whether each
    goes by column; its steps): by column when a fits a word and b is no longer or does not fit,
    by row when only b fits."""
    live = (la > 0) & (lb > 0)
    by_column = (la <= _WORD) & ((lb <= la) | (lb > _WORD))
    kept = np.flatnonzero(live & (by_column | (lb <= _WORD)))
    steps = np.where(by_column, lb, la)[kept]
    order = stable_order(int(steps.max()) - steps) if len(kept) else kept
    return kept[order], by_column[kept[order]], steps[order]


def _long_pairs(union: np.ndarray, hyp: EncodedTexts, ref: EncodedTexts, pair_ref: np.ndarray,
                pair_hyp: np.ndarray, long: np.ndarray) -> None:
    """Mark in ``union`` the path positions of these pairs (both sentences over 64 tokens) by
    :func:`.lcs_int.lcs_path`, on Python integers."""
    assert hyp.sentence_lengths is not None and ref.sentence_lengths is not None
    r_len, h_len = ref.sentence_lengths, hyp.sentence_lengths
    r_start, h_start = starts(r_len), starts(h_len)
    for r, h in zip(pair_ref[long].tolist(), pair_hyp[long].tolist()):
        start = int(r_start[r])
        a = ref.ids[start:start + int(r_len[r])].tolist()  # only these tokens as Python ints
        b = hyp.ids[int(h_start[h]):int(h_start[h] + h_len[h])].tolist()
        union[[start + i for i in lcs_int.lcs_path(a, b)]] = True


def union_marks(hyp: EncodedTexts, ref: EncodedTexts, pair_ref: np.ndarray, pair_hyp: np.ndarray,
                first_pair: np.ndarray, hyp_first: np.ndarray, matches: Join | None = None
                ) -> np.ndarray:
    """A bool per reference token: on the union LCS of its sentence with the hypothesis sentences
    of its segment (``pair_ref``/``pair_hyp``: every (reference sentence, hypothesis sentence) of
    a segment, reference sentences in order; ``first_pair``: each reference sentence's first pair;
    ``hyp_first``: each segment's first hypothesis sentence)."""
    assert hyp.sentence_lengths is not None and ref.sentence_lengths is not None
    la, lb = ref.sentence_lengths[pair_ref], hyp.sentence_lengths[pair_hyp]
    union = np.zeros(len(ref.ids), dtype=bool)
    long = np.flatnonzero((la > _WORD) & (lb > _WORD))
    if len(long):
        _long_pairs(union, hyp, ref, pair_ref, pair_hyp, long)
    kept, by_column, steps = _plan(la, lb)
    if not len(kept):
        return union
    active = np.searchsorted(-steps, -np.arange(int(steps[0])), "left")  # pairs with > s steps
    offsets = np.concatenate(([0], np.cumsum(active))).astype(np.int64)
    rank = np.full(len(pair_ref), offsets[-1], dtype=np.int64)
    rank[kept] = np.arange(len(kept), dtype=np.int64)
    if matches is None:
        matches = join(layout(ref.ids, ref.lengths, hyp.ids, hyp.lengths))
    masks = _ragged_masks(hyp, ref, rank, by_column, first_pair, hyp_first, offsets, matches)
    stops = _stops(masks, offsets, ~by_column)
    marked = _walk(masks, stops, offsets, np.where(by_column, la[kept], lb[kept]))
    at = np.flatnonzero(marked != 0)  # (faster on bools)
    per_step = np.diff(np.searchsorted(at, offsets))  # marks in each step's cells
    step = np.repeat(np.arange(len(per_step), dtype=np.int64), per_step)
    p = at - np.repeat(offsets[:-1], per_step)
    bit = (marked[at].astype(np.float64).view(np.int64) >> 52) - _BIAS  # a power of two: exact
    first = starts(ref.sentence_lengths)[pair_ref[kept]]  # each pair's reference sentence
    union[first[p] + np.where(by_column[p], bit, step)] = True
    return union
