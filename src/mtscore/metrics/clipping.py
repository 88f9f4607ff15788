"""BLEU's clipped n-gram counts for a whole corpus at once, with one sort per n-gram order.

Papineni et al. (2002) §2.1: a hypothesis n-gram count is clipped by the largest count of that
n-gram in any single reference of the same segment. Every token of the hypothesis and of the
references is put in one array; an occurrence of an n-gram is identified by an exact integer key
(segment, n-gram): for order 1 ``segment * B + token``, for order n the dense rank of the
occurrence's (n-1)-gram key times B plus its n-th token (B = vocabulary size + 1, the extra id
standing for every hypothesis token no reference has). Sorting (key, source) (source 0 =
hypothesis, k = reference k) groups each (segment, n-gram) with its count in every source.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _remaining(lengths: np.ndarray) -> np.ndarray:
    """For every token, how many tokens of its segment start at it (itself included)."""
    total = int(lengths.sum())
    ends = np.cumsum(lengths)
    return np.repeat(ends, lengths) - np.arange(total, dtype=np.int64)


def clipped_counts(hyp_ids: np.ndarray, hyp_lengths: np.ndarray,
                   refs: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]],
                   vocab_size: int, max_order: int) -> np.ndarray:
    """Clipped matches per segment and order: an int64 array (segments × max_order).

    ``refs``: per reference stream (token ids, tokens per present segment, index of those segments).
    Hypothesis ids are -1 for tokens that no reference has.
    """
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
    src_bits = max(int(len(refs)).bit_length(), 1)  # source in the low bits of a key
    pos_bits = max(int(T).bit_length(), 1)
    key = seg * B + tok  # order 1, per position
    prev_rank = key  # replaced by the dense ranks of each order's keys before it is used
    for n in range(1, max_order + 1):
        starts = np.nonzero(rem >= n)[0]
        if len(starts) == 0:
            break
        if n > 1:
            key = prev_rank[starts] * B + tok[starts + (n - 1)]
        else:
            key = key[starts]
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
