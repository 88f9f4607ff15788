"""The length of the longest common subsequence, bit-parallel: the fast path of
:func:`mtscore.metrics.coco.rouge.lcs_length` (equal to it, tested in ``tests/test_coco_metrics.py``).

Allison & Dix (1986), "A bit-string longest-common-subsequence algorithm" (in Hyyrö's 2004
formulation): the row of the LCS table along ``a`` is held as the bits of one integer ``V``
(a 0 bit where the row steps up); for each token ``y`` of ``b``, with ``M`` the positions of
``y`` in ``a``, ``U = V & M`` and ``V = (V + U) | (V - U)``. The LCS length is the number of 0 bits
of ``V`` among the ``len(a)`` lowest.
"""

from __future__ import annotations

from collections.abc import Sequence


def lcs_length_bits(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence of ``a`` and ``b`` (bit-parallel)."""
    masks: dict[str, int] = {}
    for i, x in enumerate(a):
        masks[x] = masks.get(x, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for y in b:
        u = v & masks.get(y, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()
