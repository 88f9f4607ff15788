"""Metrics as utilities: the sentence score of every (hypothesis, reference) pair, as a matrix.

``pairwise(metric, hypotheses, references)`` is, by definition, ``metric``'s sentence score of
hypothesis i against reference j alone, for every i and j: the metric's ``compute_many`` of the
pair's row of statistics (:mod:`.base`), so every smoothing, order and parameter is the metric's
own. It equals ``sentence_bleu`` / ``BLEU.sentence_score``, ``sentence_chrf`` and ``sentence_meteor``
pair by pair (tests, to 1e-9). Uses: minimum-Bayes-risk decoding (:mod:`.mbr`), rewards.

How: the distinct strings of a source are scored once (sampled candidates repeat); each string is
tokenized and its n-grams counted once, and only the pair step — clipped matches, for all pairs
of a source at once with a matrix product — is done per pair (:mod:`.bleu.pairwise`,
:mod:`.chrf.pairwise`); METEOR aligns each pair with its corpus aligner (:mod:`.meteor.pairwise`);
any other metric takes :func:`pair_scores_by_extract`, the definition itself. Work goes in chunks
of at most ``PAIR_BUDGET`` pairs, so memory stays bounded whatever the number of sources or
candidates.

Reference aggregation (``aggregate=True``, BLEU and chrF; Vamvas & Sennrich 2024, "Linear-time
minimum Bayes risk decoding with reference aggregation", §3): each hypothesis is scored once
against the *mean* n-gram statistics of all references, one score per hypothesis. Linear instead
of quadratic in the number of candidates, and not equal to the mean of the pairwise scores.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ..errors import InputError, OptionError
from . import registry
from .base import Metric
from .pairwise_counts import pair_offsets

#: at most this many distinct pairs are scored at once (bounds memory: one statistics row each)
PAIR_BUDGET = 1 << 16
#: and sources are added to a chunk while their strings have at most this many characters in all
#: (bounds the n-gram tables of long strings)
CHARACTER_BUDGET = 1 << 24

#: kernel(metric, hyps, refs, hyp_bounds, ref_bounds, same) -> flat scores (see pair_offsets)
Kernel = Callable[[Any, Sequence[str], Sequence[str], np.ndarray, np.ndarray, bool], np.ndarray]

#: the metrics a name on the command line or in the API stands for, with sentence-level settings
#: (the registry's utilities)
UTILITIES = registry.UTILITIES


def utility_metric(metric: Metric[Any] | str) -> Metric[Any]:
    """``metric`` itself, or the metric a name stands for with the settings of its sentence
    function (:func:`.registry.utility_metric`): ``bleu`` (``sentence_bleu``: effective order),
    ``chrf``, ``chrf++`` (word order 2), ``meteor``."""
    if isinstance(metric, Metric):
        return metric
    return registry.utility_metric(metric)


def kernels(metric: Metric[Any], fast: bool = True) -> tuple[Kernel, Kernel | None]:
    """The pair kernel and the aggregation kernel (None: not defined) of ``metric``: its own
    ``pair_kernel()`` hook, else the definition; ``fast=False``: the definition,
    :func:`pair_scores_by_extract` (no aggregation)."""
    own = metric.pair_kernel() if fast else None
    if own is not None:
        return own
    return pair_scores_by_extract, None


def pair_scores_by_extract(metric: Metric[Any], hyps: Sequence[str], refs: Sequence[str],
                           hyp_bounds: np.ndarray, ref_bounds: np.ndarray, same: bool) -> np.ndarray:
    """The definition: ``compute_many`` of ``extract`` over every pair as a one-reference segment;
    for a metric whose statistics depend on the whole reference corpus (``segment_independent``
    False: NIST), each pair is a corpus of its own, so no entry depends on the rest of the batch."""
    from .pairwise_counts import pair_index

    h, r = pair_index(hyp_bounds, ref_bounds)
    if not len(h):
        return np.zeros(0)
    if not metric.segment_independent:
        return np.array([metric.compute_many(metric.extract([hyps[i]], [[refs[j]]]).values)[0]
                         for i, j in zip(h.tolist(), r.tolist())], dtype=np.float64)
    stats = metric.extract([hyps[i] for i in h.tolist()], [[refs[j] for j in r.tolist()]])
    return np.asarray(metric.compute_many(stats.values), dtype=np.float64)


def pairwise(metric: Metric[Any] | str, hypotheses: Sequence[Any], references: Sequence[Any] | None = None,
             *, aggregate: bool = False, fast: bool = True) -> np.ndarray | list[np.ndarray]:
    """Sentence scores of every hypothesis against every reference, one reference at a time.

    ``metric``: a metric object (``BLEU(effective_order=True)``, ``CHRF()``, ``METEOR()``, ...) or a
    name (:func:`utility_metric`). ``hypotheses``: a list of strings, or a batch — a list of such
    lists, one per source; ``references``: the same shape (``None``: the hypotheses themselves,
    as in MBR). Returns a (hypotheses × references) array, for a batch a list of them or one 3-D
    array when every source has the same sizes. ``aggregate=True``: one score per hypothesis
    against the aggregated references (see the module doc): a vector, for a batch a list or 2-D array.
    ``fast=False``: every pair through the metric's ``extract`` (the definition; slow).
    """
    metric = utility_metric(metric)
    batch = is_batch(hypotheses)
    out = list(score_sources(metric, checked_sources(hypotheses, references, batch), aggregate, fast))
    if not batch:
        return out[0]
    if len({m.shape for m in out}) == 1:
        return np.stack(out)
    return out


def kernel_for(metric: Metric[Any], aggregate: bool, fast: bool = True) -> Kernel:
    """The pair kernel of ``metric``, or its aggregation kernel (an :class:`OptionError` where
    aggregation is not defined)."""
    kernel, aggregator = kernels(metric, fast)
    if not aggregate:
        return kernel
    if aggregator is None:
        raise OptionError("aggregate", True,
                          detail=f"reference aggregation is defined for BLEU and chrF, not {metric.name}"
                                 if fast else "reference aggregation needs the fast path (fast=True)")
    return aggregator


Source = tuple[list[str], list[str] | None]


def is_batch(hypotheses: Any) -> bool:
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence) or not len(hypotheses):
        raise InputError("hypotheses must be a non-empty list of strings (or a list of such lists, "
                         f"one per source), got {type(hypotheses).__name__}"
                         + (" of length 0" if isinstance(hypotheses, Sequence) else ""))
    return not isinstance(hypotheses[0], str)


def checked_sources(hypotheses: Any, references: Any, batch: bool) -> list[Source]:
    """(hypotheses, references or None) per source, checked."""
    hyp_sets = list(hypotheses) if batch else [hypotheses]
    if references is None:
        ref_sets: list[Any] = [None] * len(hyp_sets)
    else:
        if batch != (not isinstance(references, str) and isinstance(references, Sequence)
                     and len(references) > 0 and not isinstance(references[0], str)):
            raise InputError("hypotheses and references must both be lists of strings or both "
                             "lists of lists (one per source)")
        ref_sets = list(references) if batch else [references]
        if len(ref_sets) != len(hyp_sets):
            raise InputError(f"{len(hyp_sets)} sources of hypotheses but {len(ref_sets)} of references")
    out = []
    for s, (hyps, refs) in enumerate(zip(hyp_sets, ref_sets)):
        where = f"source {s}: " if batch else ""
        checked = _strings(hyps, f"{where}hypotheses")
        out.append((checked, None if refs is None or refs is hyps else _strings(refs, f"{where}references")))
    return out


def _strings(values: Any, what: str) -> list[str]:
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InputError(f"{what} must be a list of strings, got {type(values).__name__}")
    values = list(values)
    if not values:
        raise InputError(f"{what}: none given (at least one is needed)")
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise InputError(f"{what}[{i}] is {type(value).__name__}, expected a string")
    return values


def score_sources(metric: Metric[Any], sources: Iterable[Source], aggregate: bool = False,
                  fast: bool = True) -> Iterator[np.ndarray]:
    """The matrix (or, aggregated, the vector) of each source in order, computed in chunks of at
    most ``PAIR_BUDGET`` distinct pairs and ``CHARACTER_BUDGET`` characters (a source with more
    pairs is split by hypotheses; aggregation works on whole sources). ``sources`` is read
    lazily: a stream of sources takes bounded memory."""
    kernel = kernel_for(metric, aggregate, fast)
    pending: list[Distinct] = []
    size = characters = 0
    for hyps, refs in sources:
        distinct = _distinct(hyps, refs, aggregate)
        cost = len(distinct[0]) * (1 if aggregate else len(distinct[2]))
        text = sum(map(len, distinct[0])) + (0 if distinct[4] else sum(map(len, distinct[2])))
        if pending and (size + cost > PAIR_BUDGET or characters + text > CHARACTER_BUDGET):
            yield from _run(metric, kernel, pending, aggregate)
            pending, size, characters = [], 0, 0
        pending.append(distinct)
        size += cost
        characters += text
    if pending:
        yield from _run(metric, kernel, pending, aggregate)


Distinct = tuple[list[str], np.ndarray, list[str], np.ndarray, bool]


def _distinct(hyps: list[str], refs: list[str] | None, aggregate: bool) -> Distinct:
    """The distinct hypotheses and references of a source, where each original one is among them,
    and whether both sides are the same strings. Aggregated references keep their repeats (the
    mean counts them)."""
    uh, ih = _unique(hyps)
    if aggregate:
        refs = hyps if refs is None else refs
        return uh, ih, refs, np.arange(len(refs)), refs == uh
    if refs is None or refs == hyps:
        return uh, ih, uh, ih, True
    ur, ir = _unique(refs)
    return uh, ih, ur, ir, False


def _unique(values: list[str]) -> tuple[list[str], np.ndarray]:
    index: dict[str, int] = {}
    where = np.fromiter((index.setdefault(v, len(index)) for v in values), np.int64, len(values))
    return list(index), where


def _run(metric: Metric[Any], kernel: Kernel, chunk: list[Distinct], aggregate: bool) -> Iterator[np.ndarray]:
    """Score one chunk of sources; a single source over the budget is split by hypotheses."""
    if len(chunk) == 1 and not aggregate:
        uh, ih, ur, ir, _ = chunk[0]
        step = max(1, PAIR_BUDGET // len(ur))
        if len(uh) > step:
            parts = [_kernel_call(metric, kernel, [(uh[lo:lo + step], ur, False)])
                     for lo in range(0, len(uh), step)]
            yield np.concatenate(parts).reshape(len(uh), len(ur))[np.ix_(ih, ir)]
            return
    flat = _kernel_call(metric, kernel, [(uh, ur, same) for uh, _, ur, _, same in chunk], aggregate)
    at = 0
    for uh, ih, ur, ir, _ in chunk:
        if aggregate:
            yield flat[at:at + len(uh)][ih]
            at += len(uh)
        else:
            yield flat[at:at + len(uh) * len(ur)].reshape(len(uh), len(ur))[np.ix_(ih, ir)]
            at += len(uh) * len(ur)


def _kernel_call(metric: Metric[Any], kernel: Kernel, groups: list[tuple[list[str], list[str], bool]],
                 aggregate: bool = False) -> np.ndarray:
    """The kernel on groups laid out one after the other (references given once when every group's
    hypotheses are its references)."""
    same = all(s for _, _, s in groups)
    hyps = [h for uh, _, _ in groups for h in uh]
    refs = hyps if same else [r for _, ur, _ in groups for r in ur]
    hyp_bounds = np.concatenate(([0], np.cumsum([len(uh) for uh, _, _ in groups]))).astype(np.int64)
    ref_bounds = hyp_bounds if same else \
        np.concatenate(([0], np.cumsum([len(ur) for _, ur, _ in groups]))).astype(np.int64)
    scores = kernel(metric, hyps, refs, hyp_bounds, ref_bounds, same)
    expected = len(hyps) if aggregate else int(pair_offsets(hyp_bounds, ref_bounds)[-1])
    assert len(scores) == expected
    return scores
