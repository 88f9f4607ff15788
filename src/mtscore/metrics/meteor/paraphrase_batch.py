"""The paraphrase module's matches of many pairs at once, with numpy: equal to
:func:`.paraphrase.paraphrase_matches` pair by pair (tested equal on random tables and texts and on
WMT22).

The rule walks, per reference position, the table's phrases that start there (shortest first), each
paraphrase in file order, and looks for it at every hypothesis position; then the same from the
hypothesis side. Here every distinct word sequence of the batch is laid out in one array (a -1
after each, as after an unknown word: no phrase crosses it), and

1. every window of up to ``max_phrase`` words is hashed (:func:`.lexicon.paraphrase.phrase_hash`,
   vectorised) and looked up in the table at once (:meth:`ParaphraseTable.find_windows`, verified
   word by word);
2. each phrase found gives its entries (file order), and each entry's paraphrase is hashed;
3. a paraphrase of a phrase of one side matches where a window of the other side of the same pair
   has its hash (a sorted join on (sequence, hash)), verified word by word;
4. the matches are put in the rule's order: per reference position, the reference-side matches by
   (phrase length, entry, hypothesis position), then the hypothesis-side ones by (hypothesis
   position, phrase length, entry).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...lexicon.paraphrase import PHRASE_MIX
from ...ragged import ranges
from .align.arrays import unique, unique_inverse

if TYPE_CHECKING:
    from ...lexicon.paraphrase import ParaphraseTable

_MASK = (1 << 64) - 1
#: mixes a sequence number into a hash for the join (any odd constant; equality is verified)
_SEQ_MIX = np.uint64(0xD6E8FEB86659FD93)


class _Layout:
    """The distinct sequences of a batch in one array, a -1 after each; the run of known words
    (id >= 0) from each position; every window's hash by length (:func:`_window_hashes`)."""

    def __init__(self, seqs: list[tuple[int, ...]]):
        lengths = np.array([len(s) for s in seqs], dtype=np.int64)
        self.start = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int64)
        total = int(lengths.sum()) + len(seqs)
        flat = np.array([x for s in seqs for x in (*s, -1)], dtype=np.int64)
        self.flat = flat
        self.seq_of = np.repeat(np.arange(len(seqs), dtype=np.int64), lengths + 1)
        index = np.arange(len(flat), dtype=np.int64)
        bad = np.where(flat >= 0, len(flat), index)
        self.runs = np.minimum.accumulate(bad[::-1])[::-1][:total] - index[:total]
        self.hashes: list[np.ndarray] = []
        self._acc = np.zeros(total, dtype=np.uint64)

    def hash_up_to(self, n: int) -> None:
        """The hashes of every window of 1..n words (garbage where the run is shorter)."""
        size, acc = len(self.runs), self._acc
        if len(self.flat) < size + n:  # (-1 past the end: no window reaches there)
            self.flat = np.concatenate([self.flat, np.full(size + n - len(self.flat), -1, dtype=np.int64)])
        mix = np.uint64(PHRASE_MIX)
        for length in range(len(self.hashes) + 1, n + 1):
            acc = acc * mix + (self.flat[length - 1:length - 1 + size] + 1).astype(np.uint64)
            self.hashes.append(acc + np.uint64(length * pow(PHRASE_MIX, length, 1 << 64) & _MASK))
        self._acc = acc

    def windows(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(start, length, hash) of every window of 1..n known words, by length then start."""
        self.hash_up_to(n)
        starts, lengths, hashes = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)], \
            [np.zeros(0, dtype=np.uint64)]
        for length in range(1, n + 1):
            at = np.flatnonzero(self.runs >= length)
            starts.append(at)
            lengths.append(np.full(len(at), length, dtype=np.int64))
            hashes.append(self.hashes[length - 1][at])
        return np.concatenate(starts), np.concatenate(lengths), np.concatenate(hashes)


def _hashes(table: ParaphraseTable, entries: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(first word position, length, :func:`phrase_hash`) of the entries' paraphrases."""
    p_lo, p_len = table.paraphrase_spans(entries)
    p_hash = p_len.astype(np.uint64)
    mix = np.uint64(PHRASE_MIX)
    for d in range(int(p_len.max(initial=0))):
        inside = p_len > d
        words = table.paraphrase_words(p_lo[inside] + d)
        p_hash[inside] = p_hash[inside] * mix + (words + 1).astype(np.uint64)
    return p_lo, p_len, p_hash


def _members(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """Whether each value is in ``sorted_set`` (sorted, unique)."""
    if not len(sorted_set):
        return np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[at] == values


def _items(table: ParaphraseTable, lay: _Layout) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """Every (window holding a table phrase, one of its entries) whose paraphrase is some window's
    hash in the batch (the others match nowhere): window start, length, entry, paraphrase start,
    length and hash, sorted by sequence (window order within); and the windows that are some such
    paraphrase's hash: (start, length, hash). Each distinct phrase's entries are hashed and tested
    once (an entry belongs to one phrase), then spread over the windows holding that phrase."""
    w_start, w_len, w_hash = lay.windows(table.max_phrase)
    rows = table.find_windows(lay.flat, w_start, w_len, w_hash)
    hit = np.flatnonzero(rows >= 0)
    phrases, which = unique_inverse(rows[hit])
    owner, entry = table.entries_of(phrases)  # (distinct entries, phrase by phrase, file order)
    u_lo, u_len, u_hash = _hashes(table, entry)
    t_start, t_len, t_hash = lay.windows(int(u_len.max(initial=0)))
    wanted = _members(t_hash, unique(u_hash))
    t_start, t_len, t_hash = t_start[wanted], t_len[wanted], t_hash[wanted]
    alive = np.flatnonzero(_members(u_hash, unique(t_hash)))  # (still phrase by phrase)
    counts = np.bincount(owner[alive], minlength=len(phrases))[which]  # per hit window
    first = np.searchsorted(owner[alive], np.arange(len(phrases)))[which]
    window = np.repeat(hit, counts)
    item = alive[ranges(first, counts)]
    order = np.argsort(lay.seq_of[w_start[window]], kind="stable")
    window, item = window[order], item[order]
    return ((w_start[window], w_len[window], entry[item], u_lo[item], u_len[item], u_hash[item]),
            (t_start, t_len, t_hash))


def _join(table: ParaphraseTable, lay: _Layout, items: tuple[np.ndarray, ...],
          target: tuple[np.ndarray, ...], src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, ...]:
    """Where each item of sequence ``src[q]`` has its paraphrase in sequence ``dst[q]`` (one of the
    windows ``target``), for every query q: (q, item, position in the layout)."""
    start, _, _, p_lo, p_len, p_hash = items
    seq = lay.seq_of[start]
    first = np.searchsorted(seq, np.arange(len(lay.start) + 1))
    counts = first[src + 1] - first[src]
    q = np.repeat(np.arange(len(src), dtype=np.int64), counts)
    item = np.arange(len(q), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts) \
        + np.repeat(first[src], counts)
    top = int(p_len.max(initial=0))
    if not len(item) or not top:
        return (np.zeros(0, dtype=np.int64),) * 3
    t_start, t_len, t_hash = target
    t_key = t_hash ^ (lay.seq_of[t_start].astype(np.uint64) * _SEQ_MIX)
    order = np.argsort(t_key)
    t_key, t_start, t_len = t_key[order], t_start[order], t_len[order]
    key = p_hash[item] ^ (dst[q].astype(np.uint64) * _SEQ_MIX)
    lo, hi = np.searchsorted(t_key, key, "left"), np.searchsorted(t_key, key, "right")
    found = np.flatnonzero(hi > lo)
    n = hi[found] - lo[found]
    which = np.repeat(found, n)
    at = np.repeat(lo[found], n) + np.arange(int(n.sum()), dtype=np.int64) - np.repeat(np.cumsum(n) - n, n)
    q, item, to = q[which], item[which], t_start[at]
    ok = (lay.seq_of[to] == dst[q]) & (t_len[at] == p_len[item])
    for d in range(top):
        inside = ok & (p_len[item] > d)
        ok[inside] = table.paraphrase_words(p_lo[item][inside] + d) == lay.flat[to[inside] + d]
    return q[ok], item[ok], to[ok]


def paraphrase_match_arrays(table: ParaphraseTable, pairs: Sequence[tuple[Sequence[int], Sequence[int]]]
                            ) -> tuple[np.ndarray, ...]:
    """The matches of :func:`.paraphrase.paraphrase_matches` of every ``(h, r)`` in ``pairs`` (words
    as table ids, -1 for a word in no entry) as arrays (pair, j, reference length, i, hypothesis
    length), in its order (by pair, then reference position, then the rule's order)."""
    if not pairs:
        return (np.zeros(0, dtype=np.int64),) * 5
    index: dict[tuple[int, ...], int] = {}
    hyp = np.array([index.setdefault(tuple(h), len(index)) for h, _ in pairs], dtype=np.int64)
    ref = np.array([index.setdefault(tuple(r), len(index)) for _, r in pairs], dtype=np.int64)
    lay = _Layout(list(index))
    items, target = _items(table, lay)
    start, length, entry = items[0], items[1], items[2]
    parts = []
    for hyp_side, src, dst in ((0, ref, hyp), (1, hyp, ref)):
        q, item, to = _join(table, lay, items, target, src, dst)
        here = start[item] - lay.start[src[q]]  # position in the phrase's sequence
        there = to - lay.start[dst[q]]
        j, i = (there, here) if hyp_side else (here, there)
        rl, hl = (items[4][item], length[item]) if hyp_side else (length[item], items[4][item])
        second, third, fourth = ((i, length[item], entry[item]) if hyp_side else
                                 (length[item], entry[item], i))
        parts.append((q, j, np.full(len(q), hyp_side, dtype=np.int64), second, third, fourth, i, rl, hl))
    q, j, side, second, third, fourth, i, rl, hl = (np.concatenate([p[c] for p in parts]) for c in range(9))
    order = np.lexsort((fourth, third, second, side, j, q))
    return q[order], j[order], rl[order], i[order], hl[order]
