"""TER's edit count for one (hypothesis, reference) pair: tercom's algorithm as sacreBLEU 2.6.0
ports it (Snover et al., 2006, §2; tercom's ``TERcalc.java``). The rule, segment by segment in plain
Python; :mod:`.fast` runs the same rule for a whole corpus at once and is tested against it.

TER = (insertions + deletions + substitutions + shifts) / reference words. Snover et al. §2: the
minimum is approximated greedily:

1. :func:`beam_edit_distance`: word-level Levenshtein distance (all costs 1) computed only within a
   beam of ``BEAM_WIDTH`` cells on each side of the "pseudo-diagonal" ⌊i · m / n⌋ (the whole last
   row); on ties a match or substitution wins over a hypothesis word left out ("deletion"), which
   wins over a reference word added ("insertion");
2. :func:`alignment`: the edit path read back from the end gives, per reference word, the
   hypothesis word it is aligned with, and which words of either side are errors;
3. :func:`shift_candidates`: a block of 1..``MAX_SHIFT_SIZE`` words that also occurs in the
   reference, starting at most ``MAX_SHIFT_DIST`` words away, holding a hypothesis error and
   covering a reference error, not aligned inside itself, moved next to the hypothesis word
   aligned with each reference position -1 .. its length - 1 of its reference occurrence;
4. :func:`translation_edit_rate`: the candidate that lowers the edit distance most (ties: the
   longer block, the earlier block, the earlier target) is applied and the search repeats, until
   no shift helps or ``MAX_SHIFT_CANDIDATES`` candidates have been tried in all (then the last
   search's shift is not applied: sacreBLEU's limit); edits = shifts + the final distance.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

BEAM_WIDTH = 25
MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
MAX_SHIFT_CANDIDATES = 1000
#: sacreBLEU's "infinite" distance of cells outside the beam
INFINITY = 10 ** 16

#: edit operations: match, substitution, deletion (a hypothesis word), insertion (a reference
#: word), and none (a cell outside the beam)
NOP, SUB, DEL, INS, UNDEF = 0, 1, 2, 3, 4


def beam(i: int, n: int, m: int) -> tuple[int, int]:
    """Columns ``lo .. hi - 1`` of row i (hypothesis words 1..i) computed by the beam search."""
    ratio = m / n if n else 1
    width = math.ceil(ratio / 2 + BEAM_WIDTH) if ratio / 2 > BEAM_WIDTH else BEAM_WIDTH
    diagonal = math.floor(i * ratio)
    hi = m + 1 if i == n else min(m + 1, diagonal + width)
    return max(0, diagonal - width), hi


def beam_edit_distance(hyp: Sequence[object], ref: Sequence[object]
                       ) -> tuple[int, list[list[int]]]:
    """The beam-limited word edit distance and the operation of every cell (rows: hypothesis
    words 0..n, columns: reference words 0..m)."""
    n, m = len(hyp), len(ref)
    row = list(range(m + 1))
    ops = [[INS] * (m + 1)]
    for i in range(1, n + 1):
        lo, hi = beam(i, n, m)
        new, new_ops = [INFINITY] * (m + 1), [UNDEF] * (m + 1)
        for j in range(lo, hi):
            if j == 0:
                new[0], new_ops[0] = row[0] + 1, DEL
                continue
            best, op = INFINITY, UNDEF
            for cost, kind in ((row[j - 1] + (hyp[i - 1] != ref[j - 1]), SUB),
                               (row[j] + 1, DEL), (new[j - 1] + 1, INS)):
                if best > cost:
                    best, op = cost, kind
            if op == SUB and hyp[i - 1] == ref[j - 1]:
                op = NOP
            new[j], new_ops[j] = best, op
        row = new
        ops.append(new_ops)
    return row[m], ops


def alignment(ops: list[list[int]], n: int, m: int) -> tuple[list[int], list[int], list[int]]:
    """The edit path from cell (n, m) back to (0, 0): per reference word the index of the
    hypothesis word it is aligned with (-1: before the first), and 1 for every hypothesis and
    reference word that is not matched."""
    align, hyp_err, ref_err = [0] * m, [1] * n, [1] * m
    i, j = n, m
    while i > 0 or j > 0:
        op = ops[i][j]
        if op in (NOP, SUB):
            hyp_err[i - 1] = ref_err[j - 1] = int(op == SUB)
            align[j - 1] = i - 1
            i, j = i - 1, j - 1
        elif op == DEL:
            i -= 1
        elif op == INS:
            align[j - 1] = i - 1
            j -= 1
        else:
            raise ValueError(f"the edit path left the beam at ({i}, {j})")
    return align, hyp_err, ref_err


def shift_candidates(hyp: Sequence[object], ref: Sequence[object], align: list[int],
                     hyp_err: list[int], ref_err: list[int]) -> Iterator[list[tuple[int, int, int]]]:
    """Per matching block in tercom's order (hypothesis start, reference start, length), the
    shifts it allows as (start, length, target): the block moved before hypothesis word
    ``target``."""
    n, m = len(hyp), len(ref)
    for a in range(n):
        for b in range(max(0, a - MAX_SHIFT_DIST), min(m, a + MAX_SHIFT_DIST + 1)):
            length = 0
            while length < MAX_SHIFT_SIZE and a + length < n and b + length < m \
                    and hyp[a + length] == ref[b + length]:
                length += 1
                if not any(hyp_err[a:a + length]) or not any(ref_err[b:b + length]) \
                        or a <= align[b] < a + length:
                    continue
                shifts, previous = [], -1
                for offset in range(-1, length):
                    target = 0 if b + offset == -1 else align[b + offset] + 1
                    if target != previous:
                        shifts.append((a, length, target))
                        previous = target
                yield shifts


def perform_shift(words: Sequence[object], start: int, length: int, target: int) -> list[object]:
    """The words with ``words[start:start + length]`` moved before ``words[target]`` (sacreBLEU's
    ``_perform_shift``, including its slicing when the target lies inside the block)."""
    words = list(words)
    block = words[start:start + length]
    if target < start:
        return words[:target] + block + words[target:start] + words[start + length:]
    if target > start + length:
        return words[:start] + words[start + length:target] + block + words[target:]
    return words[:start] + words[start + length:length + target] + block + words[length + target:]


def best_shift(hyp: Sequence[object], ref: Sequence[object], checked: int
               ) -> tuple[int, list[object], int]:
    """One greedy step: (the distance gained by the best shift, the shifted words, candidates
    tried so far); the ranking is gain, then length, then the earlier start, then the earlier
    target."""
    distance, ops = beam_edit_distance(hyp, ref)
    align, hyp_err, ref_err = alignment(ops, len(hyp), len(ref))
    best: tuple[int, int, int, int] | None = None
    for shifts in shift_candidates(hyp, ref, align, hyp_err, ref_err):
        for start, length, target in shifts:
            gain = distance - beam_edit_distance(perform_shift(hyp, start, length, target), ref)[0]
            key = (gain, length, -start, -target)
            if best is None or key > best:
                best = key
            checked += 1
        if checked >= MAX_SHIFT_CANDIDATES:
            break
    if best is None:
        return 0, list(hyp), checked
    return best[0], perform_shift(hyp, -best[2], best[1], -best[3]), checked


def translation_edit_rate(hyp: Sequence[object], ref: Sequence[object]) -> tuple[int, int]:
    """(edits, reference length) of one pair: shifts while they help, then the edit distance."""
    if not ref:
        return len(hyp), 0
    shifts, checked = 0, 0
    words: Sequence[object] = hyp
    while True:
        gain, shifted, checked = best_shift(words, ref, checked)
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0:
            break
        shifts += 1
        words = shifted
    return shifts + beam_edit_distance(words, ref)[0], len(ref)
