"""ROUGE-L and ROUGE-W as ROUGE-1.5.5.pl computes them (``lcs``, ``lcs_inner``, ``wlcs``,
``wlcs_inner``, ``markLCS``; Lin 2004, §3.2 summary-level LCS and §3.3 weighted LCS).

For each model sentence the script marks the model positions of one LCS with every peer sentence (the
union LCS), following its own traceback (diagonal on a match, else up when the cell above is at least
the cell to the left, else left). A marked token counts only while the model's and the peer's unigram
counts of it (over the whole summaries) are still positive, and each counted token uses one of both;
this clipping keeps ROUGE-L at most ROUGE-1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

_DIAGONAL, _UP, _LEFT = 0, 1, 2


def mark_lcs(model: Sequence[str], peer: Sequence[str], mask: list[int]) -> None:
    """``lcs_inner`` + ``markLCS``: set ``mask[i] = 1`` for the model positions of the script's LCS.
    The plain table is the weighted one with weight 1 (every match adds (k+1) - k = 1, in integers),
    so both share :func:`mark_wlcs`."""
    mark_wlcs(model, peer, mask, 1)


def mark_wlcs(model: Sequence[str], peer: Sequence[str], mask: list[int], weight: float) -> None:
    """``wlcs_inner`` + ``markLCS``: the table where a match extending a run of k consecutive
    matches adds (k+1)^weight - k^weight (1 when ``weight`` is 1: ``lcs_inner``); otherwise up when
    the cell above is at least the cell to the left, else left. Marks the model positions of the
    traceback."""
    m, n = len(model), len(peer)
    if m == 0:
        return
    moves: list[bytearray] = []
    above: list[float] = [0] * (n + 1)
    above_run = [0] * (n + 1)
    for i in range(m):
        row: list[float] = [0] * (n + 1)
        run = [0] * (n + 1)
        move = bytearray(n + 1)
        word = model[i]
        for j in range(1, n + 1):
            if word == peer[j - 1]:
                k = above_run[j - 1]
                row[j] = above[j - 1] + (1 if weight == 1 else (k + 1) ** weight - k**weight)
                run[j] = k + 1
            elif above[j] >= row[j - 1]:
                row[j] = above[j]
                move[j] = _UP
            else:
                row[j] = row[j - 1]
                move[j] = _LEFT
        moves.append(move)
        above, above_run = row, run
    _trace(moves, m, n, mask)


def _trace(moves: list[bytearray], i: int, j: int, mask: list[int]) -> None:
    """``markLCS``: walk back from (m, n); each diagonal step marks its model position."""
    while i and j:
        move = moves[i - 1][j]
        if move == _DIAGONAL:
            i -= 1
            j -= 1
            mask[i] = 1
        elif move == _UP:
            i -= 1
        else:
            j -= 1


def _clip(word: str, model_1grams: Counter[str], peer_1grams: Counter[str]) -> bool:
    """A marked token counts while both unigram counts are positive; counting it uses one of each."""
    if model_1grams[word] > 0 and peer_1grams[word] > 0:
        model_1grams[word] -= 1
        peer_1grams[word] -= 1
        return True
    return False


def lcs_hits(model: Sequence[Sequence[str]], peer: Sequence[Sequence[str]],
             model_1grams: Counter[str], peer_1grams: Counter[str]) -> tuple[int, int]:
    """``lcs``: (hit, base) = clipped union-LCS tokens over the model sentences, model tokens.
    The two unigram counters are used up by the clipping (pass copies)."""
    hit = base = 0
    for sentence in model:
        mask = [0] * len(sentence)
        base += len(sentence)
        for other in peer:
            mark_lcs(sentence, other, mask)
        hit += sum(1 for j, word in enumerate(sentence) if mask[j] and _clip(word, model_1grams, peer_1grams))
    return hit, base


def wlcs_hits(model: Sequence[Sequence[str]], peer: Sequence[Sequence[str]], weight: float,
              model_1grams: Counter[str], peer_1grams: Counter[str]) -> tuple[float, float]:
    """``wlcs``: (hit, base) = sum of run^weight over runs of clipped marked tokens, sum of
    len^weight over the model sentences. As in the script, a run is closed only at a counted token
    followed by an unmarked one or by the end of the sentence; an uncounted marked token neither
    extends nor closes it, and a run left open at the end of a sentence is dropped."""
    hit: float = 0
    base: float = 0
    for sentence in model:
        mask = [0] * len(sentence)
        base += len(sentence) ** weight
        for other in peer:
            mark_wlcs(sentence, other, mask, weight)
        run = 0
        for j, word in enumerate(sentence):
            if not (mask[j] and _clip(word, model_1grams, peer_1grams)):
                continue
            run += 1
            if (j + 1 < len(sentence) and mask[j + 1] == 0) or j + 1 == len(sentence):
                hit += run**weight
                run = 0
    return hit, base
