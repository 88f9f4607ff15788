"""The union LCS of ROUGE-Lsum for a whole corpus at once: the positions of every reference sentence
on the path :func:`.rules.lcs_indices` reads with any hypothesis sentence of its segment. Equals
:func:`.rules.union_lcs` for every reference sentence (tested); the fast path of
:func:`.counts.lsum_counts`.

Let T[i][j] be the LCS table of reference sentence a (rows i) and hypothesis sentence b (columns j).
The rule's step at a cell that is not a match goes left when T[i][j-1] > T[i-1][j], which is the
vertical step d(i, j) = T[i][j] - T[i-1][j] = 1 (then T[i][j] = T[i][j-1] = T[i-1][j] + 1), else
up. Every pair whose sentences fit one uint64 word on one side is read back in one of two
orientations, each with bit vectors of the bit-parallel LCS (:mod:`.lcs_fast`):

* **by column** (a, the bits; b the steps): with W_j the bit vector of column j over the rows
  (bit i-1 is 0 where d(i, j) = 1), the path in column j goes up over every row with no match and
  d = 0 and stops at the highest row i' <= i set in E_j = M_j | ~W_j (M_j: the rows holding
  b[j-1]): diagonally (a marked position) on a match, else left. E_j is read off W_j itself.
* **by row** (b, the bits; a the steps): with V_i the bit vector of row i over the columns, d(j) is
  bit j-1 of D_i = (V_i & ~V_{i-1}) - (V_{i-1} & ~V_i), which is V_i - V_{i-1}: a row moves the 0
  bit that closes a block of 1 bits of V_{i-1} down to the block's lowest match, so d = 1 from that
  match up to the old 0 bit. From column j of row i the path goes left over every column with no
  match and d = 1 and stops at the highest column j' <= j set in E_i = M_i | ~D_i: diagonally (a
  marked position) on a match, else up.

The shorter sentence gives the steps (by column when b is no longer than a), so a pair takes at
most 64 steps when its shorter sentence fits a word. Its longer sentence, the bits, takes one
uint64 word, or two (65 to 128 tokens): the vectors are then 128-bit numbers, the carry of the low
word's addition (and the borrow of its subtraction, by row) passed to the high word; the path
searches the high word and goes on in the low word when the high word has no stop. With no such
column or row the path has reached the table's edge and ends. Each step is one numpy step for
every pair at once, whatever its orientation: the steps of all pairs are stored ragged, a lane per
word, lanes ordered by decreasing number of steps, step s of the lanes that have one (a prefix of
that order) at ``offsets[s]``. The two-word pairs come first, each taking as many steps as the
deepest pair: past its own steps a lane has no match and stops everywhere, which its path crosses
without moving or marking (see :func:`_past_the_end`). The match masks are read from the equal
tokens of the whole texts (:func:`.token_join.join`, which ROUGE-1 and ROUGE-L share). Pairs
whose shorter sentence is longer than 64 tokens or whose longer one is longer than 128 go through
:func:`.lcs_int.lcs_path` (Python integers).

Memory: past the masks and stops (a uint64 per cell each), the temporaries are kept small, since
the heap a call touches is what it faults in again when glibc has trimmed it: the masks are set a
block of matches at a time in buffers made once, a token's sentence and place are one int64, the
walk reads its bit tables into a buffer (no new array per step), and every array is freed once
dead. A lane's orientation is an int64 mask (all ones by column), so that choosing between a
match's step and bit, or a mark's, is an AND.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..sorting import stable_order
from . import lcs_fast, lcs_int
from .corpus import EncodedTexts
from .token_join import Join, join, layout, starts

_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_WORD = 64


@dataclass(frozen=True)
class _Lanes:
    """The lanes of the ragged layout, in its order: each lane's ``pair``, its first bit
    (``low``: 0, or 64 for the high word of a two-word pair), whether its pair goes by column
    (``by_column``: an int64 of all ones if so, else 0, to mask with),
    its ``steps`` in the layout and its pair's own (``own``), and the bits below its path's
    start (``start``: the longer sentence's length, in this word). The ``two`` first lanes are
    the two-word pairs', low word then high word, each with the deepest pair's steps."""

    pair: np.ndarray
    low: np.ndarray
    by_column: np.ndarray
    steps: np.ndarray
    own: np.ndarray
    start: np.ndarray
    two: int


def _on_words(la: np.ndarray, lb: np.ndarray) -> np.ndarray:
    """Whether each pair is read back on uint64 words: both sentences non-empty, the shorter
    one of at most 64 tokens (the steps), the longer of at most 128 (the bits, two words)."""
    short = np.minimum(la, lb)
    return (short > 0) & (short <= _WORD) & (np.maximum(la, lb) <= 2 * _WORD)


def _plan(la: np.ndarray, lb: np.ndarray, kept: np.ndarray) -> _Lanes:
    """The :class:`_Lanes` of the ``kept`` pairs: the two-word pairs' (in pair order), then the
    one-word pairs' by decreasing steps (stably)."""
    short, long = np.minimum(la, lb), np.maximum(la, lb)
    two = np.flatnonzero(kept & (long > _WORD))
    one = np.flatnonzero(kept & (long <= _WORD))
    one = one[stable_order(_WORD - short[one])]
    pair = np.concatenate([np.repeat(two, 2), one])
    low = np.zeros(len(pair), dtype=np.int64)
    low[1:2 * len(two):2] = _WORD
    own = short[pair]
    steps = own.copy()
    steps[:2 * len(two)] = int(own.max())
    start = lcs_fast._LOW[np.clip(long[pair] - low, 0, _WORD)]
    by_column = np.negative((lb <= la)[pair], dtype=np.int64)  # -1: all ones
    return _Lanes(pair, low, by_column, steps, own, start, 2 * len(two))


def _token_codes(lengths: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Every token's sentence key (``key``: one per sentence, below 2**31) times 2**32 plus its
    place in its sentence (sentences of these lengths, tokens in order): one gather per match
    reads both."""
    code = np.left_shift(key, _HALF) - starts(lengths)
    code = np.repeat(code, lengths)
    code += np.arange(len(code), dtype=np.int64)
    return code


#: matches handled per numpy step in :func:`_ragged_masks`: its four int64 arrays of one number per
#: match then take 512 kB whatever the corpus, not 32 bytes a match
_MATCHES_AT_ONCE = 1 << 14
#: the place in a :func:`_token_codes` code: its low 32 bits
_HALF = np.array(32, dtype=np.int64)
_PLACE = (1 << 32) - 1


def _ragged_masks(hyp: EncodedTexts, ref: EncodedTexts, rank: np.ndarray, lanes: _Lanes,
                  first_pair: np.ndarray, hyp_first: np.ndarray, offsets: np.ndarray,
                  matches: Join) -> np.ndarray:
    """The match masks of every step of every lane (``rank``: each pair's first lane,
    ``offsets[-1]`` if not kept), from the equal tokens of every segment (``matches``:
    :func:`.token_join.join` of the references (a) and the hypotheses (b), whole texts), a block
    of :data:`_MATCHES_AT_ONCE` matches at a time (:func:`_set_bits`)."""
    assert ref.sentence_lengths is not None and hyp.sentence_lengths is not None
    assert hyp.sentence_counts is not None
    total = int(offsets[-1])
    out = np.zeros(total + 1, dtype=np.uint64)
    ref_codes = _token_codes(ref.sentence_lengths, first_pair)
    hyp_codes = _token_codes(hyp.sentence_lengths, np.arange(
        len(hyp.sentence_lengths), dtype=np.int64) - np.repeat(hyp_first, hyp.sentence_counts))
    texts = (starts(ref.lengths), starts(hyp.lengths))
    work = np.empty((4, min(len(matches.pair), _MATCHES_AT_ONCE)), dtype=np.int64)
    for lo in range(0, len(matches.pair), _MATCHES_AT_ONCE):
        at = slice(lo, lo + _MATCHES_AT_ONCE)
        _set_bits(out, (matches.pair[at], matches.row[at], matches.col[at]), texts,
                  (ref_codes, hyp_codes), rank, lanes, offsets, work[:, :len(matches.pair[at])])
    return out[:total]


def _set_bits(out: np.ndarray, match: tuple[np.ndarray, np.ndarray, np.ndarray],
              texts: tuple[np.ndarray, np.ndarray], codes: tuple[np.ndarray, np.ndarray],
              rank: np.ndarray, lanes: _Lanes, offsets: np.ndarray, work: np.ndarray) -> None:
    """Set in ``out`` the bits of these matches (``match``: the segment, row and column of each,
    as in :class:`.token_join.Join`; ``texts``: each reference and hypothesis text's first token;
    ``codes``: each reference and hypothesis token's :func:`_token_codes`). A match of reference
    token r and hypothesis token h sets, in the cell of step h of pair first_pair[sentence of r] +
    (place of h's sentence in its segment), bit r (by column), or in its cell of step r, bit h (by
    row); a bit past 63 is bit - 64 of the pair's second lane. The bits of one cell are distinct,
    so adding them is OR-ing them; the matches of pairs not kept all go to the cell past the end,
    ``out[-1]``. (``work``: four int64 rows of one number per match, the same for every block,
    reused in turn; np.take into ``out`` is unbuffered with mode="clip", the indices being in
    range.)"""
    total = len(out) - 1
    segment, r_at, h_at, spare = work
    np.copyto(segment, match[0])
    np.take(texts[0], segment, out=r_at, mode="clip")  # the token in the whole corpus
    r_at += match[1]
    np.take(texts[1], segment, out=h_at, mode="clip")
    h_at += match[2]
    step = np.take(codes[0], r_at, out=segment, mode="clip")
    bit = np.take(codes[1], h_at, out=r_at, mode="clip")
    p = np.right_shift(step, _HALF, out=h_at)
    p += np.right_shift(bit, _HALF, out=spare)
    p = np.take(rank, p, out=spare, mode="clip")
    step &= _PLACE
    bit &= _PLACE
    swap = np.subtract(bit, step, out=h_at)
    swap &= lanes.by_column.take(p, mode="clip")  # by column: the step is h, the bit r
    step += swap
    bit -= swap
    if lanes.two:
        p += np.right_shift(bit, 6, out=swap)
        bit &= _WORD - 1
    cell = np.take(offsets, step, out=swap, mode="clip")  # past the end for a pair not kept
    cell += p
    np.minimum(cell, total, out=cell)
    np.add.at(out, cell, np.left_shift(np.uint64(1), bit.view(np.uint64), out=bit.view(np.uint64)))


def _to_high_words(result: np.ndarray, a: np.ndarray, b: np.ndarray, two: int,
                   flag: np.ndarray, borrow: bool) -> None:
    """Pass to the high words of ``result`` (the odd lanes below ``two``) the carry of the
    addition of ``a`` and ``b`` in the low words (the sum wrapped: it is below ``b``), or the
    borrow of the subtraction a - b (a below b)."""
    high = result[1:two:2]
    if borrow:
        np.less(a[0:two:2], b[0:two:2], flag)
        np.subtract(high, flag, high)
    else:
        np.less(result[0:two:2], b[0:two:2], flag)
        np.add(high, flag, high)


def _stops(masks: np.ndarray, offsets: np.ndarray, lanes: _Lanes) -> np.ndarray:
    """E = M | ~W (by column) or M | ~(V_i - V_{i-1}) (by row) of every step of every lane
    (ragged, like ``masks``). The steps, one numpy step each for all lanes: V = (V + U) | (V & ~M)
    with U = V & M (V & ~M is V ^ U), V the vector of the step before (all ones before the
    first), and V - (V_before & R) with R all ones by row, 0 by column, the two-word pairs' carry
    and borrow passed up; E of all steps at once after."""
    stops = np.empty_like(masks)
    if not len(masks):
        return stops
    width, two = int(offsets[1]), lanes.two
    rows = np.empty(2 * width, dtype=np.uint64)  # two steps' vectors, in turn
    u = np.empty(width, dtype=np.uint64)
    flag = np.empty(two // 2, dtype=bool)
    keep = np.invert(lanes.by_column).view(np.uint64)
    borrows = not lanes.by_column[:two].all()
    old = rows[:width]
    old.fill(_ONES)
    bounds = offsets.tolist()
    for i in range(len(bounds) - 1):
        lo, hi = bounds[i], bounds[i + 1]
        n, at = hi - lo, (i + 1) % 2 * width
        new, u_here, old, out = rows[at:at + n], u[:n], old[:n], stops[lo:hi]
        np.bitwise_and(old, masks[lo:hi], u_here)
        np.add(old, u_here, new)
        if two:
            _to_high_words(new, old, u_here, two, flag, borrow=False)
        np.bitwise_xor(old, u_here, u_here)
        np.bitwise_or(new, u_here, new)
        np.bitwise_and(old, keep[:n], u_here)
        np.subtract(new, u_here, out)
        if borrows:
            _to_high_words(out, new, u_here, two, flag, borrow=True)
        old = new
    np.invert(stops, out=stops)
    return np.bitwise_or(stops, masks, out=stops)


def _past_the_end(lanes: _Lanes, offsets: np.ndarray) -> np.ndarray:
    """The cells of the two-word lanes past their pair's own steps. Their masks are empty, so
    their vectors stay the last ones: by row D = 0 and E is all ones, by column E = ~W. Set to all
    ones, E makes a path there stop at its own highest bit without a match, which leaves it where
    it is: the path starts as if at its pair's last step."""
    extra = lanes.steps[:lanes.two] - lanes.own[:lanes.two]
    begin = np.repeat(lanes.own[:lanes.two], extra)
    step = np.arange(len(begin), dtype=np.int64) - np.repeat(starts(extra), extra) + begin
    return np.take(offsets, step) + np.repeat(np.arange(lanes.two, dtype=np.int64), extra)


#: the biased binary exponent of a positive float64 (its bits shifted right by 52: the sign is 0)
_BIAS = 1023
#: indexed by the biased exponent e of a word's highest bit alone as a float (bit length
#: k = e - 1022; 0 for the word 0): that bit (_TOP) and the bits below it and it (_BELOW); past
#: them, _WAIT: no bit and all bits, the low word of a two-word pair whose path is in its high word
_TOP = np.zeros(_BIAS + 65, dtype=np.uint64)
_TOP[_BIAS:_BIAS + 64] = [1 << k for k in range(64)]
_BELOW = np.zeros(_BIAS + 65, dtype=np.uint64)
_BELOW[_BIAS:_BIAS + 64] = [(1 << (k + 1)) - 1 for k in range(64)]
_BELOW[_BIAS + 64] = _ONES
_WAIT = np.array(_BIAS + 64, dtype=np.int64)
#: shift amounts and the like as arrays of no dimension: numpy takes a scalar operand on a slower
#: path, which costs more than the operation on the few words of a deep step
_ONE = np.array(1, dtype=np.uint64)
_ZERO = np.array(0, dtype=np.int64)
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


def _walk(masks: np.ndarray, stops: np.ndarray, offsets: np.ndarray, lanes: _Lanes
          ) -> np.ndarray:
    """The marked bit (the match stepped on diagonally) of every cell, written over ``masks``
    (each cell's mask is read once): every pair's path from its last cell (the bits below
    ``lanes.start``), a step at a time. The steps are walked from the deepest up, every lane
    joining at its own last step, so that all lanes on the walk are at the same step: the prefix
    of the lanes that have it, read as slices of the ragged cells. At each step the path stops at
    the highest bit of E below it, and goes on below that bit after a diagonal step, from that
    bit otherwise: the mask of the bits up to it without the marked bit. While a two-word pair's
    path stops in its high word, its low word waits (no mark, all bits below). A path that has
    marked its LCS length is at a cell of table value 0 (each diagonal step lowers the value by
    one, the other steps keep it), with no match before it: it marks nothing more, so it needs no
    stopping. (The temporaries are buffers of the widest step, reused, and an operation in place
    is given the same view as input and output: numpy checks two views of one buffer for
    overlap, which costs more than a deep step's words. The tables are read with take into a
    buffer: cheaper than fancy indexing, and no new array per step.)"""
    below, two = lanes.start.copy(), lanes.two
    y, f = np.empty_like(below), np.empty(len(below), dtype=np.float64)
    in_high = np.empty(two // 2, dtype=bool)
    bounds = offsets.tolist()
    for i in range(len(bounds) - 2, -1, -1):
        lo, hi = bounds[i], bounds[i + 1]
        here = below[:hi - lo]
        e = _highest_exponent(np.bitwise_and(stops[lo:hi], here, here), y[:hi - lo], f[:hi - lo])
        if two:
            np.copyto(e[0:two:2], _WAIT, where=np.greater(e[1:two:2], _ZERO, in_high))
        diagonal, table = masks[lo:hi], y[:hi - lo]
        np.bitwise_and(diagonal, _TOP.take(e, out=table, mode="clip"), diagonal)
        np.bitwise_xor(_BELOW.take(e, out=table, mode="clip"), diagonal, here)
    return masks


def _long_pairs(union: np.ndarray, hyp: EncodedTexts, ref: EncodedTexts, pair_ref: np.ndarray,
                pair_hyp: np.ndarray, long: np.ndarray) -> None:
    """Mark in ``union`` the path positions of these pairs (not on words) by
    :func:`.lcs_int.lcs_path`, on Python integers."""
    assert hyp.sentence_lengths is not None and ref.sentence_lengths is not None
    r_len, h_len = ref.sentence_lengths, hyp.sentence_lengths
    r_start, h_start = starts(r_len), starts(h_len)
    for r, h in zip(pair_ref[long].tolist(), pair_hyp[long].tolist()):
        start = int(r_start[r])
        a = ref.ids[start:start + int(r_len[r])].tolist()  # only these tokens as Python ints
        b = hyp.ids[int(h_start[h]):int(h_start[h] + h_len[h])].tolist()
        union[[start + i for i in lcs_int.lcs_path(a, b)]] = True


def _mark(union: np.ndarray, marked: np.ndarray, offsets: np.ndarray, lanes: _Lanes,
          first: np.ndarray) -> None:
    """Set in ``union`` the reference token of every marked cell: the marked bit (plus the lane's
    first bit) by column, the step by row (``first``: each lane's reference sentence's first
    token), chosen with arithmetic, step + ((bit - step) & by_column) (a masked copy is slower on
    a mask that changes at random, as the lanes' orientations do)."""
    at = np.flatnonzero(marked != 0)  # (faster on bools)
    per_step = np.diff(np.searchsorted(at, offsets))  # marks in each step's cells
    bit = marked[at].astype(np.float64).view(np.int64)  # a power of two: exact
    bit >>= 52
    bit -= _BIAS
    p = np.subtract(at, np.repeat(offsets[:-1], per_step), out=at)
    if lanes.two:
        bit += np.take(lanes.low, p)
    step = np.repeat(np.arange(len(per_step), dtype=np.int64), per_step)
    bit -= step
    bit &= lanes.by_column.take(p)  # by column: the bit, by row the step
    bit += step
    del step
    bit += np.take(first, p)
    union[bit] = True


@dataclass(frozen=True)
class Masks:
    """:func:`match_masks`: a bool per reference token holding the long pairs' marks so far, and
    the pairs read back on words: their :class:`_Lanes` (None: no such pair), the ragged cells'
    ``offsets``, the match ``masks`` and each lane's reference sentence's first token."""

    union: np.ndarray
    lanes: _Lanes | None
    offsets: np.ndarray
    masks: np.ndarray
    first: np.ndarray


def match_masks(hyp: EncodedTexts, ref: EncodedTexts, pair_ref: np.ndarray, pair_hyp: np.ndarray,
                first_pair: np.ndarray, hyp_first: np.ndarray, matches: Join) -> Masks:
    """The first half of :func:`union_marks`: the long pairs marked, the other pairs' lanes
    planned and their match masks read from the ``matches``, which a caller may then let go
    before :func:`read_back` (the masks are all the read-back needs of them)."""
    assert hyp.sentence_lengths is not None and ref.sentence_lengths is not None
    la, lb = ref.sentence_lengths[pair_ref], hyp.sentence_lengths[pair_hyp]
    union = np.zeros(len(ref.ids), dtype=bool)
    kept = _on_words(la, lb)
    long = np.flatnonzero(~kept & (la > 0) & (lb > 0))
    if len(long):
        _long_pairs(union, hyp, ref, pair_ref, pair_hyp, long)
    if not kept.any():
        empty = np.zeros(0, dtype=np.int64)
        return Masks(union, None, empty, empty.view(np.uint64), empty)
    lanes = _plan(la, lb, kept)
    del la, lb, kept, long  # freed once dead: the temporaries' peak is the heap a call faults in
    active = np.searchsorted(-lanes.steps, -np.arange(int(lanes.steps[0])), "left")  # > s steps
    offsets = np.concatenate(([0], np.cumsum(active))).astype(np.int64)
    rank = np.full(len(pair_ref), offsets[-1], dtype=np.int64)
    rank[lanes.pair[lanes.low == 0]] = np.flatnonzero(lanes.low == 0)  # each pair's first lane
    masks = _ragged_masks(hyp, ref, rank, lanes, first_pair, hyp_first, offsets, matches)
    del rank
    first = starts(ref.sentence_lengths)[pair_ref[lanes.pair]]
    return Masks(union, lanes, offsets, masks, first)


def read_back(planned: Masks) -> np.ndarray:
    """The second half of :func:`union_marks`: every lane's path read back from its masks (which
    it writes over) and its marks added to the union, which it returns."""
    lanes, offsets, masks = planned.lanes, planned.offsets, planned.masks
    if lanes is None:
        return planned.union
    stops = _stops(masks, offsets, lanes)
    if lanes.two:
        stops[_past_the_end(lanes, offsets)] = _ONES
    marked = _walk(masks, stops, offsets, lanes)
    del stops
    _mark(planned.union, marked, offsets, lanes, planned.first)
    return planned.union


def union_marks(hyp: EncodedTexts, ref: EncodedTexts, pair_ref: np.ndarray, pair_hyp: np.ndarray,
                first_pair: np.ndarray, hyp_first: np.ndarray, matches: Join | None = None
                ) -> np.ndarray:
    """A bool per reference token: on the union LCS of its sentence with the hypothesis sentences
    of its segment (``pair_ref``/``pair_hyp``: every (reference sentence, hypothesis sentence) of
    a segment, reference sentences in order; ``first_pair``: each reference sentence's first pair;
    ``hyp_first``: each segment's first hypothesis sentence; ``matches``: the equal tokens of the
    whole texts, :func:`.token_join.join`, found here if not given): :func:`match_masks` then
    :func:`read_back`."""
    if matches is None:
        matches = join(layout(ref.ids, ref.lengths, hyp.ids, hyp.lengths))
    return read_back(match_masks(hyp, ref, pair_ref, pair_hyp, first_pair, hyp_first, matches))
