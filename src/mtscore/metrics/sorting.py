"""The stable sort order of integer keys, ``np.argsort(keys, kind="stable")``, by the fastest of
numpy's sorts that gives it: the speed path of the kernels that group equal tokens by sorting
(ROUGE's :mod:`.rouge.token_join`, METEOR's aligner), tested equal to the stable argsort.

numpy's stable argsort of int64 keys is a merge sort, several times slower than its sort of the
keys alone (a vectorized quicksort on x86). Each key is therefore packed with its index,
(key − min) · 2^b + index with b the bits of the largest index: the packed values are distinct, so
any sort orders them as the stable sort orders the keys, and their low b bits are the order. Packed
in 32 bits where they fit (the sort is then fastest); else keys below 2^16 take numpy's radix sort
(the stable argsort of 8- or 16-bit keys); else packed in 64 bits where they fit; else the stable
argsort itself.
"""

from __future__ import annotations

import numpy as np


def stable_order(keys: np.ndarray) -> np.ndarray:
    """``np.argsort(keys, kind="stable")`` of a 1-d integer array, as intp."""
    n = len(keys)
    if n < 2:
        return np.zeros(n, dtype=np.intp)
    low, high = int(keys.min()), int(keys.max())
    span, bits = high - low, (n - 1).bit_length()
    if span.bit_length() + bits <= 32:
        return _packed(keys, low, bits, np.uint32).astype(np.intp)
    if low >= 0 and high < 1 << 16:
        return np.argsort(keys.astype(np.uint8 if high < 1 << 8 else np.uint16), kind="stable")
    if span.bit_length() + bits <= 63:
        return _packed(keys, low, bits, np.int64).view(np.intp)
    return np.argsort(keys, kind="stable")


def _packed(keys: np.ndarray, low: int, bits: int, dtype: type[np.integer]) -> np.ndarray:
    """The order of ``keys`` (all at least ``low``, fewer than 2^bits) from one sort of
    (key − low) · 2^bits + index in ``dtype``, which holds them."""
    packed = keys.astype(dtype)  # (a copy, the keys' values modulo 2^width: not written over)
    if low:  # key − low, modulo 2^width too: exact, as it fits
        wrap = 1 << 8 * packed.itemsize
        offset = low % wrap
        packed -= dtype(offset - wrap if np.issubdtype(dtype, np.signedinteger)
                        and offset >= wrap >> 1 else offset)
    packed <<= dtype(bits)
    packed |= np.arange(len(keys), dtype=dtype)
    packed.sort()
    packed &= dtype((1 << bits) - 1)
    return packed
