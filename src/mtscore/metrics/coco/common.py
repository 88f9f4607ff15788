"""What coco-caption's metrics share: its tokenization and its references (any number per image).

coco-caption (Chen et al., 2015) tokenizes every caption once with the PTB tokenizer
(:func:`mtscore.text.ptb.coco_tokenize`), then each scorer splits the tokenized caption on white
space (BLEU, CIDEr-D: ``str.split()``) or on single spaces (ROUGE-L: ``str.split(" ")``).

``tokenize="coco"`` (the default) applies that tokenizer; ``tokenize="none"`` takes captions that
are tokenized already (e.g. by coco-caption itself), as the scorers of ``pycocoevalcap`` do.
Metrics scored together on the same captions share one :class:`CaptionTokenization` (given
explicitly: :func:`share_tokenization`, as ``mtscore score`` does), so each set is tokenized once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from ...errors import InputError, OptionError
from ..base import Metric, PreparedBase, Score, SegmentStats, checked_inputs

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


def tokenized(metric: Any, captions: Sequence[str], references: bool = False) -> list[str]:
    """The captions as coco-caption's scorers see them, for a coco ``metric``: as given
    (``tokenize="none"``), else tokenized by the metric's shared :class:`CaptionTokenization` if it
    was given one (``references``: the captions are a chunk's references), else here."""
    if metric.tokenize == "none":
        return list(captions)
    shared: CaptionTokenization | None = metric.tokenization
    if shared is not None:
        return shared.references(captions) if references else shared.results(captions)
    from ...text.ptb import coco_tokenize

    return coco_tokenize(captions)


class CaptionTokenization:
    """coco-caption's tokenization (:func:`mtscore.text.ptb.coco_tokenize`) of the captions that
    several coco metrics score together (``mtscore score -m coco-bleu coco-rouge-l cider-d``):
    each set of captions, one run of the tokenizer, tokenized once for all of them.

    An explicit object: whoever scores the metrics together makes one and gives it to each
    (:func:`share_tokenization`, or the metrics' ``tokenization`` argument). Each metric asks it
    for a chunk's references (:meth:`references`) and for each system's results (:meth:`results`);
    it keeps the sets it tokenized since the last new set of references (the current chunk's), so
    the metrics after the first find them. Pickled (into worker processes) without them.
    """

    def __init__(self) -> None:
        self._sets: dict[tuple[str, ...], list[str]] = {}

    def references(self, captions: Sequence[str]) -> list[str]:
        """A set of reference captions tokenized; a new set starts a new chunk (the sets of the
        previous one are dropped)."""
        key = tuple(captions)
        if key not in self._sets:
            self._sets.clear()
        return self._tokenized(key)

    def results(self, captions: Sequence[str]) -> list[str]:
        """A set of result captions (one system's, of the current chunk) tokenized."""
        return self._tokenized(tuple(captions))

    def _tokenized(self, key: tuple[str, ...]) -> list[str]:
        found = self._sets.get(key)
        if found is None:
            from ...text.ptb import coco_tokenize

            found = self._sets[key] = coco_tokenize(key)
        return list(found)

    def __getstate__(self) -> dict[str, Any]:
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._sets = {}


def share_tokenization(metrics: Sequence[Metric[Any]]) -> list[Metric[Any]]:
    """The metrics, those that read captions with coco-caption's tokenizer (two or more) remade
    with one :class:`CaptionTokenization` (their settings unchanged): scored together on the same
    text, they tokenize it once."""
    coco = [k for k, m in enumerate(metrics) if isinstance(m, CocoMetric) and m.tokenize == "coco"]
    out = list(metrics)
    if len(coco) < 2:
        return out
    shared = CaptionTokenization()
    for k in coco:
        remake: Any = type(out[k])
        out[k] = remake(**out[k].settings.arguments(), tokenization=shared)
    return out


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
        tokens = tokenized(metric, [r for r in flat if r is not None], references=True)
        self.refs = []
        at = 0
        for ks in present:
            self.refs.append(tokens[at:at + len(ks)])
            at += len(ks)


class CocoMetric(Metric[R]):
    """A coco-caption metric: its references are the captions tokenized once
    (:class:`CocoReferences`); ``tokenization``: the :class:`CaptionTokenization` it shares with
    the other coco metrics scored with it (None: it tokenizes on its own)."""

    tokenize: str
    tokenization: CaptionTokenization | None = None

    def _share(self, tokenization: CaptionTokenization | None) -> None:
        """Keep ``tokenization`` (a constructor argument, not a setting)."""
        if tokenization is not None and not isinstance(tokenization, CaptionTokenization):
            raise OptionError("coco tokenization", type(tokenization).__name__,
                              detail="a CaptionTokenization or None")
        self.tokenization = tokenization

    def _runtime(self) -> dict[str, Any]:
        return {"tokenization": self.tokenization}

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> CocoReferences:
        return CocoReferences(self, refs, names)

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | CocoReferences) -> SegmentStats:
        """The statistics of captions as given: references prepared (tokenized) once, the
        hypotheses tokenized, then :meth:`extract_tokenized`."""
        hyps, prep = checked_inputs(self, hyps, refs, CocoReferences)
        return self.extract_tokenized(tokenized(self, hyps), prep.refs, prep.nrefs)

    def extract_tokenized(self, hyps: Sequence[str], refs: Sequence[Sequence[str]],
                          nrefs: str = "var") -> SegmentStats:
        """The statistics of hypotheses and per-image references already tokenized."""
        raise NotImplementedError
