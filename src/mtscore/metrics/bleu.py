"""BLEU (Papineni et al., 2002), computed exactly as sacreBLEU 2.6.0 does.

* §2.1 modified n-gram precision: each hypothesis n-gram count is clipped by the largest count of
  that n-gram in any *single* reference;
* §2.1.1 / §2.3 corpus level: clipped matches and hypothesis n-grams are summed over the corpus
  before dividing (not an average of sentence scores);
* §2.2.2 brevity penalty: r is the sum over segments of the reference length closest to the
  hypothesis length (ties: the shorter), c the hypothesis length; BP = 1 if c > r else exp(1 - r/c)
  (0 when c = 0);
* §2.3 BLEU = BP · exp(Σ w_n log p_n), uniform weights w_n = 1/N, N = 4.

Sentence-level smoothing (Chen & Cherry, 2014): ``none``, ``floor`` (method 1), ``add-k``
(method 2), ``exp`` (method 3, mteval's NIST smoothing); ``effective_order`` drops the orders that
have no n-grams at all.

Speed: whole corpora are counted with numpy (:mod:`.clipping`); a tiny corpus (``sentence_bleu``,
``BLEU.sentence_score``, a corpus of a few segments) is counted with one ``Counter`` per segment and
order, and one summed row is scored in plain Python, where numpy's cost per call would dominate.
Both give identical statistics and scores (the transcendental functions are numpy's on both paths).
"""

from __future__ import annotations

from collections import _count_elements  # type: ignore[attr-defined]  # Counter's C loop
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..errors import OptionError
from ..io.references import (
    check_hypotheses,
    check_reference_streams,
    reference_count_label,
)
from ..text.span_encoder import encode_streams, make_encoder
from ..text.tokenizers import Tokenizer, get_tokenizer
from ..version import __version__
from .base import Metric, PreparedBase, Score, SegmentStats, checked_inputs, sentence_references
from .clipping import clipped_counts
from .ngrams import Encoded

#: smoothing method -> default value (None: the method takes no value)
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}

#: sacreBLEU floors log(0) at this value (``my_log``), which makes exp(...) exactly 0.0
_LOG_ZERO = -9999999999.0

#: corpora (hypotheses and references) of fewer characters are counted segment by segment with
#: Counters, where numpy's cost per call would dominate
SMALL_CORPUS_CHARACTERS = 3000


@dataclass(frozen=True)
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


class PreparedReferences(PreparedBase):
    """Reference streams tokenized and counted once, to score many systems against them."""

    def __init__(self, metric: "BLEU", refs: Sequence[Sequence[str | None]],
                 names: Sequence[str] | None = None):
        streams = self._checked_streams(metric, refs, names)
        n_segments = self.segments
        self.encoder = make_encoder(metric.tokenizer, metric.lowercase)
        #: per stream: (token ids, tokens per present segment, index of those segments)
        self.streams = encode_streams(self.encoder, streams)
        self.lengths = np.full((len(streams), n_segments), -1, dtype=np.int64)
        for k, (_, stream_lengths, idx) in enumerate(self.streams):
            self.lengths[k, idx] = stream_lengths
        self.vocab_size = self.encoder.size


class BLEU(Metric[BLEUResult]):
    """BLEU with sacreBLEU's options; ``extract``/``compute`` as in :mod:`mtscore.metrics.base`."""

    name = "bleu"

    def __init__(self, *, tokenize: str = "13a", lowercase: bool = False, smooth: str = "exp",
                 smooth_value: float | None = None, max_order: int = 4,
                 effective_order: bool = False):
        if smooth not in SMOOTH_DEFAULTS:
            raise OptionError("smoothing method", smooth, tuple(SMOOTH_DEFAULTS))
        if smooth_value is not None and SMOOTH_DEFAULTS[smooth] is None:
            raise OptionError("smooth_value", smooth_value,
                              detail=f"smoothing method {smooth!r} takes no value")
        if not isinstance(max_order, int) or max_order < 1:
            raise OptionError("max_order", max_order, detail="must be a positive integer")
        self.tokenizer: Tokenizer = get_tokenizer(tokenize)
        self.lowercase = bool(lowercase)
        self.smooth = smooth
        self.smooth_value = SMOOTH_DEFAULTS[smooth] if smooth_value is None else float(smooth_value)
        self.max_order = max_order
        self.effective_order = bool(effective_order)

    def settings_key(self) -> tuple[object, ...]:
        """What the extracted statistics depend on (not the smoothing, which is applied in compute)."""
        return (self.tokenizer.signature(), self.lowercase, self.max_order)

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
        N, S = self.max_order, len(hyps)
        enc = Encoded(*prep.encoder.encode(hyps, grow=False))
        stats = np.zeros((S, 2 + 2 * N), dtype=np.int64)
        stats[:, 0] = enc.lengths
        stats[:, 1] = _closest_ref_lengths(enc.lengths, prep.lengths)
        for n in range(1, N + 1):
            stats[:, 1 + N + n] = np.maximum(enc.lengths - (n - 1), 0)
        stats[:, 2:2 + N] = clipped_counts(enc.ids, enc.lengths, prep.streams, prep.vocab_size, N)
        return SegmentStats(self.columns, stats, {"nrefs": prep.nrefs})

    def corpus_score(self, hyps: Sequence[str],
                     refs: Sequence[Sequence[str | None]] | PreparedReferences) -> BLEUResult:
        """Corpus BLEU: ``compute`` of the statistics summed over the segments (§2.1.1)."""
        small = self._small_rows(hyps, refs)
        if small is not None:
            return self._result([sum(column) for column in zip(*small[0])], {"nrefs": small[1]})
        return super().corpus_score(hyps, refs)  # type: ignore[arg-type]

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
        rows = [self._row(hyp, [r for r in segment_refs if r is not None])
                for hyp, segment_refs in zip(hyps, zip(*streams))]
        return rows, reference_count_label(streams)

    def _row(self, hyp: str, refs: Sequence[str]) -> list[int]:
        """One segment's statistics with dicts of counts: §2.1 matches clipped by the largest count
        in a single reference, §2.2.2 the closest reference length (ties: the shorter)."""
        N, tokenizer, lowercase = self.max_order, self.tokenizer, self.lowercase
        hyp_words = _words(tokenizer, lowercase, hyp).split()
        ref_words = [_words(tokenizer, lowercase, r).split() for r in refs]
        c = len(hyp_words)
        ref_len = min((abs(len(r) - c), len(r)) for r in ref_words)[1]
        row = [c, ref_len, *([0] * N), *(max(c - n, 0) for n in range(N))]
        if not c:
            return row
        for n in range(1, min(N, c) + 1):
            grams = hyp_words if n == 1 else list(_ngrams(hyp_words, n))
            distinct = set(grams)
            # the n-grams found in some reference (set operations: no Python loop over n-grams)
            common = distinct.intersection(_ngrams(ref_words[0], n))
            for r in ref_words[1:]:
                common |= distinct.intersection(_ngrams(r, n))
            if not common:
                break  # no n-gram matches, so no longer one does
            found = len(common)  # each counts once; one repeated in the hypothesis may count more
            if len(distinct) < len(grams):
                counts: dict[object, int] = {}
                _count_elements(counts, grams)
                for gram in common:
                    k = counts[gram]
                    if k > 1:
                        most = max(_occurrences(r, gram, n) for r in ref_words)
                        found += (k if k < most else most) - 1  # noqa: FURB136 (faster than min)
            row[1 + n] = found
        return row

    def sentence_score(self, hyp: str, refs: Sequence[str]) -> BLEUResult:
        """BLEU of one hypothesis against its references (a list of strings), as sacreBLEU's
        ``BLEU.sentence_score``: ``compute`` of the segment's row of ``extract``. Sentence BLEU is
        usually computed with ``effective_order=True`` (``sentence_bleu``'s default)."""
        if type(hyp) is str and type(refs) in (list, tuple) and refs \
                and all(type(r) is str for r in refs):
            return self._result(self._row(hyp, refs), {"nrefs": str(len(refs))})
        # anything else takes the general checks (None: a missing reference)
        stats = self.extract([hyp], sentence_references(hyp, refs, "sentence BLEU"))
        return self.compute(stats.total(), stats.meta)

    # ---- the score: a pure function of summed statistics ---------------------------------

    def _precisions(self, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Vectorized sacreBLEU ``compute_bleu``: (score, precisions, bp, effective order)."""
        t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        N = self.max_order
        if t.shape[1] != 2 + 2 * N:
            raise ValueError(f"BLEU statistics have {2 + 2 * N} columns, got {t.shape[1]}")
        sys_len, ref_len = t[:, 0], t[:, 1]
        correct, total = t[:, 2:2 + N].copy(), t[:, 2 + N:].copy()
        no_match = ~(correct != 0).any(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            bp = np.where(sys_len < ref_len,
                          np.where(sys_len > 0, np.exp(1 - ref_len / np.where(sys_len > 0, sys_len, 1)), 0.0),
                          1.0)
        if self.smooth == "add-k":
            correct[:, 1:] += self.smooth_value
            total[:, 1:] += self.smooth_value
        # orders reached before sacreBLEU's loop stops at the first order with no n-grams
        active = np.cumprod(total > 0, axis=1).astype(bool)
        zero = correct == 0
        prec = np.zeros_like(correct)
        safe_total = np.where(total > 0, total, 1.0)
        hit = active & ~zero
        prec[hit] = (100.0 * correct / safe_total)[hit]
        miss = active & zero
        if self.smooth == "exp":
            halvings = np.cumsum(miss, axis=1)
            prec[miss] = (100.0 / (2.0 ** halvings * safe_total))[miss]
        elif self.smooth == "floor":
            prec[miss] = (100.0 * self.smooth_value / safe_total)[miss]
        if self.effective_order:
            eff = np.maximum(active.sum(axis=1), 1)
            eff = np.where(active.any(axis=1), eff, N)
        else:
            eff = np.full(len(t), N)
        log_sum = np.zeros(len(t))
        for n in range(N):
            with np.errstate(divide="ignore"):
                logs = np.where(prec[:, n] > 0, np.log(np.where(prec[:, n] > 0, prec[:, n], 1.0)), _LOG_ZERO)
            log_sum = log_sum + np.where(n < eff, logs, 0.0)
        score = bp * np.exp(log_sum / eff)
        score = np.where(no_match, 0.0, score)
        prec[no_match] = 0.0
        return score, prec, bp, eff

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        """BLEU (0–100) for each row of summed statistics."""
        return self._precisions(totals)[0]

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None
                ) -> BLEUResult | tuple[BLEUResult, ...]:
        """The BLEU result of one summed row of statistics; of a 2-D array (many summed rows, e.g.
        resamples or blocks), a tuple of results computed in one vectorized pass."""
        rows = np.asarray(totals)
        if rows.ndim == 1:
            return self._result(rows.tolist(), meta)
        if rows.ndim != 2:
            raise ValueError("compute takes one summed row (1-D) or many (2-D)")
        score, prec, bp, _ = self._precisions(rows)
        N = self.max_order
        signature = self.signature(meta)
        results = []
        for i, row in enumerate(np.atleast_2d(rows)):
            hyp_len, ref_len = int(row[0]), int(row[1])
            results.append(BLEUResult(
                metric="BLEU", score=float(score[i]), signature=signature,
                precisions=tuple(float(p) for p in prec[i]),
                counts=tuple(int(c) for c in row[2:2 + N]),
                totals=tuple(int(c) for c in row[2 + N:]),
                bp=float(bp[i]), ratio=hyp_len / ref_len if ref_len else 0.0,
                hyp_len=hyp_len, ref_len=ref_len))
        return results[0] if rows.ndim == 1 else tuple(results)

    def _result(self, row: Sequence[float], meta: Mapping[str, str] | None) -> BLEUResult:
        """``compute`` of one row in plain Python: ``_precisions`` step by step, in the same
        floating-point operations (numpy's log and exp), so the results are identical."""
        N = self.max_order
        if len(row) != 2 + 2 * N:
            raise ValueError(f"BLEU statistics have {2 + 2 * N} columns, got {len(row)}")
        sys_len, ref_len = float(row[0]), float(row[1])
        correct = [float(x) for x in row[2:2 + N]]
        total = [float(x) for x in row[2 + N:]]
        no_match = not any(x != 0 for x in correct)
        value = self.smooth_value or 0.0  # (None only for the methods that take no value)
        if self.smooth == "add-k":
            for n in range(1, N):
                correct[n] += value
                total[n] += value
        prec = [0.0] * N
        active = halvings = 0  # orders before the first one with no n-grams; zero matches among them
        for n in range(N):
            if not total[n] > 0:
                break
            active += 1
            if correct[n] != 0:
                prec[n] = 100.0 * correct[n] / total[n]
            elif self.smooth == "exp":
                halvings += 1
                prec[n] = 100.0 / (2.0 ** halvings * total[n])
            elif self.smooth == "floor":
                prec[n] = 100.0 * value / total[n]
        eff = active if self.effective_order and active else N
        bp_arg = 1 - ref_len / sys_len if 0 < sys_len < ref_len else None
        if no_match:
            score = 0.0
            bp = float(np.exp(np.array([bp_arg]))[0]) if bp_arg is not None else \
                (0.0 if sys_len < ref_len else 1.0)
            prec = [0.0] * N
        else:
            positive = [p for p in prec[:eff] if p > 0]
            logs = iter(np.log(np.array(positive, dtype=np.float64)).tolist())
            log_sum = 0.0
            for p in prec[:eff]:
                log_sum = log_sum + (next(logs) if p > 0 else _LOG_ZERO)
            args = [log_sum / eff] if bp_arg is None else [log_sum / eff, bp_arg]
            exps = np.exp(np.array(args, dtype=np.float64)).tolist()
            bp = exps[1] if bp_arg is not None else (0.0 if sys_len < ref_len else 1.0)
            score = bp * exps[0]
        hyp_len, ref_len_int = int(row[0]), int(row[1])
        return BLEUResult(
            metric="BLEU", score=score, signature=self.signature(meta), precisions=tuple(prec),
            counts=tuple(int(c) for c in row[2:2 + N]), totals=tuple(int(c) for c in row[2 + N:]),
            bp=bp, ratio=hyp_len / ref_len_int if ref_len_int else 0.0, hyp_len=hyp_len,
            ref_len=ref_len_int)

    def signature(self, meta: Mapping[str, str] | None = None) -> str:
        """``BLEU|nrefs:…|case:…|eff:…|tok:…|smooth:…[|order:N]|version:…``."""
        smooth = self.smooth
        if SMOOTH_DEFAULTS[self.smooth] is not None:
            smooth += f"[{self.smooth_value:.2f}]"
        parts = ["BLEU", f"nrefs:{(meta or {}).get('nrefs', '?')}",
                 f"case:{'lc' if self.lowercase else 'mixed'}",
                 f"eff:{'yes' if self.effective_order else 'no'}",
                 f"tok:{self.tokenizer.signature()}", f"smooth:{smooth}"]
        if self.max_order != 4:
            parts.append(f"order:{self.max_order}")
        parts.append(f"version:{__version__}")
        return "|".join(parts)


@lru_cache(maxsize=2**14)
def _words(tokenizer: Tokenizer, lowercase: bool, line: str) -> str:
    """sacreBLEU's preprocessing of one segment (lowercase, strip trailing white space, tokenize),
    remembered for the segments of a loop (as sacreBLEU's tokenizers do): references recur."""
    return tokenizer((line.lower() if lowercase else line).rstrip())


def _ngrams(words: list[str], n: int) -> Iterable[object]:
    """The n-grams of one segment in order: its words for n = 1, else tuples of n words."""
    if n == 1:
        return words
    return zip(*[words[i:] for i in range(n)])


def _occurrences(words: list[str], gram: object, n: int) -> int:
    """How often an n-gram occurs in a segment."""
    return list(_ngrams(words, n)).count(gram)


def _closest_ref_lengths(hyp_lens: np.ndarray, ref_lens: np.ndarray) -> np.ndarray:
    """§2.2.2: per segment the reference length closest to the hypothesis length, ties: the shorter.

    ``ref_lens`` is (references × segments) with -1 where a reference is missing.
    """
    diff = np.abs(ref_lens - hyp_lens[None, :]).astype(np.float64)
    diff[ref_lens < 0] = np.inf
    # smallest difference first, then the shortest length among equally close ones
    key = diff * (ref_lens.max(initial=0) + 1) + np.where(ref_lens < 0, 0, ref_lens)
    best = np.argmin(key, axis=0)
    return ref_lens[best, np.arange(ref_lens.shape[1])]


def corpus_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], *, tokenize: str = "13a",
                lowercase: bool = False, smooth: str = "exp", smooth_value: float | None = None,
                max_order: int = 4, effective_order: bool = False) -> BLEUResult:
    """Corpus BLEU of ``hyps`` against reference streams ``refs`` (``refs[k][i]``), as sacreBLEU."""
    metric = _metric(tokenize, lowercase, smooth, smooth_value, max_order, effective_order)
    return metric.corpus_score(hyps, refs)


def sentence_bleu(hyp: str, refs: Sequence[str], *, tokenize: str = "13a", lowercase: bool = False,
                  smooth: str = "exp", smooth_value: float | None = None, max_order: int = 4,
                  effective_order: bool = True) -> BLEUResult:
    """BLEU of one hypothesis against its references (a list of strings), as sacreBLEU's
    ``sentence_bleu`` (effective order on by default)."""
    metric = _metric(tokenize, lowercase, smooth, smooth_value, max_order, effective_order)
    return metric.sentence_score(hyp, refs)


def _metric(tokenize: str, lowercase: bool, smooth: str, smooth_value: float | None, max_order: int,
            effective_order: bool) -> BLEU:
    """The BLEU object of these settings, made once (the functions are called in loops)."""
    try:
        return _cached_metric(tokenize, lowercase, smooth, smooth_value, max_order, effective_order)
    except TypeError:  # an unhashable argument: BLEU itself reports what is wrong with it
        return BLEU(tokenize=tokenize, lowercase=lowercase, smooth=smooth, smooth_value=smooth_value,
                    max_order=max_order, effective_order=effective_order)


@lru_cache(maxsize=64, typed=True)
def _cached_metric(tokenize: str, lowercase: bool, smooth: str, smooth_value: float | None,
                   max_order: int, effective_order: bool) -> BLEU:
    return BLEU(tokenize=tokenize, lowercase=lowercase, smooth=smooth, smooth_value=smooth_value,
                max_order=max_order, effective_order=effective_order)
