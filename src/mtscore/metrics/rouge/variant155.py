"""Variant ``1.5.5``: the ROUGE metric's settings and statistics on the Perl script's rules, which
:mod:`.perl155` implements (its reading, tokenizer, stop words, length limits, MorphStem, ROUGE-N/L/
W/S/SU, ``-f A/B``, ``-t 0/1`` and the drand48 bootstrap average).

A segment is one of the script's documents: the hypothesis its peer summary, the segment's
references its models; newlines in a text separate its sentences. The statistics columns are
:data:`.metric.COLUMNS`, filled from the script's per-document rows (scores rounded to 5 decimals,
as it prints them): the mean aggregation is the mean of those rounded scores (``-t 0``), the pooled
one scores the summed counts (``-t 1``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from .perl155 import (
    Perl155Average,
    Perl155Options,
    RougeType,
    bootstrap_average,
    document_rows,
    instance_order,
)
from .perl155.bootstrap import pooled_scores
from .settings import ROUGESettings

_SKIP = re.compile(r"rouge(SU|S)([0-9]+|\*)")


def alpha_of(beta: float) -> float:
    """The script's α (``-p``) of F = 1 / (α/P + (1-α)/R): α = 1 / (1 + β²) (β = 1: 0.5)."""
    return 1.0 / (1.0 + beta * beta)


def perl_type(settings: ROUGESettings) -> RougeType:
    """The script's measure of a ROUGE type name."""
    name = settings.rouge_type
    if name == "rougeL":
        return RougeType("L")
    if name == "rougeW":
        return RougeType("W", weight=settings.weight)
    skip = _SKIP.fullmatch(name)
    if skip:
        distance = -1 if skip.group(2) == "*" else int(skip.group(2))
        return RougeType("SU" if skip.group(1) == "SU" else "S", skip=distance)
    return RougeType("N", n=int(name[5:]))


def perl_options(settings: ROUGESettings) -> Perl155Options:
    """The script's options of these settings (``-m -s -l -b -f -p -t``)."""
    return Perl155Options(stem=settings.stemmer, remove_stopwords=settings.stopwords,
                          word_limit=settings.word_limit, byte_limit=settings.byte_limit,
                          formula="A" if settings.multiref == "average" else "B",
                          alpha=alpha_of(settings.beta),
                          counting=1 if settings.aggregation == "pooled" else 0)


def statistics(settings: ROUGESettings, hyps: Sequence[str],
               streams: Sequence[Sequence[str | None]]) -> np.ndarray:
    """Per segment: hits, hypothesis (peer) total, reference (model) total, P, R, F, 1."""
    models = [[stream[i] for stream in streams if stream[i] is not None]
              for i in range(len(hyps))]
    rows = document_rows(list(hyps), models, perl_type(settings),  # type: ignore[arg-type]
                         perl_options(settings))
    # the script's columns: model_total, peer_total, hit, recall, precision, f
    return np.column_stack([rows[:, 2], rows[:, 1], rows[:, 0], rows[:, 4], rows[:, 3],
                            rows[:, 5], np.ones(len(rows))])


def pooled(totals: np.ndarray, settings: ROUGESettings) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``-t 1``: P, R, F of summed counts (rows of :data:`.metric.COLUMNS`), as the script."""
    sums = np.column_stack([totals[:, 2], totals[:, 1], totals[:, 0]])
    r, p, f = pooled_scores(sums, alpha_of(settings.beta)).T
    return p, r, f


def script_rows(values: np.ndarray) -> np.ndarray:
    """Statistics rows back in the script's columns (model_total, peer_total, hit, R, P, F)."""
    return np.column_stack([values[:, 2], values[:, 1], values[:, 0], values[:, 4], values[:, 3],
                            values[:, 5]])


def printed_average(settings: ROUGESettings, values: np.ndarray, resamples: int = 1000,
                    confidence: float = 95.0) -> Perl155Average:
    """The average and interval the script prints (``-r``, ``-c``) for these segments taken as
    documents "1", "2", …: the mean of ``resamples`` drand48 bootstrap means, and its interval."""
    order = instance_order([str(i + 1) for i in range(len(values))], "A")
    rows = script_rows(values)[order]
    return bootstrap_average(rows, 1 if settings.aggregation == "pooled" else 0, resamples,
                             confidence, alpha_of(settings.beta))
