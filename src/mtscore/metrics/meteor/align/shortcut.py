"""A fast path of one 2005 stage for classes of equal keys: :func:`small_classes_choice` returns what
:func:`.stage.best_stage_matching` returns, computed directly in the common easy case (tested equal to
it: tests/test_meteor_speedpaths.py)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import combinations
from math import comb

from . import stage
from .stage import Edge, crosses, stage_work

#: largest number of options (subsets of a class's larger side) the shortcut enumerates
SMALL_CLASS_OPTIONS = 64


def small_classes_choice(groups: Sequence[tuple[list[int], list[int]]],
                         fixed: Sequence[Edge]) -> list[Edge] | None:
    """What :func:`.stage.best_stage_matching` returns for classes of equal keys (complete bipartite
    components: ``groups`` of increasing hypothesis and reference positions), or None (then ask it).

    Classes of equal size pair in order. A class of a > b words has as options the b-subsets of its
    larger side (``itertools.combinations`` order), paired in order; each option costs its crossings
    with the fixed matches and the in-order pairs; the first cheapest is kept — best_stage_matching's
    stable order. With one such class that is its answer; with several it is the answer when the kept
    options do not cross one another (their total is then the least possible, and the aligner's
    search takes every class's cheapest option first). Otherwise, when a class has more than
    ``SMALL_CLASS_OPTIONS`` options, or past the stage's work budget (``STAGE_WORK``), None.
    """
    base = list(fixed)
    uneven = []
    for a, b in groups:
        if len(a) == len(b):
            base.extend(zip(a, b))
        elif comb(max(len(a), len(b)), min(len(a), len(b))) > SMALL_CLASS_OPTIONS:
            return None
        else:
            uneven.append((a, b))
    if stage_work(sum(len(a) * len(b) for a, b in uneven), len(base)) > stage.STAGE_WORK:
        return None
    chosen = base[len(fixed):]
    picked: list[Edge] = []
    by_hyp = sorted(base)
    hyp_positions = [k for k, _ in by_hyp]
    ref_positions = sorted([l for _, l in by_hyp])
    for a, b in uneven:
        # crossings of (i, j) with the base: with p base matches left of i, q below j and c both,
        # (p − c) cross above-left and (q − c) below-right: p + q − 2c
        costs: dict[Edge, int] = {}
        below = [bisect_left(ref_positions, j) for j in b]
        for i in a:
            left = bisect_left(hyp_positions, i)
            left_refs = sorted([l for _, l in by_hyp[:left]])
            for j, q in zip(b, below):
                costs[i, j] = left + q - 2 * bisect_left(left_refs, j)
        if len(a) > len(b):
            options = [list(zip(sub, b)) for sub in combinations(a, len(b))]
        else:
            options = [list(zip(a, sub)) for sub in combinations(b, len(a))]
        cost = costs.__getitem__
        totals = [sum(map(cost, option)) for option in options]
        option = options[totals.index(min(totals))]
        if picked and any(crosses(i, j, k, l) for i, j in option for k, l in picked):
            return None
        picked.extend(option)
    return sorted(chosen + picked)
