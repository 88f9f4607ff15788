"""chrF's rules for one string, as sacreBLEU 2.6.0 applies them (Popović 2015, 2017).

These functions are the specification the whole-corpus kernels (:mod:`.fast`) are tested
against, and the reusable per-string counting: to compare many strings pairwise (a pairwise chrF
matrix), count each string **once** with :func:`string_ngrams` and score every pair with
:func:`pair_statistics`, which gives exactly the row :meth:`CHRF.extract
<mtscore.metrics.chrf.CHRF.extract>` gives for that (hypothesis, reference) pair; ``compute_many``
of those rows gives the chrF of every pair.

* Popović (2015) §2: character n-grams of orders 1..6 of the segment **with white space removed**
  (sacreBLEU: ``''.join(line.split())``; kept with ``whitespace=True``);
* Popović (2017) §2 (chrF++): word n-grams of orders 1..2 as well, on words split on white space
  with one punctuation mark split off the end of a word, or else off its start (chrF++.py's
  tokenization, sacreBLEU's ``_remove_punctuation``);
* per order: the hypothesis n-gram count, the reference n-gram count and the matches
  Σ min(hypothesis count, reference count); sacreBLEU counts the hypothesis n-grams of an order as
  0 when the reference has none of that order (:func:`match_statistics`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

#: chrF++.py's punctuation marks (``string.punctuation``)
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')


def char_ngram_counts(text: str, max_order: int, whitespace: bool = False) -> list[Counter[str]]:
    """Popović (2015) §2: counts of the character n-grams of orders 1..``max_order`` of ``text``,
    white space removed unless ``whitespace``."""
    if not whitespace:
        text = "".join(text.split())
    return [Counter([text[i:i + n] for i in range(len(text) - n + 1)])
            for n in range(1, max_order + 1)]


def chrf_words(text: str) -> list[str]:
    """Popović (2017) §2: chrF++'s words: split on white space; a word of two or more characters
    loses its last character to a word of its own when that is a punctuation mark, or else its
    first one (so ``(hi)`` gives ``(hi`` and ``)``, as in chrF++.py and sacreBLEU)."""
    words: list[str] = []
    for w in text.split():
        if len(w) > 1 and w[-1] in PUNCTUATION:
            words += [w[:-1], w[-1]]
        elif len(w) > 1 and w[0] in PUNCTUATION:
            words += [w[0], w[1:]]
        else:
            words.append(w)
    return words


def word_ngram_counts(words: Sequence[str], max_order: int) -> list[Counter[tuple[str, ...]]]:
    """Counts of the word n-grams of orders 1..``max_order``."""
    return [Counter([tuple(words[i:i + n]) for i in range(len(words) - n + 1)])
            for n in range(1, max_order + 1)]


def string_ngrams(text: str, char_order: int, word_order: int = 0, lowercase: bool = False,
                  whitespace: bool = False) -> list[Counter[Any]]:
    """Every n-gram count chrF (``word_order`` 0) or chrF++ needs of one string: character orders
    1..``char_order``, then word orders 1..``word_order``, after lowercasing if asked."""
    if lowercase:
        text = text.lower()
    counts: list[Counter[Any]] = list(char_ngram_counts(text, char_order, whitespace))
    if word_order:
        counts += word_ngram_counts(chrf_words(text), word_order)
    return counts


def match_statistics(hyp: Counter[Any], ref: Counter[Any]) -> tuple[int, int, int]:
    """(hypothesis n-grams, reference n-grams, matches) of one order: matches are
    Σ min(hypothesis count, reference count); the hypothesis count is 0 when the reference has no
    n-gram of this order (sacreBLEU's ``_get_match_statistics``)."""
    matches = sum(min(count, ref[gram]) for gram, count in hyp.items() if gram in ref)
    return (sum(hyp.values()) if ref else 0), sum(ref.values()), matches


def pair_statistics(hyp: Sequence[Counter[Any]], ref: Sequence[Counter[Any]]) -> list[int]:
    """The statistics row of one (hypothesis, reference) pair from their :func:`string_ngrams`:
    (hypothesis, reference, matches) for every order in turn."""
    row: list[int] = []
    for h, r in zip(hyp, ref):
        row.extend(match_statistics(h, r))
    return row
