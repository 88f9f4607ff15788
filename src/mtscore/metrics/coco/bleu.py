"""BLEU-1..4 as coco-caption computes them (pycocoevalcap 1.2's ``Bleu(4)``).

Papineni et al. (2002)'s BLEU with coco-caption's choices:

* :func:`closest_ref_length` — the reference length closest to the hypothesis length, the
  shorter one on a tie (Papineni et al. §2.2.2's "best match length", per image);
* clipped n-gram counts against the per-n-gram maximum over the references (§2.1);
* :func:`coco_bleu_scores` — cumulative BLEU-1..N with coco-caption's epsilons: each precision is
  ``(correct + 1e-15) / (guess + 1e-9)``, the length ratio ``(hyp + 1e-15) / (ref + 1e-9)``, the
  brevity penalty ``exp(1 - 1/ratio)`` when the ratio is below 1; scores on a 0–1 scale.

Statistics (additive, per image): ``testlen, reflen, guess_1..N, correct_1..N``; the corpus score
is computed from their sums (coco-caption's corpus BLEU) and an image's score from its own row
(coco-caption's per-image BLEU).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from ...errors import OptionError
from ..base import Score, SegmentStats
from ..settings import Settings, setting
from .bleu_arrays import bleu_rows
from .common import CaptionTokenization, CocoMetric, check_tokenizer, show_coco_tokenizer
from .ngram_table import ImageNgrams

#: the highest order coco-caption's ``Bleu(4)`` counts: BLEU-1..4 share its statistics' layout
COCO_ORDER = 4
#: the highest order :class:`CocoBLEU` computes
MAX_ORDER = 9
TINY = 1e-15  # coco-caption's numerator epsilon ("so that if guess is 0 still return 0")
SMALL = 1e-9  # its denominator epsilon


@dataclass(frozen=True, repr=False)
class CocoBLEUResult(Score):
    """BLEU-``order`` as ``score`` (0–1), and BLEU-1..``order`` as ``bleus``."""

    bleus: tuple[float, ...]
    testlen: int
    reflen: int

    def __str__(self) -> str:
        parts = " ".join(f"B{k + 1} = {b:.4f}" for k, b in enumerate(self.bleus))
        return f"{self.metric} = {self.score:.4f} ({parts} testlen = {self.testlen} reflen = {self.reflen})"


def ngram_counts(words: Sequence[str], max_order: int) -> Counter[tuple[str, ...]]:
    """Counts of every n-gram of ``words``, n = 1..max_order."""
    counts: Counter[tuple[str, ...]] = Counter()
    for k in range(1, max_order + 1):  # n-grams of order k in text order, as coco's precook
        counts.update(zip(*(words[i:] for i in range(k))))
    return counts


def closest_ref_length(hyp_len: int, ref_lens: Sequence[int]) -> int:
    """The reference length closest to ``hyp_len``; on a tie, the shorter (coco-caption's
    ``min((abs(l - testlen), l))``)."""
    return min((abs(r - hyp_len), r) for r in ref_lens)[1]


def reference_maxima(refs: Sequence[str], max_order: int
                     ) -> tuple[dict[tuple[str, ...], int], list[int]]:
    """An image's references: each n-gram's largest count in one of them (the clipping counts,
    Papineni et al. §2.1), and their lengths (words split on white space)."""
    max_ref: dict[tuple[str, ...], int] = {}
    ref_lens = []
    for ref in refs:
        ref_words = ref.split()
        ref_lens.append(len(ref_words))
        for ngram, count in ngram_counts(ref_words, max_order).items():
            if count > max_ref.get(ngram, 0):
                max_ref[ngram] = count
    return max_ref, ref_lens


def hypothesis_row(hyp: str, max_ref: Mapping[tuple[str, ...], int], ref_lens: Sequence[int],
                   max_order: int) -> list[int]:
    """One image's statistics given its references' :func:`reference_maxima`."""
    words = hyp.split()
    correct = [0] * max_order
    for ngram, count in ngram_counts(words, max_order).items():
        correct[len(ngram) - 1] += min(max_ref.get(ngram, 0), count)
    guess = [max(0, len(words) - k + 1) for k in range(1, max_order + 1)]
    return [len(words), closest_ref_length(len(words), ref_lens), *guess, *correct]


def bleu_row(hyp: str, refs: Sequence[str], max_order: int) -> list[int]:
    """One image's statistics: ``testlen, reflen, guess_1..N, correct_1..N`` (words split on
    white space, as coco-caption's ``precook``)."""
    return hypothesis_row(hyp, *reference_maxima(refs, max_order), max_order)


def coco_bleu_scores(totals: np.ndarray, max_order: int) -> np.ndarray:
    """Cumulative BLEU-1..N (columns) for each row of summed statistics, coco-caption's formula
    and epsilons, its operations in its order (so equal to it to the last bits)."""
    t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
    testlen, reflen = t[:, 0], t[:, 1]
    guess, correct = t[:, 2:2 + max_order], t[:, 2 + max_order:2 + 2 * max_order]
    out = np.empty((t.shape[0], max_order))
    product = np.ones(t.shape[0])
    for k in range(max_order):
        product = product * ((correct[:, k] + TINY) / (guess[:, k] + SMALL))
        out[:, k] = product ** (1.0 / (k + 1))
    ratio = (testlen + TINY) / (reflen + SMALL)
    with np.errstate(divide="ignore", over="ignore"):
        penalty = np.where(ratio < 1, np.exp(1 - 1 / ratio), 1.0)
    short = ratio < 1
    out[short] = out[short] * penalty[short, None]
    return out


@dataclass(frozen=True)
class CocoBLEUSettings(Settings):
    """coco-bleu's settings (:class:`CocoBLEU`'s arguments), validated once; ``max_order`` (the
    highest order counted in the statistics: ``max(order, 4)``, coco-caption's layout) is derived."""

    NAME: ClassVar[str] = "coco-bleu"
    SIGNATURE: ClassVar[tuple[str, ...]] = (
        "n", "nrefs", "ref=closest-shorter", "smooth=coco-1e-15/1e-9", "tok", "version")

    #: the score: BLEU-``order`` (cumulative)
    order: int = setting(COCO_ORDER, key="n")
    #: ``coco`` (coco-caption's PTB tokenizer) or ``none`` (text tokenized already)
    tokenize: str = setting("coco", key="tok", show=show_coco_tokenizer, references=True)
    #: all images at once over arrays (:mod:`.bleu_arrays`); False: image by image
    #: (:func:`bleu_row`, the rule)
    fast: bool = setting(True, speed=True)
    #: the statistics count n-grams up to this order (derived: ``max(order, 4)``)
    max_order: int = field(init=False, default=COCO_ORDER)

    def validate(self) -> None:
        order = self.order
        if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= MAX_ORDER:
            raise OptionError("coco-bleu order", order,
                              detail=f"an n-gram order from 1 to {MAX_ORDER}")
        check_tokenizer(self.tokenize)
        self._set("max_order", max(order, COCO_ORDER))
        self._set("fast", bool(self.fast))


class CocoBLEU(CocoMetric[CocoBLEUResult]):
    """coco-caption's BLEU-``order`` (cumulative; 0–1 scale)."""

    name = "coco-bleu"
    settings: CocoBLEUSettings
    order: int
    max_order: int
    tokenize: str
    fast: bool

    def __init__(self, order: int = COCO_ORDER, *, tokenize: str = "coco", fast: bool = True,
                 tokenization: CaptionTokenization | None = None):
        settings = CocoBLEUSettings(order=order, tokenize=tokenize, fast=fast)
        self._configure(settings, max_order=settings.max_order)
        self._share(tokenization)

    @property
    def columns(self) -> tuple[str, ...]:
        n = range(1, self.max_order + 1)
        return ("testlen", "reflen", *(f"guess_{k}" for k in n), *(f"correct_{k}" for k in n))

    def extract_tokenized(self, hyps: Sequence[str], refs: Sequence[Sequence[str]],
                          nrefs: str = "var", ngrams: ImageNgrams | None = None) -> SegmentStats:
        """Statistics of hypotheses and per-image references already tokenized (``fast``: all
        images at once, :func:`.bleu_arrays.bleu_rows`, over ``ngrams`` if they are counted
        already; else image by image, :func:`bleu_row`)."""
        if not self.fast:
            rows = [bleu_row(h, r, self.max_order) for h, r in zip(hyps, refs, strict=True)]
            return self._statistics(rows, nrefs)
        if ngrams is None or not ngrams.covers(self.max_order):
            ngrams = ImageNgrams.of(hyps, refs, self.max_order)
        return self._statistics(bleu_rows(ngrams, self.max_order), nrefs)

    def _statistics(self, rows: list[list[int]] | np.ndarray, nrefs: str) -> SegmentStats:
        values = np.array(rows, dtype=np.int64).reshape(len(rows), len(self.columns))
        return SegmentStats(self.columns, values, {"nrefs": nrefs})

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        return coco_bleu_scores(totals, self.max_order)[:, self.order - 1]

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> CocoBLEUResult:
        row = np.asarray(totals)
        if row.ndim != 1:
            raise ValueError("compute takes one summed row; use compute_many for many rows")
        bleus = tuple(float(b) for b in coco_bleu_scores(row, self.max_order)[0])
        return CocoBLEUResult(metric=f"Bleu_{self.order}", score=bleus[self.order - 1],
                              signature=self.signature(meta), bleus=bleus[:self.order],
                              testlen=int(row[0]), reflen=int(row[1]))


def corpus_coco_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], order: int = 4,
                     *, tokenize: str = "coco") -> CocoBLEUResult:
    """coco-caption's corpus BLEU-``order`` (and the lower orders in ``bleus``).

    Example:
        >>> result = corpus_coco_bleu(["A dog runs on the grass."],
        ...                           [["A dog is running on the grass."], ["The dog runs."]])
        >>> round(result.score, 4), [round(b, 4) for b in result.bleus]
        (0.0001, [0.8465, 0.7571, 0.495, 0.0001])
    """
    return CocoBLEU(order, tokenize=tokenize).corpus_score(hyps, refs)
