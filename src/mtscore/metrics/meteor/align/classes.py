"""The uneven classes of equal keys of many segments at once (part of the corpus acceleration,
:mod:`.corpus`): :func:`class_choices` returns what :func:`.stage.best_stage_matching` returns for
them, segment by segment, or gives a segment up (then best_stage_matching decides it). Tested equal
to it: ``tests/test_meteor_uneven.py``.
"""

from __future__ import annotations

from bisect import bisect_left
from math import comb
from typing import NamedTuple

import numpy as np

from ....ragged import ranges
from . import search, stage
from .arrays import components_of, firsts, stable_order, starts_of, unique_inverse
from .stage import OPTION_CAP, crosses, ordered_rows, stage_work

#: most pairs of matches (of two options of different classes) of a group of linked classes that
#: :func:`_searched` compares (more: the aligner decides)
GROUP_WORK = 1 << 15
#: most assignments of the options of linked classes a segment's search may enumerate (all its
#: searched groups together; well below ``NODE_CAP`` / 2, so the aligner's own search is exact there)
ENUM_CAP = 4096
#: most (assignment, match, match) triples compared at once when assignments are enumerated
ENUM_BATCH = 1 << 21

Pair = tuple[np.ndarray, np.ndarray]


class _Classes(NamedTuple):
    """The classes' arrays: segment, order within it (``rank``), options per class (capped at
    ``OPTION_CAP`` + 1), shape (a, b) index and shapes, where each class's pairs start (``at``),
    every pair's class, hyp and ref token and crossings with its segment's fixed matches, and the
    classes' words (tokens, class by class, increasing)."""

    seg: np.ndarray
    rank: np.ndarray
    n_options: np.ndarray
    shape_of: np.ndarray
    shape_a: list[int]
    shape_b: list[int]
    at: np.ndarray
    cost: np.ndarray
    pair_class: np.ndarray
    pair_h: np.ndarray
    pair_r: np.ndarray
    hyp_tok: np.ndarray
    ref_tok: np.ndarray


def class_choices(seg: np.ndarray, rank: np.ndarray, a: np.ndarray, b: np.ndarray,
                  hyp_tok: np.ndarray, ref_tok: np.ndarray,
                  fixed: tuple[np.ndarray, np.ndarray, np.ndarray], give_up: np.ndarray) -> Pair:
    """What best_stage_matching chooses for the uneven classes (complete bipartite components,
    a ≠ b) of many segments at once, the segments' fixed matches given.

    ``seg``, ``a``, ``b``: each class's segment (classes by segment) and numbers of hypothesis and
    reference words; ``rank``: the classes' order within a segment (the aligner's component order);
    ``hyp_tok``, ``ref_tok``: their words (flat token indices, which within a segment compare as
    positions do), class by class, increasing; ``fixed``: the segments' fixed matches (segment, hyp
    token, ref token), by segment. A class's options are its :func:`.stage.ordered_rows`, each
    costing its pairs' crossings with the fixed matches; the aligner orders them cheapest first
    (stable) and keeps every class's first option unless some of these cross within a group of
    *linked* classes (spans not apart on both sides). For such a group it keeps the first optimum of
    its depth-first search: :func:`_searched`.

    ``give_up`` (one flag per segment; those flagged on entry are left out) is set for the segments
    left to best_stage_matching: a class with more than ``OPTION_CAP`` options, a stage over its work
    budget (``STAGE_WORK``), or searches this does not settle. Returns the matches of the other
    segments (flat hyp and ref tokens, in flat order).
    """
    empty = np.zeros(0, dtype=np.int64)
    if not len(seg):
        return empty, empty
    f_seg = fixed[0]
    n_seg = len(give_up)
    wide = int(b.max()) + 1
    shapes, shape_of = unique_inverse(a * wide + b)
    shape_a, shape_b = (shapes // wide).tolist(), (shapes % wide).tolist()
    n_opt = np.array([min(comb(max(x, y), min(x, y)), OPTION_CAP + 1) for x, y in zip(shape_a, shape_b)],
                     dtype=np.int64)
    give_up[seg[n_opt[shape_of] > OPTION_CAP]] = True
    pairs = np.bincount(seg, weights=a * b, minlength=n_seg)
    give_up[stage_work(pairs, np.bincount(f_seg, minlength=n_seg)) > stage.STAGE_WORK] = True
    ok = np.flatnonzero(~give_up[seg])
    if not len(ok):
        return empty, empty
    at, cost, pair_class, pair_h, pair_r = _pair_costs(seg, a, b, hyp_tok, ref_tok, fixed, ok, n_seg)
    c = _Classes(seg, rank, n_opt[shape_of], shape_of, shape_a, shape_b, at, cost, pair_class,
                 pair_h, pair_r, hyp_tok, ref_tok)
    pe = _cheapest(c, ok, len(shapes))
    pe = pe[stable_order(c.pair_h[pe])]
    pe = _uncross(c, pe, a, b, hyp_tok, ref_tok, give_up)
    pe = pe[~give_up[c.seg[c.pair_class[pe]]]]
    return c.pair_h[pe], c.pair_r[pe]


def _pair_costs(seg: np.ndarray, a: np.ndarray, b: np.ndarray, hyp_tok: np.ndarray,
                ref_tok: np.ndarray, fixed: tuple[np.ndarray, np.ndarray, np.ndarray], ok: np.ndarray,
                n_seg: int) -> tuple[np.ndarray, ...]:
    """Every pair (x-th hypothesis word, y-th reference word) of the classes ``ok``, x-major, and
    its crossings with its segment's fixed matches (tokens differ: no ties)."""
    n_pairs = (a * b)[ok]
    pair_start = starts_of(n_pairs)
    total = int(pair_start[-1] + n_pairs[-1])
    pair_class = np.repeat(ok, n_pairs)
    local = np.arange(total) - np.repeat(pair_start, n_pairs)
    width = b[pair_class]
    x = local // width
    pair_h = hyp_tok[starts_of(a)[pair_class] + x]
    y = local - x * width
    pair_r = ref_tok[starts_of(b)[pair_class] + y]
    pair_col = np.repeat(starts_of(b[ok]), n_pairs) + y  # (class, reference word) of each pair
    cost = _fixed_crossings(seg, b, ref_tok, fixed, ok, pair_h, pair_r, pair_col, n_seg)
    at = np.zeros(len(seg), dtype=np.int64)
    at[ok] = pair_start
    return at, cost, pair_class, pair_h, pair_r


def _fixed_crossings(seg: np.ndarray, b: np.ndarray, ref_tok: np.ndarray,
                     fixed: tuple[np.ndarray, np.ndarray, np.ndarray], ok: np.ndarray, pair_h: np.ndarray,
                     pair_r: np.ndarray, pair_col: np.ndarray, n_seg: int) -> np.ndarray:
    """Each pair's crossings with its segment's fixed matches (§2.2; words differ, so a fixed match
    (h', r') crosses (h, r) when exactly one of h' < h, r' < r holds): L_h + L_r − 2·D, with L_h
    (L_r) the segment's fixed matches before h (before r) and D those before both. D comes from one
    column per reference word of the classes ``ok`` (``pair_col``: a pair's column): the segment's
    fixed matches in hypothesis order, whether each is before that word, summed cumulatively — b·F
    work per class instead of a·b·F. Tokens are flat indices, by segment then position."""
    f_seg, f_h, f_r = fixed
    f_count = np.bincount(f_seg, minlength=n_seg)
    f_start = starts_of(f_count)
    # per hypothesis token: the reference token of its fixed match (−1: none); how many fixed
    # matches start before it (all segments: tokens are by segment), likewise per reference token
    ref_of = np.full(max(int(f_h.max(initial=0)), int(pair_h.max())) + 1, -1, dtype=np.int64)
    ref_of[f_h] = f_r
    has = ref_of >= 0
    before_h: np.ndarray = np.cumsum(has) - has
    on_ref = np.zeros(max(int(f_r.max(initial=0)), int(pair_r.max())) + 1, dtype=np.int64)
    on_ref[f_r] = 1
    before_r = np.cumsum(on_ref) - on_ref
    col_class = np.repeat(ok, b[ok])
    col_r = ref_tok[starts_of(b)[col_class] + np.arange(len(col_class)) - np.repeat(starts_of(b[ok]), b[ok])]
    n = f_count[seg[col_class]]
    before = ref_of[has][ranges(f_start[seg[col_class]], n)] < np.repeat(col_r, n)
    cum = np.zeros(len(before) + 1, dtype=np.int64)
    np.cumsum(before, out=cum[1:])
    pair_start = f_start[seg[col_class[pair_col]]]
    l_h = before_h[pair_h] - pair_start
    l_r = before_r[pair_r] - pair_start
    at = starts_of(n)[pair_col]
    return l_h + l_r - 2 * (cum[at + l_h] - cum[at])


def _cheapest(c: _Classes, ok: np.ndarray, n_shapes: int) -> np.ndarray:
    """Per class of ``ok``, its first cheapest option's pairs (indices into the pair arrays)."""
    by_shape = ok[np.argsort(c.shape_of[ok], kind="stable")]
    ends = np.cumsum(np.bincount(c.shape_of[ok], minlength=n_shapes)).tolist()
    picked = []
    for t, (lo, hi) in enumerate(zip([0, *ends], ends)):
        if hi > lo:
            rows = ordered_rows(c.shape_a[t], c.shape_b[t])
            base = c.at[by_shape[lo:hi]]
            best = np.add.reduce(c.cost[base[:, None, None] + rows], axis=2).argmin(axis=1)
            picked.append((base[:, None] + rows[best]).reshape(-1))
    return np.concatenate(picked)


def _uncross(c: _Classes, pe: np.ndarray, a: np.ndarray, b: np.ndarray, hyp_tok: np.ndarray,
             ref_tok: np.ndarray, give_up: np.ndarray) -> np.ndarray:
    """The kept pairs ``pe`` (in flat order), with the linked groups whose kept options cross one
    another (within a class they never do) decided by :func:`_searched`."""
    ph, pr = c.pair_h[pe], c.pair_r[pe]
    ps = c.seg[c.pair_class[pe]]
    n_seg = len(give_up)
    n = np.bincount(ps, minlength=n_seg)
    cnt = n[ps]
    rep = np.repeat(np.arange(len(ph)), cnt)
    other = ranges(starts_of(n)[ps], cnt)
    crossing = crosses(ph[rep], pr[rep], ph[other], pr[other], distinct=True)  # (or the same pair)
    if not crossing.any():
        return pe
    pair_class = c.pair_class
    c1, c2 = pair_class[pe[rep[crossing]]], pair_class[pe[other[crossing]]]
    # the linked groups of the segments concerned; those where kept options cross are searched
    mark = np.zeros(n_seg, dtype=bool)
    mark[c.seg[c1]] = True
    concerned = np.flatnonzero(mark[c.seg])
    h_off, r_off = starts_of(a), starts_of(b)
    last_h, last_r = hyp_tok[h_off + a - 1], ref_tok[r_off + b - 1]
    group = np.full(len(c.seg), -1)
    group[concerned] = _linked_classes(c.seg[concerned], hyp_tok[h_off[concerned]], last_h[concerned],
                                       ref_tok[r_off[concerned]], last_r[concerned])
    hit = np.zeros(len(c.seg) + 1, dtype=bool)
    hit[group[c1][group[c1] == group[c2]]] = True
    redo = concerned[hit[group[concerned]]]
    if not len(redo):
        return pe
    won = _searched(c, redo, group[redo], give_up)
    again = np.zeros(len(c.seg), dtype=bool)
    again[redo] = True
    pe = np.concatenate([pe[~again[pair_class[pe]]], won])
    return pe[stable_order(c.pair_h[pe])]


def _linked_classes(seg: np.ndarray, h_lo: np.ndarray, h_hi: np.ndarray, r_lo: np.ndarray,
                    r_hi: np.ndarray) -> np.ndarray:
    """Groups of linked classes (:func:`.stage.linked_groups`) of classes given by segment with their
    spans: a group number per class."""
    n = len(seg)
    first = np.concatenate([[True], seg[1:] != seg[:-1]])
    group_of = np.cumsum(first) - 1
    group_start = np.flatnonzero(first)
    group_n = np.diff(np.append(group_start, n))
    cnt = group_n[group_of]
    p = np.repeat(np.arange(n), cnt)
    q = ranges(group_start[group_of], cnt)
    keep = p < q
    p, q = p[keep], q[keep]
    apart = (((h_hi[p] < h_lo[q]) | (h_hi[q] < h_lo[p]))
             & ((r_hi[p] < r_lo[q]) | (r_hi[q] < r_lo[p])))
    return components_of(p[~apart], q[~apart], n)


class _Groups(NamedTuple):
    """The searched classes (``redo``) group by group in ``rank`` order, and their options class by
    class: each option's class, position, cost, pairs (``first_pair``, ``matches``), and its
    crossings with every option of the later classes of its group (``pair_cross[row_start[o] +
    x]``: with option ``class_hi[o's class] + x``)."""

    redo: np.ndarray
    group_of: np.ndarray
    starts: np.ndarray
    k: np.ndarray
    depth: np.ndarray
    n: np.ndarray
    class_lo: np.ndarray
    class_hi: np.ndarray
    option_class: np.ndarray
    option_pos: np.ndarray
    unary: np.ndarray
    first_pair: np.ndarray
    matches: np.ndarray
    pair_table: np.ndarray
    row_start: np.ndarray
    row_len: np.ndarray
    later: np.ndarray
    pair_cross: np.ndarray
    run: np.ndarray
    unavoidable: np.ndarray


def _searched(c: _Classes, redo: np.ndarray, group: np.ndarray, give_up: np.ndarray) -> np.ndarray:
    """The options the search of :mod:`.search` keeps for groups of linked classes whose cheapest
    options cross, where its first descent is provably what it returns (or, failing that, every
    assignment of small parts enumerated); ``give_up`` is set for the other segments.

    ``redo``: the classes, ``group``: their groups; in a group the classes come in ``rank`` order,
    each one's options cheapest first (stable). The search's first descent is greedy: class by
    class the first option of least cost given the options picked before (its pairs' crossings with
    the fixed matches and with those options). At each class of that descent but the last, the
    search skips every other option whose bound — cost so far, plus the option's cost and the
    crossings it must have with each later class (``unavoidable``), plus for each later class the
    least cost + unavoidable of its options — is at least the descent's total: then the descent is an
    optimum, and the first (the search keeps a later solution only when strictly better). That is
    checked here for every group at once, class by class. Groups with more than ``GROUP_WORK`` pairs
    of matches to compare are left to the aligner. Returns the kept options' pairs.
    """
    g = _groups(c, redo, group, give_up)
    if g is None:
        return np.zeros(0, dtype=np.int64)
    picks, sure = _first_descent(g)
    kept = [picks[sure[g.group_of]]]
    if not sure.all():
        kept += _settle_parts(c, g, sure, give_up)
    chosen = np.concatenate(kept)
    return g.pair_table[ranges(g.first_pair[chosen], g.matches[chosen])]


def _groups(c: _Classes, redo: np.ndarray, group: np.ndarray, give_up: np.ndarray) -> _Groups | None:
    """The searched groups' arrays (None when every one is over ``GROUP_WORK``: given up)."""
    o = np.lexsort((c.rank[redo], group))
    redo, group = redo[o], group[o]
    first = np.concatenate([[True], group[1:] != group[:-1]])
    group_of = np.cumsum(first) - 1
    group_seg = c.seg[redo[first]]
    # matches of a class's options; pairs of matches of two classes of a group compared
    v = (c.n_options * np.minimum(c.shape_a, c.shape_b)[c.shape_of])[redo].astype(np.float64)
    work = (np.bincount(group_of, weights=v) ** 2 - np.bincount(group_of, weights=v * v)) / 2
    give_up[group_seg[work > GROUP_WORK]] = True
    keep = ~give_up[c.seg[redo]]
    if not keep.any():
        return None
    redo, first = redo[keep], first[keep]
    group_of = np.cumsum(first) - 1
    starts = np.flatnonzero(first)
    n = c.n_options[redo]
    unary_table, pair_table, unary_at, pair_at, matches_at = _option_tables(c, redo)
    # the options, class by class (group, class, position)
    option_class = np.repeat(np.arange(len(redo)), n)
    class_lo = starts_of(n)
    class_hi = class_lo + n
    option_pos = np.arange(len(option_class)) - class_lo[option_class]
    matches = matches_at[redo][option_class]
    first_pair = pair_at[redo][option_class] + option_pos * matches
    unary = unary_table[unary_at[redo][option_class] + option_pos]
    # crossings of each option with every option of the later classes of its group (a row each)
    group_end = class_hi[np.append(starts[1:], len(redo)) - 1]
    row_len = group_end[group_of[option_class]] - class_hi[option_class]
    row_start = starts_of(row_len)
    earlier = np.repeat(np.arange(len(option_class)), row_len)
    later = ranges(class_hi[option_class], row_len)
    pair_cross = _chain_crossings(c, redo, starts, group_of, option_class, first_pair, matches, pair_table,
                                  earlier, later)
    # unavoidable: per option, the least crossings with each later class, summed
    later_class = option_class[later]
    run = np.flatnonzero(np.concatenate([[True], (earlier[1:] != earlier[:-1])
                                         | (later_class[1:] != later_class[:-1])]))
    run_min = np.minimum.reduceat(pair_cross, run) if len(earlier) else pair_cross
    unavoidable = np.bincount(earlier[run], weights=run_min,
                              minlength=len(option_class)).astype(np.int64)
    k = np.diff(np.append(starts, len(redo)))
    return _Groups(redo, group_of, starts, k, np.arange(len(redo)) - starts[group_of], n, class_lo,
                   class_hi, option_class, option_pos, unary, first_pair, matches, pair_table,
                   row_start, row_len, later, pair_cross, run, unavoidable)


def _chain_crossings(c: _Classes, redo: np.ndarray, starts: np.ndarray, group_of: np.ndarray,
                     option_class: np.ndarray, first_pair: np.ndarray, matches: np.ndarray,
                     pair_table: np.ndarray, earlier: np.ndarray, later: np.ndarray) -> np.ndarray:
    """The crossings of option ``earlier[x]`` with option ``later[x]`` (of another class), per x:
    the earlier option is a chain (its pairs increase on both sides), so of its pairs those before a
    match of the later option on the hypothesis side and those before it on the reference side are
    two prefixes, and the ones crossing it are their difference |P − Q| (the rule of
    :func:`.option_bounds.chain_crossings`): one term per match of the later option, not one per
    pair of matches. A class of a < b words pairs all its hypothesis words, so there P is how many
    of them are before the match, and Q counts the option's reference words before it (b > a: the
    other way round)."""
    e_class = redo[option_class]  # each option's class (index of ``c``'s arrays)
    a = np.asarray(c.shape_a)[c.shape_of[e_class]]
    b = np.asarray(c.shape_b)[c.shape_of[e_class]]
    # below[row[o] + k]: option o's words of its class's larger side among the first k
    size = np.maximum(a, b) + 1
    row = starts_of(size)
    chosen = pair_table[ranges(first_pair, matches)]
    local = chosen - c.at[np.repeat(e_class, matches)]
    width = np.repeat(b, matches)
    rank = np.where(np.repeat(a < b, matches), local % width, local // width)
    below = np.zeros(int(row[-1] + size[-1]) + 1, dtype=np.int64)
    below[np.repeat(row, matches) + rank + 1] = 1
    np.cumsum(below, out=below)
    below[:-1] -= np.repeat(below[row], size)  # each option's counts from 0 (its first cell: none)
    # every (earlier option, match of the later option): what depends on the earlier option only is
    # taken per option pair and read through ``q``; in place where it can (fewer temporaries of the
    # matches' length: fewer page faults)
    n = matches[later]
    q = np.repeat(np.arange(len(earlier)), n)
    m = pair_table[ranges(first_pair[later], n)]
    at = option_class[earlier]
    before_h = _words_before(c, c.hyp_tok, c.shape_a, redo, starts, group_of, at, q, c.pair_h[m])
    before_r = _words_before(c, c.ref_tok, c.shape_b, redo, starts, group_of, at, q, c.pair_r[m])
    by_ref = (a < b)[earlier][q]
    counted = np.where(by_ref, before_r, before_h)
    counted += row[earlier][q]
    counted = below[counted]
    counted -= np.where(by_ref, before_h, before_r)
    return np.bincount(q, weights=np.abs(counted, out=counted), minlength=len(earlier)).astype(np.int64)


def _words_before(c: _Classes, words_tok: np.ndarray, shape_n: list[int], redo: np.ndarray,
                  starts: np.ndarray, group_of: np.ndarray, at: np.ndarray, q: np.ndarray,
                  tokens: np.ndarray) -> np.ndarray:
    """Per x: how many words (one side: ``words_tok``, ``shape_n``) of class ``redo[at[q[x]]]`` come
    before ``tokens[x]`` (a word of the same group), read from one cumulative count per class over
    its group's span of positions."""
    n = np.asarray(shape_n)[c.shape_of]  # every class's words on this side
    offset = starts_of(n)
    first, last = words_tok[offset], words_tok[offset + n - 1]
    lo = np.minimum.reduceat(first[redo], starts)[group_of]
    size = np.maximum.reduceat(last[redo], starts)[group_of] - lo + 2
    table_at = starts_of(size)
    words = n[redo]
    table = np.zeros(int(table_at[-1] + size[-1]), dtype=np.int64)
    table[np.repeat(table_at - lo + 1, words) + words_tok[ranges(offset[redo], words)]] = 1
    np.cumsum(table, out=table)
    table -= np.repeat(table[table_at], size)  # each class's counts from 0 (its first cell: none)
    index = (table_at - lo)[at][q]
    index += tokens
    return table[index]


def _first_descent(g: _Groups) -> tuple[np.ndarray, np.ndarray]:
    """The search's first descent in every group at once, class by class, and per group whether
    no other option's bound is below its total (then it is what the search returns)."""
    huge = np.int64(1) << 40
    n_groups = len(g.starts)
    so_far = np.zeros(n_groups, dtype=np.int64)
    least = np.full(n_groups, huge)
    picks = np.zeros(len(g.redo), dtype=np.int64)
    given = g.unary.copy()  # each option's cost given the picks so far
    for d in range(int(g.k.max())):
        active = g.starts[g.k > d] + d
        ga = g.group_of[active]
        pick = g.class_lo[active] + np.minimum.reduceat(given * OPTION_CAP + g.option_pos,
                                                        g.class_lo)[active] % OPTION_CAP
        more = g.k[ga] > d + 1
        if more.any():
            bounded = given + g.unavoidable
            later = g.depth > d
            rest = np.bincount(g.group_of[later],
                               weights=np.minimum.reduceat(bounded, g.class_lo)[later],
                               minlength=n_groups).astype(np.int64)
            bounded[pick] = huge
            alternative = np.minimum.reduceat(bounded, g.class_lo)[active]
            gm = ga[more]
            least[gm] = np.minimum(least[gm], (so_far[ga] + rest[ga] + alternative)[more])
        so_far[ga] += given[pick]
        picks[active] = pick
        rows = ranges(g.row_start[pick], g.row_len[pick])
        given[g.later[rows]] += g.pair_cross[rows]
    return picks, least >= so_far


def _settle_parts(c: _Classes, g: _Groups, sure: np.ndarray, give_up: np.ndarray) -> list[np.ndarray]:
    """The groups whose first descent is not proved optimal: the search splits a group where the
    crossings between two classes do not depend on their options and keeps the first option of a
    class left alone; in the other parts every assignment is enumerated, where the segment's parts
    are small (so the aligner's search does not reach search.NODE_CAP: each part takes at most twice its
    assignments); other segments are given up."""
    huge = np.int64(1) << 40
    n_redo = len(g.redo)
    earlier = np.repeat(np.arange(len(g.option_class)), g.row_len)
    if len(earlier):
        run_min = np.minimum.reduceat(g.pair_cross, g.run)
        run_max = np.maximum.reduceat(g.pair_cross, g.run)
    else:
        run_min = run_max = g.pair_cross
    blocks, block_of = unique_inverse(g.option_class[earlier[g.run]] * n_redo
                                      + g.option_class[g.later[g.run]])
    block_min = np.full(len(blocks), huge)
    block_max = np.zeros(len(blocks), dtype=np.int64)
    np.minimum.at(block_min, block_of, run_min)
    np.maximum.at(block_max, block_of, run_max)
    vary = blocks[block_min != block_max]
    part = components_of(vary // n_redo, vary % n_redo, n_redo)
    order = stable_order(part)  # part by part, classes in order
    part_start = np.flatnonzero(firsts(part[order]))
    part_k = np.diff(np.append(part_start, n_redo))
    size = np.multiply.reduceat(g.n[order].astype(np.float64), part_start)
    part_seg = c.seg[g.redo[order[part_start]]]
    cap = min(ENUM_CAP, search.NODE_CAP // 2)
    small = np.bincount(part_seg, weights=size * (part_k > 1), minlength=len(give_up))[part_seg] <= cap
    fail = ~sure[g.group_of[order[part_start]]]
    give_up[part_seg[fail & ~small]] = True
    kept = [g.class_lo[order[part_start[fail & small & (part_k == 1)]]]]
    enum = fail & small & (part_k > 1)
    if enum.any():
        kept.append(_enumerated(order[np.repeat(enum, part_k)], part_k[enum], g))
    return kept


def _option_tables(c: _Classes, classes: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each class's options cheapest first (stable), for ``classes``: (option costs, options' pairs
    (indices into the pair arrays), and per class the start of its costs, the start of its pairs,
    its matches per option)."""
    unary_at, pair_at, matches_at = (np.zeros(len(c.at), dtype=np.int64) for _ in range(3))
    unary_table, pair_table = [], []
    shape = c.shape_of[classes]
    by_shape = classes[np.argsort(shape, kind="stable")]
    ends = np.cumsum(np.bincount(shape, minlength=len(c.shape_a))).tolist()
    unary_off = pair_off = 0
    for t, (lo, hi) in enumerate(zip([0, *ends], ends)):
        if hi == lo:
            continue
        members = by_shape[lo:hi]
        rows = ordered_rows(c.shape_a[t], c.shape_b[t])
        n_opt, n_match = rows.shape
        edges = c.at[members][:, None, None] + rows
        costs = np.add.reduce(c.cost[edges], axis=2)
        srt = np.argsort(costs, axis=1, kind="stable")
        unary_table.append(np.take_along_axis(costs, srt, 1).reshape(-1))
        pair_table.append(np.take_along_axis(edges, srt[:, :, None], 1).reshape(-1))
        unary_at[members] = unary_off + np.arange(len(members)) * n_opt
        pair_at[members] = pair_off + np.arange(len(members)) * (n_opt * n_match)
        matches_at[members] = n_match
        unary_off += len(members) * n_opt
        pair_off += len(members) * n_opt * n_match
    return np.concatenate(unary_table), np.concatenate(pair_table), unary_at, pair_at, matches_at


def _strides(n_options: list[int], starts: list[int], k: list[int]) -> np.ndarray:
    """Stride of each class in its group's assignments: the product of the later classes' counts."""
    stride = [0] * len(n_options)
    for g0, kg in zip(starts, k):
        prod = 1
        for i in range(g0 + kg - 1, g0 - 1, -1):
            stride[i] = prod
            prod *= n_options[i]
    return np.array(stride, dtype=np.int64)


def _enumerated(classes: np.ndarray, k: np.ndarray, g: _Groups) -> np.ndarray:
    """The options the search keeps for groups of linked classes, found by enumerating every
    assignment: ``classes`` (indices into ``g.redo``) group by group (``k`` each) in order.

    The search returns the first assignment of least total crossings in its depth-first order, and
    it visits assignments in the lexicographic order of their sequence of (option's cost given the
    earlier classes' options, option's cheapest-first position), class by class; so the least
    assignment by (total, that sequence) is taken. Returns the option kept for each class.
    """
    starts = starts_of(k)
    n_options = g.n[classes]
    size = np.multiply.reduceat(n_options, starts)
    stride = _strides(n_options.tolist(), starts.tolist(), k.tolist())
    work = np.cumsum(size * k).tolist()  # groups in batches of bounded work (assignments × classes)
    out = []
    lo, done = 0, 0
    while lo < len(k):
        hi = max(lo + 1, bisect_left(work, done + ENUM_BATCH + 1))
        done = work[hi - 1]
        batch = np.arange(int(starts[lo]), int(starts[hi - 1] + k[hi - 1]))  # the batch's classes
        out.append(_enumerate_batch(g, classes[batch], k[lo:hi], size[lo:hi], n_options[batch],
                                    stride[batch]))
        lo = hi
    return np.concatenate(out)


def _prefix_costs(g: _Groups, classes: np.ndarray, group_first: np.ndarray, group: np.ndarray,
                  n_options: np.ndarray, stride: np.ndarray, size: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each prefix (choices of the classes up to one) once: its last choice's option and cost given
    the others; and where each class's prefixes start. The crossings with the earlier choices are
    added one earlier class (depth in its group) at a time: arrays of the prefixes, not of their
    (prefix, earlier class) pairs."""
    n_prefix = size[group] // stride
    prefix_start = starts_of(n_prefix)
    prefix_class = np.repeat(np.arange(len(classes)), n_prefix)
    prefix_id = np.arange(len(prefix_class)) - prefix_start[prefix_class]
    option = g.class_lo[classes[prefix_class]] + prefix_id % n_options[prefix_class]
    depth = prefix_class - group_first[group[prefix_class]]  # the earlier classes of the prefix
    cost = g.unary[option]
    for e in range(int(depth.max(initial=0))):  # the prefixes' earlier class at depth e
        which = np.flatnonzero(depth > e)
        last = prefix_class[which]
        earlier = group_first[group[last]] + e
        earlier_option = g.class_lo[classes[earlier]] + (
            prefix_id[which] // (stride[earlier] // stride[last])) % n_options[earlier]
        cost[which] += g.pair_cross[g.row_start[earlier_option] + option[which]
                                    - g.class_hi[classes[earlier]]]
    return option, cost, prefix_start


def _enumerate_batch(g: _Groups, classes: np.ndarray, k: np.ndarray, size: np.ndarray,
                     n_options: np.ndarray, stride: np.ndarray) -> np.ndarray:
    """:func:`_enumerated` of one batch of groups (arrays of the batch's classes), depth by depth
    (a class's place in its group): arrays of the batch's assignments, not of their (assignment,
    class) pairs."""
    n_groups = len(k)
    group_first = starts_of(k)  # each group's first class (batch-local)
    group = np.repeat(np.arange(n_groups), k)
    option, cost, prefix_start = _prefix_costs(g, classes, group_first, group, n_options, stride, size)
    # every assignment: its prefixes' costs, their sum, and (cost, position) class by class
    n_assign = int(size.sum())
    assign_group = np.repeat(np.arange(n_groups), size)
    assign_start = starts_of(size)
    assign_local = np.arange(n_assign) - assign_start[assign_group]
    k_of = k[assign_group]
    depths = int(k.max())

    def prefix_rows(d: int, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The prefix (a row of ``option``, ``cost``) of assignments ``which`` up to their class at
        depth d, and that class's option's place among its options."""
        at = group_first[assign_group[which]] + d
        prefix = assign_local[which] // stride[at]
        return prefix_start[at] + prefix, prefix % n_options[at]

    total = np.zeros(n_assign, dtype=cost.dtype)
    for d in range(depths):
        which = np.flatnonzero(k_of > d)
        total[which] += cost[prefix_rows(d, which)[0]]
    optimal = np.flatnonzero(total == np.minimum.reduceat(total, assign_start)[assign_group])
    keys = np.zeros((depths, len(optimal)), dtype=np.int64)
    for d in range(depths):
        sel = np.flatnonzero(k_of[optimal] > d)
        row, place = prefix_rows(d, optimal[sel])
        keys[d, sel] = cost[row] * OPTION_CAP + place
    ranked = np.lexsort((*keys[::-1], assign_group[optimal]))
    best = optimal[ranked[firsts(assign_group[optimal][ranked])]]  # one per group, in group order
    out = np.empty(len(classes), dtype=option.dtype)
    for d in range(depths):
        sel = np.flatnonzero(k > d)
        out[group_first[sel] + d] = option[prefix_rows(d, best[sel])[0]]
    return out
