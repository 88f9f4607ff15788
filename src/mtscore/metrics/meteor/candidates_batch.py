"""The one-word candidates of variant 1.5 for many pairs at once, with numpy: equal to
:func:`.segments.jar_candidates` pair by pair, as phrase candidates ``(j, 1, i, 1, module)``
(tested equal on random texts and on WMT22).

The rule lists, per reference word j, module by module (only the first module for a pair whose
hypothesis is its reference), the hypothesis positions i whose key meets j's (non-exact modules:
only different words), ascending. Here every module's keys become integer codes, the words of all
pairs are joined on (pair, code) by one sorted search per module (set-valued modules: one row per
key, pairs found twice kept once), and the candidates are put in the rule's order by one sort on
(pair, j, module, i).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .align.arrays import unique, unique_inverse

if TYPE_CHECKING:
    from .matchers import Vocabulary


class _Side:
    """One side of every pair as flat arrays: pair, position, word id."""

    def __init__(self, seqs: Sequence[Sequence[int]]):
        lengths = np.array([len(s) for s in seqs], dtype=np.int64)
        self.pair = np.repeat(np.arange(len(seqs), dtype=np.int64), lengths)
        first = np.repeat(np.cumsum(lengths) - lengths, lengths)
        self.pos = np.arange(len(self.pair), dtype=np.int64) - first
        self.word = np.array([x for s in seqs for x in s], dtype=np.int64)


def _codes(keys: Sequence[Any]) -> tuple[np.ndarray, int]:
    """An integer code per key (equal keys, equal codes) and the number of codes."""
    index: dict[Any, int] = {}
    return np.fromiter((index.setdefault(key, len(index)) for key in keys), np.int64, len(keys)), \
        max(len(index), 1)


def _join(h_pair: np.ndarray, h_code: np.ndarray, r_pair: np.ndarray, r_code: np.ndarray,
          n_codes: int) -> tuple[np.ndarray, np.ndarray]:
    """Every (hypothesis row, reference row) of the same pair with the same code, hypothesis rows
    in their order per reference row."""
    h_key = h_pair * n_codes + h_code
    order = np.argsort(h_key, kind="stable")
    h_key = h_key[order]
    r_key = r_pair * n_codes + r_code
    lo, hi = np.searchsorted(h_key, r_key, "left"), np.searchsorted(h_key, r_key, "right")
    n = hi - lo
    r_row = np.repeat(np.arange(len(r_key), dtype=np.int64), n)
    at = np.repeat(lo, n) + np.arange(int(n.sum()), dtype=np.int64) - np.repeat(np.cumsum(n) - n, n)
    return order[at], r_row


def _set_rows(vocab: Vocabulary, k: int, words: np.ndarray, index: dict[Any, int]
              ) -> tuple[np.ndarray, np.ndarray]:
    """(row, key code) for every key of every word of a set-valued module (each distinct word's
    keys coded once)."""
    distinct, inverse = unique_inverse(words)
    sets = vocab.keys_of(k, distinct.tolist())
    sizes = np.fromiter((len(s) if s else 0 for s in sets), np.int64, len(sets))
    flat = np.fromiter((index.setdefault(c, len(index)) for s in sets if s for c in s), np.int64,
                       int(sizes.sum()))
    first = np.cumsum(sizes) - sizes
    counts = sizes[inverse]
    rows = np.repeat(np.arange(len(words), dtype=np.int64), counts)
    within = np.arange(len(rows), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    return rows, flat[np.repeat(first[inverse], counts) + within]


def _module(vocab: Vocabulary, k: int, hyp: _Side, ref: _Side, h_rows: np.ndarray,
            r_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Module k's candidates among rows ``h_rows`` and ``r_rows``: (hypothesis row, reference row)."""
    matcher = vocab.matchers[k]
    hw, rw = hyp.word[h_rows], ref.word[r_rows]
    if matcher.single:
        key = vocab.keys[k]
        distinct = unique(np.concatenate([hw, rw]))
        code, n_codes = _codes([key[x] for x in distinct.tolist()])
        h, r = _join(hyp.pair[h_rows], code[np.searchsorted(distinct, hw)],
                     ref.pair[r_rows], code[np.searchsorted(distinct, rw)], n_codes)
    else:  # a pair of words sharing several keys is found once per key: once kept
        index: dict[Any, int] = {}
        h_of, h_code = _set_rows(vocab, k, hw, index)
        r_of, r_code = _set_rows(vocab, k, rw, index)
        h, r = _join(hyp.pair[h_rows][h_of], h_code, ref.pair[r_rows][r_of], r_code, max(len(index), 1))
        h, r = h_of[h], r_of[r]
        both = unique(r * max(len(h_rows), 1) + h)
        h, r = both % max(len(h_rows), 1), both // max(len(h_rows), 1)
    h, r = h_rows[h], r_rows[r]
    if matcher.name != "exact":
        keep = hyp.word[h] != ref.word[r]
        h, r = h[keep], r[keep]
    return h, r


def sorted_candidates(vocab: Vocabulary, pairs: Sequence[tuple[Sequence[int], Sequence[int]]]
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every pair's one-word candidates as arrays (pair, j, i, module), in the rule's order."""
    hyp, ref = _Side([h for h, _ in pairs]), _Side([r for _, r in pairs])
    differ = np.fromiter((h != r for h, r in pairs), bool, len(pairs))
    all_h, all_r = np.arange(len(hyp.word), dtype=np.int64), np.arange(len(ref.word), dtype=np.int64)
    some_h, some_r = all_h[differ[hyp.pair]], all_r[differ[ref.pair]]
    found = []
    for k, matcher in enumerate(vocab.matchers):
        if matcher.name == "paraphrase":  # phrase matches: .paraphrase_batch
            continue
        h, r = _module(vocab, k, hyp, ref, *((all_h, all_r) if k == 0 else (some_h, some_r)))
        found.append((h, r, np.full(len(h), k, dtype=np.int64)))
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    h, r, module = (np.concatenate([f[c] for f in found]) for c in range(3))
    pair, j, i = ref.pair[r], ref.pos[r], hyp.pos[h]
    order = np.lexsort((i, module, j, pair))
    return pair[order], j[order], i[order], module[order]
