"""CIDEr-D of every image at once, over the n-gram rows of :mod:`.ngram_table`: the fast path of
:func:`.cider.cider_d`, equal to it to the last bit (the same float operations in the same order;
tested in ``tests/test_coco_arrays.py``; both equal pycocoevalcap to 1e-9,
``tests/test_coco_metrics.py``).

Per order n, every caption's tf-idf weights are one array over its rows (count × idf, the idf of
each distinct document frequency computed once with :func:`math.log`, as the rule does); the
norms are sums of the weights' squares (Python's ``**`` once per distinct weight, as the rule
squares them) per caption (``numpy.bincount``, which adds in row order: the order of each
n-gram's first occurrence, the rule's); the clipped products ``min(h, r) · r`` are found by
looking each reference row's (image, n-gram) up among the results' rows (``searchsorted``) and
summed per reference in the order of the result's n-grams, as the rule sums them; the
similarities are summed per image in reference order.
"""

from __future__ import annotations

import math

import numpy as np

from ..ngrams import sorted_unique
from .document_frequency import DocumentFrequency
from .ngram_table import ImageNgrams


def _idf(frequencies: np.ndarray, log_images: float) -> np.ndarray:
    """``log(|I|) - log(max(1, df))`` for each n-gram's df (:meth:`.DocumentFrequency.idf`),
    with :func:`math.log` once per distinct df."""
    distinct, inverse = np.unique(frequencies, return_inverse=True)
    logs = np.array([log_images - math.log(max(1.0, float(d))) for d in distinct.tolist()])
    return logs[inverse] if len(distinct) else np.zeros(0)


def corpus_frequencies(data: ImageNgrams, order: int) -> np.ndarray:
    """Per n-gram id of ``order``, in how many images' references it occurs
    (:meth:`.DocumentFrequency.of_references`)."""
    rows, cut = data.split(order)
    keys = sorted_unique(data.ref_image[rows.caption[:cut]] * max(rows.ngrams, 1) + rows.ngram[:cut])
    return np.bincount(keys % max(rows.ngrams, 1), minlength=rows.ngrams)


def saved_frequencies(data: ImageNgrams, order: int, df: DocumentFrequency) -> np.ndarray:
    """Per n-gram id of ``order``, its count in saved frequencies ``df``."""
    counts, table = df.counts, data.table
    return np.fromiter((counts.get(table.ngram_tuple(order, g), 0)
                        for g in range(table.orders[order - 1].ngrams)),
                       dtype=np.int64, count=table.orders[order - 1].ngrams)


def squares(weight: np.ndarray) -> np.ndarray:
    """``w ** 2`` per weight as the rule squares it (Python's ``**``, C's ``pow``, once per distinct
    weight): numpy's ``w * w`` and ``np.power(w, 2)`` are the correctly rounded product, which
    ``pow`` is not always (0.6694306539426305 ** 2 is one unit in the last place above it)."""
    distinct, inverse = np.unique(weight, return_inverse=True)
    values = np.array([w ** 2 for w in distinct.tolist()])
    return values[inverse] if len(distinct) else np.zeros(0)


def length_penalties(delta: np.ndarray, sigma: float) -> np.ndarray:
    """``e^(-δ²/2σ²)`` per length difference, once per distinct δ (:func:`.cider.clipped_similarity`)."""
    distinct, inverse = np.unique(delta, return_inverse=True)
    values = np.array([np.e ** (-(float(d) ** 2) / (2 * sigma ** 2)) for d in distinct.tolist()])
    return values[inverse] if len(distinct) else np.zeros(0)


def order_similarities(data: ImageNgrams, order: int, frequencies: np.ndarray,
                       log_images: float) -> np.ndarray:
    """Per reference caption, the clipped cosine similarity of order ``order`` between its image's
    result and it (before the length penalty)."""
    rows, cut = data.split(order)
    refs = data.references
    weight = rows.count * _idf(frequencies, log_images)[rows.ngram]
    norm = np.sqrt(np.bincount(rows.caption, squares(weight), minlength=refs + data.images))
    width = max(rows.ngrams, 1)
    hyp_keys = (rows.caption[cut:] - refs) * width + rows.ngram[cut:]
    lookup = np.argsort(hyp_keys)
    sorted_keys = hyp_keys[lookup]
    ref_keys = data.ref_image[rows.caption[:cut]] * width + rows.ngram[:cut]
    at = np.minimum(np.searchsorted(sorted_keys, ref_keys), max(len(sorted_keys) - 1, 0))
    found = np.flatnonzero(sorted_keys[at] == ref_keys) if len(sorted_keys) \
        else np.zeros(0, dtype=np.int64)
    hyp_row, ref_caption = lookup[at[found]], rows.caption[found]
    sequence = np.lexsort((hyp_row, ref_caption))  # per reference, the result's n-grams in order
    hyp_row, found, ref_caption = hyp_row[sequence], found[sequence], ref_caption[sequence]
    w_ref = weight[found]
    products = np.minimum(weight[cut:][hyp_row], w_ref) * w_ref
    value = np.bincount(ref_caption, products, minlength=refs)
    norm_h, norm_r = norm[refs + data.ref_image], norm[:refs]
    both = (norm_h != 0) & (norm_r != 0)
    return np.where(both, value / np.where(both, norm_h * norm_r, 1.0), value)


def cider_d_scores(data: ImageNgrams, max_order: int, sigma: float,
                   df: DocumentFrequency | None = None) -> np.ndarray:
    """Every image's CIDEr-D (:func:`.cider.cider_d`); ``df``: saved frequencies, default the
    images' references (coco-caption's)."""
    refs, images = data.references, data.images
    lengths = data.table.lengths
    bigrams = np.maximum(lengths - 1, 0) if max_order >= 2 else np.zeros_like(lengths)
    penalty = length_penalties((bigrams[refs + data.ref_image] - bigrams[:refs]).astype(np.float64),
                               sigma)
    log_images = df.log_images() if df is not None else math.log(float(images))
    score = np.zeros((images, max_order))
    for n in range(1, max_order + 1):
        frequencies = corpus_frequencies(data, n) if df is None else saved_frequencies(data, n, df)
        similarity = order_similarities(data, n, frequencies, log_images) * penalty
        score[:, n - 1] = np.bincount(data.ref_image, similarity, minlength=images)
    counts = np.bincount(data.ref_image, minlength=images)
    return np.mean(score, axis=1) / counts * 10.0
