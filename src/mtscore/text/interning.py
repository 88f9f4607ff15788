"""Exact token ids for byte spans of a corpus, with numpy and no per-token Python work.

A token of at most 7 bytes is one uint64 key: its bytes (little-endian) with its length in the top
byte. A token of 8 to 15 bytes is a pair of keys, its first 8 bytes and the rest with the length on
top; each part gets an id in its own table, and the pair of ids is one key of a third table. Longer
tokens (rare) go through a dict. Keys are the tokens' bytes themselves (the hash table only places
them), so equal ids mean equal tokens, with no chance of a collision.
"""

from __future__ import annotations

import numpy as np

_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_SHORT, _MID = 7, 15  # longest token (in bytes) of one key, of a pair of keys


class KeyTable:
    """A growing map from uint64 keys to ids: an open-addressing hash table (linear probing) that
    is filled and searched for whole arrays of keys at once, one probe step per numpy pass.

    The table is kept at most a quarter full, so most keys are found at their first probe.
    """

    _MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: the top bits of key * φ·2^64

    def __init__(self) -> None:
        self._bits = 10
        self._key = np.zeros(1 << self._bits, dtype=np.uint64)
        self._id = np.full(1 << self._bits, -1, dtype=np.int64)  # -1: empty slot
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def _home(self, keys: np.ndarray) -> np.ndarray:
        home = keys * self._MULTIPLIER
        home >>= np.uint64(64 - self._bits)
        return home.view(np.int64)

    def find(self, keys: np.ndarray) -> np.ndarray:
        """The id of each key, -1 where it is not in the table."""
        if self._count == 0 or len(keys) == 0:
            return np.full(len(keys), -1, dtype=np.int64)
        mask = (1 << self._bits) - 1
        pos = self._home(keys)
        out = self._id[pos]  # most keys are found (or missed) at their first probe
        miss = self._key[pos] != keys
        miss &= out >= 0
        pending = miss.nonzero()[0]  # their slot holds another key: probe on
        out[pending] = -1
        pos, wanted = (pos[pending] + 1) & mask, keys[pending]
        while len(pending):
            slot_id = self._id[pos]
            occupied = slot_id >= 0
            hit = occupied & (self._key[pos] == wanted)
            out[pending[hit]] = slot_id[hit]
            go_on = occupied & ~hit
            pending, pos, wanted = pending[go_on], (pos[go_on] + 1) & mask, wanted[go_on]
        return out

    def add(self, keys: np.ndarray, next_id: int) -> tuple[np.ndarray, int]:
        """Ids of ``keys``, giving ids ``next_id, next_id + 1, …`` to new ones; (ids, next free id)."""
        if self._count == 0:  # a new table (the usual case): every key is missing
            new = np.sort(keys)
        else:
            ids = self.find(keys)
            missing = ids < 0
            if not missing.any():
                return ids, next_id
            new = np.sort(keys[missing])
        keep = np.empty(len(new), dtype=bool)
        keep[:1] = True
        np.not_equal(new[1:], new[:-1], out=keep[1:])
        new = new[keep]
        new_ids = np.arange(next_id, next_id + len(new), dtype=np.int64)
        if 4 * (self._count + len(new)) > (1 << self._bits):
            self._grow(4 * (self._count + len(new)))
        self._insert(new, new_ids)
        return self.find(keys), next_id + len(new)

    def _insert(self, keys: np.ndarray, ids: np.ndarray) -> None:
        """Put distinct keys that are not in the table yet into free slots."""
        mask = (1 << self._bits) - 1
        pos = self._home(keys)
        pending = np.arange(len(keys))
        while len(pending):
            free = self._id[pos] < 0
            slots, cand = pos[free], pending[free]
            self._id[slots] = ids[cand]  # keys wanting the same free slot: one of them wins it
            won = self._id[slots] == ids[cand]
            self._key[slots[won]] = keys[cand[won]]
            lost = np.concatenate((pending[~free], cand[~won]))
            lost_pos = np.concatenate((pos[~free], slots[~won]))
            pending, pos = lost, (lost_pos + 1) & mask
        self._count += len(keys)

    def _grow(self, at_least: int) -> None:
        used = self._id >= 0
        keys, ids = self._key[used], self._id[used]
        self._bits = max(self._bits, int(at_least - 1).bit_length())
        self._key = np.zeros(1 << self._bits, dtype=np.uint64)
        self._id = np.full(1 << self._bits, -1, dtype=np.int64)
        self._count = 0
        if len(keys):
            self._insert(keys, ids)

    def items(self) -> tuple[np.ndarray, np.ndarray]:
        """(keys, ids) of every entry."""
        used = self._id >= 0
        return self._key[used], self._id[used]

    def key_of(self) -> dict[int, int]:
        """id -> key (for decoding)."""
        keys, ids = self.items()
        return dict(zip(ids.tolist(), keys.tolist()))


#: top byte of the second word of a token longer than 15 bytes (lengths up to 15 are there)
_LONG = np.uint64(0xFF << 56)


def token_words(data: bytes | np.ndarray, starts: np.ndarray, ends: np.ndarray,
                long_ids: dict[bytes, int]) -> tuple[np.ndarray, np.ndarray]:
    """Two uint64 words per token ``data[starts[i]:ends[i]]`` that are equal exactly when the
    tokens are: a token of at most 15 bytes is its first 8 bytes, and its next 7 with its length
    in the top byte; a longer one (rare) is its number in ``long_ids`` (new ones are added) and 255
    there. ``data`` (bytes or a uint8 array) is copied unless it has 16 bytes past every token
    start and 8 more (:func:`.spans.corpus_bytes` pads it). No table is built: for kernels that
    only compare tokens (:mod:`..metrics.grouping`)."""
    if len(starts) == 0:
        return np.empty(0, dtype=np.uint64), np.empty(0, dtype=np.uint64)
    words = _aligned_words(data, int(starts.max()) + 24)
    first = _words_at(words, starts)
    # the bytes after a token are cleared by shifting them out and back (little-endian: they are
    # the high bytes; numpy shifts by 64 or more give 0), in place in one temporary
    n = ends - starts  # (made after the gather's temporaries are freed: it takes their memory)
    shift = np.minimum(n, 8)
    shift *= -8
    shift += 64
    bits = shift.view(np.uint64)
    first <<= bits
    first >>= bits
    np.left_shift(n, 56, out=shift)
    second = bits  # the length; a token of more than 8 bytes adds its next bytes
    mid = (n > 8).nonzero()[0]  # (few: no gather for the short ones)
    if len(mid):
        at = starts.take(mid)
        at += 8
        tail = _words_at(words, at)
        rest = n.take(mid)
        rest *= -8
        rest += 128  # 64 - 8 * (n - 8): bytes past the 15th are the long tokens' (below)
        tail <<= rest.view(np.uint64)
        tail >>= rest.view(np.uint64)
        second[mid] |= tail
    long = (n > _MID).nonzero()[0]
    if len(long):
        for i, s, e in zip(long.tolist(), starts[long].tolist(), ends[long].tolist()):
            first[i] = long_ids.setdefault(bytes(data[s:e]), len(long_ids))
        second[long] = _LONG
    return first, second


def _aligned_words(data: bytes | np.ndarray, size: int) -> np.ndarray:
    """``data`` as little-endian uint64 words (8-byte aligned, as numpy's gathers want them), padded
    with zero bytes (a copy) when it has fewer than ``size`` bytes."""
    if len(data) < size:
        data = bytes(data) + bytes(size - len(data))
    words = np.frombuffer(data, dtype="<u8", count=len(data) >> 3)
    return words if words.flags.aligned else words.copy()


def _words_at(words: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The 8 bytes at each byte offset ``at`` of the buffer of ``words``, as a little-endian uint64:
    the word that holds byte ``at`` shifted down, and the next one's low bytes shifted in (two
    gathers of aligned words cost less than one of unaligned 8-byte reads, which numpy makes
    through its general indexing path)."""
    q = at >> 3
    out = words.take(q, mode="clip")
    q += 1
    high = words.take(q, mode="clip")
    shift = np.bitwise_and(at, 7, out=q)  # (the index's memory is not needed any more)
    shift <<= 3
    bits = shift.view(np.uint64)
    out >>= bits
    np.subtract(64, shift, out=shift)
    high <<= bits  # (a shift by 64 gives 0: an aligned offset takes nothing from the next word)
    out |= high
    return out


class TokenInterner:
    """Token ids for byte spans; ``grow=True`` adds unseen tokens, ``grow=False`` gives them -1."""

    def __init__(self) -> None:
        self.size = 0  # ids 0 .. size-1 are taken
        self._short = KeyTable()
        self._head = KeyTable()  # first 8 bytes of mid-length tokens (private ids)
        self._tail = KeyTable()  # the rest, with the length (private ids)
        self._mid = KeyTable()  # (head id, tail id) -> token id
        self._head_size = self._tail_size = 0
        self._long: dict[bytes, int] = {}

    def ids(self, data: bytes, starts: np.ndarray, ends: np.ndarray, grow: bool) -> np.ndarray:
        """The id of every token ``data[starts[i]:ends[i]]`` (``data`` is copied unless it has 8
        bytes after the last token end, as :func:`.spans.corpus_bytes` gives it)."""
        n = ends - starts
        out = np.empty(len(starts), dtype=np.int64)
        if len(starts) == 0:
            return out
        if len(data) < int(ends.max()) + 8:  # reads of 8 bytes at a token start stay inside
            data = data + bytes(8)
        words = np.ndarray(shape=(len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
        # (np.take and index arrays: much faster than boolean-mask indexing here)
        short = (n <= _SHORT).nonzero()[0]
        s_len = n.take(short)
        keys = words[starts.take(short)]
        keys &= _MASKS.take(s_len)
        s_len <<= 56
        keys |= s_len.view(np.uint64)
        if grow:
            out[short], self.size = self._short.add(keys, self.size)
        else:
            out[short] = self._short.find(keys)
        if len(short) == len(starts):
            return out
        mid = ((n > _SHORT) & (n <= _MID)).nonzero()[0]
        if len(mid):
            m_starts, m_len = starts.take(mid), n.take(mid)
            heads = words[m_starts]  # (on this strided view, np.take pays a fixed cost per call)
            m_starts += 8
            tails = words[m_starts]
            tails &= _MASKS.take(m_len - 8)
            m_len <<= 56
            tails |= m_len.view(np.uint64)
            if grow:
                head_ids, self._head_size = self._head.add(heads, self._head_size)
                tail_ids, self._tail_size = self._tail.add(tails, self._tail_size)
            else:
                head_ids, tail_ids = self._head.find(heads), self._tail.find(tails)
            pair = (head_ids.astype(np.uint64) << np.uint64(32)) | tail_ids.astype(np.uint64)
            if grow:
                out[mid], self.size = self._mid.add(pair, self.size)
            else:
                found = self._mid.find(pair)
                found[(head_ids < 0) | (tail_ids < 0)] = -1
                out[mid] = found
        long = (n > _MID).nonzero()[0]
        if len(long):
            table = self._long
            for i, s, e in zip(long.tolist(), starts[long].tolist(), ends[long].tolist()):
                token = data[s:e]
                if grow:
                    if token not in table:
                        table[token] = self.size
                        self.size += 1
                    out[i] = table[token]
                else:
                    out[i] = table.get(token, -1)
        return out

    def tokens(self) -> dict[str, int]:
        """token -> id of every token seen with ``grow=True`` (for tests and debugging)."""
        out: dict[str, int] = {}
        for key, i in zip(*(a.tolist() for a in self._short.items())):
            out[_unpack(key)] = i
        heads, tails = self._head.key_of(), self._tail.key_of()
        for key, i in zip(*(a.tolist() for a in self._mid.items())):
            head, tail = heads[key >> 32], tails[key & 0xFFFFFFFF]
            length = tail >> 56
            raw = head.to_bytes(8, "little") + (tail & ((1 << 56) - 1)).to_bytes(7, "little")
            out[raw[:length].decode("utf-8", "surrogatepass")] = i
        for token, i in self._long.items():
            out[token.decode("utf-8", "surrogatepass")] = i
        return out


def _unpack(key: int) -> str:
    length = key >> 56
    return (key & ((1 << 56) - 1)).to_bytes(7, "little")[:length].decode("utf-8", "surrogatepass")
