"""The bounded aligner of a METEOR 1.5 segment past its work budget (:func:`.jar.within_budget`).

:func:`greedy_stages`: the modules as stages in order (as the 2005 aligner runs them), each matched
by :func:`.stage.greedy_matching` over the words no earlier stage matched — time and memory linear in
the words' keys. A segment identical to its reference uses the first module only (as the jar), so
with ``exact`` first it is matched word for word, in one chunk (score 1).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from .stage import greedy_matching

#: per module: each word's keys (a word matches another under the module when they share one)
KeysOf = Sequence[Iterable[Hashable]]


def greedy_stages(hyp_keys: Sequence[KeysOf], ref_keys: Sequence[KeysOf]) -> list[tuple[int, int, int]]:
    """Sorted (hyp index, ref index, module) of the staged greedy alignment; ``hyp_keys[k][i]``:
    module k's keys of hypothesis word i."""
    matched: list[tuple[int, int, int]] = []
    used_h: set[int] = set()
    used_r: set[int] = set()
    for k, (hk, rk) in enumerate(zip(hyp_keys, ref_keys)):
        hyp = [(i, keys) for i, keys in enumerate(hk) if i not in used_h]
        ref = [(j, keys) for j, keys in enumerate(rk) if j not in used_r]
        for i, j in greedy_matching(hyp, ref):
            matched.append((i, j, k))
            used_h.add(i)
            used_r.add(j)
    return sorted(matched)
