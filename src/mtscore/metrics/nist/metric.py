"""NIST (Doddington, 2002), computed as NIST's ``mteval-v13a.pl`` does.

* §2 information weights, from the n-gram counts of *all reference segments of the corpus*
  (every reference stream): Info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)); for unigrams
  count(empty prefix) is the total number of reference words (:func:`information_weights`);
* mteval-v13a.pl's quirk, reproduced by default (``mteval_zero_quirk=True``): the script tests the
  prefix as a Perl string (``$mgram ? count/count(prefix) : count/total_words``), so a bigram whose
  first word is the token ``0`` (a false string in Perl) gets the unigram rule,
  log2(total words / count(0 w2)). ``mteval_zero_quirk=False`` applies the paper's rule to every
  n-gram (the signature then says ``quirk:no``). Both tested against the script's own numbers
  (tests/data/nist_mteval.tsv);
* §2 score = Σ_{n=1..N} [Σ info of the co-occurring n-grams / number of hypothesis n-grams] · BP,
  N = 5, summed over the corpus before dividing; a hypothesis n-gram is counted at most as often as
  it occurs in the reference where it is most frequent (mteval's clipping over references);
* §2 brevity factor BP = exp(-β · ln²(min(Lsys / Lref, 1))), β chosen so that BP = 0.5 when
  Lsys/Lref = 2/3; Lsys = hypothesis words, Lref = reference words averaged over the references
  (mteval: total reference words / number of references). BP = 0 when Lsys = 0.

Statistics (additive): ``hyp_len``, ``ref_len`` (per segment the *mean* length of its references,
so the corpus sum is mteval's Lref), ``info_1..N`` (info-weighted clipped matches) and
``total_1..N`` (hypothesis n-grams). The information weights depend on the whole reference
corpus, so rows are additive *given fixed references*: sums over subsets, resamples and blocks use
the weights of the full reference corpus the statistics were extracted against (as the paper's
bootstrap and block analyses do), and statistics extracted against different reference sets must
not be summed.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...errors import OptionError
from ...text.span_encoder import LineEncoder, encode_streams, make_encoder
from ...text.tokenizers import Tokenizer, get_tokenizer
from ..base import Metric, PreparedBase, Score, SegmentStats, checked_inputs
from ..ngrams import Encoded, NgramSpace, lookup_counts, max_counts, segment_counts
from ..settings import Settings, check_tokenizer, setting, show_tokenizer, yes_no

#: brevity factor calibration (Doddington 2002 §2; mteval ``nist_length_penalty``)
BP_RATIO_X = 1.5
BP_SCORE_X = 0.5
BETA = -math.log(BP_SCORE_X) / math.log(BP_RATIO_X) ** 2

#: the largest n-gram order accepted (each order adds two statistics and one counting pass)
MAX_ORDER = 100


@dataclass(frozen=True, repr=False)
class NISTResult(Score):
    """A NIST score with its per-order information-weighted precisions."""

    precisions: tuple[float, ...]  # per order: info of matches / hypothesis n-grams
    info: tuple[float, ...]
    totals: tuple[int, ...]
    bp: float
    ratio: float
    hyp_len: int
    ref_len: float

    def __str__(self) -> str:
        prec = "/".join(f"{p:.3f}" for p in self.precisions)
        return (f"NIST = {self.score:.4f} {prec} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
                f"hyp_len = {self.hyp_len} ref_len = {self.ref_len:.1f})")


def brevity_factor(hyp_len: np.ndarray | float, ref_len: np.ndarray | float) -> np.ndarray:
    """exp(-β ln²(min(Lsys/Lref, 1))); 1 when Lref = 0, 0 when Lsys = 0 (mteval)."""
    h = np.asarray(hyp_len, dtype=np.float64)
    r = np.asarray(ref_len, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(r > 0, h / np.where(r > 0, r, 1.0), np.inf)
        logr = np.log(np.where((ratio > 0) & (ratio < 1), ratio, 1.0))
    bp = np.exp(-BETA * logr * logr)
    bp = np.where(ratio >= 1, 1.0, bp)
    return np.where(ratio <= 0, 0.0, bp)


def _prefix_ids(space: NgramSpace, n: int) -> np.ndarray:
    """For each reference n-gram id of order n >= 2, the id of its (n-1)-gram prefix.

    The n-gram keys of :class:`NgramSpace` are ``prefix id * vocabulary size + last token``.
    """
    table = space._tables[n - 1]
    return table // space._base


def _first_occurrence_ids(ids: np.ndarray, size: int) -> np.ndarray:
    """A map from token ids to ids numbered in order of first occurrence in ``ids``."""
    remap = np.full(max(size, 1), -1, dtype=np.int64)
    if len(ids):
        distinct, first = np.unique(ids, return_index=True)
        remap[distinct[np.argsort(first, kind="stable")]] = np.arange(len(distinct), dtype=np.int64)
    return remap


class NISTReferences(PreparedBase):
    """References tokenized, counted and turned into information weights once."""

    def __init__(self, metric: NIST, refs: Sequence[Sequence[str | None]],
                 names: Sequence[str] | None = None):
        streams = self._checked_streams(metric, refs, names)
        n_segments = self.segments
        N = metric.max_order
        self.encoder = make_encoder(metric.tokenizer, metric.lowercase) if metric.fast \
            else LineEncoder(metric.tokenizer, metric.lowercase)
        encoded_streams = encode_streams(self.encoder, streams)
        present = [idx for _, _, idx in encoded_streams]
        # ids in order of first occurrence, so that every n-gram table and sum is in a fixed order
        self.remap = _first_occurrence_ids(np.concatenate([e[0] for e in encoded_streams]),
                                           self.encoder.size)
        encoded: list[Encoded] = []
        lengths = np.zeros(n_segments, dtype=np.float64)
        counts = np.zeros(n_segments, dtype=np.float64)
        for ids, stream_lengths, idx in encoded_streams:
            enc = Encoded(self.remap[ids] if len(ids) else ids, stream_lengths)
            lengths[idx] += enc.lengths
            counts[idx] += 1
            encoded.append(enc)
        self.vocab_size = self.encoder.size
        #: per segment, the mean length of its references (sums to mteval's Lref)
        self.ref_len = lengths / counts
        self.space = NgramSpace(encoded, self.vocab_size, N)
        total_words = float(sum(int(e.lengths.sum()) for e in encoded))
        # corpus counts of every reference n-gram (all streams, all segments) -> information weights
        corpus_counts = []
        for n in range(1, N + 1):
            size = self.space.size(n)
            gids = [self.space.ref_grams[k][n - 1][1] for k in range(len(streams))]
            corpus_counts.append(np.bincount(np.concatenate(gids), minlength=size).astype(np.float64)
                                 if size else np.zeros(0))
        zero = self._zero_id() if metric.mteval_zero_quirk else None
        self.info = information_weights(self.space, corpus_counts, total_words, zero)
        self.clip_tables = []
        for n in range(1, N + 1):
            size = self.space.size(n)
            parts = []
            for k in range(len(streams)):
                seg, gid = self.space.ref_grams[k][n - 1]
                parts.append(segment_counts(present[k][seg], gid, size))
            self.clip_tables.append(max_counts(parts))

    # ---- streaming (helper H6): the corpus's weights for a range of its segments ----------------

    def segment_range(self, lo: int, hi: int) -> NISTReferences:
        """These references restricted to segments ``lo .. hi - 1``, with the information weights
        (and n-gram ids) of the whole corpus: ``extract`` of those segments' hypotheses against it
        gives the rows that ``extract`` of the whole corpus gives them (for chunked scoring)."""
        part = copy.copy(self)
        part.segments = hi - lo
        part.ref_len = self.ref_len[lo:hi]
        part.clip_tables = []
        for n, (keys, counts) in enumerate(self.clip_tables, start=1):
            size = max(self.space.size(n), 1)
            a, b = np.searchsorted(keys, [lo * size, hi * size])
            part.clip_tables.append((keys[a:b] - lo * size, counts[a:b]))
        return part


    def _zero_id(self) -> int | None:
        """The unigram id of the token ``0`` among the references (None: they have none)."""
        ids, _ = self.encoder.encode(["0"], grow=False)
        if len(ids) != 1 or ids[0] < 0 or self.space.size(1) == 0:
            return None
        token = self.remap[ids[0]]
        table = self.space._tables[0]
        at = int(np.searchsorted(table, token))
        return at if at < len(table) and table[at] == token else None


def information_weights(space: NgramSpace, corpus_counts: list[np.ndarray], total_words: float,
                        zero: int | None) -> list[np.ndarray]:
    """§2 Info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)) of every reference n-gram, per
    order; count() of the empty prefix is the number of reference words. ``zero``: the unigram id
    of the token ``0`` whose bigrams take the unigram rule (mteval-v13a.pl's quirk), or None."""
    info = []
    for n, counts in enumerate(corpus_counts, start=1):
        if n == 1:
            prefix = np.full(len(counts), total_words)
        else:
            ids = _prefix_ids(space, n)
            prefix = corpus_counts[n - 2][ids]
            if n == 2 and zero is not None:
                prefix = np.where(ids == zero, total_words, prefix)
        info.append(np.log2(prefix / counts) if len(counts) else np.zeros(0))
    return info


@dataclass(frozen=True)
class NISTSettings(Settings):
    """NIST's settings (:class:`NIST`'s arguments), validated once."""

    NAME: ClassVar[str] = "NIST"
    SIGNATURE: ClassVar[tuple[str, ...]] = ("nrefs", "case", "tok", "order", "quirk", "version")

    tokenize: str = setting("13a", key="tok", show=show_tokenizer,
                            references=True)
    lowercase: bool = setting(False, key="case", show=yes_no("lowercase", "lc", "mixed"),
                              references=True)
    max_order: int = setting(5, key="order", references=True)
    #: reproduce mteval-v13a.pl's information weight of bigrams starting with the token 0
    mteval_zero_quirk: bool = setting(True, key="quirk",
                                      show=lambda s: None if s.mteval_zero_quirk else "no",
                                      references=True)
    #: tokenize with the byte-span kernels (:mod:`mtscore.text.span_encoder`); False: line by
    #: line with the tokenizer itself (the rule)
    fast: bool = setting(True, speed=True)

    def validate(self) -> None:
        max_order = self.max_order
        if not isinstance(max_order, int) or isinstance(max_order, bool) \
                or not 1 <= max_order <= MAX_ORDER:
            raise OptionError("max_order", max_order,
                              detail=f"must be an integer from 1 to {MAX_ORDER}")
        check_tokenizer(self.tokenize)
        for name in ("lowercase", "mteval_zero_quirk", "fast"):
            self._set(name, bool(getattr(self, name)))


class NIST(Metric[NISTResult]):
    """NIST (mteval-v13a): ``extract`` / ``compute`` as in :mod:`mtscore.metrics.base`."""

    name = "nist"
    #: a segment's statistics depend on the whole reference corpus (§2 information weights)
    segment_independent = False
    settings: NISTSettings
    tokenizer: Tokenizer
    lowercase: bool
    max_order: int
    #: reproduce mteval-v13a.pl's information weight of bigrams starting with the token 0
    mteval_zero_quirk: bool
    #: tokenize with the byte-span kernels; False: line by line with the tokenizer (the rule)
    fast: bool

    def __init__(self, *, tokenize: str = "13a", lowercase: bool = False, max_order: int = 5,
                 mteval_zero_quirk: bool = True, fast: bool = True):
        self._configure(NISTSettings(tokenize=tokenize, lowercase=lowercase, max_order=max_order,
                                     mteval_zero_quirk=mteval_zero_quirk, fast=fast),
                        tokenizer=get_tokenizer(tokenize))

    def pair_kernel(self) -> tuple[Any, Any] | None:
        """Pairwise NIST by :mod:`mtscore.metrics.nist.pairwise`: each pair with the information
        weights of its own reference (tested equal to the definition, each pair scored alone)."""
        from . import pairwise as pairwise_nist

        return pairwise_nist.pair_scores, None

    @property
    def columns(self) -> tuple[str, ...]:
        N = range(1, self.max_order + 1)
        return ("hyp_len", "ref_len", *(f"info_{n}" for n in N), *(f"total_{n}" for n in N))

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> NISTReferences:
        """Tokenize the references and compute the information weights once."""
        return NISTReferences(self, refs, names)

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | NISTReferences) -> SegmentStats:
        """Per-segment ``hyp_len, ref_len, info_1..N, total_1..N``."""
        hyps, prep = checked_inputs(self, hyps, refs, NISTReferences)
        N, S = self.max_order, len(hyps)
        ids, lengths = prep.encoder.encode(hyps, grow=False)
        known = ids >= 0  # tokens no reference has stay -1
        enc = Encoded(np.where(known, prep.remap[np.where(known, ids, 0)], -1) if len(ids) else ids,
                      lengths)
        stats = np.zeros((S, 2 + 2 * N), dtype=np.float64)
        stats[:, 0] = enc.lengths
        stats[:, 1] = prep.ref_len
        for n, (seg, gid) in enumerate(prep.space.lookup(enc), start=1):
            size = prep.space.size(n)
            stats[:, 1 + N + n] = np.maximum(enc.lengths - (n - 1), 0)
            keys, counts = segment_counts(seg, gid, size)
            table_keys, table_counts = prep.clip_tables[n - 1]
            clipped = np.minimum(counts, lookup_counts(table_keys, table_counts, keys))
            weights = prep.info[n - 1][keys % max(size, 1)] if len(keys) else np.zeros(0)
            owner = keys // max(size, 1)
            stats[:, 1 + n] = np.bincount(owner, weights=clipped * weights, minlength=S)
        return SegmentStats(self.columns, stats, {"nrefs": prep.nrefs})

    def _parts(self, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        N = self.max_order
        if t.shape[1] != 2 + 2 * N:
            raise ValueError(f"NIST statistics have {2 + 2 * N} columns, got {t.shape[1]}")
        info, total = t[:, 2:2 + N], t[:, 2 + N:]
        precisions = info / np.maximum(total, 1.0)
        bp = brevity_factor(t[:, 0], t[:, 1])
        return precisions.sum(axis=1) * bp, precisions, bp

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        """NIST for each row of summed statistics."""
        return self._parts(totals)[0]

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> NISTResult:
        row = np.asarray(totals, dtype=np.float64)
        if row.ndim != 1:
            raise ValueError("compute takes one summed row; use scores() for many rows")
        score, prec, bp = self._parts(row)
        N = self.max_order
        return NISTResult(
            metric="NIST", score=float(score[0]), signature=self.signature(meta),
            precisions=tuple(float(p) for p in prec[0]), info=tuple(float(x) for x in row[2:2 + N]),
            totals=tuple(round(float(x)) for x in row[2 + N:]), bp=float(bp[0]),
            ratio=float(row[0] / row[1]) if row[1] else 0.0, hyp_len=round(float(row[0])),
            ref_len=float(row[1]))

    # ---- streaming (helper H6): the weights from a first pass over the whole reference corpus ----

    def reference_corpus(self, read_references: Callable[[], list[list[str | None]]]) -> NISTReferences:
        """§2: the information weights need every reference segment of the corpus, so the streamed
        chunks are scored against the whole prepared references (read once, in a first pass)."""
        return self.prepare_references(read_references())

    def prepare_chunk(self, refs: Sequence[Sequence[str | None]], corpus: Any, start: int
                      ) -> NISTReferences:
        """Segments ``start ..`` of the prepared corpus (:meth:`NISTReferences.segment_range`)."""
        return corpus.segment_range(start, start + len(refs[0]))


def corpus_nist(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], *, tokenize: str = "13a",
                lowercase: bool = False, max_order: int = 5,
                mteval_zero_quirk: bool = True) -> NISTResult:
    """Corpus NIST (Doddington, 2002) of ``hyps`` against reference streams ``refs``, as NIST's
    ``mteval-v13a.pl`` computes it (run with ``-c``, case preserved).

    Parameters:
        hyps: one hypothesis (a string) per segment.
        refs: reference streams: ``refs[k][i]`` is reference k of segment i (``None`` where a
            segment has fewer references).
        tokenize: ``13a`` (default: mteval's own tokenization), ``intl``, ``zh``, ``char``, ``none`` …
        lowercase: lowercase first (mteval's default without ``-c``).
        max_order: the largest n-gram order N (1 to 100; default 5).
        mteval_zero_quirk: reproduce the script's weight of bigrams that start with the token
            ``0`` (default True); False applies the paper's rule to them too.

    Returns:
        a :class:`NISTResult`: ``score``, per-order ``precisions`` (information per hypothesis
        n-gram), ``info``, ``totals``, brevity factor ``bp``, ``ratio``, lengths, ``signature``.

    Example:
        >>> lines = ["it ended 0 to 0 today", "nothing happened"]
        >>> corpus_nist(lines, [lines]).score  # mteval-v13a.pl: 3.75
        3.75
        >>> round(corpus_nist(lines, [lines], mteval_zero_quirk=False).score, 4)
        3.0833
    """
    metric = NIST(tokenize=tokenize, lowercase=lowercase, max_order=max_order,
                  mteval_zero_quirk=mteval_zero_quirk)
    return metric.corpus_score(hyps, refs)
