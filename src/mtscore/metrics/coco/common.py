"""What coco-caption's metrics share: its tokenization and its references (any number per image).

coco-caption (Chen et al., 2015) tokenizes every caption once with the PTB tokenizer
(:func:`mtscore.text.ptb.coco_tokenize`), then each scorer splits the tokenized caption on white
space (BLEU, CIDEr-D: ``str.split()``) or on single spaces (ROUGE-L: ``str.split(" ")``).

``tokenize="coco"`` (the default) applies that tokenizer; ``tokenize="none"`` takes captions that
are tokenized already (e.g. by coco-caption itself), as the scorers of ``pycocoevalcap`` do.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeVar

from ...errors import InputError, OptionError
from ..base import Metric, PreparedBase, Score

R = TypeVar("R", bound=Score)

#: the tokenizers a coco metric reads text with
COCO_TOKENIZERS = ("coco", "none")
#: the signature of each
TOKENIZER_SIGNATURES = {"coco": "coco-ptb-3.4.1", "none": "none"}


def check_tokenizer(tokenize: str) -> str:
    if tokenize not in COCO_TOKENIZERS:
        raise OptionError("coco tokenizer", tokenize, COCO_TOKENIZERS)
    return tokenize


def show_coco_tokenizer(settings: Any) -> str:
    """``show`` of a coco metric's ``tokenize`` setting: the tokenizer's signature."""
    return TOKENIZER_SIGNATURES[settings.tokenize]


def tokenized(captions: Sequence[str], tokenize: str) -> list[str]:
    """The captions as coco-caption's scorers see them (``tokenize``: ``coco`` or ``none``)."""
    if tokenize == "none":
        return list(captions)
    return list(coco_tokenized(tuple(captions)))


@functools.lru_cache(maxsize=4)
def coco_tokenized(captions: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`mtscore.text.ptb.coco_tokenize` of ``captions`` (one run of the tokenizer), kept for
    the latest few sets: the coco metrics scored together (BLEU, ROUGE-L, CIDEr-D) read the same
    references and results, which are tokenized once."""
    from ...text.ptb import coco_tokenize

    return tuple(coco_tokenize(captions))


def image_references(streams: Sequence[Sequence[str | None]], segments: int) -> list[list[int]]:
    """Per segment, the indices of the streams that hold a reference (``None`` = none there);
    a segment without any reference is an error (coco-caption asserts one at least)."""
    present: list[list[int]] = [[] for _ in range(segments)]
    for k, stream in enumerate(streams):
        for i, ref in enumerate(stream):
            if ref is not None:
                present[i].append(k)
    for i, ks in enumerate(present):
        if not ks:
            raise InputError(f"segment {i + 1} has no reference (coco-caption needs one at least)")
    return present


class CocoReferences(PreparedBase):
    """References of a coco metric tokenized once: ``refs[i]`` is the list of segment i's
    tokenized references (in stream order, missing ones left out)."""

    refs: list[list[str]]

    def __init__(self, metric: Any, refs: Sequence[Sequence[str | None]],
                 names: Sequence[str] | None = None):
        streams = self._checked_streams(metric, refs, names)
        present = image_references(streams, self.segments)
        flat = [streams[k][i] for i, ks in enumerate(present) for k in ks]
        tokens = tokenized([r for r in flat if r is not None], metric.tokenize)
        self.refs = []
        at = 0
        for ks in present:
            self.refs.append(tokens[at:at + len(ks)])
            at += len(ks)


class CocoMetric(Metric[R]):
    """A coco-caption metric: its references are the captions tokenized once
    (:class:`CocoReferences`)."""

    tokenize: str

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> CocoReferences:
        return CocoReferences(self, refs, names)
