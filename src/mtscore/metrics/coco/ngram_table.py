"""The n-grams of a caption set as integer arrays, counted once for BLEU and CIDEr-D.

coco-caption's BLEU and CIDEr-D both count the n-grams (n = 1..N) of every caption split on white
space (:func:`.bleu.ngram_counts`). :class:`NgramTable` counts them once for all the captions of an
evaluation, the references and the results together, as arrays: every distinct n-gram of order n
gets an integer id (its tokens' ids, then the ids of its (n-1)-gram prefix and last token, made
unique with ``numpy.unique``), and each caption's n-grams become rows (caption, n-gram id,
count). :mod:`.bleu_arrays` and :mod:`.cider_arrays` compute their statistics from these rows for
all images at once; they equal the rules :func:`.bleu.bleu_row` and :func:`.cider.cider_d`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from ...errors import InputError


@dataclass(frozen=True)
class OrderCounts:
    """The n-grams of one order: ``caption[k]`` holds n-gram ``ngram[k]`` ``count[k]`` times (rows
    by caption, then in the order of the n-grams' first occurrences in it: the order coco-caption's
    ``Counter`` holds them in); ``ngrams``: how many distinct n-grams; ``first[g]``: the position
    of n-gram g's first occurrence in the table's token stream."""

    order: int
    caption: np.ndarray
    ngram: np.ndarray
    count: np.ndarray
    ngrams: int
    first: np.ndarray


@dataclass(frozen=True)
class NgramTable:
    """The n-grams, orders 1..``max_order``, of ``captions`` captions (tokens: the caption split on
    white space); ``lengths``: tokens per caption; ``tokens``: every caption's tokens in order."""

    captions: int
    max_order: int
    lengths: np.ndarray
    tokens: tuple[str, ...]
    orders: tuple[OrderCounts, ...]

    @classmethod
    def of(cls, captions: Sequence[str], max_order: int) -> NgramTable:
        """The table of tokenized ``captions`` (each split on white space, as coco-caption's
        ``precook``)."""
        splits = [c.split() for c in captions]
        lengths = np.fromiter(map(len, splits), dtype=np.int64, count=len(splits))
        tokens = tuple(chain.from_iterable(splits))
        vocabulary = {t: i for i, t in enumerate(dict.fromkeys(tokens))}
        ids = np.fromiter(map(vocabulary.__getitem__, tokens), dtype=np.int64, count=len(tokens))
        owner = np.repeat(np.arange(len(splits), dtype=np.int64), lengths)
        # tokens left in their caption from each position (the n-gram of order n starting there
        # exists when at least n are left)
        left = np.repeat(np.cumsum(lengths), lengths) - np.arange(len(tokens), dtype=np.int64)
        orders = []
        previous, width = ids, max(len(vocabulary), 1)
        for n in range(1, max_order + 1):
            at = np.flatnonzero(left >= n)
            keys = ids if n == 1 else previous[at] * width + ids[at + n - 1]
            distinct, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
            current = np.full(len(tokens), -1, dtype=np.int64)
            current[at] = inverse
            orders.append(_order_counts(n, owner[at], inverse, len(distinct), at[first]))
            previous = current
        return cls(len(splits), max_order, lengths, tokens, tuple(orders))

    def ngram_tuple(self, order: int, ngram: int) -> tuple[str, ...]:
        """The tokens of n-gram id ``ngram`` of order ``order``."""
        start = int(self.orders[order - 1].first[ngram])
        return self.tokens[start:start + order]


def _order_counts(order: int, owner: np.ndarray, ngram: np.ndarray, ngrams: int,
                  first: np.ndarray) -> OrderCounts:
    """Rows (caption, n-gram, count) from each occurrence's caption and n-gram id (in text order),
    in the order of each n-gram's first occurrence in its caption."""
    width = max(ngrams, 1)
    keys, start, count = np.unique(owner * width + ngram, return_index=True, return_counts=True)
    ranked = np.argsort(start)
    caption, ids = np.divmod(keys[ranked], width)
    return OrderCounts(order, caption, ids, count[ranked].astype(np.int64), ngrams, first)


@dataclass(frozen=True)
class ImageNgrams:
    """The n-grams of an evaluation: ``table`` over the references (image by image, in order)
    followed by the results (one per image); ``ref_image[k]``: the image of reference caption k."""

    table: NgramTable
    ref_image: np.ndarray
    images: int

    @classmethod
    def of(cls, hyps: Sequence[str], refs: Sequence[Sequence[str]], max_order: int) -> ImageNgrams:
        """The n-grams of tokenized ``hyps[i]`` and ``refs[i]`` (image i's references, one at
        least)."""
        if len(hyps) != len(refs):
            raise ValueError(f"{len(hyps)} results for {len(refs)} images' references")
        counts = np.fromiter(map(len, refs), dtype=np.int64, count=len(refs))
        if len(counts) and counts.min() == 0:
            raise InputError(f"image {int(np.argmin(counts)) + 1} has no reference "
                             "(coco-caption needs one at least)")
        flat = [r for image_refs in refs for r in image_refs]
        table = NgramTable.of([*flat, *hyps], max_order)
        return cls(table, np.repeat(np.arange(len(refs), dtype=np.int64), counts), len(hyps))

    @property
    def references(self) -> int:
        """How many reference captions (the first rows of the table)."""
        return len(self.ref_image)

    def split(self, order: int) -> tuple[OrderCounts, int]:
        """Order ``order``'s rows, and where the references' rows end (the results' begin)."""
        rows = self.table.orders[order - 1]
        return rows, int(np.searchsorted(rows.caption, self.references))

    def covers(self, max_order: int) -> bool:
        return self.table.max_order >= max_order
