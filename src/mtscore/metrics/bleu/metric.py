"""BLEU (Papineni et al., 2002), computed exactly as sacreBLEU 2.6.0 does.

The rules are written once, in :mod:`.rules`: §2.1 :func:`modified_precision` (clipping by
the largest count in any single reference), §2.1.1 corpus :func:`pool` ing, §2.2.2
:func:`closest_ref_length` and :func:`brevity_penalty`, §2.3 :func:`geometric_mean` (uniform
weights 1/N, N = 4), with the sentence-level smoothings of Chen & Cherry (2014)
(:func:`smoothed_precisions`: ``none``, ``floor``, ``add-k``, ``exp``); ``effective_order`` drops
the orders that have no n-grams at all. Every path scores one summed row with
:func:`bleu_of_row`.

Speed: whole corpora are counted with numpy (:mod:`..clipping`, :mod:`.fast`: fast paths
tested equal to the rules); a tiny corpus (``sentence_bleu``, ``BLEU.sentence_score``, a corpus of
a few segments) is counted segment by segment with the rules themselves, where numpy's cost per
call would dominate; ``BLEU(fast=False)`` counts every corpus that way (the specification of the
fast path). The settings are :class:`BLEUSettings` (frozen: :meth:`BLEU.replace` makes a BLEU with
others).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from ...errors import OptionError
from ...io.references import (
    check_hypotheses,
    check_reference_streams,
    reference_count_label,
)
from ...text.span_encoder import key_streams
from ...text.tokenizers import Tokenizer, get_tokenizer
from ..base import (
    Metric,
    Score,
    SegmentStats,
    checked_inputs,
    sentence_references,
)
from ..clipping import EncodedReferences, clipped_counts_of_keys
from ..settings import Settings, check_tokenizer, setting, shared_metric, show_tokenizer, yes_no
from .fast import bleu_of_rows, closest_ref_lengths
from .rules import (
    SMOOTH_DEFAULTS,
    bleu_of_row,
    closest_ref_length,
    modified_precision,
    pool,
)

#: corpora (hypotheses and references) of fewer characters are counted segment by segment with
#: the rules themselves, where numpy's cost per call would dominate
SMALL_CORPUS_CHARACTERS = 3000

#: the largest n-gram order accepted (each order adds two statistics and one counting pass)
MAX_ORDER = 100


@dataclass(frozen=True, repr=False)
class BLEUResult(Score):
    """A BLEU score (0–100, as sacreBLEU) with the statistics it was computed from."""

    precisions: tuple[float, ...]
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    bp: float
    ratio: float
    hyp_len: int
    ref_len: int

    def __str__(self) -> str:
        prec = "/".join(f"{p:.1f}" for p in self.precisions)
        return (f"BLEU = {self.score:.2f} {prec} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
                f"hyp_len = {self.hyp_len} ref_len = {self.ref_len})")


@dataclass(frozen=True)
class BLEUSettings(Settings):
    """BLEU's settings (:class:`BLEU`'s arguments), validated once."""

    NAME: ClassVar[str] = "BLEU"
    SIGNATURE: ClassVar[tuple[str, ...]] = ("nrefs", "case", "eff", "tok", "smooth", "order",
                                            "version")

    tokenize: str = setting("13a", key="tok", show=show_tokenizer,
                            references=True)
    lowercase: bool = setting(False, key="case", show=yes_no("lowercase", "lc", "mixed"),
                              references=True)
    smooth: str = setting("exp", key="smooth", show=lambda s: s.smooth_label())
    #: the smoothing's value (None: the method's default, :data:`.rules.SMOOTH_DEFAULTS`)
    smooth_value: float | None = setting(None)
    max_order: int = setting(4, key="order", show=lambda s: s.max_order if s.max_order != 4 else None,
                             references=True)
    effective_order: bool = setting(False, key="eff", show=yes_no("effective_order"))
    #: count whole corpora with numpy (:mod:`..clipping`); False: segment by segment with the rules
    fast: bool = setting(True, speed=True)

    def validate(self) -> None:
        smooth, smooth_value, max_order = self.smooth, self.smooth_value, self.max_order
        if smooth not in SMOOTH_DEFAULTS:
            raise OptionError("smoothing method", smooth, tuple(SMOOTH_DEFAULTS))
        if smooth_value is not None:
            if SMOOTH_DEFAULTS[smooth] is None:
                raise OptionError("smooth_value", smooth_value,
                                  detail=f"smoothing method {smooth!r} takes no value")
            if not _finite_non_negative(smooth_value):
                raise OptionError("smooth_value", smooth_value,
                                  detail="must be a finite number >= 0")
            self._set("smooth_value", float(smooth_value))
        if isinstance(max_order, bool) or not isinstance(max_order, int) \
                or not 1 <= max_order <= MAX_ORDER:
            raise OptionError("max_order", max_order,
                              detail=f"must be an integer from 1 to {MAX_ORDER}")
        check_tokenizer(self.tokenize)
        for name in ("lowercase", "effective_order", "fast"):
            self._set(name, bool(getattr(self, name)))

    def smoothing_value(self) -> float | None:
        """The smoothing's value, its default when none was given (None: the method has none)."""
        default = SMOOTH_DEFAULTS[self.smooth]
        return default if self.smooth_value is None else self.smooth_value

    def smooth_label(self) -> str:
        """``exp``, ``floor[0.10]``, ``add-k[1.00]``, ``none``: the method and its value."""
        value = self.smoothing_value()
        return self.smooth if value is None else f"{self.smooth}[{value:.2f}]"


class PreparedReferences(EncodedReferences):
    """BLEU's reference streams, tokenized once, to score many systems against them: per stream
    the tokens as key columns (:func:`...text.span_encoder.key_streams`), tokens per present
    segment and those segments' index; ``lengths`` is references × segments, -1 where a reference
    is missing (``texts``: the streams themselves, for ``fast=False``, which counts with the rules)."""

    encode = staticmethod(key_streams)

    def __init__(self, metric: BLEU, refs: Sequence[Sequence[str | None]],
                 names: Sequence[str] | None = None):
        super().__init__(metric, refs, names)
        self.texts = [list(stream) for stream in refs]


class BLEU(Metric[BLEUResult]):
    """BLEU with sacreBLEU's options; ``extract``/``compute`` as in :mod:`mtscore.metrics.base`."""

    name = "bleu"
    settings: BLEUSettings
    tokenizer: Tokenizer
    lowercase: bool
    smooth: str
    #: the smoothing's value (its default when none was given)
    smooth_value: float | None
    max_order: int
    effective_order: bool
    #: count whole corpora with numpy (:mod:`..clipping`); False: segment by segment with the rules
    fast: bool

    def __init__(self, *, tokenize: str = "13a", lowercase: bool = False, smooth: str = "exp",
                 smooth_value: float | None = None, max_order: int = 4,
                 effective_order: bool = False, fast: bool = True):
        settings = BLEUSettings(tokenize=tokenize, lowercase=lowercase, smooth=smooth,
                                smooth_value=smooth_value, max_order=max_order,
                                effective_order=effective_order, fast=fast)
        self._configure(settings, tokenizer=get_tokenizer(tokenize),
                        smooth_value=settings.smoothing_value())

    @property
    def columns(self) -> tuple[str, ...]:
        N = range(1, self.max_order + 1)
        return ("hyp_len", "ref_len", *(f"match_{n}" for n in N), *(f"total_{n}" for n in N))

    # ---- statistics -------------------------------------------------------------------------

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> PreparedReferences:
        """Tokenize and count the references once (pass the result to ``extract`` as ``refs``)."""
        return PreparedReferences(self, refs, names)

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | PreparedReferences) -> SegmentStats:
        """Per-segment ``hyp_len, ref_len, match_1..N, total_1..N`` (sacreBLEU's statistics)."""
        small = self._small_rows(hyps, refs)
        if small is not None:
            return SegmentStats(self.columns, np.array(small[0], dtype=np.int64), {"nrefs": small[1]})
        hyps, prep = checked_inputs(self, hyps, refs, PreparedReferences)
        if not self.fast:
            rows = np.array(self._rule_rows(hyps, prep.texts), dtype=np.int64)
            return SegmentStats(self.columns, rows.reshape(len(hyps), len(self.columns)),
                                {"nrefs": prep.nrefs})
        N, S = self.max_order, len(hyps)
        keys, lengths = prep.encoder.token_keys(hyps)
        stats = np.zeros((S, 2 + 2 * N), dtype=np.int64)
        stats[:, 0] = lengths
        stats[:, 1] = closest_ref_lengths(lengths, prep.lengths)
        for n in range(1, N + 1):
            stats[:, 1 + N + n] = np.maximum(lengths - (n - 1), 0)
        stats[:, 2:2 + N] = clipped_counts_of_keys(keys, lengths, prep.streams, N)
        return SegmentStats(self.columns, stats, {"nrefs": prep.nrefs})

    def corpus_score(self, hyps: Sequence[str],
                     refs: Sequence[Sequence[str | None]] | PreparedReferences) -> BLEUResult:
        """Corpus BLEU: ``compute`` of the segments' pooled statistics (§2.1.1, :func:`pool`)."""
        small = self._small_rows(hyps, refs)
        if small is not None:
            return self.compute(pool(small[0]), {"nrefs": small[1]})
        stats = self.extract(hyps, refs)
        return self.compute(pool(stats.values), stats.meta)

    def _small_rows(self, hyps: Sequence[str], refs: object) -> tuple[list[list[int]], str] | None:
        """The rows of a tiny corpus, counted segment by segment, and its ``nrefs`` label (None:
        the corpus is not tiny, or the references are prepared)."""
        if isinstance(refs, PreparedReferences) or not isinstance(hyps, (list, tuple)) \
                or len(hyps) * 20 >= SMALL_CORPUS_CHARACTERS:
            return None
        hyps = check_hypotheses(hyps)
        streams = check_reference_streams(refs, len(hyps))  # type: ignore[arg-type]
        size = sum(map(len, hyps)) + sum(len(r) for stream in streams for r in stream if r is not None)
        if size >= SMALL_CORPUS_CHARACTERS:
            return None
        return self._rule_rows(hyps, streams), reference_count_label(streams)

    def _rule_rows(self, hyps: Sequence[str], streams: Sequence[Sequence[str | None]]
                   ) -> list[list[int]]:
        """Every segment's statistics by the rules (:meth:`_row`): tiny corpora and ``fast=False``."""
        return [self._row(hyp, [r for r in segment_refs if r is not None])
                for hyp, segment_refs in zip(hyps, zip(*streams))]

    def _row(self, hyp: str, refs: Sequence[str]) -> list[int]:
        """One segment's statistics from its words: §2.1 :func:`modified_precision` of each order,
        §2.2.2 :func:`closest_ref_length`."""
        N, tokenizer, lowercase = self.max_order, self.tokenizer, self.lowercase
        hyp_words = _words(tokenizer, lowercase, hyp).split()
        ref_words = [_words(tokenizer, lowercase, r).split() for r in refs]
        c = len(hyp_words)
        row = [c, closest_ref_length(c, map(len, ref_words)), *([0] * N),
               *(max(c - n, 0) for n in range(N))]
        for n in range(1, min(N, c) + 1):
            row[1 + n] = modified_precision(hyp_words, ref_words, n)[0]
            if not row[1 + n]:
                break  # no n-gram matches, so no longer one does
        return row

    def sentence_score(self, hyp: str, refs: Sequence[str]) -> BLEUResult:
        """BLEU of one hypothesis against its references (a list of strings), as sacreBLEU's
        ``BLEU.sentence_score``: ``compute`` of the segment's row of ``extract``. Sentence BLEU is
        usually computed with ``effective_order=True`` (``sentence_bleu``'s default)."""
        if type(hyp) is str and type(refs) in (list, tuple) and refs \
                and all(type(r) is str for r in refs):
            return self.compute(self._row(hyp, refs), {"nrefs": str(len(refs))})
        # anything else takes the general checks (None: a missing reference)
        stats = self.extract([hyp], sentence_references(hyp, refs, "sentence BLEU"))
        return self.compute(stats.total(), stats.meta)

    # ---- the score: a pure function of summed statistics ---------------------------------

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        """BLEU (0–100) for each row of summed statistics (:func:`.fast.bleu_of_rows`)."""
        return bleu_of_rows(totals, self.max_order, self.smooth, self.smooth_value,
                            self.effective_order)[0]

    def compute(self, totals: np.ndarray | Sequence[float],
                meta: Mapping[str, str] | None = None) -> BLEUResult:
        """The BLEU result of one summed row of statistics (:func:`.rules.bleu_of_row`)."""
        row = totals.tolist() if isinstance(totals, np.ndarray) else list(totals)
        N = self.max_order
        if isinstance(totals, np.ndarray) and totals.ndim != 1:
            raise ValueError("compute takes one summed row (1-D); compute_many takes many")
        if len(row) != 2 + 2 * N:
            raise ValueError(f"BLEU statistics have {2 + 2 * N} columns, got {len(row)}")
        score, prec, bp = bleu_of_row(row, N, self.smooth, self.smooth_value, self.effective_order)
        hyp_len, ref_len = int(row[0]), int(row[1])
        return BLEUResult(
            metric="BLEU", score=score, signature=self.signature(meta), precisions=tuple(prec),
            counts=tuple(int(c) for c in row[2:2 + N]), totals=tuple(int(c) for c in row[2 + N:]),
            bp=bp, ratio=hyp_len / ref_len if ref_len else 0.0, hyp_len=hyp_len, ref_len=ref_len)

    def pair_kernel(self) -> tuple[Any, Any] | None:
        """Pairwise scores by :mod:`mtscore.metrics.bleu.pairwise` (tested equal to the definition)."""
        from . import pairwise as pairwise_bleu

        return pairwise_bleu.pair_scores, pairwise_bleu.aggregate_scores


@lru_cache(maxsize=2**14)
def _words(tokenizer: Tokenizer, lowercase: bool, line: str) -> str:
    """sacreBLEU's preprocessing of one segment (lowercase, strip trailing white space, tokenize),
    remembered for the segments of a loop (as sacreBLEU's tokenizers do): references recur."""
    return tokenizer((line.lower() if lowercase else line).rstrip())


def corpus_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], *, tokenize: str = "13a",
                lowercase: bool = False, smooth: str = "exp", smooth_value: float | None = None,
                max_order: int = 4, effective_order: bool = False) -> BLEUResult:
    """Corpus BLEU of ``hyps`` against reference streams ``refs``, exactly as sacreBLEU 2.6.0.

    Parameters:
        hyps: one hypothesis (a string) per segment.
        refs: reference streams: ``refs[k][i]`` is reference k of segment i (``None`` where a
            segment has fewer references).
        tokenize: ``13a`` (default), ``intl``, ``zh``, ``zh-fixed``, ``char``, ``none``, ``ja-mecab``.
        lowercase: lowercase before tokenizing.
        smooth: ``exp`` (default), ``floor``, ``add-k`` or ``none`` (Chen & Cherry, 2014).
        smooth_value: the value of ``floor`` (default 0.1) or ``add-k`` (default 1); finite, ≥ 0.
        max_order: the largest n-gram order N (1 to 100; default 4).
        effective_order: leave out the orders with no n-grams (for very short corpora).

    Returns:
        a :class:`BLEUResult`: ``score`` (0–100), ``precisions``, ``counts``, ``totals``, ``bp``,
        ``ratio``, ``hyp_len``, ``ref_len`` and the ``signature``.

    Raises:
        InputError: the inputs are not strings or the streams' lengths differ.
        OptionError: an option value is not valid.

    Example:
        >>> result = corpus_bleu(["the cat sat on the mat"], [["the cat sat on a mat"]])
        >>> round(result.score, 2)
        53.73
        >>> result.signature.get("tok")
        '13a'
    """
    metric = shared_metric(BLEU, tokenize=tokenize, lowercase=lowercase, smooth=smooth,
                           smooth_value=smooth_value, max_order=max_order,
                           effective_order=effective_order)
    return metric.corpus_score(hyps, refs)


def sentence_bleu(hyp: str, refs: Sequence[str], *, tokenize: str = "13a", lowercase: bool = False,
                  smooth: str = "exp", smooth_value: float | None = None, max_order: int = 4,
                  effective_order: bool = True) -> BLEUResult:
    """BLEU of one hypothesis against its references, as sacreBLEU's ``sentence_bleu``.

    Parameters:
        hyp: the hypothesis (a string).
        refs: its references: a list of strings (or one string).
        tokenize, lowercase, smooth, smooth_value, max_order: as :func:`corpus_bleu`.
        effective_order: leave out the orders with no n-grams (default True, as sacreBLEU).

    Returns:
        a :class:`BLEUResult` (score 0–100, precisions, brevity penalty, lengths, signature).

    Example:
        >>> round(sentence_bleu("the cat sat on the mat", ["the cat sat on a mat"]).score, 2)
        53.73
    """
    metric = shared_metric(BLEU, tokenize=tokenize, lowercase=lowercase, smooth=smooth,
                           smooth_value=smooth_value, max_order=max_order,
                           effective_order=effective_order)
    return metric.sentence_score(hyp, refs)


def _finite_non_negative(value: object) -> bool:
    """Whether ``value`` is a finite real number ≥ 0 (not a bool, not a string)."""
    if isinstance(value, (bool, str, bytes)):
        return False
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return math.isfinite(number) and number >= 0
