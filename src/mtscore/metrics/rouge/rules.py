"""The rules of ROUGE (Lin, 2004), one function each, on token sequences: the specification the fast
kernels (:mod:`.token_join`, :mod:`.lcs_lanes`, :mod:`.lcs_int`, :mod:`.lsum_fast`) are tested
equal to.

Counts, not scores: each rule returns ``(hits, hyp_total, ref_total)`` for one hypothesis
("candidate", rouge-score's "prediction") against one reference, from which :func:`precision`,
:func:`recall` and :func:`f_measure` follow.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

Tokens = Sequence[Hashable]


def ngram_counts(tokens: Tokens, n: int) -> Counter[tuple[Hashable, ...]]:
    """The n-grams of a token sequence with their counts (Lin 2004, §2)."""
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def rouge_n(hyp: Tokens, ref: Tokens, n: int) -> tuple[int, int, int]:
    """ROUGE-N (Lin 2004, §2, eq. 1): hits = Σ over reference n-grams of Count_match, the count of
    an n-gram clipped by its count in the hypothesis; totals = the n-grams of each side."""
    h, r = ngram_counts(hyp, n), ngram_counts(ref, n)
    hits = sum(min(count, h[gram]) for gram, count in r.items())
    return hits, sum(h.values()), sum(r.values())


def lcs_table(ref: Tokens, can: Tokens) -> list[list[int]]:
    """The dynamic-programming table of the longest common subsequence (Lin 2004, §3.1):
    ``t[i][j]`` = LCS length of ``ref[:i]`` and ``can[:j]``."""
    t = [[0] * (len(can) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        row, prev = t[i], t[i - 1]
        for j in range(1, len(can) + 1):
            row[j] = prev[j - 1] + 1 if ref[i - 1] == can[j - 1] else max(prev[j], row[j - 1])
    return t


def lcs_length(ref: Tokens, can: Tokens) -> int:
    """LCS(X, Y), the length of the longest common subsequence (Lin 2004, §3.1)."""
    return lcs_table(ref, can)[-1][-1]


def lcs_indices(ref: Tokens, can: Tokens) -> list[int]:
    """The positions in ``ref`` of one longest common subsequence, read back from the table from
    its last cell: a match steps diagonally; otherwise left when the cell to the left is strictly
    larger than the one above, else up (the path rouge-score 0.1.2 reads, which decides which
    tokens enter the union LCS of §3.2)."""
    t = lcs_table(ref, can)
    i, j, out = len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            out.append(i - 1)
            i, j = i - 1, j - 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return out[::-1]


def rouge_l(hyp: Tokens, ref: Tokens) -> tuple[int, int, int]:
    """Sentence-level ROUGE-L (Lin 2004, §3.1, eqs. 2–4): hits = LCS(reference, hypothesis);
    totals = the lengths m (reference) and n (hypothesis)."""
    if not hyp or not ref:
        return 0, len(hyp), len(ref)
    return lcs_length(ref, hyp), len(hyp), len(ref)


def union_lcs(ref_sentence: Tokens, hyp_sentences: Sequence[Tokens]) -> list[int]:
    """LCS∪(r_i, C) (Lin 2004, §3.2): the positions of reference sentence r_i that are in the
    LCS of r_i with any hypothesis sentence, in order."""
    positions: set[int] = set()
    for c in hyp_sentences:
        positions.update(lcs_indices(ref_sentence, c))
    return sorted(positions)


def rouge_lsum(hyp_sentences: Sequence[Tokens], ref_sentences: Sequence[Tokens]
               ) -> tuple[int, int, int]:
    """Summary-level ROUGE-L (Lin 2004, §3.2, eqs. 5–7): hits = Σ_i |LCS∪(r_i, C)|, with
    rouge-score's clipping: a union token counts only while the hypothesis still has an unused
    occurrence of it (so a hypothesis word is not credited twice); totals = the tokens of all
    sentences of each side."""
    m = sum(len(s) for s in ref_sentences)
    n = sum(len(s) for s in hyp_sentences)
    if not m or not n:
        return 0, n, m
    left_hyp = Counter(t for s in hyp_sentences for t in s)
    left_ref = Counter(t for s in ref_sentences for t in s)
    hits = 0
    for r in ref_sentences:
        for i in union_lcs(r, hyp_sentences):
            t = r[i]
            if left_hyp[t] > 0 and left_ref[t] > 0:
                hits += 1
                left_hyp[t] -= 1
                left_ref[t] -= 1
    return hits, n, m


def precision(hits: int, hyp_total: int) -> float:
    """P = hits / hypothesis total (0 when the hypothesis has nothing to count)."""
    return hits / max(hyp_total, 1)


def recall(hits: int, ref_total: int) -> float:
    """R = hits / reference total (0 when the reference has nothing to count)."""
    return hits / max(ref_total, 1)


def f_measure(p: float, r: float, beta: float = 1.0) -> float:
    """F = (1 + β²) P R / (R + β² P) (Lin 2004, eq. 4); 0 when P = R = 0. β = 1 is rouge-score's
    F1, 2PR / (P + R), computed in the same order of operations."""
    b2 = beta * beta
    den = b2 * p + r
    return (1 + b2) * p * r / den if den > 0 else 0.0
