"""The corpus in blocks of bounded size: the fast path of :func:`.metric.extract_types` for a large
corpus, equal to scoring it at once (tested).

ROUGE's statistics of a segment depend on that segment's texts alone (:mod:`.rules`: every count is
between one hypothesis and its references), and the token ids of an encoding are only compared
within a segment, so the corpus can be encoded and scored block by block and the rows put back in
order. The blocks bound the kernels' working memory: their numpy temporaries take about 75 bytes a
token, and a run over a whole corpus of 70,000 tokens peaks at about 5 MB above what it keeps. glibc
gives the free top of its heap back to the kernel once it exceeds its trim threshold (a few MB,
set by the largest block it has mapped and freed), and the next run faults those pages in again,
2–5 µs each. Blocks of at most :data:`BLOCK_CHARACTERS` characters (about 35,000 tokens of English
for rouge-score's tokenizer) keep the peak at about half that, where the same memory is reused from
one block and one run to the next.
"""

from __future__ import annotations

from collections.abc import Sequence

#: the most characters (hypotheses and references together) a block holds, unless one segment
#: alone has more
BLOCK_CHARACTERS = 200_000


def characters(hyps: Sequence[str], streams: Sequence[Sequence[str | None]]) -> int:
    """The characters of every hypothesis and reference (missing references: none)."""
    total = sum(map(len, hyps))
    for stream in streams:
        total += sum(map(len, filter(None, stream)))
    return total


def segment_blocks(hyps: Sequence[str], streams: Sequence[Sequence[str | None]],
                   limit: int | None = None) -> list[tuple[int, int]]:
    """Consecutive segment ranges (start, end) covering the corpus: one when it has at most
    ``limit`` characters (:data:`BLOCK_CHARACTERS`), else as many ranges of equal numbers of
    segments as the characters need (a range holds ``limit`` characters on average; segments are
    never cut)."""
    limit = BLOCK_CHARACTERS if limit is None else limit
    n = len(hyps)
    total = characters(hyps, streams)
    count = min(max(1, -(-total // max(limit, 1))), max(n, 1))
    step = -(-n // count) if n else 0
    return [(lo, min(lo + step, n)) for lo in range(0, n, step)] if n else [(0, 0)]
