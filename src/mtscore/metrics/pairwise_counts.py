"""Clipped n-gram matches of every (hypothesis, reference) pair, from each string's counts once.

BLEU's §2.1 clipping (one reference) and chrF's matches are the same sum: for one order, the
matches of a pair are Σ_g min(h_g, r_g) over the n-grams g, with h_g and r_g the counts in the
hypothesis and in the reference. With min(a, b) = Σ_{t ≥ 1} [a ≥ t]·[b ≥ t], every (group, n-gram
g, threshold t) becomes a column in which a string has a 1 when it has g at least t times; the
matches of all pairs are then one sparse product H·Rᵀ of 0/1 matrices (scipy; exact: integer
sums). Columns belong to one group (the candidates of one source), so the product has no pair
across groups, and its work is Σ over columns of (hypotheses × references holding it), not
hypotheses × references × columns. Pairs are laid out group by group, each group's matrix
row-major (:func:`pair_offsets`). :func:`pair_matches_by_loop` is the definition written as a loop
over pairs, for the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..ragged import ranges
from .ngrams import Encoded, NgramSpace, segment_counts


@dataclass(frozen=True, eq=False)
class Counts:
    """N-gram counts of a batch of strings for one order, sorted by ``rows`` (the string's index in
    the batch), then by gram: string ``rows[e]`` has n-gram ``grams[e]`` ``counts[e]`` times."""

    rows: np.ndarray
    grams: np.ndarray
    counts: np.ndarray

    @staticmethod
    def of(keys: np.ndarray, counts: np.ndarray, size: int) -> Counts:
        """From sorted ``row * size + gram`` keys and their counts (as :func:`.ngrams.segment_counts`)."""
        size = max(size, 1)
        return Counts(keys // size, keys % size, counts.astype(np.int64))


def order_counts(hyp: Encoded, ref: Encoded, vocab_size: int, max_order: int, same: bool
                 ) -> list[tuple[Counts, Counts]]:
    """Per order 1..``max_order``: the n-gram counts of every hypothesis and of every reference,
    each string's n-grams numbered once (:class:`.ngrams.NgramSpace`; n-grams no reference has are
    left out of the hypotheses'). ``same``: the hypotheses are the references, counted once."""
    space = NgramSpace([ref], vocab_size, max_order)
    ref_grams = space.ref_grams[0]
    hyp_grams = ref_grams if same else space.lookup(hyp)
    out = []
    for n in range(1, max_order + 1):
        size = space.size(n)
        ref_counts = Counts.of(*segment_counts(*ref_grams[n - 1], size), size)
        hyp_counts = ref_counts if same else Counts.of(*segment_counts(*hyp_grams[n - 1], size), size)
        out.append((hyp_counts, ref_counts))
    return out


def pair_offsets(hyp_bounds: np.ndarray, ref_bounds: np.ndarray) -> np.ndarray:
    """Where each group's pairs start in the flat layout (one more entry: the number of pairs)."""
    return np.concatenate(([0], np.cumsum(np.diff(hyp_bounds) * np.diff(ref_bounds)))).astype(np.int64)


def pair_matches(hyp: Counts, ref: Counts, hyp_bounds: np.ndarray, ref_bounds: np.ndarray) -> np.ndarray:
    """Σ_g min(h_g, r_g) for every pair of every group, flat (see :func:`pair_offsets`).

    Group s pairs hypotheses ``hyp_bounds[s] .. hyp_bounds[s+1]-1`` with references
    ``ref_bounds[s] .. ref_bounds[s+1]-1`` (rows of the two :class:`Counts`; ``hyp is ref``: the
    hypotheses are the references, counted once).
    """
    hyp_bounds = np.asarray(hyp_bounds, dtype=np.int64)
    ref_bounds = np.asarray(ref_bounds, dtype=np.int64)
    offsets = pair_offsets(hyp_bounds, ref_bounds)
    if not len(hyp.rows) or not len(ref.rows):
        return np.zeros(int(offsets[-1]), dtype=np.float64)
    grams = int(max(hyp.grams.max(), ref.grams.max())) + 1
    top = int(ref.counts.max())  # thresholds above the largest reference count never match
    if (len(ref_bounds) - 1) * grams * top >= 1 << 63:
        raise ValueError("too many n-grams for one chunk of pairs: lower pairwise.PAIR_BUDGET")
    r_key, r_row = _threshold_keys(ref, ref_bounds, grams, top)
    columns, r_col, by_column = _columns(r_key)
    if hyp is ref:
        h_row, h_col = r_row, r_col
    else:
        h_key, h_row = _threshold_keys(hyp, hyp_bounds, grams, top)
        at = np.minimum(np.searchsorted(columns, h_key), len(columns) - 1)
        found = columns[at] == h_key
        h_row, h_col = h_row[found], at[found]
    # H (hypotheses × columns) and Rᵀ (columns × references), both built row-major as they come
    H = _csr(h_row, h_col, int(hyp_bounds[-1]), len(columns))
    RT = _csr(r_col[by_column], r_row[by_column], len(columns), int(ref_bounds[-1]))
    product = H @ RT
    i = np.repeat(np.arange(product.shape[0], dtype=np.int64), np.diff(product.indptr))
    j = product.indices.astype(np.int64)
    group = _group_of(i, hyp_bounds)
    flat = offsets[group] + (i - hyp_bounds[group]) * np.diff(ref_bounds)[group] + (j - ref_bounds[group])
    return np.bincount(flat, weights=product.data, minlength=int(offsets[-1]))


def _columns(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct ``keys`` (sorted), each key's index among them, and the entries in key order:
    ``np.unique(keys, return_inverse=True)`` with a plain sort of (key, position) packed in one
    integer where both fit (much faster than an argsort)."""
    pos_bits = max(len(keys) - 1, 1).bit_length()
    if int(keys.max()).bit_length() + pos_bits <= 63:
        packed = np.sort((keys << pos_bits) | np.arange(len(keys), dtype=np.int64))
        order = packed & ((1 << pos_bits) - 1)
        ordered = packed >> pos_bits
    else:
        order = np.argsort(keys, kind="stable")
        ordered = keys[order]
    start = np.empty(len(ordered), dtype=bool)
    start[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=start[1:])
    inverse = np.empty(len(keys), dtype=np.int64)
    inverse[order] = np.cumsum(start) - 1
    return ordered[start], inverse, order


def _csr(rows: np.ndarray, cols: np.ndarray, n_rows: int, n_cols: int) -> Any:
    """The 0/1 sparse matrix with ones at (rows, cols), given sorted by row."""
    from scipy import sparse

    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n_rows), out=indptr[1:])
    return sparse.csr_matrix((np.ones(len(rows)), cols, indptr), shape=(n_rows, n_cols))


def _threshold_keys(counts: Counts, bounds: np.ndarray, grams: int, top: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Every (string, n-gram, threshold t ≤ min(count, top)) entry as a column key
    ``(group · grams + gram) · top + t − 1`` and the string's row."""
    reps = np.minimum(counts.counts, top)
    entry = np.repeat(np.arange(len(reps)), reps)
    t = ranges(np.zeros(len(reps), dtype=np.int64), reps)
    group = _group_of(counts.rows, bounds)
    key = (group * grams + counts.grams)[entry] * top + t
    return key, counts.rows[entry]


def _group_of(rows: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """The group of each row (a table lookup: cheaper than a search per row)."""
    return np.repeat(np.arange(len(bounds) - 1), np.diff(bounds))[rows]


def pair_matches_by_loop(hyp: Sequence[dict[object, int]], ref: Sequence[dict[object, int]]) -> np.ndarray:
    """The definition, pair by pair: Σ_g min(h_g, r_g) for every (hypothesis, reference) (tests)."""
    out = np.zeros((len(hyp), len(ref)))
    for i, h in enumerate(hyp):
        for j, r in enumerate(ref):
            out[i, j] = sum(min(c, r[g]) for g, c in h.items() if g in r)
    return out


def pair_index(hyp_bounds: np.ndarray, ref_bounds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The hypothesis row and reference row of every pair in the flat layout."""
    nh, nr = np.diff(hyp_bounds), np.diff(ref_bounds)
    group = np.repeat(np.arange(len(nh)), nh * nr)
    within = np.arange(len(group)) - np.repeat(pair_offsets(hyp_bounds, ref_bounds)[:-1], nh * nr)
    width = np.maximum(nr[group], 1)
    return hyp_bounds[group] + within // width, ref_bounds[group] + within % width


def aggregate_matches(hyp: Counts, ref: Counts, hyp_bounds: np.ndarray, ref_bounds: np.ndarray,
                      hyp_rows: int) -> np.ndarray:
    """Reference aggregation (Vamvas & Sennrich 2024, §3): per hypothesis, Σ_g min(h_g, r̄_g) with r̄_g
    the mean count of g over the references of its group (one entry per hypothesis row)."""
    hyp_bounds = np.asarray(hyp_bounds, dtype=np.int64)
    ref_bounds = np.asarray(ref_bounds, dtype=np.int64)
    out = np.zeros(hyp_rows, dtype=np.float64)
    if not len(hyp.rows) or not len(ref.rows):
        return out
    grams = int(max(hyp.grams.max(), ref.grams.max())) + 1
    r_group = _group_of(ref.rows, ref_bounds)
    keys, inverse = np.unique(r_group * grams + ref.grams, return_inverse=True)
    sums = np.bincount(inverse, weights=ref.counts, minlength=len(keys))
    h_group = _group_of(hyp.rows, hyp_bounds)
    h_key = h_group * grams + hyp.grams
    at = np.minimum(np.searchsorted(keys, h_key), len(keys) - 1)
    found = keys[at] == h_key
    n_refs = np.diff(ref_bounds)[h_group].astype(np.float64)
    # min(h, Σr / R) as min(h·R, Σr) / R: h itself exactly when it is the smaller
    clipped = np.where(found, np.minimum(hyp.counts * n_refs, np.where(found, sums[at], 0.0)) / n_refs, 0.0)
    out += np.bincount(hyp.rows, weights=clipped, minlength=hyp_rows)
    return out
