"""The union LCS of ROUGE-Lsum for a whole corpus at once: the positions of every reference sentence
on the path :func:`.rules.lcs_indices` reads with any hypothesis sentence of its segment. Equals
:func:`.rules.union_lcs` for every reference sentence (tested); the fast path of
:func:`.counts.lsum_counts`.

Pairs whose hypothesis sentence fits one uint64 word (at most 64 tokens, nearly all) are read back
one row at a time. With V_i the bit vector of row i (:mod:`.lcs_fast`: bit j-1 is 0 where
table[i][j] > table[i][j-1]), the vertical step d(j) = table[i][j] - table[i-1][j] (0 or 1) is bit
j-1 of D_i = (V_i & ~V_{i-1}) - (V_{i-1} & ~V_i) (mod 2^64): a row moves the 0 bit that closes a
block of 1 bits of V_{i-1} down to the block's lowest match, so d = 1 from that match up to the old
0 bit (the last block, with no 0 bit, carries out of the word: d = 1 up to the top).

The rule's step at a cell that is not a match goes left when table[i][j-1] > table[i-1][j], which is
d(j) = 1 (then table[i][j] = table[i][j-1] = table[i-1][j] + 1), else up. So from column j of row i
the path goes left over every column with no match and d = 1 and stops at the highest column
j' <= j set in E_i = M_i | ~D_i: diagonally (a marked position) on a match, else up; with no such
column it reaches column 0 and ends. One numpy step per row for every pair at once.

The rows of all pairs are stored ragged: pairs ordered by decreasing reference sentence length, row
i of the pairs that have one (a prefix of that order) at ``offsets[i]``. The match masks are read
from the equal tokens of the whole texts (:func:`.token_join.join`, which ROUGE-1 and ROUGE-L
share): one mask per reference token and hypothesis sentence of its segment that contains it.
Pairs with a longer hypothesis sentence go through :func:`.lcs_int.lcs_path` (Python integers).
"""

from __future__ import annotations

import numpy as np

from . import lcs_fast, lcs_int
from .corpus import EncodedTexts
from .token_join import Join, join, layout, stable_order, starts

_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


def _in_sentence(lengths: np.ndarray) -> np.ndarray:
    """Every token's position inside its sentence."""
    total = int(lengths.sum())
    return np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lengths) - lengths, lengths)


def _ragged_masks(hyp: EncodedTexts, ref: EncodedTexts, rank: np.ndarray, first_pair: np.ndarray,
                  hyp_first: np.ndarray, offsets: np.ndarray, matches: Join) -> np.ndarray:
    """The match masks of every row of every kept pair, in the ragged layout, from the equal
    tokens of every segment (``matches``: :func:`.token_join.join` of the references (a) and the
    hypotheses (b), whole texts): a reference token's matches come in the order of the
    hypothesis positions, so those in one hypothesis sentence are one run, OR-ed into its mask."""
    assert ref.sentence_lengths is not None and ref.sentence_counts is not None
    assert hyp.sentence_lengths is not None and hyp.sentence_counts is not None
    r_len, h_len = ref.sentence_lengths, hyp.sentence_lengths
    out = np.zeros(int(offsets[-1]), dtype=np.uint64)
    if not len(matches.pair):
        return out
    r_token = starts(ref.lengths)[matches.pair] + matches.row
    h_token = starts(hyp.lengths)[matches.pair] + matches.col
    h_sentence = np.repeat(np.arange(len(h_len), dtype=np.int64), h_len)[h_token]
    short = h_len[h_sentence] <= 64
    r_token, h_token, h_sentence = r_token[short], h_token[short], h_sentence[short]
    if not len(r_token):
        return out
    bits = np.left_shift(np.uint64(1), _in_sentence(h_len)[h_token].astype(np.uint64))
    new = np.ones(len(r_token), dtype=bool)
    new[1:] = (r_token[1:] != r_token[:-1]) | (h_sentence[1:] != h_sentence[:-1])
    group = np.flatnonzero(new)
    masks = np.bitwise_or.reduceat(bits, group)
    r_token, h = r_token[group], h_sentence[group]
    r = np.repeat(np.arange(len(r_len), dtype=np.int64), r_len)[r_token]
    h_doc = np.repeat(np.arange(len(hyp.sentence_counts), dtype=np.int64), hyp.sentence_counts)
    p = rank[first_pair[r] + h - hyp_first[h_doc[h]]]
    kept = p >= 0
    row = _in_sentence(r_len)[r_token[kept]]
    out[offsets[row] + p[kept]] = masks[kept]
    return out


def _stops(masks: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """E_i = M_i | ~D_i of every row of every pair (ragged, like ``masks``). The rows, one numpy
    step each for all pairs: V_i = (V + U) | (V & ~M) with U = V & M, V = V_{i-1} (all ones before
    the first row), and D_i = V_i - V_{i-1} (mod 2**64), which is the module's
    (V_i & ~V_{i-1}) - (V_{i-1} & ~V_i): x - y = (x & ~y) - (y & ~x) for any x, y, as
    x = (x & ~y) + (x & y) and y = (y & ~x) + (x & y). E_i of all rows at once after."""
    rows = np.empty_like(masks)
    stops = np.empty_like(masks)
    if not len(masks):
        return stops
    unmatched = ~masks
    u = np.empty(int(offsets[1] - offsets[0]), dtype=np.uint64)
    old = np.full(len(u), _ONES, dtype=np.uint64)
    for i in range(len(offsets) - 1):
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        new, u_here, old = rows[lo:hi], u[:hi - lo], old[:hi - lo]
        np.bitwise_and(old, masks[lo:hi], out=u_here)
        np.add(old, u_here, out=new)
        np.bitwise_and(old, unmatched[lo:hi], out=u_here)
        np.bitwise_or(new, u_here, out=new)
        np.subtract(new, old, out=stops[lo:hi])
        old = new
    np.invert(stops, out=stops)
    return np.bitwise_or(stops, masks, out=stops)


#: _TOP[k]: the bit of column k alone (bit k - 1), 0 for k = 0
_TOP = np.array([0] + [1 << (k - 1) for k in range(1, 65)], dtype=np.uint64)


def _highest_bit(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the highest set bit of each x alone, its bit length: 0 for x = 0). The bit length is the
    binary exponent of y = x & ~(x >> 1) as a float: y keeps the top bit of each run of ones, so
    its bits are at least two apart and y < 4/3 of its highest bit, which rounding to 53 bits
    cannot carry to the next power of two."""
    y = x & ~(x >> np.uint64(1))
    length = np.frexp(y.astype(np.float64))[1].astype(np.int64)
    return _TOP[length], length


def _walk(masks: np.ndarray, stops: np.ndarray, offsets: np.ndarray, lb: np.ndarray) -> tuple[
        np.ndarray, np.ndarray]:
    """(pair, row) of every marked cell: every pair's path from its last cell, a row per step.
    The rows are walked from the deepest up, every pair joining at its own last row, so that all
    pairs on the walk are at the same row: the prefix of the pairs that have it, read as slices of
    the ragged rows. A path that has marked its LCS length is at a cell of table value 0 (each
    diagonal step lowers the value by one, the other steps keep it), with no match above-left of
    it: it marks nothing more, so it needs no stopping."""
    low = lcs_fast._LOW
    j = lb.astype(np.int64)
    marked = np.zeros(len(masks), dtype=np.uint64)
    for i in range(len(offsets) - 2, -1, -1):
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        j_here = j[:hi - lo]
        top, j_stop = _highest_bit(stops[lo:hi] & low[j_here])
        diagonal = np.bitwise_and(masks[lo:hi], top, out=marked[lo:hi])
        np.subtract(j_stop, diagonal != 0, out=j_here)
    at = np.flatnonzero(marked)
    row = np.searchsorted(offsets, at, "right") - 1
    return at - offsets[row], row


def union_marks(hyp: EncodedTexts, ref: EncodedTexts, pair_ref: np.ndarray, pair_hyp: np.ndarray,
                first_pair: np.ndarray, hyp_first: np.ndarray, matches: Join | None = None
                ) -> np.ndarray:
    """A bool per reference token: on the union LCS of its sentence with the hypothesis sentences
    of its segment (``pair_ref``/``pair_hyp``: every (reference sentence, hypothesis sentence) of
    a segment, reference sentences in order; ``first_pair``: each reference sentence's first pair;
    ``hyp_first``: each segment's first hypothesis sentence)."""
    assert hyp.sentence_lengths is not None and ref.sentence_lengths is not None
    r_len, h_len = ref.sentence_lengths, hyp.sentence_lengths
    r_start = np.cumsum(r_len) - r_len
    union = np.zeros(len(ref.ids), dtype=bool)
    la, lb = r_len[pair_ref], h_len[pair_hyp]
    live = (la > 0) & (lb > 0)
    long = np.flatnonzero(live & (lb > 64))
    if len(long):  # a hypothesis sentence of more than 64 tokens: Python integers
        h_start = np.cumsum(h_len) - h_len
        for r, h in zip(pair_ref[long].tolist(), pair_hyp[long].tolist()):
            start = int(r_start[r])
            a = ref.ids[start:start + int(r_len[r])].tolist()  # only these tokens as Python ints
            b = hyp.ids[int(h_start[h]):int(h_start[h] + h_len[h])].tolist()
            union[[start + i for i in lcs_int.lcs_path(a, b)]] = True
    kept = np.flatnonzero(live & (lb <= 64))
    if not len(kept):
        return union
    kept = kept[stable_order(int(la[kept].max()) - la[kept])]  # by decreasing length, stably
    rank = np.full(len(pair_ref), -1, dtype=np.int64)
    rank[kept] = np.arange(len(kept), dtype=np.int64)
    la_k, lb_k = la[kept], lb[kept]
    depth = int(la_k[0])
    active = np.searchsorted(-la_k, -np.arange(depth), "left")  # pairs with la > i
    offsets = np.concatenate(([0], np.cumsum(active))).astype(np.int64)
    if matches is None:
        matches = join(layout(ref.ids, ref.lengths, hyp.ids, hyp.lengths))
    masks = _ragged_masks(hyp, ref, rank, first_pair, hyp_first, offsets, matches)
    stops = _stops(masks, offsets)
    p, row = _walk(masks, stops, offsets, lb_k)
    union[r_start[pair_ref[kept[p]]] + row] = True
    return union
