"""The 2005 stages of a whole corpus at once, with numpy: an acceleration of :mod:`.stage`.

Specification: for every segment, the matches equal those of running the stages one segment at a
time with :func:`.stage.best_stage_matching` (classes of equal keys given as ``groups`` in order of
first reference word; a key-set stage's candidate pairs, or :func:`.stage.greedy_matching` past the
stage's work budget) — ``tests/test_meteor_uneven.py`` (corpus stages against the per-segment
aligner) and ``benchmarks/meteor_align.py`` (corpus mode against study mode) check it.
``METEOR(fast=False)`` turns this module off.

At a stage of an equivalence module (exact, porter, stem: one key per word), the words no earlier
stage matched fall into classes of equal keys (§2.2); a class with as many hypothesis as reference
words has one option, the in-order pairing (what best_stage_matching returns for it whatever the fixed
matches), so the even classes of every segment are paired at once. A segment's *uneven* classes are
then chosen as best_stage_matching chooses them — it gets only them, with the even pairs among the
fixed matches, which changes nothing: the even pairs are in every option and enter the costs only as
fixed crossings — for every segment at once (:func:`.classes.class_choices`; best_stage_matching
itself only for the segments that leaves). A following key-set stage (synonym, wn_stem) is joined
with numpy too (:func:`_key_set_stage`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, overload

import numpy as np

from ....ragged import ranges
from ..word_ids import WordIds
from . import stage
from .arrays import components_of, firsts, stable_order, starts_of, unique, unique_inverse
from .classes import class_choices
from .stage import Edge, GreedyMatching, best_stage_matching, greedy_matching

#: matches as (hyp tokens, ref tokens, stage) per stage, flat token indices
Found = list[tuple[np.ndarray, np.ndarray, int]]
#: the fixed matches by segment: (segment, hyp token, ref token)
BySegment = tuple[np.ndarray, np.ndarray, np.ndarray]


class Tokens(NamedTuple):
    """A corpus's words as flat arrays: word ids, segment, position in it, and each segment's start,
    for both sides (``hyp_*``, ``ref_*``)."""

    hyp_ids: np.ndarray
    ref_ids: np.ndarray
    hyp_seg: np.ndarray
    ref_seg: np.ndarray
    hyp_pos: np.ndarray
    ref_pos: np.ndarray
    hyp_start: np.ndarray
    ref_start: np.ndarray

    @classmethod
    def of(cls, hyp: Sequence[Sequence[int]] | WordIds, ref: Sequence[Sequence[int] | None]) -> Tokens:
        h, r = WordIds.of(hyp), WordIds.of(ref)
        n = len(h)
        hyp_start, ref_start = h.starts(), r.starts()
        return cls(h.ids, r.ids, np.repeat(np.arange(n), h.lengths), np.repeat(np.arange(n), r.lengths),
                   np.arange(len(h.ids)) - np.repeat(hyp_start, h.lengths),
                   np.arange(len(r.ids)) - np.repeat(ref_start, r.lengths), hyp_start, ref_start)

    @property
    def segments(self) -> int:
        return len(self.hyp_start)

    def lengths(self) -> tuple[np.ndarray, np.ndarray]:
        """Each segment's number of hypothesis and of reference words."""
        return (np.diff(self.hyp_start, append=len(self.hyp_ids)),
                np.diff(self.ref_start, append=len(self.ref_ids)))


class CorpusMatches(Sequence[list[tuple[int, int, int]]]):
    """The matches :func:`even_class_stages` found, as flat arrays: each match's ``segment``,
    ``hyp_tok`` and ``ref_tok`` (flat token indices of ``tokens``) and ``stage``, by segment and
    within a segment stage by stage. As a sequence, item ``s`` is segment s's matches as
    (hyp position, ref position, stage) triples in that order."""

    def __init__(self, tokens: Tokens, segment: np.ndarray, hyp_tok: np.ndarray, ref_tok: np.ndarray,
                 stage: np.ndarray):
        self.tokens, self.segment, self.hyp_tok, self.ref_tok, self.stage = \
            tokens, segment, hyp_tok, ref_tok, stage
        self._lists: tuple[list[int], list[int], list[int], list[int]] | None = None

    @classmethod
    def of(cls, t: Tokens, found: Found) -> CorpusMatches:
        """The matches of ``found`` (per stage: hyp tokens, ref tokens), ordered by segment (stable)."""
        segment, hyp_tok, ref_tok, order = _by_segment(found, t)
        stage = np.concatenate([np.full(len(f[0]), f[2]) for f in found])[order] if found else order
        return cls(t, segment, hyp_tok, ref_tok, stage)

    def __len__(self) -> int:
        return self.tokens.segments

    @overload
    def __getitem__(self, s: int) -> list[tuple[int, int, int]]: ...

    @overload
    def __getitem__(self, s: slice) -> list[list[tuple[int, int, int]]]: ...

    def __getitem__(self, s: int | slice) -> Any:
        if isinstance(s, slice):
            return [self[i] for i in range(*s.indices(len(self)))]
        if self._lists is None:  # the first lookup: the columns as lists, for fast slicing
            ends = np.cumsum(np.bincount(self.segment, minlength=len(self)))
            self._lists = ([0, *ends.tolist()], self.tokens.hyp_pos[self.hyp_tok].tolist(),
                           self.tokens.ref_pos[self.ref_tok].tolist(), self.stage.tolist())
        bounds, i, j, k = self._lists
        lo, hi = bounds[s], bounds[s + 1]
        return list(zip(i[lo:hi], j[lo:hi], k[lo:hi]))


def even_class_stages(hyp: Sequence[Sequence[int]] | WordIds, ref: Sequence[Sequence[int] | None],
                      keys: Sequence[np.ndarray], resolve: bool = True,
                      then: Callable[[list[int]], list[frozenset]] | None = None,
                      fallbacks: set[int] | None = None
                      ) -> tuple[list[int], CorpusMatches]:
    """Leading stages of equivalence modules for every segment of a corpus at once (module doc).

    ``hyp[s]``, ``ref[s]``: word ids of segment s (``ref[s]`` None: no reference); ``keys[k]``: stage
    k's key code of every word id. With ``resolve=False`` a segment stops instead at its first stage
    with an uneven class (its matches so far kept) for the caller to go on. ``then``: the key sets of
    a list of word ids for one more stage after them (synonym, wn_stem: words match when their sets
    meet; with ``resolve`` only). ``fallbacks``: gets the segments a stage of which was matched by
    the bounded fallback (:func:`.stage.greedy_matching`).

    Returns per segment the stage it stopped at (``len(keys)``: none) and its matches before that
    stage (:class:`CorpusMatches`: item s is segment s's as (hyp index, ref index, stage) triples).
    """
    t = Tokens.of(hyp, ref)
    n_stages = len(keys)
    stop = np.full(t.segments, n_stages, dtype=np.int64)
    hyp_free, ref_free = np.ones(len(t.hyp_ids), dtype=bool), np.ones(len(t.ref_ids), dtype=bool)
    found: Found = []
    fallbacks = set() if fallbacks is None else fallbacks
    for k, key in enumerate(keys):
        hyp_sel = np.flatnonzero(hyp_free & (stop[t.hyp_seg] == n_stages))
        ref_sel = np.flatnonzero(ref_free & (stop[t.ref_seg] == n_stages))
        if not len(hyp_sel) or not len(ref_sel):
            break
        for h, r in _class_stage(t, key, hyp_sel, ref_sel, stop, k, n_stages, resolve, found,
                                 fallbacks):
            hyp_free[h] = False
            ref_free[r] = False
            found.append((h, r, k))
    if then is not None and resolve:
        hyp_sel, ref_sel = np.flatnonzero(hyp_free), np.flatnonzero(ref_free)
        if len(hyp_sel) and len(ref_sel):
            h, r = _key_set_stage(then, t, hyp_sel, ref_sel, found, fallbacks)
            found.append((h, r, n_stages))
        stop[:] = n_stages + 1
    return stop.tolist(), CorpusMatches.of(t, found)


def _class_stage(t: Tokens, key: np.ndarray, hyp_sel: np.ndarray, ref_sel: np.ndarray,
                 stop: np.ndarray, k: int, n_stages: int, resolve: bool, found: Found,
                 fallbacks: set[int]) -> list[tuple[np.ndarray, np.ndarray]]:
    """One equivalence stage over the free tokens ``*_sel`` of every segment: its matches (the even
    classes' pairs, then the uneven classes' choices), or with ``resolve=False`` the even pairs of
    the segments without uneven classes (the others get ``stop`` = k)."""
    hyp_keys, ref_keys = key[t.hyp_ids[hyp_sel]], key[t.ref_ids[ref_sel]]
    n_keys = int(max(hyp_keys.max(), ref_keys.max())) + 1
    # one code per (segment, key): the classes; the selections are in (segment, position) order
    codes, inverse = unique_inverse(np.concatenate([t.hyp_seg[hyp_sel] * n_keys + hyp_keys,
                                                    t.ref_seg[ref_sel] * n_keys + ref_keys]))
    hyp_class, ref_class = inverse[:len(hyp_sel)], inverse[len(hyp_sel):]
    n_hyp = np.bincount(hyp_class, minlength=len(codes))
    n_ref = np.bincount(ref_class, minlength=len(codes))
    both = (n_hyp > 0) & (n_ref > 0)
    uneven = both & (n_hyp != n_ref)
    if not resolve:
        stop[codes[uneven] // n_keys] = k
    pair = both & ~uneven & (stop[codes // n_keys] == n_stages)
    hyp_in, ref_in = pair[hyp_class], pair[ref_class]
    # even classes: the n-th hypothesis word of a class with its n-th reference word
    out = [(hyp_sel[hyp_in][stable_order(hyp_class[hyp_in])],
            ref_sel[ref_in][stable_order(ref_class[ref_in])])]
    if resolve and uneven.any():
        fixed = _by_segment([*found, (*out[0], k)], t)[:3]
        out.append(_uneven_classes(t, uneven, n_hyp, n_ref, hyp_sel, hyp_class, ref_sel, ref_class,
                                   fixed, fallbacks))
    return out


def _uneven_classes(t: Tokens, uneven: np.ndarray, n_hyp: np.ndarray, n_ref: np.ndarray,
                    hyp_sel: np.ndarray, hyp_class: np.ndarray, ref_sel: np.ndarray,
                    ref_class: np.ndarray, fixed: BySegment, fallbacks: set[int]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The matches of one stage's uneven classes (flat token indices, in flat order) as
    best_stage_matching picks them in each segment, given only them (in order of first reference
    word), the segment's matches so far (``fixed``) fixed: :func:`.classes.class_choices` for every
    segment at once, the segments it gives up on one by one."""
    hyp_in, ref_in = uneven[hyp_class], uneven[ref_class]
    # the uneven classes' words, class by class (classes by segment), positions increasing
    hyp_tok = hyp_sel[hyp_in][stable_order(hyp_class[hyp_in])]
    ref_tok = ref_sel[ref_in][stable_order(ref_class[ref_in])]
    classes = np.flatnonzero(uneven)
    a, b = n_hyp[classes], n_ref[classes]
    seg = t.hyp_seg[hyp_tok[starts_of(a)]]
    give_up = np.zeros(t.segments, dtype=bool)
    first_ref = ref_tok[starts_of(b)]
    chosen_h, chosen_r = class_choices(seg, first_ref, a, b, hyp_tok, ref_tok, fixed, give_up)
    if not give_up.any():
        return chosen_h, chosen_r
    # the others: best_stage_matching with the classes in order of first reference word
    hyp_off, ref_off = starts_of(a).tolist(), starts_of(b).tolist()
    back = np.flatnonzero(give_up[seg])
    back = back[np.argsort(first_ref[back], kind="stable")].tolist()
    hyp_at, ref_at = t.hyp_pos[hyp_tok].tolist(), t.ref_pos[ref_tok].tolist()
    a_list, b_list, seg_list = a.tolist(), b.tolist(), seg.tolist()
    groups: dict[int, list[tuple[list[int], list[int]]]] = {}
    for c in back:
        groups.setdefault(seg_list[c], []).append((hyp_at[hyp_off[c]:hyp_off[c] + a_list[c]],
                                                   ref_at[ref_off[c]:ref_off[c] + b_list[c]]))
    more_h, more_r = _one_by_one(
        groups, fixed, t, lambda gs, fx: best_stage_matching([(x[0], y[0]) for x, y in gs], fx, gs),
        fallbacks)
    return _flat_order(np.concatenate([chosen_h, more_h]), np.concatenate([chosen_r, more_r]))


def _by_segment(found: Found, t: Tokens) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The matches so far (flat token indices) as (segment, hyp token, ref token), by segment
    (stable: in ``found`` order within a segment), and that order of ``found``'s matches."""
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    fh = np.concatenate([f[0] for f in found])
    s = t.hyp_seg[fh]
    order = stable_order(s)
    return s[order], fh[order], np.concatenate([f[1] for f in found])[order], order


def _one_by_one(work: dict[int, Any], fixed: BySegment, t: Tokens,
                solve: Callable[[Any, list[Edge]], list[Edge]], fallbacks: set[int]
                ) -> tuple[np.ndarray, np.ndarray]:
    """``solve(work[s], fixed matches of s as positions)`` for each segment s of ``work`` (in
    order); its matches (positions) as flat token indices. Segments matched by the fallback are
    added to ``fallbacks``."""
    f_seg, f_h, f_r = fixed
    segs = sorted(work)
    lo = np.searchsorted(f_seg, segs, "left").tolist()
    hi = np.searchsorted(f_seg, segs, "right").tolist()
    hyp_start, ref_start = t.hyp_start.tolist(), t.ref_start.tolist()
    fh, fr = t.hyp_pos[f_h].tolist(), t.ref_pos[f_r].tolist()
    out_h: list[int] = []
    out_r: list[int] = []
    for s, x, y in zip(segs, lo, hi):
        chosen = solve(work[s], list(zip(fh[x:y], fr[x:y])))
        if isinstance(chosen, GreedyMatching):
            fallbacks.add(s)
        out_h.extend(hyp_start[s] + i for i, _ in chosen)
        out_r.extend(ref_start[s] + j for _, j in chosen)
    return np.array(out_h, dtype=np.int64), np.array(out_r, dtype=np.int64)


def _flat_order(h: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Matches (flat tokens, one per hypothesis word) by segment and position."""
    order = stable_order(h)
    return h[order], r[order]


class _KeySets(NamedTuple):
    """The key sets of a stage's words: per distinct word id, its keys as codes (``codes[start[w]:
    start[w] + size[w]]``), ``at[id]`` the distinct index of a word id."""

    codes: np.ndarray
    start: np.ndarray
    size: np.ndarray
    at: np.ndarray
    n_codes: int
    sets: list[frozenset]

    @classmethod
    def of(cls, key_of: Callable[[list[int]], list[frozenset]], words: np.ndarray) -> _KeySets:
        sets = key_of(words.tolist())
        every = [c for ks in sets for c in ks]
        if every and type(every[0]) is int:  # integer keys (synset offsets): numbered by one sort
            codes = unique_inverse(np.fromiter(every, np.int64, len(every)))[1]
            n_codes = int(codes.max()) + 1
        else:
            numbers = dict(zip(dict.fromkeys(every), range(len(every))))
            n_codes = max(len(numbers), 1)
            codes = np.fromiter(map(numbers.__getitem__, every), np.int64, len(every))
        size = np.fromiter(map(len, sets), np.int64, len(sets))
        at = np.zeros(int(words[-1]) + 1, dtype=np.int64)
        at[words] = np.arange(len(words))
        return cls(codes, starts_of(size), size, at, n_codes, sets)

    def explode(self, sel: np.ndarray, ids: np.ndarray, seg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(token, segment · n_codes + key code) for every key of every token of ``sel``."""
        w = self.at[ids[sel]]
        n = self.size[w]
        tok = np.repeat(sel, n)
        return tok, seg[tok] * self.n_codes + self.codes[ranges(self.start[w], n)]


def _key_set_stage(key_of: Callable[[list[int]], list[frozenset]], t: Tokens, hyp_sel: np.ndarray,
                   ref_sel: np.ndarray, found: Found, fallbacks: set[int]
                   ) -> tuple[np.ndarray, np.ndarray]:
    """One stage of a set-valued module over the free words ``*_sel`` (flat token indices) of every
    segment: the matches, as flat token indices in flat order.

    What the per-segment stage returns: past the stage's work budget (key pairs, as
    :func:`.stage.key_set_stage` counts them) :func:`.stage.greedy_matching`; else best_stage_matching
    of the candidate pairs, the matches so far fixed: a segment where no word has two candidates takes
    them all; otherwise the candidate graph's components are found for all segments at once, and where
    every component is complete bipartite components of a × a words pair in order and the others are
    chosen by :func:`.classes.class_choices`; the remaining segments go to best_stage_matching one by
    one."""
    keys = _KeySets.of(key_of, unique(np.concatenate([t.hyp_ids[hyp_sel], t.ref_ids[ref_sel]])))
    hyp_tok, hyp_code = keys.explode(hyp_sel, t.hyp_ids, t.hyp_seg)
    ref_tok, ref_code = keys.explode(ref_sel, t.ref_ids, t.ref_seg)
    if not len(hyp_code) or not len(ref_code):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    # the words of one segment sharing a key: both sides' (token, key) sorted together by key,
    # hypothesis entries first in each run of one key, each paired with the run's reference entries
    order = stable_order(np.concatenate([hyp_code, ref_code]))
    run = np.cumsum(firsts(np.concatenate([hyp_code, ref_code])[order])) - 1
    is_hyp = order < len(hyp_code)
    run_h = np.bincount(run[is_hyp], minlength=run[-1] + 1)
    run_r = np.bincount(run, minlength=run[-1] + 1) - run_h
    run_seg = np.concatenate([hyp_code, ref_code])[order][firsts(run)] // keys.n_codes
    over = _over_budget(np.bincount(run_seg, weights=run_h * run_r, minlength=t.segments),
                        _matches_per_segment(found, t))
    out_h, out_r = [], []
    if over.any():
        fallbacks.update(np.flatnonzero(over).tolist())
        greedy = _greedy_segments(np.flatnonzero(over), keys, t, hyp_sel, ref_sel)
        out_h.append(greedy[0])
        out_r.append(greedy[1])
        keep = ~over[run_seg[run]]
        order, run, is_hyp = order[keep], run[keep], is_hyp[keep]
    hyp_run = run[is_hyp]
    cnt = run_r[hyp_run]
    first_ref = np.flatnonzero(firsts(run))[np.searchsorted(run[firsts(run)], hyp_run)] \
        + run_h[hyp_run]  # the run's first reference entry
    eh = np.repeat(hyp_tok[order[is_hyp]], cnt)
    er = ref_tok[order[ranges(first_ref, cnt)] - len(hyp_code)]
    h, r = _pairs_stage(eh, er, t, found, fallbacks)
    return _flat_order(np.concatenate([*out_h, h]), np.concatenate([*out_r, r]))


def _over_budget(pairs: np.ndarray, fixed: np.ndarray) -> np.ndarray:
    """Per segment: whether the stage's work (:func:`.stage.stage_work`) is over ``STAGE_WORK``."""
    return pairs * (pairs + fixed) > stage.STAGE_WORK


def _matches_per_segment(found: Found, t: Tokens) -> np.ndarray:
    """How many matches each segment has so far."""
    if not found:
        return np.zeros(t.segments, dtype=np.int64)
    return np.bincount(t.hyp_seg[np.concatenate([f[0] for f in found])], minlength=t.segments)


def _greedy_segments(segments: np.ndarray, keys: _KeySets, t: Tokens, hyp_sel: np.ndarray,
                     ref_sel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`.stage.greedy_matching` of the free words of ``segments`` (flat token indices)."""
    out_h: list[int] = []
    out_r: list[int] = []
    hyp_sel = hyp_sel[np.isin(t.hyp_seg[hyp_sel], segments)]
    ref_sel = ref_sel[np.isin(t.ref_seg[ref_sel], segments)]
    for s in segments.tolist():
        hs = hyp_sel[t.hyp_seg[hyp_sel] == s].tolist()
        rs = ref_sel[t.ref_seg[ref_sel] == s].tolist()
        hyp_keys = [(x, keys.sets[keys.at[t.hyp_ids[x]]]) for x in hs]
        ref_keys = [(y, keys.sets[keys.at[t.ref_ids[y]]]) for y in rs]
        for x, y in greedy_matching(hyp_keys, ref_keys):
            out_h.append(x)
            out_r.append(y)
    return np.array(out_h, dtype=np.int64), np.array(out_r, dtype=np.int64)


def _pairs_stage(eh: np.ndarray, er: np.ndarray, t: Tokens, found: Found, fallbacks: set[int]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """best_stage_matching of every segment's candidate pairs (flat hyp and ref tokens)."""
    empty = np.zeros(0, dtype=np.int64)
    if not len(eh):
        return empty, empty
    # distinct candidate pairs, by segment, hypothesis then reference position (flat order)
    n_ref_tokens = len(t.ref_ids)
    pairs = unique(eh * n_ref_tokens + er)
    eh, er = pairs // n_ref_tokens, pairs % n_ref_tokens
    seg = t.hyp_seg[eh]
    n_edges = np.bincount(seg, minlength=t.segments)
    n_hyp = np.bincount(t.hyp_seg[eh[firsts(eh)]], minlength=t.segments)  # eh is sorted
    n_ref = np.bincount(t.ref_seg[unique(er)], minlength=t.segments)
    forced = (n_edges == n_hyp) & (n_edges == n_ref)  # no word has two candidates: all of them
    take = forced[seg]
    if take.all():
        return eh, er
    out_h, out_r = [eh[take]], [er[take]]
    eh, er, seg = eh[~take], er[~take], seg[~take]
    h, r, give_up = _complete_components(eh, er, t, found)
    out_h.append(h)
    out_r.append(r)
    if give_up.any():
        back = give_up[seg]
        work: dict[int, list[Edge]] = {}
        for s, i, j in zip(seg[back].tolist(), t.hyp_pos[eh[back]].tolist(),
                           t.ref_pos[er[back]].tolist()):
            work.setdefault(s, []).append((i, j))
        more = _one_by_one(work, _by_segment(found, t)[:3], t, best_stage_matching, fallbacks)
        out_h.append(more[0])
        out_r.append(more[1])
    return np.concatenate(out_h), np.concatenate(out_r)


def _complete_components(eh: np.ndarray, er: np.ndarray, t: Tokens, found: Found
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The candidate graphs' components (numbered by least hypothesis token): where every one of a
    segment's is complete bipartite, a × a pair in order and the others go to class_choices; the
    matches, and the segments given up (a component not complete, or class_choices gave up)."""
    first = firsts(eh)
    hyp_nodes, hyp_of = eh[first], np.cumsum(first) - 1
    ref_nodes, ref_of = unique_inverse(er)
    n_hyp_nodes = len(hyp_nodes)
    comp = components_of(hyp_of, n_hyp_nodes + ref_of, n_hyp_nodes + len(ref_nodes))
    comp_h, comp_r = comp[:n_hyp_nodes], comp[n_hyp_nodes:]
    a, b = np.bincount(comp_h), np.bincount(comp_r)
    hyp_tok = hyp_nodes[stable_order(comp_h)]
    comp_seg = t.hyp_seg[hyp_tok[starts_of(a)]]
    give_up = np.zeros(t.segments, dtype=bool)
    give_up[comp_seg[np.bincount(comp_h[hyp_of], minlength=len(a)) != a * b]] = True  # not complete
    ref_tok = ref_nodes[stable_order(comp_r)]
    even = a == b
    hyp_even, ref_even = np.repeat(even, a), np.repeat(even, b)
    pair_h, pair_r = hyp_tok[hyp_even], ref_tok[ref_even]  # a × a components: in order
    fixed = _by_segment([*found, (pair_h, pair_r, -1)], t)[:3]
    un = np.flatnonzero(~even)
    chosen_h, chosen_r = class_choices(comp_seg[un], un, a[un], b[un], hyp_tok[~hyp_even],
                                       ref_tok[~ref_even], fixed, give_up)
    keep = ~give_up[t.hyp_seg[pair_h]]
    return np.concatenate([pair_h[keep], chosen_h]), np.concatenate([pair_r[keep], chosen_r]), give_up
