"""The architecture every metric shares (DESIGN.md): additive per-segment statistics + a pure score.

A metric is two things:

* ``extract(hyps, refs) -> SegmentStats``: one row per segment, one named column per statistic.
  Rows are additive: the statistics of any set of segments are the sum of their rows.
* ``compute(totals)``: a pure function from one summed row (1-D) to a frozen result object, and
  ``compute_many(totals)`` the same function vectorized over many summed rows (2-D) -> one float per row.

The whole contract is :class:`Metric`: ``prepare_references``, ``extract``, ``compute``,
``compute_many`` and ``signature`` (a :class:`Signature` built from the metric's declared settings).
Callers never ask a metric's type.

Corpus scores, sentence scores, bootstrap resamples, blocks and streaming all reuse these two.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

from .segment_stats import SegmentStats
from .settings import FrozenSettingError
from .signature import Signature

if TYPE_CHECKING:
    from .settings import Settings


__all__ = ["Metric", "PreparedBase", "Score", "SegmentStats", "Signature", "checked_inputs",
           "sentence_references"]


def _summary(value: object) -> str:
    """A short text for one field of a result: sequences longer than a few items, arrays and
    mappings by their length, long strings cut, floats to 6 significant digits."""
    if isinstance(value, np.ndarray):
        return f"<array of {value.size}>"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (tuple, list)):
        if len(value) <= _SHORT_ITEMS and all(isinstance(v, (int, float, str)) for v in value):
            inner = ", ".join(_summary(v) if not isinstance(v, str) else repr(v) for v in value)
            return f"({inner}{',' if len(value) == 1 else ''})"
        return f"<{len(value)} items>"
    if isinstance(value, Mapping):
        return f"<{len(value)} entries>"
    text = repr(str(value)) if isinstance(value, str) else repr(value)
    return text if len(text) <= _SHORT_TEXT else text[:_SHORT_TEXT - 4] + "...'"


_SHORT_ITEMS = 9  # sequences of more items are summarized by their length
_SHORT_TEXT = 240  # longer texts are cut


@dataclass(frozen=True, repr=False)  # its own __repr__ below
class Score:
    """A score and the signature of every setting that produced it.

    Subclasses are frozen dataclasses declared with ``repr=False`` so that they keep this short
    ``repr`` (per-segment sequences and arrays summarized by their length).
    """

    metric: str
    score: float
    signature: str

    def __float__(self) -> float:
        return float(self.score)

    def __repr__(self) -> str:
        fields = ", ".join(f"{key}={_summary(value)}" for key, value in self.__dict__.items())
        return f"{type(self).__name__}({fields})"

    def _repr_html_(self) -> str:
        """A small table for notebooks: one row per field (long values summarized)."""
        from html import escape

        rows = "".join(f"<tr><th style='text-align:left'>{escape(key)}</th>"
                       f"<td style='text-align:left'>{escape(_summary(value))}</td></tr>"
                       for key, value in self.__dict__.items())
        return f"<table><caption>{escape(type(self).__name__)}</caption>{rows}</table>"

    def to_pandas(self) -> Any:
        """A one-row ``pandas.DataFrame``: ``metric, score, signature`` (the long format's columns)
        then every other field that is a number or a string. Needs the ``pandas`` extra."""
        from ..errors import require_extra

        pd = require_extra("pandas", "pandas", "to_pandas()")
        row = {key: (str(value) if key == "signature" else value)
               for key, value in self.__dict__.items()
               if isinstance(value, (int, float, str, np.integer, np.floating))}
        return pd.DataFrame([row])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field (arrays and tuples as lists)."""
        out: dict[str, Any] = {}
        for key, value in self.__dict__.items():
            if isinstance(value, np.ndarray):
                value = value.tolist()
            elif isinstance(value, tuple):
                value = [v.to_dict() if hasattr(v, "to_dict") else v for v in value]
            elif hasattr(value, "to_dict"):
                value = value.to_dict()
            out[key] = value
        return out


R = TypeVar("R", bound=Score)
M = TypeVar("M", bound="Metric[Any]")


class PreparedBase:
    """What every metric's prepared references record for :func:`checked_inputs` and signatures:
    the metric's ``settings`` when prepared, the number of ``segments`` and the ``nrefs`` label."""

    settings: tuple[object, ...]
    segments: int
    nrefs: str

    def _checked_streams(self, metric: Any, refs: Sequence[Sequence[str | None]],
                         names: Sequence[str] | None) -> list[list[str | None]]:
        """Validate the reference streams, record settings/segments/nrefs, return the streams."""
        from ..io.references import check_reference_set, reference_count_label

        streams, self.segments = check_reference_set(refs, names)
        self.settings = metric.settings_key()
        self.nrefs = reference_count_label(streams)
        return streams


P = TypeVar("P", bound=PreparedBase)


def checked_inputs(metric: Any, hyps: Sequence[str], refs: Any,
                   prepared_type: type[P]) -> tuple[list[str], P]:
    """Check the hypotheses; prepare raw reference streams, or check that prepared references
    were made with this metric's settings for as many segments. Shared by every metric's ``extract``.

    ``prepared_type`` instances have ``settings`` (the metric's ``settings_key()`` when prepared) and
    ``segments``.
    """
    from ..errors import InputError, OptionError
    from ..io.references import check_hypotheses, check_reference_streams

    hyps = check_hypotheses(hyps)
    if not isinstance(refs, prepared_type):
        refs = metric.prepare_references(check_reference_streams(refs, len(hyps)))
    elif refs.settings != metric.settings_key():
        raise OptionError("references", "prepared",
                          detail=f"they were prepared with other {metric.name} settings "
                                 "(tokenizer, case, n-gram order or modules)")
    if refs.segments != len(hyps):
        raise InputError(f"the references have {refs.segments} segments but the hypotheses "
                         f"have {len(hyps)}")
    return hyps, refs


def sentence_references(hyp: Any, refs: Any, what: str) -> list[list[str]]:
    """The checked inputs of a sentence-level score: ``refs`` (a string or a list of strings) as
    the reference streams of one segment; ``what`` names the score in the error messages."""
    from ..errors import InputError

    if not isinstance(hyp, str):
        raise InputError(f"the hypothesis must be a string, got {type(hyp).__name__}")
    if isinstance(refs, str):
        refs = [refs]
    if not refs:
        raise InputError(f"{what} needs at least one reference")
    return [[r] for r in refs]


class Metric(ABC, Generic[R]):
    """A configured metric: the whole contract every metric implements (DESIGN.md).

    Subclasses define ``columns``, ``prepare_references``, ``extract``, ``compute`` and
    ``compute_many``, and keep their settings in ``settings`` (a frozen
    :class:`~.settings.Settings` dataclass, set by :meth:`_configure`), from which ``signature``
    and ``settings_key`` are derived; everything else (corpus scores, resampling, blocks,
    streaming, distributed runs) is built on these alone. Settings are frozen: assigning one raises
    :class:`~.settings.FrozenSettingError`; :meth:`replace` makes a metric with other settings.
    """

    #: short name as used on the command line (``bleu``, ``meteor``, ...)
    name: str = ""
    #: larger is better (False for error rates such as TER)
    higher_is_better: bool = True
    #: the tokenizer the metric reads text with (None for metrics given scores, not text)
    tokenizer: Any = None
    #: the metric's settings, validated once (:mod:`.settings`)
    settings: Settings

    def _configure(self, settings: Settings, **derived: object) -> None:
        """Set ``settings``, one attribute per setting (unless the class defines that name, e.g.
        METEOR's ``tokenize`` method, or ``derived`` gives it) and the ``derived`` attributes
        (values computed from the settings, e.g. ``tokenizer``): all frozen from now on."""
        values = {name: getattr(settings, name) for name in settings.names()
                  if not hasattr(type(self), name)}
        values.update(derived)
        values["settings"] = settings
        self.__dict__.update(values)
        self.__dict__["_frozen"] = frozenset(values).union(settings.names())

    def __setattr__(self, name: str, value: object) -> None:
        if name in self.__dict__.get("_frozen", ()):
            hint = f"{name}=..." if name in self.settings.names() else "..."
            raise FrozenSettingError(
                f"{type(self).__name__}.{name} cannot be changed: a metric's settings are frozen "
                f"(its signatures record them); make a new metric: metric.replace({hint})")
        object.__setattr__(self, name, value)

    def replace(self: M, **changes: Any) -> M:
        """A new metric with these settings changed (validated again), e.g.
        ``bleu.replace(smooth="floor")``; its caches start empty."""
        return type(self)(**self.settings.replace(**changes).arguments(), **self._runtime())

    def _runtime(self) -> dict[str, Any]:
        """Constructor arguments that are not settings (shared caches) that :meth:`replace` keeps."""
        return {}

    @property
    @abstractmethod
    def columns(self) -> tuple[str, ...]:
        """Names of the statistics, in column order."""

    @abstractmethod
    def prepare_references(self, refs: Sequence[Sequence[str | None]],
                           names: Sequence[str] | None = None) -> Any:
        """Check, tokenize and index reference streams once, for scoring many systems against
        them (``extract`` accepts the result in place of raw streams)."""

    @abstractmethod
    def extract(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> SegmentStats:
        """Per-segment statistics of ``hyps`` against reference streams ``refs``."""

    def extract_systems(self, systems: Sequence[Sequence[str]], refs: Any) -> list[SegmentStats]:
        """:meth:`extract` of each system's hypotheses against the same references (prepared
        with :meth:`prepare_references`); a metric may score the systems together (TER searches
        all their pairs at once), with the same statistics."""
        return [self.extract(hyps, refs) for hyps in systems]

    @abstractmethod
    def compute(self, totals: np.ndarray, meta: Mapping[str, str] | None = None) -> R:
        """The result for one summed row of statistics (``meta`` from the stats, for the signature)."""

    @abstractmethod
    def compute_many(self, totals: np.ndarray) -> np.ndarray:
        """Vectorized: one score (float) per row of a 2-D array of summed statistics."""

    def settings_key(self) -> tuple[object, ...]:
        """What prepared references depend on, which they record (``checked_inputs`` refuses
        references prepared with another key): derived from the settings, the fields declared
        ``references=True`` (:meth:`.Settings.key`); settings applied only in ``compute``, such as
        BLEU's smoothing, are left out. Override it only for a key the settings cannot give."""
        return self.settings.key()

    def signature(self, meta: Mapping[str, str] | None = None) -> Signature | str:
        """The signature of this configuration (and of the data facts in ``meta``, if given),
        a :class:`Signature` derived from the metric's settings (:meth:`.Settings.signature`)."""
        signature: Signature = self.settings.signature(meta)
        if meta is not None:  # a result's: what get_signature() returns from now on
            self.__dict__["_last_signature"] = signature
        return signature

    def get_signature(self) -> Signature | str:
        """sacreBLEU's ``metric.get_signature()``: the signature of the last score this metric
        computed (``corpus_score``, ``sentence_score``, ``compute`` with the statistics' ``meta``):
        the same :class:`Signature` that result carries, ``nrefs`` included. Before any score the
        data's facts are not known yet: they show as ``?`` (``nrefs:?``), where sacreBLEU raises
        ``ValueError``; every setting is already there."""
        last: Signature | None = self.__dict__.get("_last_signature")
        return last if last is not None else self.signature()

    #: the statistics of a segment depend on that segment alone (False: on the whole reference
    #: corpus too, as NIST's information weights do; a pairwise entry then scores its pair alone)
    segment_independent: bool = True

    def pair_kernel(self) -> tuple[Any, Any] | None:
        """The metric's own fast kernels for :func:`mtscore.metrics.pairwise.pairwise`: (pair
        kernel, aggregation kernel or None), each tested equal to the definition; None (the
        default): every pair through ``extract`` (:func:`.pairwise.pair_scores_by_extract`)."""
        return None

    # Everything below is derived from the four methods above.

    def corpus_score(self, hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> R:
        """Corpus score: statistics summed over all segments, then ``compute``."""
        stats = self.extract(hyps, refs)
        return self.compute(stats.total(), stats.meta)

    def segment_scores(self, stats: SegmentStats) -> np.ndarray:
        """One score per segment (the vectorized ``compute_many`` on each row)."""
        return self.compute_many(stats.values)

    # ---- streaming: a corpus read and extracted chunk by chunk (mtscore.metrics.chunked) ----

    def reference_corpus(self, read_references: Callable[[], list[list[str | None]]]) -> Any:
        """What extracting any chunk of a corpus needs from its whole reference corpus, read by
        calling ``read_references`` (the reference streams); None, reading nothing, for metrics whose
        segment statistics depend on the segment alone (every metric but NIST)."""
        return None

    def prepare_chunk(self, refs: Sequence[Sequence[str | None]], corpus: Any, start: int) -> Any:
        """The prepared references of segments ``start .. start + len(refs[0]) - 1`` of a corpus;
        ``corpus``: what :meth:`reference_corpus` gave."""
        return self.prepare_references(refs)

    def extract_stream(self, hyps: Iterable[str], refs: Sequence[Iterable[str | None]], *,
                       chunk_size: int = 20_000, jobs: int | None = 1) -> Iterator[SegmentStats]:
        """The statistics of a corpus of any length (``hyps`` and reference streams ``refs`` as
        iterables, e.g. open files' lines), one :class:`SegmentStats` per chunk of ``chunk_size``
        segments, extracted in ``jobs`` processes (None: every core). Concatenated
        (``SegmentStats.concat``) they equal ``extract(list(hyps), refs)``; summed, the corpus row."""
        from .chunked import extract_stream

        return extract_stream(self, hyps, refs, chunk_size=chunk_size, jobs=jobs)
