"""TER, translation edit rate (Snover et al., 2006), computed exactly as sacreBLEU 2.6.0 does.

* §2: TER = (insertions + deletions + substitutions + shifts) / average number of reference words,
  all edits costing 1, the shifts found by tercom's greedy search (:mod:`.rules`);
* several references: the edits against the reference needing the fewest, over the average length
  of all the segment's references (§2; sacreBLEU);
* corpus level: edits and reference lengths are summed before dividing (as sacreBLEU and tercom);
  an empty reference with a non-empty hypothesis scores 100 (sacreBLEU), both empty 0;
* text: tercom's normalization with sacreBLEU's options (:mod:`mtscore.text.ter_tokenizer`),
  lowercased unless ``case_sensitive``.

Lower is better. Statistics per segment: ``edits`` and ``ref_len`` (the average reference
length, a float). Every input, a single sentence included, is searched with numpy
(:mod:`.fast`: faster than the rule on one short pair too, and by far on long repetitive ones);
``fast=False`` searches pair by pair with the rule (:mod:`.rules`). Both give identical edits.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ...io.references import check_hypotheses, check_reference_streams
from ...text.ter_tokenizer import ter_words
from ..base import (
    Metric,
    PreparedBase,
    Score,
    SegmentStats,
    checked_inputs,
    sentence_references,
)
from ..settings import Settings, setting, shared_metric, yes_no
from . import fast as ter_fast
from .rules import translation_edit_rate

#: the cache of edits of a metric object is emptied when it would grow past this many pairs
MAX_CACHED = 1 << 20
#: pairs searched in one :func:`.fast.edit_counts` call (more pairs per numpy pass; memory grows
#: with it: about 0.4 GB at this size on WMT22 systems)
SEARCH_CHUNK = 8192


@dataclass(frozen=True, repr=False)
class TERResult(Score):
    """A TER score (0–100+, as sacreBLEU; lower is better) with its summed statistics."""

    num_edits: float
    #: the reference length (summed over segments; per segment the average of its references)
    ref_len: float

    @property
    def ref_length(self) -> float:
        """Deprecated (removed in the next release): ``ref_len``, as every other result."""
        warnings.warn("TERResult.ref_length is deprecated: use .ref_len", DeprecationWarning,
                      stacklevel=2)
        return self.ref_len

    def __str__(self) -> str:
        return f"TER = {self.score:.2f}"


def ter_score(edits: float, ref_length: float) -> float:
    """sacreBLEU's TER of summed statistics: 100 · edits / reference length (100 when the
    references are empty and there are edits, 0 when both are empty)."""
    if ref_length > 0:
        return 100 * (edits / ref_length)
    return 100.0 if edits > 0 else 0.0


class PreparedReferences(PreparedBase):
    """Reference streams normalized (``texts``) and into word ids (``words``) once."""

    def __init__(self, metric: TER, refs: Sequence[Sequence[str | None]],
                 names: Sequence[str] | None = None):
        streams = self._checked_streams(metric, refs, names)
        self.vocab: dict[str, int] = {}
        #: per stream, per segment: the normalized words (None: no reference)
        self.texts = [[metric.reference_words(r) if r is not None else None for r in s] for s in streams]
        #: per stream, per segment: word ids (None: no reference)
        self.words = [[self.ids(t) if t is not None else None for t in s] for s in self.texts]

    def reference(self, k: int, i: int) -> np.ndarray:
        """The word ids of reference k of segment i (which has one)."""
        ref = self.words[k][i]
        if ref is None:
            raise ValueError(f"segment {i + 1} has no reference {k}")
        return ref

    def ids(self, words: str) -> np.ndarray:
        """Word ids of a normalized segment (new words get new ids)."""
        vocab = self.vocab
        return np.array([vocab.setdefault(w, len(vocab)) for w in words.split()], dtype=np.int64)


@dataclass(frozen=True)
class TERSettings(Settings):
    """TER's settings (:class:`TER`'s arguments), validated once."""

    NAME: ClassVar[str] = "TER"
    SIGNATURE: ClassVar[tuple[str, ...]] = ("nrefs", "case", "tok=tercom", "norm", "punct", "asian",
                                            "version")

    normalized: bool = setting(False, key="norm", show=yes_no("normalized"), references=True)
    no_punct: bool = setting(False, key="punct", show=yes_no("no_punct", "no", "yes"),
                             references=True)
    asian_support: bool = setting(False, key="asian", show=yes_no("asian_support"),
                                  references=True)
    case_sensitive: bool = setting(False, key="case", show=yes_no("case_sensitive", "mixed", "lc"),
                                   references=True)
    #: search whole corpora with numpy (:mod:`.fast`); False: pair by pair with the rule
    fast: bool = setting(True, speed=True)

    def validate(self) -> None:
        for name in self.names():
            self._set(name, bool(getattr(self, name)))


class TER(Metric[TERResult]):
    """TER with sacreBLEU's options; ``extract``/``compute`` as in :mod:`.base`. ``fast=False``
    searches pair by pair with the rule (the specification of the numpy search)."""

    name = "ter"
    higher_is_better = False
    settings: TERSettings
    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool
    fast: bool

    def __init__(self, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False, *, fast: bool = True):
        self._configure(TERSettings(normalized=normalized, no_punct=no_punct,
                                    asian_support=asian_support, case_sensitive=case_sensitive,
                                    fast=fast))
        #: edits found so far per (normalized reference, normalized hypothesis): systems often
        #: repeat each other's segments, and reference sets (A, B, A+B) share their pairs
        self._edits: dict[tuple[str, str], int] = {}

    def __getstate__(self) -> dict[str, object]:
        """Pickled without the cache of edits (sent to workers)."""
        return {k: v for k, v in self.__dict__.items() if k != "_edits"}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._edits = {}

    @property
    def columns(self) -> tuple[str, ...]:
        return ("edits", "ref_len")

    def words(self, text: str) -> str:
        """sacreBLEU's preprocessing: trailing white space stripped, then tercom's normalization."""
        return ter_words(text.rstrip(), self.normalized, self.no_punct, self.asian_support,
                         self.case_sensitive)

    def reference_words(self, text: str) -> str:
        """A reference's words: sacreBLEU 2.6.0 preprocesses references twice (``_cache_references``
        and then ``TER._extract_reference_info``), and tercom's normalization is not idempotent
        (``"0's中"`` gives ``0's 中``, then ``0 's 中``), so neither is this."""
        return self.words(self.words(text))

    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> PreparedReferences:
        return PreparedReferences(self, refs, names)

    def extract(self, hyps: Sequence[str],
                refs: Sequence[Sequence[str | None]] | PreparedReferences) -> SegmentStats:
        """Per segment: the fewest edits over its references, and their average length."""
        return self.extract_systems([hyps], refs)[0]

    def extract_systems(self, systems: Sequence[Sequence[str]],
                        refs: Sequence[Sequence[str | None]] | PreparedReferences
                        ) -> list[SegmentStats]:
        """:meth:`extract` of each system's hypotheses against the same references. The edits of
        every system's (reference, hypothesis) pairs are searched together, each distinct pair
        once (:meth:`_pair_edits`); a segment's edits depend on its pair alone, so each system's
        statistics are those of :meth:`extract` of that system."""
        checked: list[list[str]] = []
        prep = refs
        for hyps in systems:
            hyps, prep = checked_inputs(self, hyps, prep, PreparedReferences)
            checked.append(hyps)
        if not checked:
            return []
        assert isinstance(prep, PreparedReferences)
        words = [[self.words(h) for h in hyps] for hyps in checked]
        found = self._pair_edits(prep, words)
        K, S = len(prep.words), prep.segments
        lengths = np.zeros((K, S), dtype=np.int64)
        present = np.zeros((K, S), dtype=bool)
        for k, stream in enumerate(prep.words):
            for i, ref in enumerate(stream):
                if ref is not None:
                    lengths[k, i], present[k, i] = len(ref), True
        ref_len = lengths.sum(axis=0) / present.sum(axis=0)
        out = []
        for ws in words:
            edits = np.full((K, S), np.iinfo(np.int64).max, dtype=np.int64)
            for k, texts in enumerate(prep.texts):
                for i, text in enumerate(texts):
                    if text is not None:
                        edits[k, i] = found[(text, ws[i])]
            values = np.empty((S, 2), dtype=np.float64)
            values[:, 0] = edits.min(axis=0)
            values[:, 1] = ref_len
            out.append(SegmentStats(self.columns, values, {"nrefs": prep.nrefs}))
        return out

    def _pair_edits(self, prep: PreparedReferences, words: Sequence[Sequence[str]]
                    ) -> dict[tuple[str, str], int]:
        """The edits of every (normalized reference, normalized hypothesis) pair of the systems'
        ``words``: from the cache of this object, the hypothesis length against an empty
        reference, else searched (:func:`.fast.edit_counts`, :data:`SEARCH_CHUNK` pairs at a
        time, or pair by pair with the rule when not ``fast``)."""
        cache = self._edits
        found: dict[tuple[str, str], int] = {}
        todo: list[tuple[tuple[str, str], np.ndarray]] = []
        for ws in words:
            for k, texts in enumerate(prep.texts):
                for i, text in enumerate(texts):
                    if text is None or (text, ws[i]) in found:
                        continue
                    key = (text, ws[i])
                    ref = prep.reference(k, i)
                    known = cache.get(key)
                    if known is None and len(ref) == 0:  # every hypothesis word is an edit
                        known = len(ws[i].split())
                    if known is None:
                        todo.append((key, ref))
                        found[key] = -1
                    else:
                        found[key] = known
        for start in range(0, len(todo), SEARCH_CHUNK):
            part = todo[start:start + SEARCH_CHUNK]
            hyps = [prep.ids(key[1]) for key, _ in part]
            if self.fast:
                counts = ter_fast.edit_counts(hyps, [r for _, r in part]).tolist()
            else:
                counts = [translation_edit_rate(h.tolist(), r.tolist())[0]
                          for h, (_, r) in zip(hyps, part)]
            for (key, _), e in zip(part, counts):
                found[key] = e
        if len(cache) + len(todo) > MAX_CACHED:
            cache.clear()
        cache.update((key, found[key]) for key, _ in todo)
        return found

    def sentence_score(self, hyp: str, refs: Sequence[str]) -> TERResult:
        """TER of one hypothesis against its references, as sacreBLEU's ``TER.sentence_score``."""
        stats = self.extract([hyp], sentence_references(hyp, refs, "sentence TER"))
        return self.compute(stats.total(), stats.meta)

    def corpus_score(self, hyps: Sequence[str],
                     refs: Sequence[Sequence[str | None]] | PreparedReferences) -> TERResult:
        """Corpus TER: ``compute`` of the statistics summed over the segments."""
        return super().corpus_score(hyps, refs)  # type: ignore[arg-type]

    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        """TER (0–100+) of each row of summed statistics."""
        rows = np.atleast_2d(np.asarray(totals, dtype=np.float64))
        if rows.shape[1] != 2:
            raise ValueError(f"TER statistics have 2 columns, got {rows.shape[1]}")
        edits, length = rows[:, 0], rows[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = 100 * (edits / np.where(length > 0, length, 1.0))
        return np.where(length > 0, ratio, np.where(edits > 0, 100.0, 0.0))

    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> TERResult:
        """The result of one summed row of statistics."""
        row = np.asarray(totals, dtype=np.float64).ravel()
        if len(row) != 2:
            raise ValueError(f"TER statistics have 2 columns, got {len(row)}")
        edits, length = float(row[0]), float(row[1])
        return TERResult(metric="TER", score=ter_score(edits, length), signature=self.signature(meta),
                         num_edits=edits, ref_len=length)


def corpus_ter(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], *,
               normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
               case_sensitive: bool = False) -> TERResult:
    """Corpus TER of ``hyps`` against reference streams ``refs``, exactly as sacreBLEU 2.6.0's
    ``corpus_ter`` (Snover et al. 2006, §2: edits summed over the corpus, over the summed average
    reference lengths; lower is better).

    Parameters:
        hyps: one hypothesis (a string) per segment.
        refs: reference streams: ``refs[k][i]`` is reference k of segment i (``None`` where a
            segment has fewer references); a segment's edits are those against its closest
            reference, over the average length of its references.
        normalized: tercom's normalization (punctuation split off, XML entities, ...).
        no_punct: remove punctuation.
        asian_support: with ``normalized``, split CJK characters; with ``no_punct``, remove CJK
            and full-width punctuation too.
        case_sensitive: keep case (default: lowercase, as tercom).

    Returns:
        a :class:`TERResult`: ``score`` (0–100+), ``num_edits``, ``ref_len`` and the ``signature``.

    Raises:
        InputError: the inputs are not strings or the streams' lengths differ.

    Example:
        >>> result = corpus_ter(["the cat sat on the mat"], [["the cat sat on a mat"]])
        >>> round(result.score, 2), result.num_edits, result.ref_len
        (16.67, 1.0, 6.0)
        >>> result.signature.get("norm")
        'no'
    """
    hyps = check_hypotheses(hyps)
    check_reference_streams(refs, len(hyps))
    return shared_metric(TER, normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                         case_sensitive=case_sensitive).corpus_score(hyps, refs)


def sentence_ter(hyp: str, refs: Sequence[str], *, normalized: bool = False,
                 no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False) -> TERResult:
    """TER of one hypothesis against its references (a list of strings), as sacreBLEU's
    ``sentence_ter``."""
    return shared_metric(TER, normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                         case_sensitive=case_sensitive).sentence_score(hyp, refs)
