"""ROUGE-N counts of a whole corpus with numpy: the fast path of :func:`.rules.rouge_n` (tested
equal to it, segment by segment). :func:`rouge_n_counts` reads the hits from
:func:`.token_join.ngram_hits` (stable radix sorts of the token ids); :func:`clipped_hits`, one sort
of 64-bit keys, serves the union tokens of ROUGE-Lsum.

Every n-gram gets an exact integer code (the codes of its (n-1)-gram prefix and its last token,
ranked again), every (segment, code) pair one key; one ``unique`` per side counts them, and their
intersection gives Σ min(hypothesis count, reference count) per segment.
"""

from __future__ import annotations

import numpy as np

from .token_join import ngram_hits


def _segments(lengths: np.ndarray) -> np.ndarray:
    return np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)


def gram_starts(lengths: np.ndarray, n: int) -> np.ndarray:
    """Positions (in the concatenated ids) where an n-gram starts inside its text."""
    total = int(lengths.sum())
    ends = np.repeat(np.cumsum(lengths), lengths)
    pos = np.arange(total, dtype=np.int64)
    return pos[pos + n <= ends]


def gram_codes(ids: np.ndarray, starts: np.ndarray, n: int, segments: int
               ) -> tuple[np.ndarray, int]:
    """An exact code per n-gram starting at ``starts`` (equal codes: equal n-grams), and an
    upper bound of the codes: the ids in base |vocabulary| while (segment, code) keys fit in 62
    bits, else ranked again after each token."""
    vocab = int(ids.max()) + 1
    code, size = ids[starts], vocab
    for k in range(1, n):
        if size * vocab * max(segments, 1) < 1 << 62:
            code = code * vocab + ids[starts + k]
            size *= vocab
        else:
            distinct, code = np.unique(code * vocab + ids[starts + k], return_inverse=True)
            size = len(distinct)
    return code.astype(np.int64, copy=False), size


def clipped_hits(hyp_ids: np.ndarray, hyp_lengths: np.ndarray, ref_ids: np.ndarray,
                 ref_lengths: np.ndarray, n: int) -> np.ndarray:
    """Per segment Σ over n-grams of min(count in hypothesis, count in reference): every
    (segment, n-gram, side) key sorted once; a run of equal keys is a count, and a hypothesis
    run followed by the reference run of the same (segment, n-gram) is a match."""
    S = len(hyp_lengths)
    hs, rs = gram_starts(hyp_lengths, n), gram_starts(ref_lengths, n)
    if len(hs) == 0 or len(rs) == 0:
        return np.zeros(S, dtype=np.int64)
    ids = np.concatenate([hyp_ids, ref_ids])
    codes, size = gram_codes(ids, np.concatenate([hs, rs + len(hyp_ids)]), n, S)
    seg = np.concatenate([_segments(hyp_lengths)[hs], _segments(ref_lengths)[rs]])
    keys = seg * size + codes
    keys <<= 1
    keys[len(hs):] |= 1  # the side: 0 hypothesis, 1 reference
    keys.sort()
    run_starts = np.flatnonzero(np.diff(keys, prepend=np.int64(-1)))
    run_keys = keys[run_starts]
    run_counts = np.diff(run_starts, append=len(keys))
    pair = np.flatnonzero((run_keys[1:] >> 1) == (run_keys[:-1] >> 1))  # hyp run, then ref run
    hits = np.minimum(run_counts[pair], run_counts[pair + 1])
    return np.bincount((run_keys[pair] >> 1) // size, weights=hits, minlength=S).astype(np.int64)


def rouge_n_counts(hyp_ids: np.ndarray, hyp_lengths: np.ndarray, ref_ids: np.ndarray,
                   ref_lengths: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hits, hypothesis n-grams, reference n-grams) per segment: :func:`.rules.rouge_n` for every
    segment at once."""
    hits = ngram_hits(ref_ids, ref_lengths, hyp_ids, hyp_lengths, n)
    return hits, np.maximum(hyp_lengths - n + 1, 0), np.maximum(ref_lengths - n + 1, 0)
