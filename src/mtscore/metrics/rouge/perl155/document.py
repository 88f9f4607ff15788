"""Per-document ROUGE-1.5.5 statistics: one row per (peer, models) evaluation, as ``computeROUGEX``.

A row holds the additive counts the script keeps for ``-t 1`` (model total, peer total, hit) and the
per-document recall, precision and F it keeps for ``-t 0`` -- rounded to 5 decimals, as the script
rounds them (``sprintf("%7.5f")``) before averaging, with F computed from the rounded R and P.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from .counts import Gram, clipped_hits, ngram_counts, skip_bigram_counts
from .lcs import lcs_hits, wlcs_hits
from .options import Perl155Options, RougeType
from .text import lcs_sentences, peer_text, tokens

COLUMNS: tuple[str, ...] = ("model_total", "peer_total", "hit", "recall", "precision", "f")
"""The columns of a row. The first three are additive (``-t 1`` pools them); the last three are the
per-document scores (``-t 0`` averages them)."""


def round5(value: float) -> float:
    """``sprintf("%7.5f", value)`` read back as a number."""
    return float(f"{value:.5f}")


def document_scores(model_total: float, peer_total: float, hit: float, alpha: float,
                    weight: float | None = None) -> tuple[float, float, float]:
    """R = hit/model total, P = hit/peer total (0 when the total is 0; ROUGE-W takes the
    1/weight-th power), each rounded to 5 decimals, and F = R·P / ((1-α)·P + α·R) of the rounded
    values, rounded (0 when the denominator is 0)."""

    def ratio(total: float) -> float:
        if total == 0:
            return 0.0
        value = hit / total
        return round5(value ** (1 / weight) if weight is not None else value)

    recall, precision = ratio(model_total), ratio(peer_total)
    denominator = (1 - alpha) * precision + alpha * recall
    f = round5(precision * recall / denominator) if denominator > 0 else 0.0
    return recall, precision, f


def _gram_totals(peer: list[str], models: Sequence[list[str]],
                 count: Callable[[list[str]], tuple[Counter[Gram], int]],
                 formula: str) -> tuple[int, int, int]:
    """``computeNGramScore``/``computeSkipBigramScore``: -f A sums (model total, peer total, hit) over
    the models (the peer total once per model); -f B keeps the first model with the highest recall
    rounded to 5 decimals (a model without grams scores 0)."""
    peer_grams, peer_count = count(peer)
    totals = (0, 0, 0)
    best = -1.0
    for model in models:
        model_grams, model_count = count(model)
        hit = clipped_hits(model_grams, peer_grams)
        if formula == "A":
            totals = (totals[0] + model_count, totals[1] + peer_count, totals[2] + hit)
            continue
        score = round5(hit / model_count) if model_count else 0.0
        if score > best:
            best, totals = score, (model_count, peer_count, hit)
    return totals


def _lcs_totals(peer: str, models: Sequence[str], rtype: RougeType,
                options: Perl155Options) -> tuple[float, float, float]:
    """``computeLCSScore``/``computeWLCSScore``: per model, the union-LCS hit with unigram clipping
    (unigrams from the n-gram reading of the texts, ``peer_text``); -f A sums, -f B keeps the first
    model with the highest unrounded score. ROUGE-W adds base^weight and (peer tokens)^weight, as the
    script does (its base is already a sum of sentence-length^weight)."""
    peer_sents = [tokens(s, options) for s in lcs_sentences(peer, options)]
    peer_1grams = Counter(tokens(peer_text(peer, options), options))
    peer_count = sum(peer_1grams.values())
    totals: tuple[float, float, float] = (0, 0, 0)
    best = -1.0
    for model in models:
        model_sents = [tokens(s, options) for s in lcs_sentences(model, options)]
        model_1grams = Counter(tokens(peer_text(model, options), options))
        if rtype.kind == "L":
            lcs_hit, lcs_base = lcs_hits(model_sents, peer_sents, model_1grams, Counter(peer_1grams))
            hit = float(lcs_hit)
            score = hit / lcs_base if lcs_base > 0 else 0.0
            model_total, peer_total = float(lcs_base), float(peer_count)
        else:
            w = rtype.weight
            hit, base = wlcs_hits(model_sents, peer_sents, w, model_1grams, Counter(peer_1grams))
            if base == 0:
                raise ValueError("ROUGE-1.5.5: ROUGE-W of an empty model summary (the script dies: "
                                 "illegal division by zero)")
            score = (hit / base) ** (1 / w)
            model_total, peer_total = base**w, float(peer_count) ** w
        if options.formula == "A":
            totals = (totals[0] + model_total, totals[1] + peer_total, totals[2] + hit)
        elif score > best:
            best, totals = score, (model_total, peer_total, hit)
    return totals


def document_row(peer: str, models: Sequence[str], rtype: RougeType,
                 options: Perl155Options) -> tuple[float, float, float, float, float, float]:
    """The row (``COLUMNS``) of one evaluation: ``peer`` and each of ``models`` are summaries with one
    sentence per line (``\\n``), as the script's SPL files."""
    if not models:
        raise ValueError("ROUGE-1.5.5: an evaluation needs at least one model summary")
    if rtype.kind in ("L", "W"):
        totals = _lcs_totals(peer, models, rtype, options)
    else:
        if rtype.kind == "N":
            def count(toks: list[str]) -> tuple[Counter[Gram], int]:
                return ngram_counts(toks, rtype.n)
        else:
            def count(toks: list[str]) -> tuple[Counter[Gram], int]:
                return skip_bigram_counts(toks, rtype.skip, rtype.kind == "SU")
        model_tokens = [tokens(peer_text(model, options), options) for model in models]
        totals = _gram_totals(tokens(peer_text(peer, options), options), model_tokens, count, options.formula)
    weight = rtype.weight if rtype.kind == "W" else None
    return (*totals, *document_scores(*totals, options.alpha, weight))


def document_rows(peers: Sequence[str], models: Sequence[Sequence[str]], rtype: RougeType,
                  options: Perl155Options) -> np.ndarray:
    """One row per document (float64 array, ``len(peers)`` x ``len(COLUMNS)``); ``models[i]`` are the
    model summaries (references) of document i."""
    if len(peers) != len(models):
        raise ValueError(f"ROUGE-1.5.5: {len(peers)} peer summaries but {len(models)} lists of models")
    rows = np.zeros((len(peers), len(COLUMNS)), dtype=np.float64)
    for i, (peer, doc_models) in enumerate(zip(peers, models)):
        rows[i] = document_row(peer, doc_models, rtype, options)
    return rows
