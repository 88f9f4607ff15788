"""The data of a meta-evaluation: per data set (language pair) a systems × segments matrix of human
scores and one of each metric's segment scores, after mt-metrics-eval's data hygiene
(``data.GetCorrelations``):

* the metrics use one reference, the *main* one (the reference shown to the raters, as WMT's
  ``std_ref``; else the first), and that reference's human system (``HUMAN-A`` for reference A) is
  never a scored system — it *is* the reference;
* other human systems are scored only when asked (``human``), against the main reference;
* systems without any human score are left out (they cannot be compared), as are outlier systems
  (``exclude``, and ``meta.json``'s ``outlier_systems`` unless ``include_outliers``);
* a ``domain`` keeps only that domain's segments (``segments.tsv``).

Metric scores are segment scores: the built-in metrics' sentence-level scores (a lower-is-better
metric such as TER negated, so that higher is better for every metric), or external scores read
from long-format files (``--scores``), which must cover every scored system and segment.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError, OptionError
from ..io.dataset import Dataset
from ..io.scores import LongScores
from ..metrics import registry

#: built-in metrics by lower-case name -> the study's label
BUILTIN = {"bleu": "BLEU", "chrf": "chrF", "chrf++": "chrF++", "ter": "TER", "meteor": "METEOR",
           "nist": "NIST"}
DEFAULT_METRICS = ("bleu", "chrf", "chrf++", "ter", "meteor")


@dataclass(frozen=True, eq=False)
class PairData:
    """One data set, ready for the tasks."""

    name: str
    systems: tuple[str, ...]
    #: systems × segments human scores, NaN where unjudged
    human: np.ndarray
    #: metric label -> systems × segments scores (higher is better)
    metrics: Mapping[str, np.ndarray]
    #: metric label -> system-level scores (corpus scores of the kept segments; an external
    #: metric's system rows, else the mean of its segment scores)
    system_metrics: Mapping[str, np.ndarray]
    reference: str
    #: segments of the data set, and kept (after the domain filter)
    segments_total: int
    #: system -> why it was left out
    excluded: Mapping[str, str] = field(default_factory=dict)
    domain: str | None = None


def main_reference(ds: Dataset, reference: str | None = None) -> str:
    """The reference the metrics use: ``reference``, else the one shown to the raters, else the
    first."""
    if reference is not None:
        if reference not in ds.references:
            raise OptionError("reference", reference, tuple(ds.references))
        return reference
    shown = ds.meta.get("reference_shown_to_raters")
    return shown if isinstance(shown, str) and shown in ds.references else next(iter(ds.references))


def scored_systems(ds: Dataset, reference: str, human: bool, exclude: Sequence[str] = (),
                   include_outliers: bool = False) -> tuple[tuple[str, ...], dict[str, str]]:
    """The systems to score (in the data set's order) and why each other one is left out."""
    for name in exclude:
        if name not in ds.systems:
            raise InputError(f"{ds.name}: --exclude-systems names no system {name!r}")
    outliers = ds.meta.get("outlier_systems", [])
    left: dict[str, str] = {}
    for s in ds.systems:
        if ds.human_systems.get(s) == reference:
            left[s] = f"is reference {reference}"
        elif s in ds.human_systems and not human:
            left[s] = "human system"
        elif s not in ds.human:
            left[s] = "no human score"
        elif s in exclude:
            left[s] = "excluded"
        elif s in outliers and not include_outliers:
            left[s] = "outlier (meta.json)"
    systems = tuple(s for s in ds.systems if s not in left)
    if len(systems) < 2:
        raise InputError(f"{ds.name}: {len(systems)} system(s) left to compare; a meta-evaluation "
                         "needs at least two")
    return systems, left


def domain_columns(ds: Dataset, domain: str | None) -> np.ndarray:
    """Boolean mask of the segments kept by the domain filter."""
    if domain is None:
        return np.ones(ds.segments, dtype=bool)
    if ds.domains is None:
        raise InputError(f"{ds.name}: --domain needs segments.tsv with a domain column")
    names = sorted({d for d in ds.domains if d is not None})
    if domain not in names:
        raise OptionError("domain", domain, tuple(names))
    return np.array([d == domain for d in ds.domains])


def builtin_scores(ds: Dataset, systems: Sequence[str], reference: str, names: Sequence[str],
                   keep: np.ndarray | None = None
                   ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Segment scores (systems × segments) of the built-in metrics against the main reference,
    and their corpus scores over the segments ``keep`` (default all)."""
    target = str(ds.meta.get("pair", "")).split("-")[-1] or None
    specs = {label: (corpus, seg) for label, corpus, seg in registry.study_metrics(target)}
    better = {e.name: e.higher_is_better for e in registry.entries()}
    out, system = {}, {}
    for name in names:
        key = name.lower()
        if key not in BUILTIN:
            raise OptionError("metric", name, tuple(BUILTIN))
        label = BUILTIN[key]
        corpus, seg = specs[label]
        refs = corpus.prepare_references([ds.references[reference]], names=[reference])
        stats = corpus.extract_systems([ds.systems[s] for s in systems], refs)
        sign = 1.0 if better.get(key, True) else -1.0
        out[label] = sign * np.array([seg.segment_scores(st) for st in stats], dtype=np.float64)
        totals = np.array([st.values[slice(None) if keep is None else keep].sum(axis=0)
                           for st in stats])
        system[label] = sign * np.asarray(corpus.compute_many(totals), dtype=np.float64)
    return out, system


def external_scores(ds: Dataset, systems: Sequence[str], scores: LongScores, source: str
                    ) -> dict[str, np.ndarray]:
    """Segment scores of every metric in a long-format file, for every scored system and segment
    (a missing system or segment is an error naming both)."""
    out = {}
    for metric in scores.metrics():
        by_system = scores.segment_scores(metric)
        rows = []
        for s in systems:
            seg = by_system.get(s)
            if not seg:
                raise InputError(f"metric {metric!r} has no segment scores for system {s!r} "
                                 f"(data set {ds.name})", source=source)
            missing = [i for i in range(1, ds.segments + 1) if i not in seg]
            if missing:
                raise InputError(f"metric {metric!r}, system {s!r}: no score for {len(missing)} of "
                                 f"{ds.segments} segments (first: {missing[0]})", source=source)
            rows.append([seg[i] for i in range(1, ds.segments + 1)])
        out[metric] = np.array(rows, dtype=np.float64)
    return out


def pair_data(ds: Dataset, metrics: Sequence[str], external: Sequence[tuple[str, LongScores]] = (),
              human: bool = False, human_kind: str = "z", reference: str | None = None,
              exclude: Sequence[str] = (), include_outliers: bool = False,
              domain: str | None = None,
              scored: tuple[Mapping[str, np.ndarray], Mapping[str, np.ndarray]] | None = None
              ) -> PairData:
    """One data set's matrices after the data hygiene (module docstring). ``scored``: the
    built-in metrics' :func:`builtin_scores`, made already (e.g. in worker processes)."""
    ref = main_reference(ds, reference)
    systems, left = scored_systems(ds, ref, human, exclude, include_outliers)
    keep = domain_columns(ds, domain)
    if scored is None:
        scores, system = builtin_scores(ds, systems, ref, metrics, keep)
    else:
        scores, system = dict(scored[0]), dict(scored[1])
    for source, long in external:
        for label, matrix in external_scores(ds, systems, long, source).items():
            if label in scores:
                raise InputError(f"metric {label!r} is given twice", source=source)
            scores[label] = matrix
            rows = long.system_scores(label)
            given = domain is None and all(s in rows for s in systems)
            system[label] = np.array([rows[s] for s in systems]) if given else \
                matrix[:, keep].mean(axis=1)
    if not scores:
        raise InputError("no metric to evaluate: name built-in metrics or give --scores")
    h = np.array([ds.human_segment_scores(s, human_kind) for s in systems])[:, keep]
    return PairData(name=ds.name, systems=systems, human=h,
                    metrics={k: v[:, keep] for k, v in scores.items()}, system_metrics=system,
                    reference=ref,
                    segments_total=ds.segments, excluded=left, domain=domain)


__all__ = ["BUILTIN", "DEFAULT_METRICS", "PairData", "builtin_scores", "domain_columns",
           "external_scores", "main_reference", "pair_data", "scored_systems"]
