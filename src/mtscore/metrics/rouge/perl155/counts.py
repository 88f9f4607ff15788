"""ROUGE-N and ROUGE-S/SU co-occurrence counts as ROUGE-1.5.5.pl counts them (``createNGram``,
``createSkipBigram``, ``ngramScore``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

Gram = tuple[str, ...]


def ngram_counts(tokens: Sequence[str], n: int) -> tuple[Counter[Gram], int]:
    """``createNGram``: the n-grams of the token sequence and their number (``_cn_``)."""
    grams = Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return grams, max(len(tokens) - n + 1, 0)


def skip_bigram_counts(tokens: Sequence[str], skip: int, unigrams: bool) -> tuple[Counter[Gram], int]:
    """``createSkipBigram``: every pair (t_i, t_j), i < j, with at most ``skip`` tokens between them
    (any gap when ``skip`` < 0); with ``unigrams`` (``-u``) also each t_i -- but, as in the script, not
    the last token, and nothing at all for a one-token text."""
    grams: Counter[Gram] = Counter()
    count = 0
    last = len(tokens) - 1
    for i in range(last):
        if unigrams:
            grams[(tokens[i],)] += 1
            count += 1
        stop = last if skip < 0 else min(last, i + skip + 1)
        for j in range(i + 1, stop + 1):
            grams[(tokens[i], tokens[j])] += 1
            count += 1
    return grams, count


def clipped_hits(model: Counter[Gram], peer: Counter[Gram]) -> int:
    """``ngramScore``'s hit: the model's grams found in the peer, each clipped to the smaller count."""
    return sum(min(count, peer[gram]) for gram, count in model.items() if gram in peer)
