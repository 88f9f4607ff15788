"""Per-segment ROUGE counts (hits, hypothesis total, reference total) of one reference stream, by
the rules of :mod:`.rules` segment by segment (``fast=False``) or by the corpus kernels of
:mod:`.token_join` (ROUGE-N), :mod:`.lcs_lanes` (ROUGE-L) and :mod:`.lsum_fast` (ROUGE-Lsum) (the
default; tested equal)."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import lcs_int, lcs_lanes, lsum_fast, rules
from .corpus import EncodedTexts
from .token_join import Join, Layout, Runs, join, layout, ngram_hits, subset_hits, subset_runs, unigram_runs

Counts = tuple[np.ndarray, np.ndarray, np.ndarray]


def by_rules(rouge_type: str, hyp: EncodedTexts, ref: EncodedTexts) -> Counts:
    """The rules of :mod:`.rules`, one segment at a time."""
    if rouge_type == "rougeLsum":
        rows = [rules.rouge_lsum(h, r) for h, r in zip(hyp.sentence_lists(), ref.sentence_lists())]
    elif rouge_type == "rougeL":
        rows = [rules.rouge_l(h, r) for h, r in zip(hyp.token_lists(), ref.token_lists())]
    else:
        n = int(rouge_type[5:])
        rows = [rules.rouge_n(h, r, n) for h, r in zip(hyp.token_lists(), ref.token_lists())]
    return _columns(rows)


def by_segments(rouge_type: str, hyp: EncodedTexts, ref: EncodedTexts) -> Counts:
    """One segment at a time in Python, for a sentence or a few, where the numpy kernels' fixed
    cost would be the whole call: ROUGE-L (and ROUGE-Lsum of one sentence a side,
    :func:`single_sentences`) by :func:`.lcs_int.lcs_length` (bit-parallel, equal to the rule's
    table), the other types by their rules (:func:`by_rules`)."""
    if rouge_type != "rougeL" and not (rouge_type == "rougeLsum" and single_sentences(hyp, ref)):
        return by_rules(rouge_type, hyp, ref)
    return _columns([(lcs_int.lcs_length(r, h) if h and r else 0, len(h), len(r))
                     for h, r in zip(hyp.token_lists(), ref.token_lists())])


def _columns(rows: list[tuple[int, int, int]]) -> Counts:
    """Per-segment (hits, hypothesis total, reference total) rows as the three count columns."""
    out = np.array(rows, dtype=np.int64).reshape(len(rows), 3)
    return out[:, 0], out[:, 1], out[:, 2]


def single_sentences(hyp: EncodedTexts, ref: EncodedTexts) -> bool:
    """Whether every segment has at most one sentence on each side: ROUGE-Lsum's union is then
    the LCS itself, whose tokens (a common subsequence) rouge-score's clipping never cuts, so its
    hits are the LCS length."""
    assert hyp.sentence_counts is not None and ref.sentence_counts is not None
    return bool(((hyp.sentence_counts <= 1) & (ref.sentence_counts <= 1)).all())


def by_kernels(rouge_type: str, hyp: EncodedTexts, ref: EncodedTexts,
               lcs: dict[str, Any] | None = None, later: frozenset[str] | None = None) -> Counts:
    """The numpy kernels, the whole corpus at once; ``lcs`` remembers, for the next type, the equal
    tokens of this hypothesis and reference (ROUGE-1 and the LCS read them) and the LCS lengths
    (ROUGE-L, and ROUGE-Lsum of single sentences). ``later``: the entries of ``lcs`` that the
    types still to come read (:func:`reads`); the others are let go once this type has read them
    (None: all are kept)."""
    if rouge_type == "rougeLsum":
        out = lsum_counts(hyp, ref, lcs, later)
    elif rouge_type == "rougeL":
        out = lcs_lengths(hyp, ref, lcs), hyp.lengths.copy(), ref.lengths.copy()
    elif rouge_type == "rouge1":  # the runs' hits: the matches are found when an LCS needs them
        out = _runs(hyp, ref, lcs).hits, hyp.lengths.copy(), ref.lengths.copy()
    else:
        n = int(rouge_type[5:])
        hits = ngram_hits(_layout(hyp, ref, lcs), n, _runs(hyp, ref, lcs))
        out = hits, np.maximum(hyp.lengths - n + 1, 0), np.maximum(ref.lengths - n + 1, 0)
    forget(lcs, later)
    return out


def reads(rouge_type: str) -> frozenset[str]:
    """The entries of :func:`by_kernels`' ``lcs`` that a type reads."""
    if rouge_type in ("rougeL", "rougeLsum"):
        return frozenset(("layout", "runs", "join", "lengths"))
    return frozenset(("layout", "runs"))


def forget(lcs: dict[str, Any] | None, later: frozenset[str] | None) -> None:
    """Let go of the entries of ``lcs`` not in ``later`` (None: keep all): the layout, its runs
    and the matches are the largest arrays of a call, and the heap a call touches at its peak is
    what it faults in again after glibc has trimmed it."""
    if lcs is not None and later is not None:
        for key in [k for k in lcs if k not in later]:
            del lcs[key]


def _layout(hyp: EncodedTexts, ref: EncodedTexts, lcs: dict[str, Any] | None) -> Layout:
    """Every segment's reference (a) and hypothesis (b) tokens laid out and sorted by id, for
    ROUGE-N and the LCS (remembered in ``lcs``)."""
    if lcs is not None and "layout" in lcs:
        return lcs["layout"]
    out = layout(ref.ids, ref.lengths, hyp.ids, hyp.lengths)
    if lcs is not None:
        lcs["layout"] = out
    return out


def _join(hyp: EncodedTexts, ref: EncodedTexts, lcs: dict[str, Any] | None) -> Join:
    """The equal tokens of every segment's reference (a) and hypothesis (b), remembered in
    ``lcs``."""
    if lcs is not None and "join" in lcs:
        return lcs["join"]
    out = join(_layout(hyp, ref, lcs), _runs(hyp, ref, lcs))
    if lcs is not None:
        lcs["join"] = out
    return out


def _runs(hyp: EncodedTexts, ref: EncodedTexts, lcs: dict[str, Any] | None) -> Runs:
    """The (token, segment) runs of the layout (remembered in ``lcs``)."""
    if lcs is not None and "runs" in lcs:
        return lcs["runs"]
    out = unigram_runs(_layout(hyp, ref, lcs))
    if lcs is not None:
        lcs["runs"] = out
    return out


def lcs_lengths(hyp: EncodedTexts, ref: EncodedTexts,
                lcs: dict[str, Any] | None = None) -> np.ndarray:
    """LCS length of every segment's reference and hypothesis (remembered in ``lcs``):
    :func:`.lcs_lanes.lcs_of_matches`, every segment a lane of one Python integer."""
    if lcs is not None and "lengths" in lcs:
        return lcs["lengths"]
    j = _join(hyp, ref, lcs)
    out = lcs_lanes.lcs_of_matches(ref.lengths, hyp.lengths, j.pair, j.row, j.col)
    if lcs is not None:
        lcs["lengths"] = out
    return out


def _sentence_pairs(hyp: EncodedTexts, ref: EncodedTexts
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (reference sentence, hypothesis sentence) of the same segment, as global sentence
    indices, reference sentences in order; and each reference sentence's first pair and each
    segment's first hypothesis sentence."""
    assert hyp.sentence_counts is not None and ref.sentence_counts is not None
    rc, hc = ref.sentence_counts, hyp.sentence_counts
    ref_doc = np.repeat(np.arange(len(rc)), rc)
    per_ref = hc[ref_doc]
    pair_ref = np.repeat(np.arange(len(ref_doc)), per_ref)
    first_pair = np.cumsum(per_ref) - per_ref
    hyp_first = np.cumsum(hc) - hc
    pair_hyp = hyp_first[ref_doc][pair_ref] + np.arange(len(pair_ref)) - first_pair[pair_ref]
    return pair_ref, pair_hyp, first_pair, hyp_first


def lsum_counts(hyp: EncodedTexts, ref: EncodedTexts, lcs: dict[str, Any] | None = None,
                later: frozenset[str] | None = None) -> Counts:
    """:func:`.rules.rouge_lsum` for every segment: the union LCS of each reference sentence with
    the segment's hypothesis sentences (:func:`.lsum_fast.union_marks`), then the union tokens'
    counts clipped by the hypothesis's counts (rouge-score's clipping: a union token counts while
    the hypothesis has an unused occurrence; the reference's own count never binds, as the union
    positions of a token are distinct occurrences of it). When every segment has one sentence on
    each side, the union is the LCS itself, and its tokens (a common subsequence) are never cut by
    the clipping: hits = the LCS length. Once the match masks are read, the entries of ``lcs`` not
    in ``later`` (:func:`by_kernels`) are let go as soon as they are read (the layout and its runs
    once the matches are found, the matches once the masks are read from them): the clipping needs
    only the runs' :class:`~.token_join.SubsetRuns`."""
    if single_sentences(hyp, ref):  # the union is one LCS, which no clipping can cut
        return lcs_lengths(hyp, ref, lcs), hyp.lengths.copy(), ref.lengths.copy()
    memo, keep = ({}, frozenset()) if lcs is None else (lcs, later)
    runs = subset_runs(_layout(hyp, ref, memo), _runs(hyp, ref, memo))
    matches = _join(hyp, ref, memo)
    forget(memo, None if keep is None else keep | {"join"})  # the layout and runs, unless kept
    planned = lsum_fast.match_masks(hyp, ref, *_sentence_pairs(hyp, ref), matches)
    del matches
    forget(memo, keep)  # then the matches
    union = lsum_fast.read_back(planned)
    del planned
    hits = subset_hits(runs, union)
    both = (hyp.lengths > 0) & (ref.lengths > 0)
    return np.where(both, hits, 0), hyp.lengths.copy(), ref.lengths.copy()
