"""BLEU's rules (Papineni et al., 2002), each one function, as sacreBLEU 2.6.0 computes them.

These are the definitions: the corpus, sentence and tiny-corpus paths of :class:`~.bleu.BLEU`
all score one summed row with :func:`bleu_of_row` and count tiny inputs with
:func:`modified_precision` and :func:`closest_ref_length`. The numpy kernels that do the same for
whole corpora and for many rows at once are fast paths, documented and tested as equal to these
functions: :mod:`..clipping` (clipped counts of a corpus) and :mod:`.fast` (closest
reference lengths of a corpus, scores of many rows).

Floating point: logarithms and exponentials are numpy's, applied to arrays as the vectorized path
applies them, so both paths give the same bits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence

import numpy as np

#: sacreBLEU floors log(0) at this value (``my_log``), which makes exp(...) exactly 0.0
LOG_ZERO = -9999999999.0

#: smoothing method -> default value (None: the method takes no value)
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}


def ngrams(words: Sequence[Hashable], n: int) -> Iterable[Hashable]:
    """The n-grams of one segment in order: its words for n = 1, else tuples of n words."""
    if n == 1:
        return words
    return zip(*[words[i:] for i in range(n)])


def modified_precision(hyp: Sequence[Hashable], refs: Sequence[Sequence[Hashable]], n: int
                       ) -> tuple[int, int]:
    """§2.1 modified n-gram precision of one segment, as (clipped matches, hypothesis n-grams):
    each hypothesis n-gram counts at most as often as it occurs in any *single* reference.

    Words are any hashable tokens (strings, or integer ids).
    """
    grams = list(ngrams(hyp, n))
    distinct = set(grams)
    # the n-grams found in some reference (set operations: no Python loop over the n-grams)
    common: set[Hashable] = set()
    for ref in refs:
        common |= distinct.intersection(ngrams(ref, n))
    clipped = len(common)  # each counts once; one repeated in the hypothesis may count more
    if common and len(distinct) < len(grams):
        for gram, k in Counter(grams).items():
            if k > 1 and gram in common:
                most = max(list(ngrams(ref, n)).count(gram) for ref in refs)
                clipped += min(k, most) - 1
    return clipped, len(grams)


def closest_ref_length(hyp_len: int, ref_lens: Iterable[int]) -> int:
    """§2.2.2 the effective reference length of one segment: the reference length closest to the
    hypothesis length; of two equally close, the shorter (sacreBLEU, mteval-v13a)."""
    return min((abs(r - hyp_len), r) for r in ref_lens)[1]


def pool(rows: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """§2.1.1 / §2.3 corpus pooling: a corpus's statistics are its segments' summed (clipped
    matches and n-grams are added before dividing, not sentence scores averaged)."""
    return np.asarray(rows).sum(axis=0)


def brevity_penalty(hyp_len: float, ref_len: float) -> float:
    """§2.2.2 BP = 1 if c ≥ r else exp(1 − r/c), with c the hypothesis and r the effective
    reference length (0 when c = 0 < r)."""
    if hyp_len >= ref_len:
        return 1.0
    if hyp_len <= 0:
        return 0.0
    return float(np.exp(np.array([1 - ref_len / hyp_len]))[0])


def smoothed_precisions(correct: Sequence[float], total: Sequence[float], smooth: str,
                        value: float | None) -> tuple[list[float], int]:
    """The n-gram precisions in percent (orders 1..N) and how many orders are *active* (those
    before the first order with no hypothesis n-grams; the others are 0), with sentence-level
    smoothing (Chen & Cherry, 2014) of the orders without matches: ``none``; ``floor`` (method 1:
    ``value`` matches); ``add-k`` (method 2: ``value`` added to matches and n-grams of orders ≥ 2);
    ``exp`` (method 3, mteval's: 1 / 2^k for the k-th order without matches)."""
    N = len(correct)
    correct, total = [float(x) for x in correct], [float(x) for x in total]
    k = value or 0.0  # (None only for the methods that take no value)
    if smooth == "add-k":
        for n in range(1, N):
            correct[n] += k
            total[n] += k
    prec = [0.0] * N
    active = halvings = 0
    for n in range(N):
        if not total[n] > 0:
            break
        active += 1
        if correct[n] != 0:
            prec[n] = 100.0 * correct[n] / total[n]
        elif smooth == "exp":
            halvings += 1
            prec[n] = 100.0 / (2.0 ** halvings * total[n])
        elif smooth == "floor":
            prec[n] = 100.0 * k / total[n]
    return prec, active


def geometric_mean(precisions: Sequence[float]) -> float:
    """§2.3 exp(Σ log p_n / N) with uniform weights 1/N over the ``precisions`` given (sacreBLEU's
    log(0) = −9999999999, so a zero precision gives 0)."""
    positive = [p for p in precisions if p > 0]
    logs = iter(np.log(np.array(positive, dtype=np.float64)).tolist())
    log_sum = 0.0
    for p in precisions:
        log_sum = log_sum + (next(logs) if p > 0 else LOG_ZERO)
    return float(np.exp(np.array([log_sum / len(precisions)]))[0])


def bleu_of_row(row: Sequence[float], max_order: int, smooth: str, smooth_value: float | None,
                effective_order: bool) -> tuple[float, list[float], float]:
    """BLEU (0–100) of one summed row ``hyp_len, ref_len, match_1..N, total_1..N`` as
    (score, precisions, brevity penalty): BP · geometric mean of the smoothed precisions (§2.3),
    over the active orders with ``effective_order``, else over all N; 0 when nothing matches."""
    N = max_order
    correct, total = row[2:2 + N], row[2 + N:]
    bp = brevity_penalty(float(row[0]), float(row[1]))
    if not any(x != 0 for x in correct):
        return 0.0, [0.0] * N, bp
    prec, active = smoothed_precisions(correct, total, smooth, smooth_value)
    eff = active if effective_order and active else N
    return bp * geometric_mean(prec[:eff]), prec, bp
