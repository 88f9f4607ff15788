"""chrF (Popović, 2015) and chrF++ (Popović, 2017), computed exactly as sacreBLEU 2.6.0 does.

* Popović (2015) §2: for each character n-gram order n = 1..6, precision chrP_n and recall chrR_n
  of the hypothesis's n-grams against the reference's (white space removed); Popović (2017) §2,
  chrF++: word n-gram orders 1..2 as well (:mod:`.rules` has the counting rules);
* sacreBLEU's averaging (:func:`chrf_score`): the precisions and recalls of the orders where both
  the hypothesis and the reference have n-grams ("effective order") are averaged, then
  chrF_β = (1 + β²) · P · R / (β² · P + R), β = 2 (recall counts β times as much). With
  ``eps_smoothing``, the F-scores of all orders are averaged instead, with ε = 1e-16 for an empty
  precision or recall (chrF++.py's, NLTK's and Moses's smoothing);
* several references: per segment the reference whose statistics give the highest sentence
  chrF (the first one on ties) (:func:`best_reference`);
* corpus level: the statistics of all segments are summed before the score (as sacreBLEU).

Statistics per order (characters first, then words): hypothesis n-grams, reference n-grams,
matches. Whole corpora are counted with numpy (:mod:`.fast`); tiny ones, and ``fast=False``,
segment by segment with the rules of :mod:`.rules`. Both give identical statistics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...errors import OptionError
from ...io.references import check_hypotheses, check_reference_streams
from ...text.span_encoder import split_streams
from ..base import (
    Metric,
    PreparedBase,
    Score,
    SegmentStats,
    checked_inputs,
    sentence_references,
)
from ..clipping import KeyStream
from ..settings import Settings, setting, shared_metric, yes_no
from . import fast as chrf_fast
from .rules import pair_statistics, string_ngrams

#: chrF++.py's ε for an empty precision or recall
EPSILON = 1e-16

#: the highest character or word n-gram order accepted (sacreBLEU's defaults: 6 and 2)
MAX_ORDER = 100

#: the largest β accepted (β is finite and > 0; the papers use 1 to 3)
MAX_BETA = 100

#: corpora (hypotheses and references) of fewer characters are counted segment by segment
SMALL_CORPUS_CHARACTERS = 2000


@dataclass(frozen=True, repr=False)
class CHRFResult(Score):
    """A chrF or chrF++ score (0–100, as sacreBLEU) with the summed statistics it comes from:
    ``statistics`` holds (hypothesis n-grams, reference n-grams, matches) per order."""

    char_order: int
    word_order: int
    beta: float
    statistics: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.metric} = {self.score:.2f}"


def chrf_score(row: Sequence[float], beta: float, eps_smoothing: bool) -> float:
    """sacreBLEU's chrF of one row of statistics ((hyp, ref, matches) per order), 0–100.

    Effective order (default): P and R are the averages of chrP_n and chrR_n over the orders where
    the hypothesis and the reference both have n-grams, and the score is
    100 · (1 + β²) · P · R / (β² · P + R) (0 when P + R = 0). ``eps_smoothing``: the average of the
    per-order F-scores, with ε for an empty precision, recall or F-score denominator."""
    factor = beta ** 2
    order = len(row) // 3
    score = avg_prec = avg_rec = 0.0
    effective = 0
    for i in range(order):
        n_hyp, n_ref, n_match = row[3 * i:3 * i + 3]
        prec = n_match / n_hyp if n_hyp > 0 else EPSILON
        rec = n_match / n_ref if n_ref > 0 else EPSILON
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else EPSILON
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective += 1
    if eps_smoothing:
        return 100 * score / order
    if effective:
        avg_prec /= effective
        avg_rec /= effective
    else:
        avg_prec = avg_rec = 0.0
    if not avg_prec + avg_rec:
        return 0.0
    return 100 * ((1 + factor) * avg_prec * avg_rec / ((factor * avg_prec) + avg_rec))


def chrf_scores(rows: np.ndarray, beta: float, eps_smoothing: bool) -> np.ndarray:
    """:func:`chrf_score` of every row of a 2-D array, in the same floating-point operations."""
    t = np.asarray(rows, dtype=np.float64)
    factor = beta ** 2
    order = t.shape[1] // 3
    score, avg_prec, avg_rec = np.zeros(len(t)), np.zeros(len(t)), np.zeros(len(t))
    effective = np.zeros(len(t), dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(order):
            n_hyp, n_ref, n_match = t[:, 3 * i], t[:, 3 * i + 1], t[:, 3 * i + 2]
            prec = np.where(n_hyp > 0, n_match / n_hyp, EPSILON)
            rec = np.where(n_ref > 0, n_match / n_ref, EPSILON)
            denom = factor * prec + rec
            score += np.where(denom > 0, (1 + factor) * prec * rec / denom, EPSILON)
            both = (n_hyp > 0) & (n_ref > 0)
            avg_prec += np.where(both, prec, 0.0)
            avg_rec += np.where(both, rec, 0.0)
            effective += both
        if eps_smoothing:
            return 100 * score / order
        avg_prec = np.where(effective > 0, avg_prec / effective, 0.0)
        avg_rec = np.where(effective > 0, avg_rec / effective, 0.0)
        f = (1 + factor) * avg_prec * avg_rec / ((factor * avg_prec) + avg_rec)
        return np.where(avg_prec + avg_rec != 0, 100 * f, 0.0)


def best_reference(rows: Sequence[Sequence[int]], beta: float, eps_smoothing: bool) -> list[int]:
    """sacreBLEU's choice among a segment's references: the row with the highest sentence chrF,
    the first one on ties."""
    best: list[int] = []
    best_f = -1.0
    for row in rows:
        f = chrf_score(row, beta, eps_smoothing)
        if f > best_f:
            best_f, best = f, list(row)
    return best


class PreparedReferences(PreparedBase):
    """Reference streams lowercased (if asked) and counted once, to score many systems."""

    def __init__(self, metric: CHRF, refs: Sequence[Sequence[str | None]],
                 names: Sequence[str] | None = None):
        streams = self._checked_streams(metric, refs, names)
        self.streams = [[metric.preprocess(r) if r is not None else None for r in s] for s in streams]
        self.characters = sum(len(r) for s in self.streams for r in s if r is not None)
        self._metric = metric
        self._chars: list[KeyStream] | None = None
        self._words: list[KeyStream] = []
        self.long_words: dict[bytes, int] = {}  # words of more than 15 bytes (token_words)

    def encoded(self) -> tuple[list[KeyStream], list[KeyStream]]:
        """Per stream, the characters and (chrF++) the words as key columns, encoded on first use."""
        if self._chars is None:
            present = [np.asarray([i for i, r in enumerate(s) if r is not None], dtype=np.int64)
                       for s in self.streams]
            lines: list[str] = [r for s in self.streams for r in s if r is not None]
            cps, lengths = chrf_fast.char_keys(lines, self._metric.whitespace)
            self._chars = [([ids], n, idx) for ids, n, idx in split_streams(cps, lengths, present)]
            if self._metric.word_order:
                columns, lengths = chrf_fast.word_keys(lines, self.long_words)
                parts = [split_streams(c, lengths, present) for c in columns]
                self._words = [([p[k][0] for p in parts], *parts[0][k][1:]) for k in range(len(present))]
        return self._chars, self._words


@dataclass(frozen=True)
class CHRFSettings(Settings):
    """chrF's settings (:class:`CHRF`'s arguments), validated once."""

    SIGNATURE: ClassVar[tuple[str, ...]] = ("nrefs", "case", "eff", "nc", "nw", "space", "version")

    char_order: int = setting(6, key="nc", references=True)
    word_order: int = setting(0, key="nw", references=True)
    #: recall weighs β times as much as precision (shown in the name: ``chrF2``)
    beta: float = setting(2)
    lowercase: bool = setting(False, key="case", show=yes_no("lowercase", "lc", "mixed"),
                              references=True)
    whitespace: bool = setting(False, key="space", show=yes_no("whitespace"), references=True)
    eps_smoothing: bool = setting(False, key="eff", show=yes_no("eps_smoothing", "no", "yes"))
    #: count whole corpora with numpy (:mod:`.fast`); False: segment by segment with the rules
    fast: bool = setting(True, speed=True)

    def validate(self) -> None:
        for option, value in (("char_order", self.char_order), ("word_order", self.word_order)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_ORDER:
                raise OptionError(option, value, detail=f"must be an integer from 0 to {MAX_ORDER}")
        if self.char_order + self.word_order < 1:
            raise OptionError("char_order", self.char_order,
                              detail="char_order + word_order must be at least 1")
        beta = self.beta
        if not isinstance(beta, (int, float)) or isinstance(beta, bool) or not 0 < beta <= MAX_BETA:
            raise OptionError("beta", beta, detail=f"must be a number above 0 and at most {MAX_BETA}")
        for name in ("lowercase", "whitespace", "eps_smoothing", "fast"):
            self._set(name, bool(getattr(self, name)))

    def signature_name(self) -> str:
        """sacreBLEU's name: ``chrF2``, ``chrF2++`` (one + per word order)."""
        return f"chrF{self.beta}" + "+" * self.word_order


class CHRF(Metric[CHRFResult]):
    """chrF / chrF++ with sacreBLEU's options; ``extract``/``compute`` as in :mod:`.base`.
    ``fast=False`` counts segment by segment with the rules (the specification of the fast path)."""

    name = "chrf"
    settings: CHRFSettings
    char_order: int
    word_order: int
    beta: float
    lowercase: bool
    whitespace: bool
    eps_smoothing: bool
    fast: bool

    def __init__(self, char_order: int = 6, word_order: int = 0, beta: float = 2,
                 lowercase: bool = False, whitespace: bool = False, eps_smoothing: bool = False,
                 *, fast: bool = True):
        settings = CHRFSettings(char_order=char_order, word_order=word_order, beta=beta,
                                lowercase=lowercase, whitespace=whitespace,
                                eps_smoothing=eps_smoothing, fast=fast)
        # the command line's names: chrf, chrf++
        self._configure(settings, name="chrf" + "+" * word_order)

    @property
    def columns(self) -> tuple[str, ...]:
        orders = [f"char{n}" for n in range(1, self.char_order + 1)]
        orders += [f"word{n}" for n in range(1, self.word_order + 1)]
        return tuple(f"{o}_{part}" for o in orders for part in ("hyp", "ref", "match"))

    def preprocess(self, text: str) -> str:
        """sacreBLEU's preprocessing: lowercase if asked (white space is handled when counting)."""
        return text.lower() if self.lowercase else text

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> PreparedReferences:
        return PreparedReferences(self, refs, names)

    def segment_row(self, hyp: str, refs: Sequence[str]) -> list[int]:
        """One segment's statistics by the rules: against each reference, then sacreBLEU's best."""
        options = (self.char_order, self.word_order, False, self.whitespace)
        hyp_counts = string_ngrams(hyp, *options)
        rows = [pair_statistics(hyp_counts, string_ngrams(r, *options)) for r in refs]
        return best_reference(rows, self.beta, self.eps_smoothing)

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | PreparedReferences) -> SegmentStats:
        """Per-segment statistics (segments × 3 · orders) against the best reference of each."""
        hyps, prep = checked_inputs(self, hyps, refs, PreparedReferences)
        lines = [self.preprocess(h) for h in hyps]
        meta = {"nrefs": prep.nrefs}
        if not self.fast or sum(map(len, lines)) + prep.characters < SMALL_CORPUS_CHARACTERS:
            rows = [self.segment_row(h, [r for r in segment if r is not None])
                    for h, segment in zip(lines, zip(*prep.streams))]
            values = np.array(rows, dtype=np.int64).reshape(len(lines), len(self.columns))
            return SegmentStats(self.columns, values, meta)
        return SegmentStats(self.columns, self._fast_rows(lines, prep), meta)

    def _fast_rows(self, lines: list[str], prep: PreparedReferences) -> np.ndarray:
        """The statistics of the whole corpus with :mod:`.fast`, best reference by score."""
        chars, words = prep.encoded()
        per_ref = [[] for _ in chars]  # type: list[list[np.ndarray]]
        if self.char_order:
            cps, lengths = chrf_fast.char_keys(lines, self.whitespace)
            for k, stats in enumerate(chrf_fast.all_order_statistics([cps], lengths, chars,
                                                                     self.char_order)):
                per_ref[k].append(stats)
        if self.word_order:
            columns, lengths = chrf_fast.word_keys(lines, prep.long_words)
            for k, stats in enumerate(chrf_fast.all_order_statistics(columns, lengths, words,
                                                                     self.word_order)):
                per_ref[k].append(stats)
        rows = [np.hstack(parts) for parts in per_ref]
        if len(rows) == 1:
            return rows[0]
        f = np.stack([chrf_scores(r, self.beta, self.eps_smoothing) for r in rows])
        for k, (_, _, present) in enumerate(chars):
            absent = np.ones(f.shape[1], dtype=bool)
            absent[present] = False
            f[k, absent] = -np.inf
        best = np.argmax(f, axis=0)  # the first of equal scores, as sacreBLEU
        return np.stack(rows)[best, np.arange(len(lines))]

    def sentence_score(self, hyp: str, refs: Sequence[str]) -> CHRFResult:
        """chrF of one hypothesis against its references (a list of strings), as sacreBLEU's
        ``CHRF.sentence_score``."""
        streams = sentence_references(hyp, refs, "sentence chrF")
        present = [s[0] for s in streams if s[0] is not None]
        if len(present) != len(streams) or not all(isinstance(r, str) for r in present):
            stats = self.extract([hyp], streams)
            return self.compute(stats.total(), stats.meta)
        row = self.segment_row(self.preprocess(hyp), [self.preprocess(r) for r in present])
        return self.compute(np.asarray(row, dtype=np.int64), {"nrefs": str(len(present))})

    def corpus_score(self, hyps: Sequence[str],
                     refs: Sequence[Sequence[str | None]] | PreparedReferences) -> CHRFResult:
        """Corpus chrF: ``compute`` of the statistics summed over the segments."""
        return super().corpus_score(hyps, refs)  # type: ignore[arg-type]

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        """chrF (0–100) of each row of summed statistics."""
        rows = np.atleast_2d(np.asarray(totals))
        if rows.shape[1] != len(self.columns):
            raise ValueError(f"chrF statistics have {len(self.columns)} columns, got {rows.shape[1]}")
        return chrf_scores(rows, self.beta, self.eps_smoothing)

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> CHRFResult:
        """The result of one summed row of statistics."""
        row = np.asarray(totals).ravel().tolist()
        if len(row) != len(self.columns):
            raise ValueError(f"chrF statistics have {len(self.columns)} columns, got {len(row)}")
        return CHRFResult(metric=self.display_name, score=chrf_score(row, self.beta, self.eps_smoothing),
                          signature=self.signature(meta), char_order=self.char_order,
                          word_order=self.word_order, beta=self.beta,
                          statistics=tuple(int(x) for x in row))

    @property
    def display_name(self) -> str:
        """sacreBLEU's name: ``chrF2``, ``chrF2++`` (one + per word order)."""
        return self.settings.signature_name()

    def pair_kernel(self) -> tuple[Any, Any] | None:
        """Pairwise scores by :mod:`mtscore.metrics.chrf.pairwise` (tested equal to the definition)."""
        from . import pairwise as pairwise_chrf

        return pairwise_chrf.pair_scores, pairwise_chrf.aggregate_scores


def corpus_chrf(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], *, char_order: int = 6,
                word_order: int = 0, beta: float = 2, lowercase: bool = False,
                whitespace: bool = False, eps_smoothing: bool = False) -> CHRFResult:
    """Corpus chrF (chrF++ with ``word_order=2``) of ``hyps`` against reference streams ``refs``,
    exactly as sacreBLEU 2.6.0's ``corpus_chrf`` (Popović 2015, 2017: character and word n-gram
    F-score, statistics of each segment's best reference summed over the corpus).

    Parameters:
        hyps: one hypothesis (a string) per segment.
        refs: reference streams: ``refs[k][i]`` is reference k of segment i (``None`` where a
            segment has fewer references).
        char_order: the largest character n-gram order (default 6).
        word_order: the largest word n-gram order (0: chrF, 2: chrF++).
        beta: recall weighs ``beta`` times precision (default 2).
        lowercase: lowercase first.
        whitespace: keep white space in the character n-grams.
        eps_smoothing: sacreBLEU's ``eps_smoothing`` (the chrF++.py reference's smoothing).

    Returns:
        a :class:`CHRFResult`: ``score`` (0–100), ``char_order``, ``word_order``, ``beta``, the
        summed ``statistics`` and the ``signature``.

    Raises:
        InputError: the inputs are not strings or the streams' lengths differ.
        OptionError: an option value is not valid.

    Example:
        >>> result = corpus_chrf(["the cat sat on the mat"], [["the cat sat on a mat"]])
        >>> round(result.score, 2), result.signature.get("nw")
        (72.08, '0')
        >>> corpus_chrf(["the cat sat on the mat"], [["the cat sat on a mat"]], word_order=2).metric
        'chrF2++'
    """
    hyps = check_hypotheses(hyps)
    check_reference_streams(refs, len(hyps))
    metric = shared_metric(CHRF, char_order=char_order, word_order=word_order, beta=beta,
                           lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps_smoothing)
    return metric.corpus_score(hyps, refs)


def sentence_chrf(hyp: str, refs: Sequence[str], *, char_order: int = 6, word_order: int = 0,
                  beta: float = 2, lowercase: bool = False, whitespace: bool = False,
                  eps_smoothing: bool = False) -> CHRFResult:
    """chrF of one hypothesis against its references (a list of strings), as sacreBLEU's
    ``sentence_chrf``."""
    metric = shared_metric(CHRF, char_order=char_order, word_order=word_order, beta=beta,
                           lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_score(hyp, refs)
