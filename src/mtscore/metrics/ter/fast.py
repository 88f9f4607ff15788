"""TER's greedy shift search for many (hypothesis, reference) pairs at once with numpy: equals
:func:`.rules.translation_edit_rate` pair by pair (tests compare the two, and both with
sacreBLEU).

The search runs in rounds; each round takes one greedy step (:func:`.rules.best_shift`) for
every pair still searching, in groups of pairs of similar reference length:

1. the beam edit distance of every current hypothesis, row by row over the whole group
   (:func:`_trace_rows`: a row's matches, substitutions and deletions elementwise, its insertions
   as one running minimum ``min_k (w_k + j - k)``), keeping every row's values and operations;
2. the edit paths read back for the whole group at once (:func:`_alignments`);
3. the shift candidates (:func:`_candidates`): the matching word pairs of each pair's hypothesis
   and reference, their diagonal runs (block lengths), tercom's filters and targets, and
   sacreBLEU's limit of 1000 candidates per pair, all as arrays;
4. the edit distance without a beam of every candidate (:mod:`.bitparallel`, Myers' bit
   vectors, started from the current hypothesis's column where the two first differ); it is the
   beam distance when it is below the cost of any path through a cell the beam leaves out
   (:func:`_outside_cost`), and a lower bound otherwise: then the beam distance is measured
   (from the current hypothesis's row where the two first differ, the rows before are the same:
   sacreBLEU's prefix cache) for the candidates that could still be their item's best
   (:func:`_ranking_distances`); items whose count reaches 1000 in this step measure none;
5. per pair the best candidate (gain, length, earlier start, earlier target) is applied, or the
   pair's search ends: edits = shifts + the current distance.

Distances are int32 with :data:`INF` = 2²⁹ standing for sacreBLEU's 10¹⁶ (cells outside the beam;
only comparisons and +1 steps are made with it).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .bitparallel import match_masks, prefix_states, shifted_distances
from .rules import (
    BEAM_WIDTH,
    DEL,
    INS,
    MAX_SHIFT_CANDIDATES,
    MAX_SHIFT_DIST,
    MAX_SHIFT_SIZE,
    SUB,
    UNDEF,
    alignment,
)

INF = 1 << 29
#: groups of at most this many items read their edit paths back one by one
FEW_ITEMS = 4
#: a width class of fewer items joins the next one
MIN_GROUP = 64
#: reference-length classes (row widths) of the groups a round is run in
_WIDTHS = (16, 32, 64, 128, 256, 512, 1024)


def _beam_params(n: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pair the ratio m / n and the beam width (wider when the lengths differ a lot)."""
    ratio = m / np.maximum(n, 1)
    width = np.where(ratio / 2 > BEAM_WIDTH, np.ceil(ratio / 2 + BEAM_WIDTH), BEAM_WIDTH)
    return ratio, width.astype(np.int64)


def _window(i: np.ndarray, n: np.ndarray, m: np.ndarray, ratio: np.ndarray, width: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`.rules.beam` of row i of every item: its columns lo .. hi - 1."""
    diag = np.floor(i * ratio).astype(np.int64)
    hi = np.where(i == n, m + 1, np.minimum(m + 1, diag + width))
    return np.maximum(diag - width, 0), hi


def _windows(n: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """lo, hi and whether the beam leaves out a real cell, for every item and row (items × rows)."""
    ratio, width = _beam_params(n, m)
    rows = np.arange(int(n.max(initial=0)) + 1)[None, :]
    lo, hi = _window(rows, n[:, None], m[:, None], ratio[:, None], width[:, None])
    return lo, hi, (lo > 0) | (hi <= m[:, None])


def _next_row(prev: np.ndarray, word: np.ndarray, refs: np.ndarray, lo: np.ndarray, hi: np.ndarray,
              narrow: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                           np.ndarray | None]:
    """One row of the beam edit distance for every item: (row, substitution and deletion costs,
    whether each reference word differs from the hypothesis word, the cells outside the beam or
    None when every cell up to column m is inside; ``narrow``: the items where some is not).
    Columns past m are padding: they never reach a real cell, which only looks left and up."""
    k, W = prev.shape
    differ = refs != word[:, None]
    sub = prev[:, :-1] + differ
    dele = prev[:, 1:] + 1
    w = np.empty((k, W), dtype=prev.dtype)
    w[:, 0] = prev[:, 0] + 1
    np.minimum(sub, dele, out=w[:, 1:])
    jidx = np.arange(W, dtype=prev.dtype)
    outside = None
    if narrow.any():  # (the padding columns of the other items are left out too: harmless)
        outside = jidx < lo[:, None]
        outside |= jidx >= hi[:, None]
        np.putmask(w, outside, INF)
    w -= jidx
    row = np.minimum.accumulate(w, axis=1)  # insertions: min_k (w_k + j - k)
    row += jidx
    np.minimum(row, INF, out=row)
    if outside is not None:
        np.putmask(row, outside, INF)
    return row, sub, dele, differ, outside


def _trace_rows(hyp: np.ndarray, ref: np.ndarray, n: np.ndarray, beams: tuple[np.ndarray, ...]
                ) -> tuple[np.ndarray, np.ndarray]:
    """Every row's values and operations (items × (max n + 1) × W) of the beam edit distance of
    items sorted by decreasing n (each step works on the items that still have a row)."""
    C, W = len(n), ref.shape[1] + 1
    lo, hi, narrow = beams
    rows = int(n.max(initial=0)) + 1
    vals = np.zeros((C, rows, W), dtype=np.int32)
    ops = np.empty((C, rows, W), dtype=np.int8)
    vals[:, 0] = np.arange(W, dtype=np.int32)
    ops[:, 0] = INS  # row 0: reference words added
    active = np.searchsorted(-n, -np.arange(1, rows), side="right")
    for i, k in enumerate(active.tolist(), start=1):
        row, sub, dele, differ, _ = _next_row(vals[:k, i - 1], hyp[:k, i - 1], ref[:k],
                                              lo[:k, i], hi[:k, i], narrow[:k, i])
        vals[:k, i] = row
        _operations(ops[:k, i], row, sub, dele, differ)
    return vals, ops


def _suffix_rows(hyp: np.ndarray, ref: np.ndarray, n: np.ndarray, m: np.ndarray,
                 beams: tuple[np.ndarray, ...], stop: np.ndarray) -> np.ndarray:
    """K[i, j]: the cost of the cheapest path of the beam edit distance from cell (i, j) to
    (n, m) through cells inside the beam (items × (max n + 1) × W; :data:`INF` where there is
    none), row by row from the last one down to row ``stop`` (n: none): the distance from any row
    i is min_j (row_i[j] + K[i, j])."""
    C, W = len(n), ref.shape[1] + 1
    lo_all, hi_all, _ = beams
    rows = int(n.max(initial=0)) + 1
    suffix = np.full((C, rows, W), INF, dtype=np.int32)
    jidx = np.arange(W, dtype=np.int32)
    items = np.arange(C)
    # the last row: insertions to (n, m) from the cells of its beam (it reaches column m, but
    # starts at its own lo, as :func:`.rules.beam` has it: a very short hypothesis against a
    # long reference leaves the first columns of the last row out)
    last_lo = lo_all[items, n][:, None]
    suffix[items, n] = np.where((jidx <= m[:, None]) & (jidx >= last_lo), m[:, None] - jidx, INF)
    for back in range(1, int((n - stop).max(initial=0)) + 1):
        at = np.flatnonzero(n - back >= stop)
        k, i = len(at), n[at] - back
        nxt = suffix[at, i + 1]
        base = np.empty((k, W), dtype=np.int32)
        base[:, :-1] = nxt[:, 1:] + (ref[at] != hyp[at, i][:, None])
        base[:, -1] = INF
        np.minimum(base, nxt + 1, out=base)
        lo, hi = lo_all[at, i], hi_all[at, i]
        outside = (jidx < lo[:, None]) | (jidx >= hi[:, None])
        base[outside] = INF
        base += jidx
        row = np.minimum.accumulate(base[:, ::-1], axis=1)[:, ::-1] - jidx  # steps to the right
        np.minimum(row, INF, out=row)
        row[outside] = INF
        suffix[at, i] = row
    return suffix


def _candidate_distances(vals: np.ndarray, suffix: np.ndarray, job: np.ndarray, first: np.ndarray,
                         settle: np.ndarray, words: np.ndarray, ref: np.ndarray, m: np.ndarray,
                         beams: tuple[np.ndarray, ...]) -> np.ndarray:
    """The beam edit distance of every candidate (hypothesis ``words``, of item ``job``): rows
    ``first + 1 .. settle`` from row ``first`` of its item's current rows (``vals``: the words
    before ``first`` are the same); from row ``settle`` on the words are the item's again, so the
    distance is min_j (row[j] + K[settle, j]) with the item's :func:`_suffix_rows` K."""
    C, W = len(job), vals.shape[2]
    out = np.zeros(C, dtype=np.int64)
    live = np.arange(C)
    i = first.copy()
    cur = vals[job, first]
    refs = ref[job]
    lo, hi, narrow = beams
    while len(live):
        i += 1
        at = job[live]
        cur = _next_row(cur, words[live, i - 1], refs, lo[at, i], hi[at, i], narrow[at, i])[0]
        done = i == settle[live]
        if done.any():
            ended = live[done]
            total = cur[done] + suffix[job[ended], i[done]]
            total[np.arange(W) > m[ended, None]] = INF
            out[ended] = np.minimum(total.min(axis=1), INF)
            keep = ~done
            live, i, cur, refs = live[keep], i[keep], cur[keep], refs[keep]
    return out


def _operations(out: np.ndarray, row: np.ndarray, sub: np.ndarray, dele: np.ndarray,
                differ: np.ndarray) -> None:
    """The operation of every cell of a row into ``out``, with tercom's preference (match or
    substitution, then deletion, then insertion; a cost must be strictly lower to win); cells
    left at :data:`INF` (outside the beam, or unreachable) have none."""
    body = out[:, 1:]
    body[...] = differ  # NOP = 0, SUB = 1
    np.putmask(body, dele < sub, DEL)
    np.putmask(body, row[:, :-1] + 1 < np.minimum(dele, sub), INS)
    out[:, 0] = DEL
    np.putmask(out, row >= INF, UNDEF)


def _alignments(ops: np.ndarray, n: np.ndarray, m: np.ndarray, M: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`.rules.alignment` of every item: (align, hypothesis errors, reference errors),
    as items × M (reference) and items × N (hypothesis) arrays; the paths of all items are read
    back together, one step of each per numpy pass (a few items: one by one in Python)."""
    G = len(n)
    align = np.zeros((G, M), dtype=np.int64)
    hyp_err = np.ones((G, ops.shape[1] - 1), dtype=np.int64)
    ref_err = np.ones((G, M), dtype=np.int64)
    if G <= FEW_ITEMS:
        for k in range(G):
            nk, mk = int(n[k]), int(m[k])
            found = alignment(ops[k, :nk + 1, :mk + 1].tolist(), nk, mk)
            align[k, :mk], hyp_err[k, :nk], ref_err[k, :mk] = found
        return align, hyp_err, ref_err
    i, j = n.copy(), m.copy()
    live = np.flatnonzero((i > 0) | (j > 0))
    while len(live):
        ii, jj = i[live], j[live]
        op = ops[live, ii, jj]
        if (op == UNDEF).any():
            raise ValueError("the edit path left the beam")
        diag = op <= SUB
        d, dl = live[diag], op[diag]
        hyp_err[d, ii[diag] - 1] = dl == SUB
        ref_err[d, jj[diag] - 1] = dl == SUB
        takes_ref = diag | (op == INS)
        align[live[takes_ref], jj[takes_ref] - 1] = ii[takes_ref] - 1
        i[live] -= (op != INS)
        j[live] -= takes_ref
        live = live[(i[live] > 0) | (j[live] > 0)]
    return align, hyp_err, ref_err


def _where_true(flags: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.nonzero`` of a 3-d array (the same indexes, in the same order), from the flat
    positions: one pass over the array instead of three index columns filled together."""
    flat = np.flatnonzero(flags)
    g, rest = np.divmod(flat, flags.shape[1] * flags.shape[2])
    a, b = np.divmod(rest, flags.shape[2])
    return g, a, b


def _runs(hyp: np.ndarray, ref: np.ndarray, n: np.ndarray, m: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every (item, hypothesis start a, reference start b) where the words match and
    |a - b| <= MAX_SHIFT_DIST, in (item, a, b) order, with the length of the matching run from
    there (at most MAX_SHIFT_SIZE)."""
    N, M = hyp.shape[1], ref.shape[1]
    equal = hyp[:, :, None] == ref[:, None, :]
    equal &= np.arange(N)[:, None] < n[:, None, None]
    equal &= np.arange(M)[None, :] < m[:, None, None]
    g, a, b = _where_true(equal)
    near = np.abs(a - b) <= MAX_SHIFT_DIST
    # run length along the diagonal: equal[a + k, b + k] for k = 1, 2, ...
    length = np.ones(len(g), dtype=np.int64)
    going = np.ones(len(g), dtype=bool)
    for k in range(1, MAX_SHIFT_SIZE):
        aa, bb = a + k, b + k
        inside = (aa < N) & (bb < M)
        going &= inside
        going[going] = equal[g[going], aa[going], bb[going]]
        length += going
        if not going.any():
            break
    return g[near], a[near], b[near], length[near]


def _candidates(hyp: np.ndarray, ref: np.ndarray, n: np.ndarray, m: np.ndarray, align: np.ndarray,
                hyp_err: np.ndarray, ref_err: np.ndarray, checked: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`.rules.shift_candidates` of every item, cut where sacreBLEU's limit stops the
    search: (item, start, length, target) of every candidate tried, and each item's new count."""
    G = len(n)
    g, a, b, runs = _runs(hyp, ref, n, m)
    # one block per (a, b, length 1 .. run length), in tercom's order
    g, a, b = (np.repeat(x, runs) for x in (g, a, b))
    starts = np.cumsum(runs) - runs
    length = np.arange(len(g)) - np.repeat(starts, runs) + 1
    hyp_sum = np.zeros((G, hyp_err.shape[1] + 1), dtype=np.int64)
    np.cumsum(hyp_err, axis=1, out=hyp_sum[:, 1:])
    ref_sum = np.zeros((G, ref_err.shape[1] + 1), dtype=np.int64)
    np.cumsum(ref_err, axis=1, out=ref_sum[:, 1:])
    aligned = align[g, b]
    ok = (hyp_sum[g, a + length] > hyp_sum[g, a]) & (ref_sum[g, b + length] > ref_sum[g, b])
    ok &= ~((a <= aligned) & (aligned < a + length))
    g, a, b, length = g[ok], a[ok], b[ok], length[ok]
    # targets: before the word aligned with reference position b - 1 .. b + length - 1
    per = length + 1
    first = np.cumsum(per) - per
    offset = np.arange(int(per.sum())) - np.repeat(first, per) - 1
    block = np.repeat(np.arange(len(g)), per)
    pos = np.repeat(b, per) + offset
    target = np.where(pos < 0, 0, align[np.repeat(g, per), np.maximum(pos, 0)] + 1)
    fresh = np.ones(len(target), dtype=bool)
    fresh[1:] = (target[1:] != target[:-1]) | (block[1:] != block[:-1])
    count = np.bincount(block[fresh], minlength=len(g))
    # sacreBLEU stops after the block that reaches MAX_SHIFT_CANDIDATES
    before = np.cumsum(count) - count
    item_first = np.searchsorted(g, np.arange(G))
    before -= np.repeat(before[np.minimum(item_first, max(len(g) - 1, 0))] if len(g) else before,
                        np.diff(np.append(item_first, len(g)))) if len(g) else 0
    tried = checked[g] + before < MAX_SHIFT_CANDIDATES
    new_checked = checked + np.bincount(g[tried], weights=count[tried], minlength=G).astype(np.int64)
    keep = fresh & tried[block]
    sel = block[keep]
    return g[sel], a[sel], length[sel], target[keep], new_checked


def _passed_words(start: np.ndarray, length: np.ndarray, target: np.ndarray, n: np.ndarray
                  ) -> np.ndarray:
    """For a shift to the right, how many words after the block come before it afterwards, as
    :func:`.rules.perform_shift`'s slices give it: ``target - start - length`` past the block,
    and ``min(n, length + target) - start - length`` for a target inside the block."""
    return np.where(target > start + length, target - start - length,
                    np.minimum(n, length + target) - start - length)


def changed_span(start: np.ndarray, length: np.ndarray, target: np.ndarray, n: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(first, end): the positions ``first .. end - 1`` are the only ones a shift changes (a
    target inside the block moves the block past ``length + target - start - length`` words, so
    the change can end after ``start + length`` and after ``target``)."""
    to_left = target < start
    first = np.where(to_left, target, start)
    end = np.where(to_left, start + length, start + _passed_words(start, length, target, n) + length)
    return first, end


def _shift_positions(start: np.ndarray, length: np.ndarray, target: np.ndarray, n: np.ndarray,
                     N: int) -> np.ndarray:
    """For each shift and output position q < N, the position of the word that lands there
    (:func:`.rules.perform_shift`, its slicing included): q plus an offset that is constant on
    two runs of positions (the block and the words it passes), as a cumulative sum of three
    steps per shift."""
    to_left = target < start
    d = _passed_words(start, length, target, n)  # to the right: these words come first
    first, end = changed_span(start, length, target, n)
    middle = first + np.where(to_left, length, d)
    off1 = np.where(to_left, start - target, length)
    off2 = np.where(to_left, -length, -d)
    steps = np.zeros((len(start), N + 1), dtype=np.int64)
    rows = np.arange(len(start))
    steps[rows, first] += off1
    steps[rows, middle] += off2 - off1
    steps[rows, end] -= off2
    out = np.cumsum(steps[:, :N], axis=1)
    out += np.arange(N)
    return out


def _outside_cost(n: np.ndarray, m: np.ndarray, beams: tuple[np.ndarray, ...]) -> np.ndarray:
    """Per item a lower bound on the cost of any edit path through a cell (row 1 .. n, column
    0 .. m) that the beam leaves out (:data:`INF` if none): |i - j| + |(n - i) - (m - j)|, a
    convex function of j, least at the point of each outside column range nearest to i or to
    i + m - n."""
    lo, hi, _ = beams
    i = np.arange(lo.shape[1])[None, :]
    nn, mm = n[:, None], m[:, None]
    real = (i >= 1) & (i <= nn)
    best = np.full(len(n), INF, dtype=np.int64)
    for left, right, there in ((0, lo - 1, lo >= 1), (hi, mm, hi <= mm)):
        for centre in (i, i + mm - nn):
            j = np.minimum(np.maximum(centre, left), right)
            cost = np.abs(i - j) + np.abs(nn - i - mm + j)
            np.minimum(best, np.where(real & there, cost, INF).min(axis=1), out=best)
    return best


def _winners(g: np.ndarray, found: np.ndarray, length: np.ndarray, start: np.ndarray,
             target: np.ndarray) -> np.ndarray:
    """Per item (``g`` sorted) the index of its best candidate: the lowest distance, then the
    longer block, the earlier start, the earlier target (:func:`.rules.best_shift`)."""
    order = _ranking(g, found, length, start, target)
    return order[np.flatnonzero(np.diff(g[order], prepend=-1) != 0)]


def _ranking(g: np.ndarray, found: np.ndarray, length: np.ndarray, start: np.ndarray,
             target: np.ndarray) -> np.ndarray:
    """The candidates in :func:`.rules.best_shift`'s order of preference, item by item."""
    return np.lexsort((target, start, -length, found, g))


def _beam_distances(hyp: np.ndarray, ref: np.ndarray, n: np.ndarray, m: np.ndarray,
                    beams: tuple[np.ndarray, ...], vals: np.ndarray, g: np.ndarray,
                    first: np.ndarray, settle: np.ndarray, src: np.ndarray) -> np.ndarray:
    """The beam edit distance of the candidates (item ``g``, word positions ``src``, changed rows
    ``first`` .. ``settle``): :func:`_candidate_distances` with the items' :func:`_suffix_rows`,
    on the arrays of these items only."""
    items, job = np.unique(g, return_inverse=True)
    part = tuple(b[items] for b in beams)
    stop = n[items]
    np.minimum.at(stop, job, settle)
    suffix = _suffix_rows(hyp[items], ref[items], n[items], m[items], part, stop)
    words = hyp[g[:, None], src]
    return _candidate_distances(vals[items], suffix, job, first, settle, words, ref[items], m[g],
                                part)


def _ranking_distances(hyp: np.ndarray, ref: np.ndarray, n: np.ndarray, m: np.ndarray,
                       beams: tuple[np.ndarray, ...], vals: np.ndarray, g: np.ndarray,
                       cands: tuple[np.ndarray, np.ndarray, np.ndarray], src: np.ndarray
                       ) -> np.ndarray:
    """Every candidate's distance where it could be its item's best candidate, and a lower bound
    that ranks it behind the best where it cannot (so :func:`_winners` picks the same one).

    The distance without a beam (:func:`.bitparallel.shifted_distances`) bounds the beam
    distance from below, and equals it when it is below :func:`_outside_cost` (its best path then
    stays inside the beam). Where the candidate first by (bound, ranking) is not that low, it
    gets its beam distance, and so does every candidate of its item whose bound still ranks
    before the best found."""
    start, length, target = cands
    first, settle = changed_span(start, length, target, n[g])  # rows after settle: the item's own
    masks = match_masks(hyp, ref, m)
    states = prefix_states(masks[:, :int(first.max())])  # columns 0 .. the last first needed
    found = shifted_distances(masks, states, n, m, g, first, src)
    top = _winners(g, found, length, start, target)
    top = top[found[top] >= _outside_cost(n, m, beams)[g[top]]]
    if not len(top):
        return found
    found[top] = _beam_distances(hyp, ref, n, m, beams, vals, g[top], first[top], n[g[top]],
                                 src[top])  # one per item: its rows to the end, no suffix rows
    rank = np.empty(len(g), dtype=np.int64)
    rank[_ranking(g, found, length, start, target)] = np.arange(len(g))
    best = np.full(len(n), -1, dtype=np.int64)  # per unsure item: the rank of its measured one
    best[g[top]] = rank[top]
    rest = np.flatnonzero(rank < best[g])  # candidates of those items ranked before it
    if len(rest):
        found[rest] = _beam_distances(hyp, ref, n, m, beams, vals, g[rest], first[rest],
                                      settle[rest], src[rest])
    return found


def _round(hyp: np.ndarray, ref: np.ndarray, n: np.ndarray, m: np.ndarray, checked: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One greedy step for a group sorted by decreasing n: (current distances, new counts,
    whether each item shifts, the shifted hypotheses). An item whose count reaches sacreBLEU's
    limit in this step shifts no more, whatever its candidates gain: they are not measured."""
    G, N = hyp.shape
    beams = _windows(n, m)
    vals, ops = _trace_rows(hyp, ref, n, beams)
    dist = vals[np.arange(G), n, m].astype(np.int64)
    align, hyp_err, ref_err = _alignments(ops, n, m, ref.shape[1])
    g, a, length, target, checked = _candidates(hyp, ref, n, m, align, hyp_err, ref_err, checked)
    going = checked[g] < MAX_SHIFT_CANDIDATES
    g, a, length, target = g[going], a[going], length[going], target[going]
    shifted = np.zeros((G, N), dtype=hyp.dtype)
    moves = np.zeros(G, dtype=bool)
    if len(g):
        src = _shift_positions(a, length, target, n[g], N)
        found = _ranking_distances(hyp, ref, n, m, beams, vals, g, (a, length, target), src)
        best = _winners(g, found, length, a, target)
        moves[g[best]] = dist[g[best]] > found[best]
        shifted[g[best]] = hyp[g[best, None], src[best]]
    return dist, checked, moves, shifted


def _groups(m: np.ndarray) -> list[np.ndarray]:
    """The items split by reference length into width classes; a class of fewer than
    :data:`MIN_GROUP` items joins the next wider one (fewer numpy passes for a few items)."""
    cls = np.searchsorted(np.asarray(_WIDTHS), m + 1)
    out, carry = [], np.empty(0, dtype=np.int64)
    for c in np.unique(cls).tolist():
        carry = np.concatenate((carry, np.flatnonzero(cls == c)))
        if len(carry) >= MIN_GROUP:
            out.append(carry)
            carry = carry[:0]
    if len(carry):
        out.append(carry)
    return out


def edit_counts(hyps: Sequence[np.ndarray], refs: Sequence[np.ndarray]) -> np.ndarray:
    """TER's edits (shifts + final distance) of every (hypothesis, reference) pair of word-id
    arrays (a reference is never empty here; an empty hypothesis has m edits)."""
    P = len(hyps)
    n = np.fromiter(map(len, hyps), dtype=np.int64, count=P)
    m = np.fromiter(map(len, refs), dtype=np.int64, count=P)
    edits = np.where(n == 0, m, 0)
    shifts = np.zeros(P, dtype=np.int64)
    checked = np.zeros(P, dtype=np.int64)
    N, M = int(n.max(initial=1)), int(m.max(initial=1))
    top = max((int(x.max(initial=0)) for x in (*hyps, *refs)), default=0)
    ids = np.int32 if top < 2 ** 31 else np.int64  # int32 word ids: half the bytes compared
    H = np.full((P, N), -1, dtype=ids)
    R = np.full((P, M + 1), -2, dtype=ids)
    same = np.zeros(P, dtype=bool)
    for k, (h, r) in enumerate(zip(hyps, refs)):
        H[k, :len(h)] = h
        R[k, :len(r)] = r
        same[k] = len(h) == len(r) and bool((h == r).all())
    live = np.flatnonzero((n > 0) & ~same)  # a hypothesis equal to its reference: 0 edits
    while len(live):
        going = []
        for part in _groups(m[live]):
            idx = live[part]
            idx = idx[np.argsort(-n[idx], kind="stable")]  # rows of the trace kept in order
            Ng, Mg = int(n[idx].max()), int(m[idx].max())
            dist, checked[idx], moves, shifted = _round(
                H[idx, :Ng], R[idx, :Mg], n[idx], m[idx], checked[idx])
            edits[idx] = shifts[idx] + dist
            moved = idx[moves]
            H[moved, :Ng] = shifted[moves]
            shifts[moved] += 1
            going.append(moved)
        live = np.concatenate(going)
    return edits
