"""ROUGE (Lin, 2004): ROUGE-N, ROUGE-L and ROUGE-Lsum, exactly as rouge-score 0.1.2 computes them.

* :mod:`.rules`: the paper's rules, one function each (the specification);
* the corpus kernels, tested equal to the rules: :mod:`.token_join` (equal tokens and n-grams of
  every segment from stable sorts: ROUGE-N), :mod:`.lcs_lanes` (bit-parallel LCS after
  Allison–Dix and Hyyrö, every segment a lane of one Python integer: ROUGE-L), :mod:`.lsum_fast`
  (the union LCS of ROUGE-Lsum read back one row or column per step, on uint64 words) and
  :mod:`.lcs_int` (one pair on Python integers, for pairs of sentences both over 64 tokens);
* :mod:`.porter`: NLTK's Porter stemmer as rouge-score uses it, re-implemented (tested equal);
* :mod:`.tokenize`: rouge-score's tokenizer and Porter stemming, the opt-in Unicode tokenizers,
  ROUGE-Lsum's sentence splitter;
* :mod:`.settings`: the frozen settings (variant, type, stemmer, tokenizer, splitter, β,
  aggregation, multi-reference rule, measure);
* :mod:`.metric`: :class:`ROUGE` on the metric contract.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..settings import shared_metric
from .metric import ROUGE, ROUGEReferences, ROUGEResult, extract_types
from .settings import ROUGESettings

__all__ = ["ROUGE", "ROUGEReferences", "ROUGEResult", "ROUGESettings", "corpus_rouge",
           "extract_types", "rouge_scores", "sentence_rouge"]


def corpus_rouge(hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
                 rouge_type: str = "rougeL", **settings: Any) -> ROUGEResult:
    """Corpus ROUGE of one type: the mean over segments of P, R and F (``aggregation="mean"``).

    Parameters:
        hyps: one hypothesis (summary) per segment; for ``rougeLsum`` sentences are separated by
            ``\\n``.
        refs: reference streams: ``refs[k][i]`` is reference k of segment i (``None`` where a
            segment has fewer references).
        rouge_type: ``rouge1``, ``rouge2``, … (any N), ``rougeL`` or ``rougeLsum``.
        settings: the fields of :class:`ROUGESettings` (``stemmer``, ``tokenize``, ``beta``,
            ``aggregation``, ``multiref``, ``measure``, …) and ``fast``.

    Returns:
        a :class:`ROUGEResult`: ``score`` (F×100 by default), ``precision``, ``recall``,
        ``fmeasure`` (0–1) and the ``signature``.

    Example:
        >>> r = corpus_rouge(["the cat sat on the mat"], [["the cat is on the mat"]], "rouge1")
        >>> round(r.score, 2), round(r.precision, 4)
        (83.33, 0.8333)
    """
    return ROUGE(rouge_type, **settings).corpus_score(hyps, refs)


def sentence_rouge(hyp: str, refs: str | Sequence[str], rouge_type: str = "rougeL",
                   **settings: Any) -> ROUGEResult:
    """ROUGE of one hypothesis against one reference or a list of references (rouge-score's
    ``score``/``score_multi``)."""
    return shared_metric(ROUGE, rouge_type=rouge_type, **settings).sentence_score(hyp, refs)


def rouge_scores(hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
                 rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL", "rougeLsum"),
                 **settings: Any) -> dict[str, ROUGEResult]:
    """Several ROUGE types at once, as rouge-score's ``RougeScorer(rouge_types)``, the corpus
    tokenized once: type -> result."""
    metrics = [shared_metric(ROUGE, rouge_type=t, **settings) for t in rouge_types]
    return {m.rouge_type: m.compute(stats.total(), stats.meta)
            for m, stats in zip(metrics, extract_types(metrics, hyps, refs))}
