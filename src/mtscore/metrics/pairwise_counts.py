"""Clipped n-gram matches of every (hypothesis, reference) pair, from each string's counts once.

BLEU's §2.1 clipping (one reference) and chrF's matches are the same sum: for one order, the
matches of a pair are Σ_g min(h_g, r_g) over the n-grams g, with h_g and r_g the counts in the
hypothesis and in the reference. With min(a, b) = Σ_{t ≥ 1} [a ≥ t]·[b ≥ t], every (n-gram g,
threshold t) becomes a column in which a string has a 1 when it has g at least t times; the
matches of all pairs of a group are then one product H·Rᵀ of 0/1 matrices (BLAS), exact in
float32 (integer sums below 2^24).

Columns held by a single reference (most n-grams of higher orders) are added pair by pair with
one ``bincount`` instead of taking a column of the product. Groups (the candidates of one source)
are independent: their pairs are laid out group by group, each group's matrix row-major.
:func:`pair_matches_by_loop` is the definition written as a loop over pairs, for the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..ragged import ranges

#: the largest dense 0/1 matrix (cells) built for one group; larger groups take scipy's sparse product
DENSE_CELLS = 1 << 24


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


def pair_offsets(hyp_bounds: np.ndarray, ref_bounds: np.ndarray) -> np.ndarray:
    """Where each group's pairs start in the flat layout (one more entry: the number of pairs)."""
    return np.concatenate(([0], np.cumsum(np.diff(hyp_bounds) * np.diff(ref_bounds)))).astype(np.int64)


def pair_matches(hyp: Counts, ref: Counts, hyp_bounds: np.ndarray, ref_bounds: np.ndarray) -> np.ndarray:
    """Σ_g min(h_g, r_g) for every pair of every group, flat (see :func:`pair_offsets`).

    Group s pairs hypotheses ``hyp_bounds[s] .. hyp_bounds[s+1]-1`` with references
    ``ref_bounds[s] .. ref_bounds[s+1]-1`` (rows of the two :class:`Counts`).
    """
    hyp_bounds = np.asarray(hyp_bounds, dtype=np.int64)
    ref_bounds = np.asarray(ref_bounds, dtype=np.int64)
    offsets = pair_offsets(hyp_bounds, ref_bounds)
    out = np.zeros(int(offsets[-1]), dtype=np.float64)
    if not len(hyp.rows) or not len(ref.rows):
        return out
    grams = int(max(hyp.grams.max(), ref.grams.max())) + 1
    top = int(ref.counts.max())  # thresholds above the largest reference count never match
    r_key, r_row = _threshold_keys(ref, ref_bounds, grams, top)
    h_key, h_row = _threshold_keys(hyp, hyp_bounds, grams, top)
    columns, first, df = _runs(r_key)
    # each hypothesis threshold entry's column (-1: no reference reaches it)
    at = np.minimum(np.searchsorted(columns, h_key), len(columns) - 1)
    h_col = np.where(columns[at] == h_key, at, -1)
    owner = r_row[first]  # the reference of a single-reference column
    single = df == 1
    # single-reference columns: one pair each per hypothesis entry
    hit = np.flatnonzero(h_col >= 0)
    one = hit[single[h_col[hit]]]
    if len(one):
        group = _group_of(h_row[one], hyp_bounds)
        ref_of = owner[h_col[one]]
        flat = offsets[group] + (h_row[one] - hyp_bounds[group]) * np.diff(ref_bounds)[group] \
            + (ref_of - ref_bounds[group])
        out += np.bincount(flat, minlength=len(out))
    many = hit[~single[h_col[hit]]]
    if len(many):
        _shared_columns(out, offsets, (h_row[many], h_col[many]), (r_row, np.searchsorted(columns, r_key)),
                        ~single, columns // (grams * top), hyp_bounds, ref_bounds)
    return out


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
    return np.searchsorted(bounds, rows, side="right") - 1


def _runs(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct values of ``keys`` (sorted), an index of one occurrence of each, and their counts."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    start = np.empty(len(ordered), dtype=bool)
    start[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=start[1:])
    idx = np.flatnonzero(start)
    return ordered[idx], order[idx], np.diff(idx, append=len(ordered))


def _shared_columns(out: np.ndarray, offsets: np.ndarray, hyp: tuple[np.ndarray, np.ndarray],
                    ref: tuple[np.ndarray, np.ndarray], shared: np.ndarray, column_group: np.ndarray,
                    hyp_bounds: np.ndarray, ref_bounds: np.ndarray) -> None:
    """Add H·Rᵀ over the columns held by two or more references, group by group (``hyp``, ``ref``:
    (row, column) of each threshold entry; rows sorted)."""
    r_row, r_col = ref
    keep = shared[r_col]
    r_row, r_col = r_row[keep], r_col[keep]
    h_row, h_col = hyp
    # shared columns numbered within their group (columns are sorted by group)
    local = np.cumsum(shared) - 1
    group_first = np.searchsorted(column_group[shared], np.arange(len(hyp_bounds) - 1))
    h_at = np.searchsorted(h_row, hyp_bounds)
    r_at = np.searchsorted(r_row, ref_bounds)
    for s in range(len(hyp_bounds) - 1):
        h0, h1, r0, r1 = h_at[s], h_at[s + 1], r_at[s], r_at[s + 1]
        if h0 == h1 or r0 == r1:
            continue
        nh, nr = int(hyp_bounds[s + 1] - hyp_bounds[s]), int(ref_bounds[s + 1] - ref_bounds[s])
        base = group_first[s]
        hc, rc = local[h_col[h0:h1]] - base, local[r_col[r0:r1]] - base
        width = int(max(hc.max(), rc.max())) + 1
        product = _product((h_row[h0:h1] - hyp_bounds[s], hc), (r_row[r0:r1] - ref_bounds[s], rc),
                           nh, nr, width)
        out[offsets[s]:offsets[s + 1]] += product.ravel()


def _product(hyp: tuple[np.ndarray, np.ndarray], ref: tuple[np.ndarray, np.ndarray],
             nh: int, nr: int, width: int) -> np.ndarray:
    """H·Rᵀ of two 0/1 matrices given by the (row, column) of their ones: dense BLAS when both fit
    ``DENSE_CELLS``, else scipy's sparse product."""
    if max(nh, nr) * width <= DENSE_CELLS:
        H = np.zeros((nh, width), dtype=np.float32)
        H[hyp] = 1.0
        R = np.zeros((nr, width), dtype=np.float32)
        R[ref] = 1.0
        return H @ R.T
    from scipy import sparse

    H = sparse.csr_matrix((np.ones(len(hyp[0])), hyp), shape=(nh, width))
    R = sparse.csr_matrix((np.ones(len(ref[0])), ref), shape=(nr, width))
    return np.asarray((H @ R.T).toarray())


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
