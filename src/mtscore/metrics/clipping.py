"""Clipped n-gram counts of a whole corpus at once, with numpy and no sort: the fast path of
:func:`.bleu.rules.modified_precision` (tested equal to it), used by BLEU, chrF (matches against each
reference, :func:`matches_per_reference`) and the unigram metrics.

Papineni et al. (2002) §2.1: a hypothesis n-gram count is clipped by the largest count of that
n-gram in any single reference of the same segment. The tokens of the hypotheses (source 0) and of
the references (source k) of a block of whole segments are put in one array (:func:`_in_blocks`;
n-grams never cross a segment, and small blocks keep numpy's arrays in the cache).

1. Order 1: every token's key is (its token, its segment), exactly (token ids, or the words of its
   bytes, :func:`..text.interning.token_words`). :func:`.grouping.representatives` groups equal keys
   without sorting; ``np.bincount`` of the groups per source gives the hypothesis count and each
   reference's count, and the clipped count is min(hypothesis count, largest reference count).
   A group is *shared* if it is in the hypothesis and in a reference of its segment.
2. Order n ≥ 2: an n-gram at position i can match only if the (n-1)-grams at i and i + 1 are both
   shared (a matching n-gram has both in the hypothesis and in that reference), so only those are
   kept, keyed exactly by the pair of their groups, and grouped and counted as in 1.

:func:`clipped_counts_by_rank` does the same with one sort per order (any size; for vocabularies
whose keys would not fit 63 bits). Tiny corpora (a few hundred tokens, as ``sentence_bleu`` gives)
are counted with the rule itself, where numpy's cost per call would dominate.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from ..text.span_encoder import encode_streams, make_encoder
from .base import PreparedBase
from .grouping import group_counts, representatives


class EncodedReferences(PreparedBase):
    """Reference streams tokenized and encoded once, for the metrics clipped by this module's kernel
    (BLEU, unigram): per stream the tokens (``encode``: token ids here), tokens per present segment
    and those segments' index; ``lengths`` is references × segments, -1 where a reference is
    missing."""

    #: how a stream's tokens are kept: ids from :func:`encode_streams` (BLEU: key columns)
    encode: ClassVar[Callable[..., list[tuple[Any, np.ndarray, np.ndarray]]]] = \
        staticmethod(encode_streams)

    def __init__(self, metric: Any, refs: Sequence[Sequence[str | None]],
                 names: Sequence[str] | None = None):
        streams = self._checked_streams(metric, refs, names)
        self.encoder = make_encoder(metric.tokenizer, metric.lowercase)
        self.streams = type(self).encode(self.encoder, streams)
        self.lengths = np.full((len(streams), self.segments), -1, dtype=np.int64)
        for k, (_, stream_lengths, idx) in enumerate(self.streams):
            self.lengths[k, idx] = stream_lengths


def _remaining(lengths: np.ndarray) -> np.ndarray:
    """For every token, how many tokens of its segment start at it (itself included)."""
    total = int(lengths.sum())
    ends = np.cumsum(lengths)
    return np.repeat(ends, lengths) - np.arange(total, dtype=np.int64)


#: below this many tokens in all (e.g. ``sentence_bleu``), the rule beats numpy's cost per call
SMALL_CORPUS_TOKENS = 400


#: per reference stream: (token ids, tokens per present segment, index of those segments)
IdStream = tuple[np.ndarray, np.ndarray, np.ndarray]
#: per reference stream: (token key columns, tokens per present segment, index of those segments)
KeyStream = tuple[Sequence[np.ndarray], np.ndarray, np.ndarray]


def clipped_counts(hyp_ids: np.ndarray, hyp_lengths: np.ndarray, refs: Sequence[IdStream],
                   vocab_size: int, max_order: int) -> np.ndarray:
    """Clipped matches per segment and order: an int64 array (segments × max_order).

    ``refs``: per reference stream (token ids, tokens per present segment, index of those segments).
    Hypothesis ids are -1 for tokens that no reference has.
    """
    S = len(hyp_lengths)
    T = len(hyp_ids) + sum(len(ids) for ids, _, _ in refs)
    if len(hyp_ids) and T >= SMALL_CORPUS_TOKENS and (T >= 2**31 or S * (vocab_size + 1) >= 2**62):
        return clipped_counts_by_rank(hyp_ids, hyp_lengths, refs, vocab_size, max_order)
    # one id for every token no reference has
    return clipped_counts_of_keys([np.where(hyp_ids < 0, vocab_size, hyp_ids)], hyp_lengths,
                                  [([ids], lengths, present) for ids, lengths, present in refs],
                                  max_order)


def clipped_counts_of_keys(hyp: Sequence[np.ndarray], hyp_lengths: np.ndarray,
                           refs: Sequence[KeyStream], max_order: int) -> np.ndarray:
    """:func:`clipped_counts` of tokens given as key columns (integers; equal tokens: equal in
    every column, e.g. :func:`..text.interning.token_words`): no vocabulary needed."""
    S, N = len(hyp_lengths), max_order
    sizes = [len(hyp[0])] + [len(columns[0]) for columns, _, _ in refs]
    if sizes[0] == 0 or sum(sizes) == sizes[0]:
        return np.zeros((S, N), dtype=np.int64)
    if sum(sizes) < SMALL_CORPUS_TOKENS:
        return _clipped_counts_small(hyp, hyp_lengths, refs, max_order)
    return _in_blocks(hyp, hyp_lengths, refs, N, False)[0]


def matches_per_reference(hyp: Sequence[np.ndarray], hyp_lengths: np.ndarray,
                          refs: Sequence[KeyStream], max_order: int) -> list[np.ndarray]:
    """Per reference stream k, Σ min(hypothesis count, count in reference k) of the n-grams of
    each segment and order (segments × max_order): :func:`clipped_counts_of_keys` against each
    reference alone, all counted at once."""
    sizes = [len(hyp[0])] + [len(columns[0]) for columns, _, _ in refs]
    if sizes[0] == 0 or sum(sizes) == sizes[0] or sum(sizes) < SMALL_CORPUS_TOKENS:
        return [clipped_counts_of_keys(hyp, hyp_lengths, [ref], max_order) for ref in refs]
    return _in_blocks(hyp, hyp_lengths, refs, max_order, True)


#: the kernel counts blocks of whole segments of about this many tokens (all sources) at a time:
#: its arrays stay in the cache, and numpy's temporaries are reused instead of fresh memory
BLOCK_TOKENS = 1 << 15


def _in_blocks(hyp: Sequence[np.ndarray], hyp_lengths: np.ndarray, refs: Sequence[KeyStream],
               max_order: int, per_reference: bool) -> list[np.ndarray]:
    """:func:`grouped_counts` of blocks of segments (n-grams never cross a segment), put
    together: the tokens of every source of a block in one array."""
    S, K = len(hyp_lengths), len(refs)
    total = hyp_lengths.copy()
    for _, lengths, present in refs:
        total[present] += lengths
    ends = np.cumsum(total)
    # as few blocks as BLOCK_TOKENS allows, of equal size (a smaller peak than full blocks and a rest)
    tokens = max(int(ends[-1]), 1)
    size = -(-tokens // -(-tokens // BLOCK_TOKENS))
    cuts = np.searchsorted(ends, np.arange(size, tokens, size), side="right")
    bounds_of_blocks = sorted({0, *cuts.tolist(), S})  # (np.unique would import numpy.ma)
    hyp_at = np.concatenate(([0], np.cumsum(hyp_lengths)))
    ref_at = [np.concatenate(([0], np.cumsum(lengths))) for _, lengths, _ in refs]
    out = [np.zeros((S, max_order), dtype=np.int64) for _ in range(K if per_reference else 1)]
    index = np.int32 if S < 2**31 else np.int64
    for a, b in itertools.pairwise(bounds_of_blocks):
        parts = [([c[hyp_at[a]:hyp_at[b]] for c in hyp], hyp_lengths[a:b],
                  np.arange(b - a, dtype=index))]
        for (columns, lengths, present), at in zip(refs, ref_at):
            i, j = present.searchsorted((a, b)).tolist()
            parts.append(([c[at[i]:at[j]] for c in columns], lengths[i:j],
                          (present[i:j] - a).astype(index)))
        bounds = np.cumsum([0, *(len(c[0]) for c, _, _ in parts)])
        if bounds[1] == 0 or bounds[-1] == bounds[1]:
            continue  # no hypothesis or no reference token: nothing matches
        block_lengths = np.concatenate([n for _, n, _ in parts])
        seg = np.repeat(np.concatenate([p for _, _, p in parts]), block_lengths)
        # (the block's keys are held by the kernel alone: it frees them after order 1)
        for k, counts in enumerate(grouped_counts(_block_keys(parts, seg), seg, block_lengths,
                                                  bounds, b - a, max_order, per_reference)):
            out[k][a:b] = counts
    return out


def _block_keys(parts: Sequence[tuple[Sequence[np.ndarray], Any, Any]], seg: np.ndarray
                ) -> list[np.ndarray]:
    """The key columns of a block's tokens, every source's in turn, and the segment ``seg`` of each
    token: (segment, token) in one int64 when the tokens are one column of 32 bits or fewer."""
    columns = [np.concatenate([c[k] for c, _, _ in parts]) for k in range(len(parts[0][0]))]
    if len(columns) == 1 and columns[0].itemsize <= 4:
        key = seg.astype(np.int64)
        key <<= 32
        key |= columns[0].view(f"u{columns[0].itemsize}")
        return [key]
    return [*columns, seg]


def grouped_counts(columns: Sequence[np.ndarray], seg: np.ndarray, lengths: np.ndarray,
                   bounds: np.ndarray, S: int, max_order: int, per_reference: bool = False
                   ) -> list[np.ndarray]:
    """The kernel: tokens of every source in one array (source k: tokens ``bounds[k]`` ..
    ``bounds[k + 1]``, the hypothesis first; ``lengths``: tokens per segment of each source in
    that order; ``seg``: the segment (of ``S``) of every token), ``columns``: one key per token that is
    equal exactly for equal (segment, token). Clipped counts per segment and order ([segments ×
    max_order]), or with ``per_reference`` Σ min(hypothesis count, count in reference k) per
    reference k (K arrays segments × max_order).

    Order 1 groups the (segment, token) keys; an n-gram at i is then keyed by the groups of the
    (n-1)-grams at i and i + 1, which is exact, and only if both are *shared* (in the hypothesis
    and a reference of the segment): an n-gram that matches has both in the hypothesis and in
    that reference, so all its occurrences are kept.
    """
    T, N = len(seg), max_order
    K = len(bounds) - 2
    out = [np.zeros((S, N), dtype=np.int64) for _ in range(K if per_reference else 1)]
    counts, group = _clipped_groups(columns, bounds, seg, S, per_reference)
    del columns  # (when the caller holds no other reference, order 1's keys are freed here)
    for k, c in enumerate(counts):
        out[k][:, 0] = c
    at: np.ndarray | None = None  # the position of each n-gram of the last order (None: all)
    for n in range(2, N + 1):
        ok = group[:-1] >= 0  # the (n-1)-grams at i and i + 1 are both shared ...
        ok &= group[1:] >= 0
        if at is None:  # ... and in one segment
            last = np.zeros(T, dtype=bool)  # last[i]: token i ends its segment (in its source)
            last[np.cumsum(lengths)[lengths > 0] - 1] = True
            ok &= ~last[:-1]
        else:
            ok &= at[1:] == at[:-1] + 1
        j = ok.nonzero()[0]
        if len(j) == 0:
            break
        # (the group of the (n-1)-gram at i, that of the one at i + 1): the n-gram, exactly
        key = group.take(j, mode="clip")
        key *= T
        key += group.take(j + 1, mode="clip")
        at = j if at is None else at.take(j, mode="clip")
        counts, group = _clipped_groups([key], at.searchsorted(bounds),
                                        seg.take(at, mode="clip"), S, per_reference)
        for k, c in enumerate(counts):
            out[k][:, n - 1] = c
    return out


def _clipped_groups(columns: Sequence[np.ndarray], bounds: np.ndarray, seg: np.ndarray, S: int,
                    per_reference: bool) -> tuple[list[np.ndarray], np.ndarray]:
    """Clipped counts per segment of n-grams given as exact keys (or matches per reference, see
    :func:`grouped_counts`), and every key's group (a number below the number of keys; -1 when
    the n-gram is not *shared*: not in both the hypothesis and a reference of its segment)."""
    rep = representatives(columns)
    hyp, *ref = group_counts(rep, bounds)
    if per_reference:
        matches = [np.minimum(hyp, r) for r in ref]
        shared = matches[0] > 0
        for m in matches[1:]:
            shared |= m > 0
    else:
        for counts in ref[1:]:
            np.maximum(ref[0], counts, out=ref[0])
        matches = [np.minimum(hyp, ref[0], out=hyp)]  # the clipped counts
        shared = matches[0] > 0
    # counts are nonzero only at the representatives of shared groups: sum those per segment
    at = shared.nonzero()[0]
    at_seg = seg.take(at, mode="clip")
    out = [np.bincount(at_seg, weights=m.take(at, mode="clip"), minlength=S).astype(np.int64)
           for m in matches]
    del hyp, ref, matches  # (the counts' memory is free before the groups are marked)
    # every key's group, -1 where it is not shared: in place, in the representatives' memory
    unshared = shared.take(rep, mode="clip")
    np.logical_not(unshared, out=unshared)
    np.putmask(rep, unshared, -1)
    return out, rep


def _clipped_counts_small(hyp: Sequence[np.ndarray], hyp_lengths: np.ndarray,
                          refs: Sequence[KeyStream], max_order: int) -> np.ndarray:
    """:func:`clipped_counts_of_keys` by :func:`.bleu.rules.modified_precision` (a few segments)."""
    # imported here: the bleu package's metric imports this module
    from .bleu.rules import modified_precision

    S = len(hyp_lengths)

    def tokens(columns: Sequence[np.ndarray], lengths: np.ndarray) -> list[list[Any]]:
        keys = list(zip(*(c.tolist() for c in columns)))
        ends = np.cumsum(lengths).tolist()
        return [keys[end - n:end] for end, n in zip(ends, lengths.tolist())]

    hyps = tokens(hyp, hyp_lengths)
    ref_tokens: list[list[list[Any]]] = [[] for _ in range(S)]
    for columns, lengths, present in refs:
        for i, ref in zip(present.tolist(), tokens(columns, lengths)):
            ref_tokens[i].append(ref)
    out = np.zeros((S, max_order), dtype=np.int64)
    for i, h in enumerate(hyps):
        for n in range(1, min(max_order, len(h)) + 1):
            out[i, n - 1] = modified_precision(h, ref_tokens[i], n)[0]
    return out


def clipped_counts_by_rank(hyp_ids: np.ndarray, hyp_lengths: np.ndarray,
                           refs: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]],
                           vocab_size: int, max_order: int) -> np.ndarray:
    """:func:`clipped_counts` with one sort per order and n-grams keyed by dense ranks (any size)."""
    S = len(hyp_lengths)
    B = vocab_size + 1
    tok = np.concatenate([np.where(hyp_ids < 0, vocab_size, hyp_ids)] + [ids for ids, _, _ in refs])
    seg = np.concatenate([np.repeat(np.arange(S, dtype=np.int64), hyp_lengths)]
                         + [np.repeat(present, lengths) for _, lengths, present in refs])
    src = np.concatenate([np.zeros(int(hyp_lengths.sum()), dtype=np.int64)]
                         + [np.full(int(lengths.sum()), k + 1, dtype=np.int64)
                            for k, (_, lengths, _) in enumerate(refs)])
    rem = np.concatenate([_remaining(hyp_lengths)] + [_remaining(lengths) for _, lengths, _ in refs])
    out = np.zeros((S, max_order), dtype=np.int64)
    T = len(tok)
    src_bits = max(len(refs).bit_length(), 1)  # source in the low bits of a key
    pos_bits = max(int(T).bit_length(), 1)
    key = seg * B + tok  # order 1, per position
    prev_rank = key  # replaced by the dense ranks of each order's keys before it is used
    for n in range(1, max_order + 1):
        starts = np.nonzero(rem >= n)[0]
        if len(starts) == 0:
            break
        key = prev_rank[starts] * B + tok[starts + (n - 1)] if n > 1 else key[starts]
        combined = (key << src_bits) | src[starts]
        # sort by (key, source); packing the position into the low bits lets a plain sort (much
        # faster than argsort) carry the permutation, when the three fit in 63 bits
        if int(combined.max(initial=0)).bit_length() + pos_bits <= 63:
            packed = np.sort((combined << pos_bits) | np.arange(len(combined), dtype=np.int64))
            order = packed & ((1 << pos_bits) - 1)
            sorted_comb = packed >> pos_bits
        else:
            order = np.argsort(combined)
            sorted_comb = combined[order]
        # runs of equal (key, source): one row per run with its length
        run_start = np.ones(len(sorted_comb), dtype=bool)
        run_start[1:] = sorted_comb[1:] != sorted_comb[:-1]
        run_idx = np.nonzero(run_start)[0]
        run_len = np.diff(np.append(run_idx, len(sorted_comb)))
        run_comb = sorted_comb[run_idx]
        run_key, run_src = run_comb >> src_bits, run_comb & ((1 << src_bits) - 1)
        # groups of equal key (segment, n-gram): the hypothesis run, if any, comes first
        group_start = np.ones(len(run_key), dtype=bool)
        group_start[1:] = run_key[1:] != run_key[:-1]
        group_idx = np.nonzero(group_start)[0]
        hyp_count = np.where(run_src[group_idx] == 0, run_len[group_idx], 0)
        ref_max = np.maximum.reduceat(np.where(run_src > 0, run_len, 0), group_idx)
        clipped = np.minimum(hyp_count, ref_max)
        group_seg = seg[starts[order[run_idx[group_idx]]]]
        out[:, n - 1] = np.bincount(group_seg, weights=clipped, minlength=S).astype(np.int64)
        if n < max_order:
            # dense rank of each occurrence's key, for the next order's keys
            group_of_run = np.cumsum(group_start) - 1
            rank_sorted = np.repeat(group_of_run, run_len)
            prev_rank = np.full(T, -1, dtype=np.int64)
            prev_rank[starts[order]] = rank_sorted
    return out
