"""Dense token ids for the byte spans of one corpus, all found at once: the fast path of
:class:`~mtscore.text.interning.TokenInterner` (``grow=True`` on a new interner) when every text is
encoded in one call, as :func:`.corpus.encode_streams` does (tested equal up to the numbering: equal
ids exactly for equal tokens).

Each token of :mod:`.tokenize`'s rouge-score tokenizer (runs of ``a-z0-9``: no NUL byte) is two
uint64 words, equal exactly when the tokens are: its first 8 bytes, and its next 8 (0 for a token
of at most 8 bytes); as no token holds a NUL byte, the bytes masked off beyond its end cannot make
two different tokens equal. A token of more than 16 bytes (rare) is its number in a dict of such
tokens, with a second word whose low byte is 0 and that is not 0. An open-addressing table
(linear probing, at most half full) is filled by scatters:
every token still looking writes its own index into its slot if that slot is empty (one writer
wins), then reads the slot's owner back; if the owner's words equal its own, the slot is the
token's, else it probes the next slot. All occurrences of a token follow the same probe sequence
in the same rounds, so they all end on the slot the first of them to win took; nearly every token
is placed in the first round. The used slots, in table order, are the ids.
"""

from __future__ import annotations

import numpy as np

_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: the top bits of key * φ·2^64
_MIX = np.uint64(0xC2B2AE3D27D4EB4F)
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_LONG = np.uint64(0xFF00)  # second word of a token of more than 16 bytes


def _word_at(aligned: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The 8 bytes from each byte offset ``at`` (little-endian), from the aligned words of the
    data: the low part of the word holding the offset and the high part of the next (much faster
    than an unaligned view's gathers)."""
    shift = (at & 7).astype(np.uint64) << np.uint64(3)
    word = at >> 3
    low = aligned[word] >> shift
    high = aligned[word + 1] << np.uint64(1)
    high <<= np.uint64(63) - shift  # (a shift by 64 would be undefined)
    low |= high
    return low


def words(data: bytes, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two words of every token (see the module's docstring); ``data`` holds no NUL inside a
    token."""
    n = ends - starts
    aligned = np.frombuffer(data + bytes(16 + (-len(data)) % 8), dtype="<u8")
    first = _word_at(aligned, starts)
    first &= np.take(_MASKS, np.minimum(n, 8))
    second = np.zeros(len(starts), dtype=np.uint64)
    mid = np.flatnonzero(n > 8)
    if len(mid):
        rest = np.take(n, mid) - 8
        tail = _word_at(aligned, np.take(starts, mid) + 8)
        tail &= np.take(_MASKS, np.minimum(rest, 8))
        second[mid] = tail
        long = mid[rest > 8]
        if len(long):
            table: dict[bytes, int] = {}
            for i, s, e in zip(long.tolist(), starts[long].tolist(), ends[long].tolist()):
                first[i] = table.setdefault(data[s:e], len(table))
            second[long] = _LONG
    return first, second


def span_ids(data: bytes, starts: np.ndarray, ends: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """(the id of every token ``data[starts[i]:ends[i]]``, ids 0 … V-1 equal exactly for equal
    tokens; for every id, the index of one of its tokens)."""
    n = len(starts)
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    first, second = words(data, starts, ends)
    bits = max(8, (2 * n - 1).bit_length())
    mask = (1 << bits) - 1
    key = second * _MIX
    key ^= first
    key *= _MULTIPLIER
    key >>= np.uint64(64 - bits)
    pos = key.view(np.int64)
    owner = np.full(1 << bits, -1, dtype=np.int64)
    owner[pos] = np.arange(n, dtype=np.int64)  # first round: every slot is empty
    slot = pos
    won = owner[pos]
    lost = np.flatnonzero((first[won] != first) | (second[won] != second))
    pending, pos = lost, (pos[lost] + 1) & mask
    while len(pending):
        empty = owner[pos] < 0
        owner[pos[empty]] = pending[empty]
        won = owner[pos]
        same = (first[won] == first[pending]) & (second[won] == second[pending])
        slot[pending[same]] = pos[same]
        pending, pos = pending[~same], (pos[~same] + 1) & mask
    used = np.flatnonzero(owner >= 0)
    dense = np.empty(len(owner), dtype=np.int64)
    dense[used] = np.arange(len(used), dtype=np.int64)
    return dense[slot], owner[used]
