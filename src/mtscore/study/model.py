"""What a study is: its metrics (:class:`MetricSpec`), its result (:class:`Study`) and its defaults.

No analysis here (see :mod:`.analysis`) and no table: the study computes plain result objects and
:mod:`mtscore.report.study_tables` builds its tables (the report imports the study, never the
reverse).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..metrics.base import Metric, Score, SegmentStats
from ..stats.blocks import BlockTestResult
from ..stats.correlation import CorrelationResult
from ..stats.defaults import DEFAULT_SEED as _DEFAULT_SEED
from ..stats.references import ReferenceSensitivity
from ..stats.resampling import BootstrapCI
from ..stats.significance import SignificanceResult

#: table ids, in output order
TABLE_IDS = ("corpus", "bleu", "system", "segment", "modules", "human", "blocks", "ttest",
             "significance", "references")

#: METEOR module sets of the paper's Tables 6–7
MODULE_SETS = (("exact",), ("exact", "porter"), ("exact", "wn_stem"), ("exact", "porter", "synonym"))

#: the seed of every resampling (one default everywhere: :data:`mtscore.stats.defaults.DEFAULT_SEED`)
DEFAULT_SEED = _DEFAULT_SEED
#: bootstrap resamples of the confidence intervals; the paired bootstrap's default depends on the
#: number of system pairs (:func:`mtscore.stats.defaults.resamples_for`: enough for Holm's correction)
DEFAULT_RESAMPLES = 1000
BLOCK_SIZE = 25
#: blocks of the block test: None = as many as the corpus holds (the paper: 20 of its 500 segments)
BLOCKS: int | None = None


@dataclass(frozen=True, eq=False)
class MetricSpec:
    """A metric of the study: ``metric`` scores summed statistics (corpus, resamples, blocks);
    ``segment_metric`` scores single rows of the *same* statistics (e.g. sentence BLEU).

    ``stats``: statistics given instead of extracted (external scores: system -> statistics).
    """

    label: str
    metric: Metric[Any]
    segment_metric: Metric[Any]
    stats: Mapping[str, SegmentStats] | None = None


def lower_is_better_note(labels: Sequence[str], better: Mapping[str, bool]) -> str | None:
    """The note that explains the sign of an error rate's correlations (TER)."""
    lower = [m for m in labels if not better.get(m, True)]
    if not lower:
        return None
    return (f"{', '.join(lower)}: lower is better (an error rate); a metric that agrees with the "
            "judges correlates negatively with human scores, so read its r with the sign flipped")


@dataclass(frozen=True, eq=False, repr=False)
class Study:
    """Everything ``mtscore study`` computes: the raw numbers behind its tables (built by
    :func:`mtscore.report.study_tables.study_tables`).

    Mappings are keyed by metric label (``BLEU``, ``NIST``, ``P``, ``R``, ``F1``, ``Fmean``,
    ``METEOR``, ``chrF``, ``chrF++``, ``TER``, ``METEOR[exact+porter]``, external metrics…),
    system name and human kind (``raw``/``z``). Segment arrays have one entry per segment of the
    data set (human: NaN where unjudged).
    """

    dataset: str
    path: str
    segments: int
    #: every system of the data set (human systems included), sorted by name
    systems: tuple[str, ...]
    #: systems with human scores (those in the correlations)
    judged_systems: tuple[str, ...]
    references: tuple[str, ...]
    #: system -> the references it is scored against
    reference_sets: Mapping[str, tuple[str, ...]]
    human_systems: Mapping[str, str]
    #: the human score kind of the main tables ("z" or "raw")
    human_kind: str
    #: main metric labels, in table order; module-ablation labels
    metrics: tuple[str, ...]
    module_metrics: tuple[str, ...]
    #: metric -> system -> corpus score; and the full result objects (BLEUResult, NISTResult…)
    corpus_scores: Mapping[str, Mapping[str, float]]
    corpus_results: Mapping[str, Mapping[str, Score]]
    #: system -> BLEU n-gram precisions p1..p4 (percent)
    bleu_precisions: Mapping[str, tuple[float, ...]]
    #: kind -> system -> human system score (mean of judged segments)
    human_scores: Mapping[str, Mapping[str, float]]
    #: metric -> system -> per-segment score (sentence BLEU for BLEU)
    segment_scores: Mapping[str, Mapping[str, np.ndarray]]
    #: kind -> system -> per-segment human score
    human_segment_scores: Mapping[str, Mapping[str, np.ndarray]]
    #: kind -> metric -> system-level correlation (Pearson, with bootstrap interval)
    system_correlations: Mapping[str, Mapping[str, CorrelationResult]]
    #: kind -> metric -> system-level Spearman and Kendall (point values), keyed "spearman"/"kendall"
    system_rank_correlations: Mapping[str, Mapping[str, Mapping[str, float]]]
    #: kind -> metric -> system (or "mean") -> segment-level Pearson within the system
    segment_correlations: Mapping[str, Mapping[str, Mapping[str, CorrelationResult | None]]]
    #: metric -> paired bootstrap of all pairs of ranked systems (human translations apart unless
    #: ``run_study(rank_human=True)``)
    significance: Mapping[str, SignificanceResult]
    #: BLEU paper §3 block test (blocks of 25 over the whole corpus by default)
    blocks: BlockTestResult | None
    #: BLEU against every subset of the references
    reference_counts: ReferenceSensitivity | None
    #: metric -> signature (of the default protocol; systems scored against fewer references
    #: differ only in nrefs)
    signatures: Mapping[str, str]
    settings: Mapping[str, Any]
    #: what was skipped and why
    notes: tuple[str, ...]
    #: metric -> True when a higher score is better (False for error rates such as TER)
    higher_is_better: Mapping[str, bool] = field(default_factory=dict)
    #: table id -> notes on what that table could not show and why (degrade by section)
    table_notes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: table id -> table, in TABLE_IDS order (only the computed ones)
    #: the table ids asked for (``run_study(tables=...)``), in TABLE_IDS order
    wanted_tables: tuple[str, ...] = TABLE_IDS
    #: metric -> system-level Pearson r over the judged systems that are not human translations
    #: (empty when none are, or fewer than 3 others: :func:`.analysis.machine_correlations`)
    machine_correlations: Mapping[str, float] = field(default_factory=dict)
    #: metric -> system -> bootstrap interval of the systems left out of the ranking (human
    #: translations), from the same resamples as the paired bootstrap
    intervals_apart: Mapping[str, Mapping[str, BootstrapCI]] = field(default_factory=dict)

    def interval(self, metric: str, system: str) -> BootstrapCI | None:
        """``system``'s bootstrap interval of ``metric`` (ranked or apart), None without one."""
        res = self.significance.get(metric)
        if res is not None and system in res.systems:
            return res.intervals[res.systems.index(system)]
        return self.intervals_apart.get(metric, {}).get(system)

    def signature_of(self, metric: str, system: str) -> str:
        """The signature of ``system``'s ``metric`` score (its own references: nrefs)."""
        result = self.corpus_results.get(metric, {}).get(system)
        return result.signature if result is not None else self.signatures[metric]

    def better(self, metric: str) -> bool:
        """True when a higher ``metric`` score is better."""
        return self.higher_is_better.get(metric, True)

    def __repr__(self) -> str:
        return (f"Study({self.dataset!r}, {self.segments} segments, {len(self.systems)} systems, "
                f"metrics: {', '.join(self.metrics)}; tables: {', '.join(self.table_ids())})")

    def can_show(self, table_id: str) -> bool:
        """Whether this study's numbers can fill table ``table_id``."""
        return SHOWABLE[table_id](self)

    def table_ids(self) -> tuple[str, ...]:
        """The ids of this study's tables: those asked for that its numbers can show, or whose
        notes say why they cannot (a title with the notes), in TABLE_IDS order."""
        return tuple(t for t in TABLE_IDS if t in self.wanted_tables
                     and (self.can_show(t) or self.table_notes.get(t)))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: settings, notes and the raw numbers (the tables too:
        :func:`mtscore.report.study_tables.study_dict`)."""
        def arr(m: Mapping[str, Mapping[str, np.ndarray]]) -> dict[str, dict[str, list[Any]]]:
            return {k: {s: [None if math.isnan(x) else float(x) for x in v] for s, v in d.items()}
                    for k, d in m.items()}

        def corr(c: CorrelationResult | None) -> dict[str, Any] | None:
            return None if c is None else clean(c.to_dict())

        return clean({
            "dataset": self.dataset, "path": self.path, "segments": self.segments,
            "systems": list(self.systems), "judged_systems": list(self.judged_systems),
            "references": list(self.references),
            "reference_sets": {k: list(v) for k, v in self.reference_sets.items()},
            "human_systems": dict(self.human_systems), "human_kind": self.human_kind,
            "metrics": list(self.metrics), "module_metrics": list(self.module_metrics),
            "higher_is_better": dict(self.higher_is_better),
            "settings": dict(self.settings), "notes": list(self.notes),
            "table_notes": {k: list(v) for k, v in self.table_notes.items()},
            "signatures": dict(self.signatures),
            "corpus_scores": {m: dict(d) for m, d in self.corpus_scores.items()},
            "corpus_results": {m: {s: r.to_dict() for s, r in d.items()}
                               for m, d in self.corpus_results.items()},
            "bleu_precisions": {s: list(p) for s, p in self.bleu_precisions.items()},
            "human_scores": {k: dict(d) for k, d in self.human_scores.items()},
            "segment_scores": arr(self.segment_scores),
            "human_segment_scores": arr(self.human_segment_scores),
            "system_correlations": {k: {m: corr(c) for m, c in d.items()}
                                    for k, d in self.system_correlations.items()},
            "system_rank_correlations": {k: {m: dict(v) for m, v in d.items()}
                                         for k, d in self.system_rank_correlations.items()},
            "segment_correlations": {k: {m: {s: corr(c) for s, c in v.items()} for m, v in d.items()}
                                     for k, d in self.segment_correlations.items()},
            "significance": {m: r.to_dict() for m, r in self.significance.items()},
            "intervals_apart": {m: {s: ci.to_dict() for s, ci in d.items()}
                                for m, d in self.intervals_apart.items()},
            "blocks": self.blocks.to_dict() if self.blocks else None,
            "reference_counts": self.reference_counts.to_dict() if self.reference_counts else None,
        })

def clean(value: Any) -> Any:
    """NaN/inf -> None, numpy scalars -> Python, recursively (strict JSON)."""
    if isinstance(value, dict):
        return {str(k): clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    if isinstance(value, np.ndarray):
        return clean(value.tolist())
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


#: table id -> whether a study's numbers can show that table
SHOWABLE: dict[str, Callable[[Study], bool]] = {
    "corpus": lambda st: bool(st.metrics),
    "bleu": lambda st: bool(st.bleu_precisions),
    "system": lambda st: bool(st.system_correlations.get(st.human_kind)),
    "segment": lambda st: bool(st.segment_correlations.get(st.human_kind)),
    "modules": lambda st: bool(st.module_metrics) and bool(st.system_correlations.get(st.human_kind)),
    "human": lambda st: bool(st.system_correlations.get(st.human_kind)),
    "blocks": lambda st: st.blocks is not None,
    "ttest": lambda st: st.blocks is not None,
    "significance": lambda st: bool(st.significance),
    "references": lambda st: st.reference_counts is not None,
}
