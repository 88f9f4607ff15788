"""METEOR's result objects (frozen, with short reprs) and its prepared references."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ..base import PreparedBase, Score

if TYPE_CHECKING:
    from .matchers import Vocabulary
    from .metric import METEOR
    from .word_ids import WordIds


@dataclass(frozen=True)
class WordMatch:
    """One aligned word pair: positions (0-based), the module that matched them, the words. A phrase
    match of the paraphrase module covers ``hyp_length`` words from ``hyp_index`` and ``ref_length``
    from ``ref_index`` (``hyp_word``/``ref_word``: the phrases, words joined by spaces)."""

    hyp_index: int
    ref_index: int
    module: str
    hyp_word: str
    ref_word: str
    hyp_length: int = 1
    ref_length: int = 1

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        if self.hyp_length == self.ref_length == 1:  # one word a side: as before phrase matches
            del out["hyp_length"], out["ref_length"]
        return out


def _short(value: str, limit: int = 60) -> str:
    return value if len(value) <= limit else value[:limit - 3] + "..."


@dataclass(frozen=True, repr=False)
class METEORSegment:
    """The score of one segment against its best reference, with its statistics and alignment."""

    score: float
    precision: float
    recall: float
    fmean: float
    penalty: float
    chunks: int
    matches: int
    hyp_len: int
    ref_len: int
    #: index of the reference stream that scored best (the one kept)
    reference: int
    alignment: tuple[WordMatch, ...]
    hyp_words: tuple[str, ...]
    ref_words: tuple[str, ...]

    def __repr__(self) -> str:
        return (f"METEORSegment(score={self.score:.4f}, matches={self.matches}, "
                f"chunks={self.chunks}, hyp_len={self.hyp_len}, ref_len={self.ref_len}, "
                f"reference={self.reference}, hyp={_short(' '.join(self.hyp_words[:20]))!r})")

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["alignment"] = [m.to_dict() for m in self.alignment]
        out["hyp_words"] = list(self.hyp_words)
        out["ref_words"] = list(self.ref_words)
        return out


@dataclass(frozen=True, repr=False)
class METEORResult(Score):
    """A METEOR score (0–1, as the jar) with the statistics it was computed from."""

    precision: float
    recall: float
    fmean: float
    penalty: float
    fragmentation: float
    chunks: int
    matches: int
    hyp_len: int
    ref_len: int
    #: one result per segment (filled by ``corpus_meteor``/``score_corpus``; empty from ``compute``)
    segments: tuple[METEORSegment, ...] = ()
    #: segments aligned by the bounded fallback past their search's work budget (README, "Limits")
    fallback_segments: int = 0

    def __str__(self) -> str:
        return (f"METEOR = {self.score:.4f} (P = {self.precision:.4f} R = {self.recall:.4f} "
                f"Fmean = {self.fmean:.4f} Penalty = {self.penalty:.4f} chunks = {self.chunks} "
                f"matches = {self.matches})")

    def __repr__(self) -> str:
        fallback = f", fallback_segments={self.fallback_segments}" if self.fallback_segments else ""
        return (f"METEORResult(score={self.score:.4f}, precision={self.precision:.4f}, "
                f"recall={self.recall:.4f}, penalty={self.penalty:.4f}, chunks={self.chunks}, "
                f"matches={self.matches}, segments=<{len(self.segments)}>{fallback}, "
                f"signature={_short(str(self.signature), 400)!r})")


@dataclass(repr=False)  # its own short __repr__ below
class PreparedReferences(PreparedBase):
    """Reference streams tokenized once (pass to ``extract`` instead of the raw streams)."""

    settings: tuple[object, ...]
    segments: int
    nrefs: str
    #: per stream, per segment: the reference's word ids in ``vocabulary`` (None where missing)
    ids: list[WordIds]
    #: the vocabulary of the METEOR object that prepared them
    vocabulary: Vocabulary

    def __repr__(self) -> str:
        return f"PreparedReferences(segments={self.segments}, nrefs={self.nrefs})"

    @functools.cached_property
    def words(self) -> list[list[list[str] | None]]:
        """Per stream, per segment: the reference's words (None where missing)."""
        words = self.vocabulary.words
        return [[None if r is None else [words[x] for x in r] for r in stream] for stream in self.ids]


@dataclass(repr=False)
class TextReferences(PreparedBase):
    """Checked reference streams, encoded only where they are aligned: what
    :meth:`.metric.METEOR.prepare_chunk` gives where a corpus may be split over processes
    (:mod:`.text_ranges`)."""

    settings: tuple[object, ...]
    segments: int
    nrefs: str
    #: per stream, per segment: the reference text (None where missing)
    streams: list[list[str | None]]
    #: the whole streams encoded, once, where a corpus is aligned in one range
    _prepared: PreparedReferences | None = None

    def __repr__(self) -> str:
        return f"TextReferences(segments={self.segments}, nrefs={self.nrefs})"

    @classmethod
    def of(cls, metric: METEOR, refs: Sequence[Sequence[str | None]]) -> TextReferences:
        """The streams checked as :meth:`.metric.METEOR.prepare_references` checks them."""
        out = cls.__new__(cls)
        out.streams = out._checked_streams(metric, refs, None)
        out._prepared = None
        return out

    def prepared(self, metric: METEOR) -> PreparedReferences:
        """The streams encoded by ``metric`` (once)."""
        if self._prepared is None:
            self._prepared = metric.prepare_references(self.streams)
        return self._prepared
