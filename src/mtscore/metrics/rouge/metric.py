"""ROUGE (Lin, 2004) on mtscore's metric contract: per-segment statistics, a pure ``compute``.

Statistics per segment (additive): ``hits``, ``hyp_total``, ``ref_total`` of the reference(s) the
multi-reference rule keeps, and that segment's ``precision``, ``recall`` and ``fmeasure``, and
``segments`` (1). The corpus score is the mean of the per-segment scores (``aggregation="mean"``,
rouge-score's and ROUGE-1.5.5's default), or P and R of the pooled counts (``"pooled"``, 1.5.5's
``-t 1``). ``score`` is the chosen measure ×100; ``precision``, ``recall``, ``fmeasure`` are in [0, 1].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..base import Metric, PreparedBase, Score, SegmentStats, checked_inputs, sentence_references
from . import counts
from .corpus import ByteVocabulary, EncodedTexts, Vocabulary, encode_rouge_score, encode_streams
from .settings import ROUGESettings, type_label
from .tokenize import Stems, newline_sentences, tokenizer_function

COLUMNS = ("hits", "hyp_total", "ref_total", "precision", "recall", "fmeasure", "segments")


@dataclass(frozen=True, repr=False)
class ROUGEResult(Score):
    """A ROUGE score: ``score`` = the measure ×100; P, R and F in [0, 1]."""

    rouge_type: str
    precision: float
    recall: float
    fmeasure: float
    segments: int

    def __str__(self) -> str:
        return (f"{self.metric} = {self.score:.2f} (P = {self.precision:.4f} R = {self.recall:.4f} "
                f"F = {self.fmeasure:.4f} segments = {self.segments})")


class ROUGEReferences(PreparedBase):
    """Reference streams tokenized and encoded once (the vocabulary grows with the hypotheses)."""

    def __init__(self, metric: ROUGE, refs: Sequence[Sequence[str | None]],
                 names: Sequence[str] | None = None):
        streams = self._checked_streams(metric, refs, names)
        self.vocabulary = ByteVocabulary()
        #: the raw streams (variant 1.5.5 reads text), or the encoded ones
        self.texts = streams if metric.settings.variant == "1.5.5" else []
        self.streams = [] if self.texts else [metric.encode(self.vocabulary, s) for s in streams]


def measures(hits: np.ndarray, hyp_total: np.ndarray, ref_total: np.ndarray,
             beta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P, R, F of (arrays of) counts: :func:`.rules.precision`, :func:`.rules.recall` and
    :func:`.rules.f_measure`, element by element, in the same floating-point operations."""
    h = np.asarray(hits, dtype=np.float64)
    p = h / np.maximum(hyp_total, 1)
    r = h / np.maximum(ref_total, 1)
    b2 = beta * beta
    den = b2 * p + r
    with np.errstate(invalid="ignore", divide="ignore"):
        f = np.where(den > 0, (1 + b2) * p * r / np.where(den > 0, den, 1.0), 0.0)
    return p, r, f


def combine(rule: str, hits: np.ndarray, hyp: np.ndarray, ref: np.ndarray, present: np.ndarray,
            beta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Several references (arrays references × segments) to one row per segment:
    ``best-f``: the reference of highest F, the first on ties (rouge-score's ``score_multi``);
    ``best-recall``: the reference of highest recall, the first on ties (1.5.5 ``-f B``);
    ``average``: hits and totals summed over the references (1.5.5 ``-f A``)."""
    if rule == "average":
        h, n, m = (np.where(present, x, 0).sum(axis=0) for x in (hits, hyp, ref))
        return h, n, m
    _p, r, f = measures(hits, hyp, ref, beta)
    key = np.where(present, f if rule == "best-f" else r, -np.inf)
    best = np.argmax(key, axis=0)
    cols = np.arange(hits.shape[1])
    return hits[best, cols], hyp[best, cols], ref[best, cols]


class ROUGE(Metric[ROUGEResult]):
    """One ROUGE type with its settings (:class:`.ROUGESettings`); see :func:`corpus_rouge`."""

    columns = COLUMNS

    settings: ROUGESettings
    rouge_type: str
    #: the numpy kernels (True) or the rules, segment by segment (False): equal statistics
    fast: bool

    def __init__(self, rouge_type: str = "rougeL", *, fast: bool = True, **settings: Any):
        self._configure(ROUGESettings(rouge_type=rouge_type, fast=fast, **settings), name=rouge_type)

    def encode(self, vocabulary: Vocabulary, texts: Sequence[str | None],
               sentences: bool | None = None) -> EncodedTexts:
        """Token ids of ``texts`` (sentence by sentence for ROUGE-Lsum, or if ``sentences``)."""
        s = self.settings
        if sentences is None:
            sentences = s.rouge_type == "rougeLsum"
        if s.tokenize == "default" and self.fast and isinstance(vocabulary, ByteVocabulary):
            return encode_rouge_score(vocabulary, texts, Stems() if s.stemmer else None, sentences)
        tokens_of = tokenizer_function(s.tokenize, s.lowercase, s.stemmer)
        return vocabulary.encode(texts, tokens_of, newline_sentences if sentences else None)

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> ROUGEReferences:
        return ROUGEReferences(self, refs, names)

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | ROUGEReferences) -> SegmentStats:
        """Per segment the counts of the kept reference(s), its P, R and F, and 1 segment."""
        hyps, prep = checked_inputs(self, hyps, refs, ROUGEReferences)
        if self.settings.variant == "1.5.5":
            from .variant155 import statistics

            values = statistics(self.settings, hyps, prep.texts)
            return SegmentStats(self.columns, values, {"nrefs": prep.nrefs})
        return self.extract_encoded(self.encode(prep.vocabulary, hyps), prep.streams, prep.nrefs)

    def sentence_score(self, hyp: str, refs: str | Sequence[str]) -> ROUGEResult:
        """ROUGE of one hypothesis against one reference or a list of references (rouge-score's
        ``score``/``score_multi``): :func:`extract_types` of the one segment (counted in Python,
        :func:`few_segments`), then :meth:`compute` as for a corpus: equal to
        ``corpus_score([hyp], [[r] for r in refs])`` (tested)."""
        stats = extract_types([self], [hyp], sentence_references(hyp, refs, "sentence_rouge"))[0]
        return self.compute(stats.total(), stats.meta)

    def extract_encoded(self, hyp: EncodedTexts, streams: Sequence[EncodedTexts], nrefs: str,
                        lcs: Sequence[dict[str, Any]] | None = None) -> SegmentStats:
        """:meth:`extract` of texts already encoded (with sentences or not: the LCS and n-gram
        types read the tokens alone); ``lcs``: per reference stream, the equal tokens and LCS
        lengths remembered from another type of the same texts."""
        return self.statistics(self.reference_counts(hyp, streams, lcs), streams, nrefs)

    def reference_counts(self, hyp: EncodedTexts, streams: Sequence[EncodedTexts],
                         lcs: Sequence[dict[str, Any]] | None = None,
                         later: frozenset[str] | None = None) -> list[counts.Counts]:
        """Per reference stream, every segment's counts (hits, hypothesis total, reference
        total) of this type (``lcs``: as in :meth:`extract_encoded`; ``later``: the entries of
        ``lcs`` that types still to come read, the others let go, :func:`.counts.by_kernels`)."""
        if self.rouge_type != "rougeLsum":
            hyp, streams = hyp.without_sentences(), [r.without_sentences() for r in streams]
        if not self.fast:
            return [counts.by_rules(self.rouge_type, hyp, ref) for ref in streams]
        if len(hyp) <= FEW_SEGMENTS:  # the kernels' fixed cost would be the whole call
            return [counts.by_segments(self.rouge_type, hyp, ref) for ref in streams]
        memo = lcs if lcs is not None else [{} for _ in streams]
        return [counts.by_kernels(self.rouge_type, hyp, ref, m, later)
                for ref, m in zip(streams, memo)]

    def statistics(self, per_ref: Sequence[counts.Counts], streams: Sequence[EncodedTexts],
                   nrefs: str) -> SegmentStats:
        """The statistics of :meth:`extract` from :meth:`reference_counts`: the kept
        reference's counts (:func:`combine`), P, R, F and 1. One reference present in every
        segment is what :func:`combine` keeps under every rule, so its counts are taken as they
        are (tested equal)."""
        beta = self.settings.beta
        if len(per_ref) == 1 and bool(streams[0].present.all()):
            h, ht, rt = per_ref[0]
        else:
            hits, hyp_total, ref_total = (np.stack([c[i] for c in per_ref]) for i in range(3))
            present = np.stack([ref.present for ref in streams])
            h, ht, rt = combine(self.settings.multiref, hits, hyp_total, ref_total, present, beta)
        p, r, f = measures(h, ht, rt, beta)
        values = np.column_stack([h, ht, rt, p, r, f, np.ones(len(h))]).astype(np.float64)
        return SegmentStats(self.columns, values, {"nrefs": nrefs})

    def _prf(self, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        if t.shape[1] != len(COLUMNS):
            raise ValueError(f"ROUGE statistics have {len(COLUMNS)} columns, got {t.shape[1]}")
        if self.settings.aggregation == "pooled":
            if self.settings.variant == "1.5.5":
                from .variant155 import pooled

                return pooled(t, self.settings)
            return measures(t[:, 0], t[:, 1], t[:, 2], self.settings.beta)
        n = np.maximum(t[:, 6], 1.0)
        return t[:, 3] / n, t[:, 4] / n, t[:, 5] / n

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        """The score (the measure ×100) of each row of summed statistics."""
        p, r, f = self._prf(totals)
        return 100.0 * {"precision": p, "recall": r, "fmeasure": f}[self.settings.measure]

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> ROUGEResult:
        row = np.asarray(totals)
        if row.ndim != 1:
            raise ValueError("compute takes one summed row; use compute_many() for many rows")
        p, r, f = (float(x[0]) for x in self._prf(row))
        score = 100.0 * {"precision": p, "recall": r, "fmeasure": f}[self.settings.measure]
        return ROUGEResult(metric=type_label(self.rouge_type), score=score,
                           signature=self.signature(meta), rouge_type=self.rouge_type,
                           precision=p, recall=r, fmeasure=f, segments=int(row[6]))

    def printed_average(self, stats: SegmentStats, resamples: int = 1000,
                        confidence: float = 95.0) -> Any:
        """Variant 1.5.5: the ``Average_R/P/F`` and interval the Perl script prints for these
        segments (its drand48 bootstrap, ``-r resamples``, ``-c confidence``), a
        :class:`.perl155.Perl155Average`."""
        from ...errors import OptionError
        from .variant155 import printed_average

        if self.settings.variant != "1.5.5":
            raise OptionError("ROUGE variant", self.settings.variant,
                              detail="the printed bootstrap average is the 1.5.5 script's")
        return printed_average(self.settings, stats.values, resamples, confidence)


def extract_types(metrics: Sequence[ROUGE], hyps: Sequence[str],
                  refs: Sequence[Sequence[str | None]]) -> list[SegmentStats]:
    """The statistics of several ROUGE types that read text alike (the same tokenizer, case and
    stemmer), tokenizing the corpus once: each equals ``metric.extract(hyps, refs)``."""
    from ...io.references import check_hypotheses, check_reference_set, reference_count_label

    if not metrics:
        return []
    if any(m.settings.variant == "1.5.5" for m in metrics):  # the script reads every type anew
        return [m.extract(hyps, refs) for m in metrics]
    if len(metrics) > 1 and len({m.settings.replace(rouge_type="rougeLsum").token_key()
                                 for m in metrics}) > 1:  # (one type agrees with itself)
        raise ValueError("extract_types needs ROUGE types with the same tokenizer settings")
    hyps = check_hypotheses(hyps)
    streams, segments = check_reference_set(refs, None)
    if segments != len(hyps):
        from ...errors import InputError

        raise InputError(f"the references have {segments} segments but the hypotheses have "
                         f"{len(hyps)}")
    nrefs = reference_count_label(streams)
    if len(hyps) <= FEW_SEGMENTS:
        return few_segments(metrics, hyps, streams, nrefs)
    first = metrics[0]
    if first.settings.tokenize == "default" and first.fast:  # every text at once
        stems = Stems() if first.settings.stemmer else None
        hyp, *encoded = encode_streams([hyps, *streams], stems, sentences=True)
    else:
        hyp, encoded = _encode_each(first, ByteVocabulary(), hyps, streams)
    lcs: list[dict[str, Any]] = [{} for _ in encoded]
    per_type: dict[int, list[counts.Counts]] = {}
    order = _kernel_order(metrics)
    for i, k in enumerate(order):  # each type lets go of what no later type reads
        later = frozenset().union(*(counts.reads(metrics[j].rouge_type) for j in order[i + 1:]))
        per_type[k] = metrics[k].reference_counts(hyp, encoded, lcs, later)
    return [m.statistics(per_type[k], encoded, nrefs) for k, m in enumerate(metrics)]


#: at most this many segments are counted one at a time in Python (:func:`few_segments`,
#: :func:`.counts.by_segments`): below it the numpy kernels' fixed cost (about 0.5 ms a call) is
#: more than the segments' own
FEW_SEGMENTS = 2


def few_segments(metrics: Sequence[ROUGE], hyps: Sequence[str],
                 streams: Sequence[Sequence[str | None]], nrefs: str) -> list[SegmentStats]:
    """:func:`extract_types` of a sentence or two (checked inputs: the hypotheses, their
    reference streams and its ``nrefs`` label): the texts encoded once with the Python tokenizer
    (a plain :class:`.corpus.Vocabulary`), each type's counts taken segment by segment
    (:meth:`ROUGE.reference_counts`, :func:`.counts.by_segments`), then its statistics."""
    hyp, encoded = _encode_each(metrics[0], Vocabulary(), hyps, streams)
    return [m.statistics(m.reference_counts(hyp, encoded), encoded, nrefs) for m in metrics]


def _encode_each(metric: ROUGE, vocabulary: Vocabulary, hyps: Sequence[str],
                 streams: Sequence[Sequence[str | None]]) -> tuple[EncodedTexts, list[EncodedTexts]]:
    """The hypotheses and each reference stream encoded text by text with ``metric``'s tokenizer
    into one ``vocabulary``, with their sentences."""
    encoded = [metric.encode(vocabulary, stream, sentences=True) for stream in streams]
    return metric.encode(vocabulary, hyps, sentences=True), encoded


def _kernel_order(metrics: Sequence[ROUGE]) -> list[int]:
    """The order in which :func:`extract_types` counts the types (each type's counts are its
    own, whatever the order): ROUGE-N of N ≥ 2 first, while only the shared layout of the tokens
    and their runs of equal tokens (which tell the n-grams that can match) are remembered, then
    the types that remember more (the LCS types the matches), so the temporaries of the n-gram
    sorts never sit on top of those."""
    return sorted(range(len(metrics)), key=lambda k: (metrics[k].settings.order or 0) < 2)
