"""METEOR's score from summed statistics (Banerjee & Lavie 2005, §2.3; generalised as METEOR 1.x).

With per-module match counts m_k and module weights w_k (1 by default):

* P = Σ w_k m_k / |hyp|,  R = Σ w_k m_k / |ref|;  with a function-word weight δ (METEOR 1.2+,
  Denkowski & Lavie 2010/2014) content words count δ and function words 1 − δ, on both the matches
  and the lengths; δ = None means no distinction (the paper; δ = 0.5 gives the same numbers);
* Fmean = P·R / (α·P + (1 − α)·R)  — with α = 0.9 this is the paper's 10PR / (R + 9P);
* Penalty = γ · (chunks / m)^β with m the (unweighted) matches — the paper's 0.5 · (chunks/m)³;
* Score = Fmean · (1 − Penalty); no match → 0; never below 0 (as the jar).

Corpus scores apply this to the statistics summed over segments (§2.3 does not average sentence
scores). Everything here is vectorised over rows of summed statistics.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Parameters:
    """α, β, γ, δ and one weight per module (paper defaults: 0.9, 3, 0.5, none, all 1)."""

    alpha: float = 0.9
    beta: float = 3.0
    gamma: float = 0.5
    delta: float | None = None
    weights: tuple[float, ...] = ()


def columns(modules: tuple[str, ...], function_words: bool, two_sided: bool = False) -> tuple[str, ...]:
    """Statistic names: ``matches, hyp_len, ref_len, chunks, matches_<module>…`` (+ function-word counts).

    ``two_sided`` (the paraphrase module: a match may cover different numbers of words on the two
    sides): ``matches`` and ``matches_<module>`` count hypothesis words, and ``ref_matches,
    ref_matches_<module>…`` (last) the reference words."""
    cols = ["matches", "hyp_len", "ref_len", "chunks", *(f"matches_{m}" for m in modules)]
    if function_words:
        cols += ["hyp_function", "ref_function",
                 *(f"hyp_function_{m}" for m in modules), *(f"ref_function_{m}" for m in modules)]
    if two_sided:
        cols += ["ref_matches", *(f"ref_matches_{m}" for m in modules)]
    return tuple(cols)


def count_chunks(alignment: Iterable[Sequence[int]]) -> int:
    """Chunks (§2.3): the fewest runs of matches adjacent and in the same order on both sides, of
    an alignment of (hyp index, ref index, ...) sorted by hypothesis index."""
    chunks = 0
    pi = pj = -2
    for match in alignment:
        i, j = match[0], match[1]
        if i != pi + 1 or j != pj + 1:
            chunks += 1
        pi, pj = i, j
    return chunks


def count_phrase_chunks(alignment: Iterable[Sequence[int]]) -> int:
    """Chunks (§2.3) of phrase matches ``(ref start, ref length, hyp start, hyp length, ...)``: a match
    continues a chunk when it starts, on both sides, where another ends (the jar's
    ``getCountAndChunks``); with one-word matches this is :func:`count_chunks`."""
    ends = {(m[0] + m[1], m[2] + m[3]) for m in alignment}
    return sum(1 for m in alignment if (m[0], m[2]) not in ends)


def fmean(precision: np.ndarray, recall: np.ndarray, alpha: float) -> np.ndarray:
    """Fmean = P·R / (α·P + (1 − α)·R) (§2.3: 10PR / (R + 9P) with α = 0.9); 0 where P or R is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = alpha * precision + (1 - alpha) * recall
        return np.where((precision > 0) & (recall > 0),
                        precision * recall / np.where(denom > 0, denom, 1), 0.0)


def fragmentation(chunks: np.ndarray, matches: np.ndarray) -> np.ndarray:
    """chunks / matches (0 without matches)."""
    return np.where(matches > 0, chunks / np.where(matches > 0, matches, 1), 0.0)


def penalty(frag: np.ndarray, beta: float, gamma: float) -> np.ndarray:
    """Penalty = γ · fragmentation^β (§2.3: 0.5 · (chunks / matches)³)."""
    return gamma * frag ** beta


def components(totals: np.ndarray, n_modules: int, params: Parameters, two_sided: bool = False
               ) -> dict[str, np.ndarray]:
    """precision, recall, fmean, fragmentation, penalty and score for each row of ``totals``
    (``two_sided``: the columns of :func:`columns` with it; fragmentation = chunks over the mean of
    the hypothesis-side and reference-side matches, as the jar)."""
    t = np.atleast_2d(np.asarray(totals, dtype=np.float64))
    K = n_modules
    matches, hyp_len, ref_len, chunks = t[:, 0], t[:, 1], t[:, 2], t[:, 3]
    per_module = ref_per_module = t[:, 4:4 + K]
    if two_sided:
        ref_per_module = t[:, -K:]
        matches = (matches + t[:, -K - 1]) / 2
    w = np.asarray(params.weights, dtype=np.float64)
    if params.delta is None:
        wm_hyp, wm_ref = per_module @ w, ref_per_module @ w
        len_hyp, len_ref = hyp_len, ref_len
    else:
        d = params.delta
        hyp_fn, ref_fn = t[:, 4 + K], t[:, 5 + K]
        hyp_fn_mod = t[:, 6 + K:6 + 2 * K]
        ref_fn_mod = t[:, 6 + 2 * K:6 + 3 * K]
        wm_hyp = (d * (per_module - hyp_fn_mod) + (1 - d) * hyp_fn_mod) @ w
        wm_ref = (d * (ref_per_module - ref_fn_mod) + (1 - d) * ref_fn_mod) @ w
        len_hyp = d * (hyp_len - hyp_fn) + (1 - d) * hyp_fn
        len_ref = d * (ref_len - ref_fn) + (1 - d) * ref_fn
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(len_hyp > 0, wm_hyp / np.where(len_hyp > 0, len_hyp, 1), 0.0)
        recall = np.where(len_ref > 0, wm_ref / np.where(len_ref > 0, len_ref, 1), 0.0)
        frag = fragmentation(chunks, matches)
    f = fmean(precision, recall, params.alpha)
    pen = penalty(frag, params.beta, params.gamma)
    score = np.where(matches > 0, np.maximum(f * (1 - pen), 0.0), 0.0)
    return {"precision": precision, "recall": recall, "fmean": f, "fragmentation": frag,
            "penalty": pen, "score": score}
