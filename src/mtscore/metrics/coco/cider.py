"""CIDEr-D as coco-caption computes it (pycocoevalcap 1.2's ``Cider``).

Vedantam et al. (2015), CIDEr-D (§3.1 and §4.4 "CIDEr-D"), with coco-caption's code's choices:

* :func:`tfidf_vectors` — each n-gram (n = 1..4) of a caption weighted by its count times
  ``log(|I|) - log(max(1, df))`` (tf-idf; ``df`` from :mod:`.document_frequency`), one vector and
  one norm per n;
* :func:`clipped_similarity` — per n, ``Σ min(h, r) · r`` over the hypothesis's n-grams (the
  clipping of CIDEr-D), divided by the norms when both are non-zero, times the Gaussian length
  penalty ``exp(-δ² / 2σ²)``, σ = 6, where δ is the difference of the captions' *bigram* counts
  (the code's length; one less than the word count, for non-empty captions);
* :func:`cider_d` — the similarities summed over the references, averaged over n, divided by the
  number of references, × 10.

The document frequencies depend on the whole scored set, which does not fit additive statistics as
such. mtscore computes them first, as a *setting* of the statistics (recorded in the signature:
``df:corpus(N)``), from the scored set's references as coco-caption does, or loads them from a file
(``df_file``, training references); given them, an image's statistic is its own CIDEr-D score,
the corpus score is the mean of the images', and resampling (bootstrap, paired tests) keeps the
frequencies of the full set fixed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from ...errors import InputError, OptionError
from ...version import __version__
from ..base import Score, SegmentStats, checked_inputs
from ..settings import Settings, setting
from .bleu import ngram_counts
from .cider_arrays import cider_d_scores
from .common import (
    TOKENIZER_SIGNATURES,
    CaptionTokenization,
    CocoMetric,
    CocoReferences,
    check_tokenizer,
    tokenized,
)
from .document_frequency import DocumentFrequency
from .ngram_table import ImageNgrams

SIGMA = 6.0
#: where CIDEr's document frequencies come from: a file, the object, or None (the scored set)
DFSource = str | Path | DocumentFrequency | None
Vectors = tuple[list[dict[tuple[str, ...], float]], list[float], int]


@dataclass(frozen=True, repr=False)
class CIDErResult(Score):
    """The mean per-image CIDEr-D (0–10 scale) over ``images`` images."""

    images: int

    def __str__(self) -> str:
        return f"{self.metric} = {self.score:.4f} (images = {self.images})"


def tfidf_vectors(caption: str, df: DocumentFrequency, max_order: int) -> Vectors:
    """Per n, the caption's tf-idf vector and its norm; and its bigram count (the length)."""
    vec: list[dict[tuple[str, ...], float]] = [{} for _ in range(max_order)]
    norm = [0.0] * max_order
    length = 0
    known, counts, log_images = df.idf_cache(), df.counts, df.log_images()
    log = math.log
    for ngram, tf in ngram_counts(caption.split(), max_order).items():
        n = len(ngram) - 1
        idf = known.get(ngram)
        if idf is None:  # (df.idf, inline)
            idf = known[ngram] = log_images - log(max(1.0, float(counts.get(ngram, 0))))
        weight = float(tf) * idf
        vec[n][ngram] = weight
        norm[n] += weight ** 2
        if n == 1:
            length += tf
    return vec, [math.sqrt(v) for v in norm], length


def clipped_similarity(hyp: Vectors, ref: Vectors, sigma: float = SIGMA) -> np.ndarray:
    """Per n, the clipped cosine similarity of hypothesis and reference times the length penalty."""
    return np.array(_clipped_similarity(hyp, ref, sigma))


def _clipped_similarity(hyp: Vectors, ref: Vectors, sigma: float) -> list[float]:
    """:func:`clipped_similarity` as Python floats (the same operations in the same order)."""
    vec_h, norm_h, len_h = hyp
    vec_r, norm_r, len_r = ref
    delta = float(len_h - len_r)
    penalty = np.e ** (-(delta ** 2) / (2 * sigma ** 2))
    out = []
    for n, (ngrams_h, ngrams_r) in enumerate(zip(vec_h, vec_r)):
        val = 0.0
        get = ngrams_r.get
        for ngram, weight in ngrams_h.items():
            r = get(ngram, 0.0)
            val += min(weight, r) * r
        if norm_h[n] != 0 and norm_r[n] != 0:
            val /= norm_h[n] * norm_r[n]
        out.append(val * penalty)
    return out


def cider_d(hyp: str, refs: Sequence[str], df: DocumentFrequency, max_order: int = 4,
            sigma: float = SIGMA) -> float:
    """One image's CIDEr-D: similarities summed over references, mean over n, / refs, × 10."""
    return cider_d_of_vectors(tfidf_vectors(hyp, df, max_order),
                              [tfidf_vectors(ref, df, max_order) for ref in refs], max_order, sigma)


def cider_d_of_vectors(vec_h: Vectors, vec_refs: Sequence[Vectors], max_order: int = 4,
                       sigma: float = SIGMA) -> float:
    """:func:`cider_d` given the :func:`tfidf_vectors` of the hypothesis and of each reference."""
    score = [0.0] * max_order
    for vec_r in vec_refs:
        for n, value in enumerate(_clipped_similarity(vec_h, vec_r, sigma)):
            score[n] += value
    return float(np.mean(score) / len(vec_refs) * 10.0)


class CIDErReferences(CocoReferences):
    """Tokenized references and the document frequencies they are scored with (``own_df``:
    theirs, as coco-caption counts them)."""

    df: DocumentFrequency
    own_df: bool = False


@dataclass(frozen=True)
class CIDErSettings(Settings):
    """cider-d's settings (:class:`CIDErD`'s arguments), validated once. The document frequencies
    are a fact of the statistics (``df`` in their meta: ``corpus(N)``, the scored set's, or the
    file's ``NAME@sha(N)``); ``frequencies`` (derived) holds the file's, loaded once."""

    NAME: ClassVar[str] = "cider-d"
    SIGNATURE: ClassVar[tuple[str, ...]] = (
        "n", "nrefs", "df", "sigma", "clip=yes", "tok", "version")
    FACTS: ClassVar[Mapping[str, tuple[str, str | None]]] = MappingProxyType(
        {"nrefs": ("nrefs", "?"), "df": ("df", None)})

    #: saved document frequencies (a file, or the object); None: the scored set's references
    df_file: DFSource = setting(None, references=True)  # noqa: RUF009 (a field(), as every setting)
    #: σ of the Gaussian length penalty
    sigma: float = setting(SIGMA, key="sigma", show=lambda s: f"{s.sigma:g}")
    #: n-grams of orders 1..max_order
    max_order: int = setting(4, key="n", references=True)
    #: ``coco`` (coco-caption's PTB tokenizer) or ``none`` (text tokenized already)
    tokenize: str = setting("coco", key="tok",
                            show=lambda s: TOKENIZER_SIGNATURES[s.tokenize], references=True)
    #: all images at once over arrays (:mod:`.cider_arrays`); False: image by image
    #: (:func:`cider_d`, the rule)
    fast: bool = setting(True, speed=True)
    #: the frequencies of ``df_file`` (derived: loaded once)
    frequencies: DocumentFrequency | None = field(init=False, default=None, compare=False,
                                                  repr=False)

    def validate(self) -> None:
        sigma, max_order = self.sigma, self.max_order
        if isinstance(sigma, bool) or not isinstance(sigma, (int, float)) or not sigma > 0 \
                or not math.isfinite(sigma):
            raise OptionError("CIDEr sigma", sigma, detail="a positive number")
        if isinstance(max_order, bool) or not isinstance(max_order, int) or not 1 <= max_order <= 9:
            raise OptionError("CIDEr max order", max_order, detail="1 to 9")
        check_tokenizer(self.tokenize)
        self._set("sigma", float(sigma))
        self._set("fast", bool(self.fast))
        df = self.df_file
        frequencies = df if isinstance(df, DocumentFrequency) or df is None \
            else DocumentFrequency.load(df)
        if frequencies is not None and frequencies.max_order < max_order:
            raise InputError(f"the document frequencies count n-grams up to "
                             f"{frequencies.max_order}, CIDEr needs {max_order}")
        self._set("frequencies", frequencies)

    def reference_key(self) -> tuple[object, ...]:
        """The tokenizer, the orders and the frequencies (their signature) the prepared
        references carry."""
        df = None if self.frequencies is None else self.frequencies.signature()
        return (type(self).__qualname__, self.tokenize, self.max_order, df)

    def signature_fields(self, meta: Mapping[str, object] | None = None) -> list[tuple[str, object]]:
        """The fields in :attr:`SIGNATURE`'s order; ``df``: the statistics' (``corpus(N)``, or
        the file's), else the file's, else ``corpus``."""
        meta = meta or {}
        df = meta.get("df") or (self.frequencies.signature() if self.frequencies is not None
                                else "corpus")
        return [("n", self.max_order), ("nrefs", meta.get("nrefs", "?")), ("df", df),
                ("sigma", f"{self.sigma:g}"), ("clip", "yes"),
                ("tok", TOKENIZER_SIGNATURES[self.tokenize]), ("version", __version__)]


class CIDErD(CocoMetric[CIDErResult]):
    """coco-caption's CIDEr-D; ``df_file``: saved document frequencies (default: the scored
    set's references, as coco-caption)."""

    name = "cider-d"
    columns = ("cider", "images")
    settings: CIDErSettings
    df_file: str | Path | DocumentFrequency | None
    sigma: float
    max_order: int
    tokenize: str
    fast: bool
    #: the frequencies of ``df_file`` (None: the scored set's references)
    df: DocumentFrequency | None

    def __init__(self, *, df_file: str | Path | DocumentFrequency | None = None,
                 sigma: float = SIGMA, max_order: int = 4, tokenize: str = "coco",
                 fast: bool = True, tokenization: CaptionTokenization | None = None):
        settings = CIDErSettings(df_file=df_file, sigma=sigma, max_order=max_order,
                                 tokenize=tokenize, fast=fast)
        self._configure(settings, df=settings.frequencies)
        self._share(tokenization)

    @property
    def segment_independent(self) -> bool:  # type: ignore[override]
        """With saved document frequencies a segment's statistics are its own; without, the idf
        comes from the whole scored set's references (so a pairwise entry scores its pair alone,
        as :mod:`mtscore.metrics.pairwise` defines it)."""
        return self.df is not None

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> CIDErReferences:
        prep = CIDErReferences(self, refs, names)
        prep.df = self.df if self.df is not None else DocumentFrequency.of_references(
            prep.refs, self.max_order, TOKENIZER_SIGNATURES[self.tokenize])
        prep.own_df = self.df is None
        return prep

    def reference_corpus(self, read_references: Any) -> DocumentFrequency | None:
        """Streaming: the document frequencies of the whole reference corpus (read once, in a
        first pass), so that every chunk is scored with them; None when a file gives them."""
        if self.df is not None:
            return None
        return self.prepare_references(read_references()).df

    def prepare_chunk(self, refs: Sequence[Sequence[str | None]], corpus: Any,
                      start: int) -> CIDErReferences:
        """One chunk's references, with the whole corpus's document frequencies."""
        prep = CIDErReferences(self, refs)
        prep.df = corpus if corpus is not None else self.document_frequency(prep.refs)
        return prep

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | CocoReferences) -> SegmentStats:
        """As :meth:`CocoMetric.extract`, with the document frequencies (prepared references must
        be CIDEr-D's own, :class:`CIDErReferences`)."""
        hyps, prep = checked_inputs(self, hyps, refs, CIDErReferences)
        # (the arrays count the references' own frequencies themselves)
        df = None if self.fast and prep.own_df else prep.df
        return self.extract_tokenized(tokenized(self, hyps), prep.refs, prep.nrefs, df)

    def document_frequency(self, refs: Sequence[Sequence[str]]) -> DocumentFrequency:
        """The frequencies tokenized references ``refs[i]`` are scored with (the file's, if one
        was given, else theirs)."""
        return self.df if self.df is not None else DocumentFrequency.of_references(
            refs, self.max_order, TOKENIZER_SIGNATURES[self.tokenize])

    def extract_tokenized(self, hyps: Sequence[str], refs: Sequence[Sequence[str]],
                          nrefs: str = "var", df: DocumentFrequency | None = None,
                          ngrams: ImageNgrams | None = None) -> SegmentStats:
        """Statistics of tokenized hypotheses and per-image references (``df``: the document
        frequencies; default :meth:`document_frequency` of ``refs``). ``fast``: all images at once
        (:func:`.cider_arrays.cider_d_scores`, over ``ngrams`` if they are counted already);
        else image by image (:func:`cider_d`)."""
        df = df if df is not None else self.df
        if self.fast:
            if ngrams is None or not ngrams.covers(self.max_order):
                ngrams = ImageNgrams.of(hyps, refs, self.max_order)
            signature = df.signature() if df is not None \
                else DocumentFrequency.signature_of(len(refs))
            return self._statistics(cider_d_scores(ngrams, self.max_order, self.sigma, df), nrefs,
                                    signature)
        df = df if df is not None else self.document_frequency(refs)
        scores = [cider_d(h, r, df, self.max_order, self.sigma)
                  for h, r in zip(hyps, refs, strict=True)]
        return self._statistics(scores, nrefs, df.signature())

    def _statistics(self, scores: list[float] | np.ndarray, nrefs: str,
                    df_signature: str) -> SegmentStats:
        values = np.column_stack([np.asarray(scores, dtype=np.float64), np.ones(len(scores))])
        return SegmentStats(self.columns, values.reshape(len(scores), 2),
                            {"nrefs": nrefs, "df": df_signature})

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(t[:, 1] > 0, t[:, 0] / np.where(t[:, 1] > 0, t[:, 1], 1.0), 0.0)

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> CIDErResult:
        row = np.asarray(totals, dtype=np.float64)
        if row.ndim != 1:
            raise ValueError("compute takes one summed row; use compute_many for many rows")
        return CIDErResult(metric="CIDEr", score=float(self.compute_many(row)[0]),
                           signature=self.signature(meta), images=int(row[1]))


def corpus_cider_d(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], *,
                   df_file: Any = None, tokenize: str = "coco") -> CIDErResult:
    """coco-caption's CIDEr-D: the mean of the per-image scores (``df_file``: saved document
    frequencies; default: the references given)."""
    return CIDErD(df_file=df_file, tokenize=tokenize).corpus_score(hyps, refs)
