"""Unigram precision, recall, F1 and Fmean: the components of METEOR (Banerjee & Lavie, 2005).

* §2 exact unigram matches, one-to-one: a hypothesis word matches at most one reference word, so a
  word type contributes min(count in hypothesis, count in reference) matches;
* §2 P = matches / hypothesis words, R = matches / reference words, F1 = 2PR / (P + R),
  Fmean = 10PR / (R + 9P) (recall weighted 9 times more than precision);
* §2 several references: the hypothesis is scored against each reference separately and the
  best-scoring reference is kept, per segment — "best" by the measure being computed (ties: the
  reference with more matches, then the first listed); the METEOR paper's Table 1 reports these
  components as system-level scores, computed here from summed statistics (§4.1: corpus P and R
  from total matches and lengths, then F1/Fmean).

Statistics (additive): ``matches``, ``hyp_len``, ``ref_len`` of the chosen reference. Scores are
in [0, 1] (0 when a denominator is 0). Words: the text after the tokenizer, lowercased by default
(METEOR lowercases).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...errors import OptionError
from ...text.tokenizers import Tokenizer, get_tokenizer, preprocess
from ..base import Metric, Score, SegmentStats, checked_inputs
from ..clipping import EncodedReferences, clipped_counts
from ..settings import Settings, check_tokenizer, setting, show_tokenizer, yes_no

MEASURES = ("precision", "recall", "f1", "fmean")
_LABEL = {"precision": "P", "recall": "R", "f1": "F1", "fmean": "Fmean"}


@dataclass(frozen=True, repr=False)
class UnigramResult(Score):
    """One measure as ``score``, with all four components and the statistics they come from."""

    precision: float
    recall: float
    f1: float
    fmean: float
    matches: int
    hyp_len: int
    ref_len: int

    def __str__(self) -> str:
        return (f"{self.metric} = {self.score:.4f} (P = {self.precision:.4f} R = {self.recall:.4f} "
                f"F1 = {self.f1:.4f} Fmean = {self.fmean:.4f} matches = {self.matches} "
                f"hyp_len = {self.hyp_len} ref_len = {self.ref_len})")


def unigram_measures(matches: np.ndarray, hyp_len: np.ndarray, ref_len: np.ndarray
                     ) -> dict[str, np.ndarray]:
    """P, R, F1 and Fmean from (arrays of) summed statistics; 0 where undefined."""
    m = np.asarray(matches, dtype=np.float64)
    h = np.asarray(hyp_len, dtype=np.float64)
    r = np.asarray(ref_len, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(h > 0, m / np.where(h > 0, h, 1.0), 0.0)
        rc = np.where(r > 0, m / np.where(r > 0, r, 1.0), 0.0)
        f1_den, fm_den = p + rc, rc + 9.0 * p
        f1 = np.where(f1_den > 0, 2.0 * p * rc / np.where(f1_den > 0, f1_den, 1.0), 0.0)
        fmean = np.where(fm_den > 0, 10.0 * p * rc / np.where(fm_den > 0, fm_den, 1.0), 0.0)
    return {"precision": p, "recall": rc, "f1": f1, "fmean": fmean}


def one_to_one_matches(hyp: Sequence[str], ref: Sequence[str]) -> int:
    """§2 exact matches, one-to-one: per word type, min(count in hypothesis, count in reference)."""
    return sum((Counter(hyp) & Counter(ref)).values())


def best_reference(measure: str, rows: Sequence[tuple[int, int, int]]) -> tuple[int, int, int]:
    """§2 several references: the (matches, hyp_len, ref_len) row whose ``measure`` is best; ties:
    the one with more matches, then the first listed."""
    best, best_key = rows[0], None
    for row in rows:
        matches, hyp_len, ref_len = (np.asarray(x, dtype=np.float64) for x in row)
        value = float(unigram_measures(matches, hyp_len, ref_len)[measure])
        key = (value, row[0])
        if best_key is None or key > best_key:
            best, best_key = row, key
    return best


class UnigramReferences(EncodedReferences):
    """References tokenized and encoded once, to score many systems against them (``texts``: the
    streams themselves, for ``fast=False``)."""

    def __init__(self, metric: Unigram, refs: Sequence[Sequence[str | None]],
                 names: Sequence[str] | None = None):
        super().__init__(metric, refs, names)
        self.texts = [list(stream) for stream in refs]


@dataclass(frozen=True)
class UnigramSettings(Settings):
    """The unigram measures' settings (:class:`Unigram`'s arguments), validated once."""

    SIGNATURE: ClassVar[tuple[str, ...]] = ("nrefs", "best", "case", "tok", "version")

    #: the measure scored, which also picks each segment's best reference
    measure: str = setting("fmean", key="best")
    tokenize: str = setting("13a", key="tok", show=show_tokenizer,
                            references=True)
    lowercase: bool = setting(True, key="case", show=yes_no("lowercase", "lc", "mixed"),
                              references=True)
    #: count whole corpora with numpy (:mod:`.clipping`); False: segment by segment with the rules
    fast: bool = setting(True, speed=True)

    def validate(self) -> None:
        if self.measure not in MEASURES:
            raise OptionError("unigram measure", self.measure, MEASURES)
        check_tokenizer(self.tokenize)
        self._set("lowercase", bool(self.lowercase))
        self._set("fast", bool(self.fast))

    def signature_name(self) -> str:
        return f"Unigram-{_LABEL[self.measure]}"


class Unigram(Metric[UnigramResult]):
    """Exact unigram P, R, F1 or Fmean (``measure``) with METEOR's best-reference rule."""

    columns = ("matches", "hyp_len", "ref_len")
    settings: UnigramSettings
    measure: str
    tokenizer: Tokenizer
    lowercase: bool
    #: count whole corpora with numpy (:mod:`.clipping`); False: segment by segment with the rules
    fast: bool

    def __init__(self, measure: str = "fmean", *, tokenize: str = "13a", lowercase: bool = True,
                 fast: bool = True):
        self._configure(UnigramSettings(measure=measure, tokenize=tokenize, lowercase=lowercase,
                                        fast=fast),
                        name=measure, tokenizer=get_tokenizer(tokenize))

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> UnigramReferences:
        return UnigramReferences(self, refs, names)

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | UnigramReferences) -> SegmentStats:
        """Per segment ``matches, hyp_len, ref_len`` against the best reference for ``measure``."""
        hyps, prep = checked_inputs(self, hyps, refs, UnigramReferences)
        if not self.fast:
            return SegmentStats(self.columns, self._rule_rows(hyps, prep.texts), {"nrefs": prep.nrefs})
        S = len(hyps)
        ids, lengths = prep.encoder.encode(hyps, grow=False)
        K = len(prep.streams)
        # one-to-one matches against each reference alone: its clipped unigram counts (§2.1 of
        # Papineni et al. with one reference), by the kernel BLEU counts with
        matches = np.stack([clipped_counts(ids, lengths, [stream], prep.encoder.size, 1)[:, 0]
                            for stream in prep.streams])
        hyp_len = np.broadcast_to(lengths, (K, S))
        value = unigram_measures(matches, hyp_len, prep.lengths)[self.measure]
        value = np.where(prep.lengths >= 0, value, -np.inf)
        # best measure, then most matches, then the first reference (lexsort: last key is primary)
        order = np.lexsort((np.arange(K)[:, None].repeat(S, 1) * -1, matches, value), axis=0)
        best = order[-1]
        cols = np.arange(S)
        stats = np.stack([matches[best, cols], lengths, prep.lengths[best, cols]], axis=1)
        return SegmentStats(self.columns, stats.astype(np.int64), {"nrefs": prep.nrefs})

    def _rule_rows(self, hyps: Sequence[str], streams: Sequence[Sequence[str | None]]) -> np.ndarray:
        """Every segment's statistics by the rules (:func:`one_to_one_matches`,
        :func:`best_reference`), the words tokenized line by line: the specification of the
        numpy path."""
        def words(lines: Sequence[str]) -> list[list[str]]:
            return [line.split() for line in preprocess(lines, self.tokenizer, self.lowercase)]

        hyp_words = words(hyps)
        ref_words = [words([r or "" for r in stream]) for stream in streams]
        rows = np.zeros((len(hyps), 3), dtype=np.int64)
        for i, h in enumerate(hyp_words):
            candidates = [(one_to_one_matches(h, ref_words[k][i]), len(h), len(ref_words[k][i]))
                          for k, stream in enumerate(streams) if stream[i] is not None]
            rows[i] = best_reference(self.measure, candidates)
        return rows

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        if t.shape[1] != 3:
            raise ValueError(f"unigram statistics have 3 columns, got {t.shape[1]}")
        return unigram_measures(t[:, 0], t[:, 1], t[:, 2])[self.measure]

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> UnigramResult:
        row = np.asarray(totals)
        if row.ndim != 1:
            raise ValueError("compute takes one summed row; use scores() for many rows")
        m = {k: float(v) for k, v in unigram_measures(row[0], row[1], row[2]).items()}
        return UnigramResult(metric=_LABEL[self.measure], score=m[self.measure],
                             signature=self.signature(meta), precision=m["precision"],
                             recall=m["recall"], f1=m["f1"], fmean=m["fmean"],
                             matches=int(row[0]), hyp_len=int(row[1]), ref_len=int(row[2]))


def corpus_unigram(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], measure: str = "fmean",
                   *, tokenize: str = "13a", lowercase: bool = True) -> UnigramResult:
    """Corpus unigram precision, recall, F1 or Fmean (Banerjee & Lavie, 2005, §2).

    Parameters:
        hyps: one hypothesis (a string) per segment.
        refs: reference streams: ``refs[k][i]`` is reference k of segment i (``None`` where a
            segment has fewer references).
        measure: ``fmean`` (default), ``precision``, ``recall`` or ``f1``: the ``score``, and what
            picks each segment's best reference.
        tokenize: as BLEU's (default ``13a``).
        lowercase: lowercase first (default True, as METEOR).

    Returns:
        a :class:`UnigramResult`: ``score`` (0–1) and all four measures, ``matches``,
        ``hyp_len``, ``ref_len`` and the ``signature``.

    Example:
        >>> result = corpus_unigram(["the cat sat on the mat"], [["the cat is on the mat"]], "f1")
        >>> round(result.score, 4), result.matches
        (0.8333, 5)
    """
    return Unigram(measure, tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, refs)
