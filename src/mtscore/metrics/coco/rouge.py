"""ROUGE-L as coco-caption computes it (pycocoevalcap 1.2's ``Rouge``).

Lin (2004)'s ROUGE-L (§3.1, sentence-level LCS) with coco-caption's choices:

* :func:`lcs_length` — the length of the longest common subsequence of two token lists;
* :func:`rouge_l_multi` — precision ``LCS / len(hypothesis)`` and recall ``LCS / len(reference)``
  against each reference, each maximized over the references *separately*, then
  ``F = (1 + β²) P R / (R + β² P)`` with β = 1.2 (0 if P or R is 0);
* tokens are the caption split on single spaces (``str.split(" ")``: an empty caption is one
  empty token, as in coco-caption).

Statistics (per image): ``rouge_l`` (the image's score) and ``images`` (1); the corpus score is
their mean, coco-caption's ``np.mean`` of the per-image scores.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...errors import OptionError
from ..base import Score, SegmentStats
from ..settings import Settings, setting
from .common import CaptionTokenization, CocoMetric, check_tokenizer, show_coco_tokenizer
from .lcs_bits import lcs_length_bits

BETA = 1.2  # coco-caption's β ("updated ... based on discussion with Hovey")


@dataclass(frozen=True, repr=False)
class CocoRougeResult(Score):
    """The mean per-image ROUGE-L (0–1) over ``images`` images."""

    images: int

    def __str__(self) -> str:
        return f"{self.metric} = {self.score:.4f} (images = {self.images})"


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of ``a`` and ``b`` (dynamic programming)."""
    if len(a) < len(b):
        a, b = b, a
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def rouge_l_multi(hyp: str, refs: Sequence[str], beta: float = BETA,
                  lcs: Callable[[Sequence[str], Sequence[str]], int] = lcs_length) -> float:
    """One image's ROUGE-L: P and R each maximized over the references, then F_β (``lcs``:
    :func:`lcs_length`, or its bit-parallel equal)."""
    hyp_tokens = hyp.split(" ")
    precisions, recalls = [], []
    for ref in refs:
        ref_tokens = ref.split(" ")
        common = lcs(ref_tokens, hyp_tokens)
        precisions.append(common / float(len(hyp_tokens)))
        recalls.append(common / float(len(ref_tokens)))
    p, r = max(precisions), max(recalls)
    if p != 0 and r != 0:
        return ((1 + beta ** 2) * p * r) / float(r + beta ** 2 * p)
    return 0.0


@dataclass(frozen=True)
class CocoRougeLSettings(Settings):
    """coco-rouge-l's settings (:class:`CocoRougeL`'s arguments), validated once."""

    NAME: ClassVar[str] = "coco-rouge-l"
    SIGNATURE: ClassVar[tuple[str, ...]] = ("nrefs", "beta", "best=max-p-max-r", "tok", "version")

    #: F's β (coco-caption's 1.2)
    beta: float = setting(BETA, key="beta", show=lambda s: f"{s.beta:g}")
    #: ``coco`` (coco-caption's PTB tokenizer) or ``none`` (text tokenized already)
    tokenize: str = setting("coco", key="tok", show=show_coco_tokenizer, references=True)
    #: the bit-parallel LCS (:mod:`.lcs_bits`); False: the dynamic programme (the rule)
    fast: bool = setting(True, speed=True)

    def validate(self) -> None:
        self._set("fast", bool(self.fast))
        beta = self.beta
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not beta > 0 \
                or not math.isfinite(beta):
            raise OptionError("ROUGE-L beta", beta, detail="a positive number")
        check_tokenizer(self.tokenize)
        self._set("beta", float(beta))


class CocoRougeL(CocoMetric[CocoRougeResult]):
    """coco-caption's ROUGE-L (β = 1.2; P and R maxed over the references)."""

    name = "coco-rouge-l"
    columns = ("rouge_l", "images")
    settings: CocoRougeLSettings
    beta: float
    tokenize: str
    fast: bool

    def __init__(self, *, beta: float = BETA, tokenize: str = "coco", fast: bool = True,
                 tokenization: CaptionTokenization | None = None):
        self._configure(CocoRougeLSettings(beta=beta, tokenize=tokenize, fast=fast))
        self._share(tokenization)

    def extract_tokenized(self, hyps: Sequence[str], refs: Sequence[Sequence[str]],
                          nrefs: str = "var") -> SegmentStats:
        """Statistics of hypotheses and per-image references already tokenized."""
        lcs = lcs_length_bits if self.fast else lcs_length
        scores = [rouge_l_multi(h, r, self.beta, lcs) for h, r in zip(hyps, refs, strict=True)]
        values = np.column_stack([np.asarray(scores, dtype=np.float64), np.ones(len(scores))])
        return SegmentStats(self.columns, values.reshape(len(scores), 2), {"nrefs": nrefs})

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(t[:, 1] > 0, t[:, 0] / np.where(t[:, 1] > 0, t[:, 1], 1.0), 0.0)

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> CocoRougeResult:
        row = np.asarray(totals, dtype=np.float64)
        if row.ndim != 1:
            raise ValueError("compute takes one summed row; use compute_many for many rows")
        return CocoRougeResult(metric="ROUGE_L", score=float(self.compute_many(row)[0]),
                               signature=self.signature(meta), images=int(row[1]))


def corpus_coco_rouge_l(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], *,
                        tokenize: str = "coco") -> CocoRougeResult:
    """coco-caption's ROUGE-L: the mean of the per-image scores."""
    return CocoRougeL(tokenize=tokenize).corpus_score(hyps, refs)
