"""coco-caption's BLEU statistics of every image at once, over the n-gram rows of
:mod:`.ngram_table`: the fast path of :func:`.bleu.bleu_row` (equal to it, integer for integer,
tested in ``tests/test_coco_arrays.py``).

Per order n, each (image, n-gram)'s largest count in one reference (Papineni et al. §2.1's
clipping count, :func:`.bleu.reference_maxima`) is the last of its group once the references'
rows are sorted by (image, n-gram, count); each result row is clipped by it (``searchsorted``);
the closest reference length, the shorter on a tie (:func:`.bleu.closest_ref_length`), is the
smallest (distance, length) pair per image.
"""

from __future__ import annotations

import numpy as np

from .ngram_table import ImageNgrams


def closest_ref_lengths(data: ImageNgrams) -> np.ndarray:
    """Per image, the reference length closest to its result's, the shorter on a tie."""
    lengths, refs = data.table.lengths, data.references
    ref_lengths = lengths[:refs]
    scale = int(ref_lengths.max(initial=0)) + 1
    keys = np.abs(ref_lengths - lengths[refs + data.ref_image]) * scale + ref_lengths
    best = np.full(data.images, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(best, data.ref_image, keys)
    return best % scale


def clipped_correct(data: ImageNgrams, order: int) -> np.ndarray:
    """Per image, its result's n-grams of ``order`` clipped by the references' maxima, summed."""
    rows, cut = data.split(order)
    width = max(rows.ngrams, 1)
    ref_keys = data.ref_image[rows.caption[:cut]] * width + rows.ngram[:cut]
    ranked = np.lexsort((rows.count[:cut], ref_keys))
    keys, counts = ref_keys[ranked], rows.count[:cut][ranked]
    last = np.ones(len(keys), dtype=bool)
    last[:-1] = keys[1:] != keys[:-1]
    keys, maxima = keys[last], counts[last]
    image = rows.caption[cut:] - data.references
    hyp_keys = image * width + rows.ngram[cut:]
    if not len(keys):
        return np.zeros(data.images, dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, hyp_keys), len(keys) - 1)
    clipped = np.where(keys[at] == hyp_keys, np.minimum(rows.count[cut:], maxima[at]), 0)
    return np.bincount(image, clipped, minlength=data.images).astype(np.int64)


def bleu_rows(data: ImageNgrams, max_order: int) -> np.ndarray:
    """Every image's statistics ``testlen, reflen, guess_1..N, correct_1..N``
    (:func:`.bleu.bleu_row`), one row per image."""
    testlen = data.table.lengths[data.references:]
    columns = [testlen, closest_ref_lengths(data)]
    columns += [np.maximum(testlen - k + 1, 0) for k in range(1, max_order + 1)]
    columns += [clipped_correct(data, k) for k in range(1, max_order + 1)]
    return np.column_stack(columns).astype(np.int64).reshape(data.images, 2 + 2 * max_order)
