"""The seed papers' analyses on one data set (``mtscore study``): :func:`run_study` -> :class:`Study`.

Tables (ids for ``--tables``):

* ``corpus`` — corpus score of every metric and human system score of every system;
* ``bleu`` — BLEU's n-gram precisions, brevity penalty and lengths (Papineni et al., 2002, §2);
* ``system`` — METEOR paper Table 1 (Banerjee & Lavie, 2005, §4.2): system-level Pearson
  correlation of every metric (BLEU, NIST, P, R, F1, Fmean, chrF, chrF++, TER, METEOR, external
  scores) with human scores, percentile-bootstrap intervals (segments resampled jointly for
  metric and human), Spearman and Kendall beside;
* ``segment`` — METEOR paper Tables 2–5 (§4.3): segment-level Pearson correlation within each
  system, and their mean over systems;
* ``modules`` — METEOR paper Tables 6–7 (§4.4): the word-mapping modules (exact; exact+porter;
  exact+wn_stem; exact+porter+synonym) at system and segment level;
* ``human`` — METEOR paper Table 8 (§4.5): raw vs normalized (z) human scores;
* ``blocks`` — BLEU paper Table 1 (§4.1): BLEU on blocks of 25 segments, mean and SD per system;
* ``ttest`` — BLEU paper Table 2 (§4.1): paired t-statistics on the blocks, adjacent systems;
* ``significance`` — paired bootstrap resampling of every pair of systems, Holm-corrected, human
  translations apart (their intervals only) unless ``rank_human``;
* ``references`` — each single reference, every subset, all references (§4.1–4.2 of the BLEU
  paper use 1 to 4 references): scores, ranks and how the ranking changes.

Each analysis is one function below (:func:`corpus_scores`, :func:`human_scores`,
:func:`system_correlations`, :func:`segment_correlations`, :func:`significance`,
:func:`block_analysis`, :func:`reference_analysis`), callable alone; :func:`run_study` runs those the
wanted tables need. A statistic the data cannot support (constant scores, too few systems) becomes a
note of its table naming the metric and why; the other tables are still computed.

Defaults (stated in every output): a system is scored against all references except, for a human
system ``HUMAN-X``, reference X; a system's human score is the mean of its judged segments' scores
(z by default, raw on request); segment-level BLEU is sentence BLEU with sacreBLEU's defaults
(exp smoothing, effective order); segments without a human score are left out of segment-level
statistics; the block test uses as many blocks of 25 as the corpus holds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import scipy.stats

from ..errors import InputError, MtscoreError, OptionError
from ..io.dataset import HUMAN_KINDS, Dataset, load_dataset
from ..languages import LanguagePair, parse_pair
from ..metrics.base import Score, SegmentStats
from ..progress import track
from ..stats.blocks import BlockTestResult, block_test
from ..stats.correlation import (
    CorrelationResult,
    segment_correlation,
    system_correlation,
    system_correlation_ci,
)
from ..stats.defaults import check_count, check_seed, comparisons_count, resamples_for
from ..stats.references import ReferenceSensitivity
from ..stats.resampling import BootstrapCI, bootstrap_ci
from ..stats.significance import SignificanceResult, paired_bootstrap
from .metrics import Statistics, default_metrics, external_specs, module_specs
from .model import (
    BLOCK_SIZE,
    BLOCKS,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MODULE_SETS,
    TABLE_IDS,
    MetricSpec,
    Study,
)
from .parallel import system_statistics
from .script import spaceless_script

__all__ = ["BLOCKS", "BLOCK_SIZE", "DEFAULT_RESAMPLES", "DEFAULT_SEED", "MODULE_SETS", "TABLE_IDS",
           "MetricSpec", "Study", "default_metrics", "run_study"]

#: tables that need every metric; tables that need BLEU alone
METRIC_TABLES = ("corpus", "system", "segment", "human", "significance")
BLEU_TABLES = ("bleu", "blocks", "ttest", "references")

T = TypeVar("T")
Notes = dict[str, list[str]]


@dataclass
class Extracted:
    """Every metric's statistics: ``stats[label][system]``, with the specs they come from."""

    specs: list[MetricSpec]
    module_specs: list[MetricSpec]
    stats: dict[str, dict[str, SegmentStats]]

    def spec(self, label: str) -> MetricSpec:
        return next(s for s in self.specs + self.module_specs if s.label == label)


@dataclass
class Scores:
    """Corpus results and scores, segment scores and signatures of every metric."""

    results: dict[str, dict[str, Score]]
    corpus: dict[str, dict[str, float]]
    segments: dict[str, dict[str, np.ndarray]]
    signatures: dict[str, str]
    bleu_precisions: dict[str, tuple[float, ...]]


@dataclass
class Human:
    """Human scores by kind: system means and per-segment arrays of the judged systems."""

    judged: tuple[str, ...]
    systems: dict[str, dict[str, float]]
    segments: dict[str, dict[str, np.ndarray]]


@dataclass
class Correlations:
    system: dict[str, dict[str, CorrelationResult]] = field(default_factory=dict)
    rank: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    segment: dict[str, dict[str, dict[str, CorrelationResult | None]]] = field(default_factory=dict)


def _note_failures(notes: Notes, table: str, failures: Mapping[str, str]) -> None:
    """One note per distinct reason, naming the metrics it applies to."""
    by_reason: dict[str, list[str]] = {}
    for label, why in failures.items():
        by_reason.setdefault(why, []).append(label)
    for why, labels in by_reason.items():
        notes.setdefault(table, []).append(f"{', '.join(labels)}: not shown: {why}")


def _attempt(label: str, failures: dict[str, str], fn: Callable[..., T], *args: Any,
             **kwargs: Any) -> T | None:
    """``fn(*args, **kwargs)``, or None with the reason recorded (under ``label``) when the data
    cannot support the statistic."""
    try:
        return fn(*args, **kwargs)
    except InputError as err:
        failures[label] = str(err)
        return None


# ---- the analyses, one per table ------------------------------------------------------------------

def extract(data: Statistics, specs: Sequence[MetricSpec], modules: Sequence[MetricSpec] = (),
            jobs: int = 1) -> Extracted:
    """Statistics of every metric and system against the system's reference set (human systems
    last: the first system's statistics give the signatures of pooled results); ``jobs`` > 1:
    extracted in that many worker processes, one system at a time (:mod:`.parallel`)."""
    ds = data.dataset
    every = [*specs, *modules]
    stats: dict[str, dict[str, SegmentStats]] = {spec.label: {} for spec in every}
    order = sorted(ds.systems, key=lambda s: s in ds.human_systems)
    computed = [spec for spec in every if spec.stats is None]
    if jobs > 1 and len(order) > 1 and computed:
        found = system_statistics(ds, computed, order, jobs)
        for system, by_label in track(found, total=len(order), desc="statistics", min_total=2):
            for spec in computed:
                data.store(spec, system, ds.reference_ids_for(system), by_label[spec.label])
    tasks = [(spec, system) for spec in every for system in order]
    for spec, system in track(tasks, total=len(tasks), desc="statistics", min_total=2):
        stats[spec.label][system] = data.get(spec, system, ds.reference_ids_for(system))
    return Extracted(list(specs), list(modules), stats)


def corpus_scores(ex: Extracted) -> Scores:
    """``corpus`` table: each metric's corpus result (``compute`` of the summed statistics),
    segment scores (``segment_metric`` on each row) and signature (of the default protocol)."""
    every = ex.specs + ex.module_specs
    results = {spec.label: {s: spec.metric.compute(st.total(), st.meta)
                            for s, st in ex.stats[spec.label].items()} for spec in every}
    corpus = {label: {s: float(r.score) for s, r in d.items()} for label, d in results.items()}
    segments = {spec.label: {s: spec.segment_metric.segment_scores(st)
                             for s, st in ex.stats[spec.label].items()} for spec in every}
    signatures: dict[str, str] = {}
    for spec in every:
        default_stats = max(ex.stats[spec.label].values(), key=lambda st: st.meta.get("nrefs", ""))
        signatures[spec.label] = spec.metric.signature(default_stats.meta)
        if spec.segment_metric is not spec.metric:
            signatures[spec.label + " (segment)"] = spec.segment_metric.signature(default_stats.meta)
    precisions = {s: tuple(r.to_dict()["precisions"]) for s, r in results.get("BLEU", {}).items()
                  if "precisions" in r.to_dict()}
    return Scores(results, corpus, segments, signatures, precisions)


def human_scores(ds: Dataset, notes: list[str]) -> Human:
    """Human system and segment scores of the judged systems, every kind; notes on what the
    correlations must leave out."""
    judged = ds.judged_systems()
    systems = {k: {s: ds.human_system_score(s, k) for s in judged} for k in HUMAN_KINDS}
    segments = {k: {s: ds.human_segment_scores(s, k) for s in judged} for k in HUMAN_KINDS}
    if not judged:
        notes.append("the data set has no human scores: correlations (METEOR paper Tables 1–8) "
                     "are skipped")
    elif len(judged) < 3:
        notes.append(f"only {len(judged)} systems have human scores: system-level correlations "
                     "need at least 3 and are skipped")
    unjudged = [s for s in ds.systems if s not in judged]
    if judged and unjudged:
        notes.append(f"without human scores, left out of the correlations: {', '.join(unjudged)}")
    return Human(judged, systems, segments)


def _rank_correlations(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"spearman": float(scipy.stats.spearmanr(x, y).statistic),
                "kendall": float(scipy.stats.kendalltau(x, y).statistic)}


def system_correlations(ex: Extracted, sc: Scores, human: Human, kind: str, labels: Sequence[str],
                        *, interval: bool, resamples: int, seed: int,
                        cache: dict[tuple[Any, ...], CorrelationResult] | None = None
                        ) -> tuple[dict[str, CorrelationResult], dict[str, dict[str, float]],
                                   dict[str, str]]:
    """``system`` table (METEOR paper Table 1): Pearson r of each metric's corpus scores with the
    human ``kind`` system scores (with a bootstrap interval when ``interval``), Spearman and
    Kendall beside; and the metrics whose correlation is undefined, with the reason."""
    judged = human.judged
    y_by_sys = {s: human.systems[kind][s] for s in judged}
    if _constant(list(y_by_sys.values())):
        why = (f"the human {kind} system scores are constant over the {len(judged)} judged systems "
               "(equal up to rounding): a correlation is undefined")
        return {}, {}, dict.fromkeys(labels, why)
    cache = {} if cache is None else cache
    out: dict[str, CorrelationResult] = {}
    rank: dict[str, dict[str, float]] = {}
    failures: dict[str, str] = {}
    for label in labels:
        spec, stats = ex.spec(label), ex.stats[label]
        if _constant([sc.corpus[label][s] for s in judged]):
            failures[label] = (f"its corpus scores are constant over the {len(judged)} judged "
                               "systems: a correlation is undefined")
            continue
        if interval:  # a module set equal to the main METEOR shares its statistics: compute once
            key = (spec.metric.signature(), kind, tuple(id(stats[s]) for s in judged))
            if key not in cache:
                c = _attempt(label, failures, system_correlation_ci, spec.metric,
                             {s: stats[s] for s in judged}, human.segments[kind], "pearson",
                             resamples=resamples, seed=seed)
                if c is None:
                    continue
                cache[key] = c
            out[label] = cache[key]
        else:
            c = _attempt(label, failures, system_correlation,
                         {s: sc.corpus[label][s] for s in judged}, y_by_sys, "pearson")
            if c is None:
                continue
            out[label] = c
        x = np.array([sc.corpus[label][s] for s in judged])
        rank[label] = _rank_correlations(x, np.array(list(y_by_sys.values())))
    return out, rank, failures


def _constant(values: Sequence[float]) -> bool:
    """All equal, up to the rounding of a mean (1e-9 relative): a correlation with them would be
    noise (means of equal values can differ in the last bits and give any r)."""
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v)]
    return len(v) < 2 or float(np.ptp(v)) <= 1e-9 * max(1.0, float(np.abs(v).max()))


def _segment_pearson(metric_row: np.ndarray, human_row: np.ndarray) -> CorrelationResult | None:
    try:
        return segment_correlation(metric_row[None, :], human_row[None, :], "pearson", "system")
    except InputError:  # fewer than two judged segments, or constant scores
        return None


def segment_correlations(sc: Scores, human: Human, kind: str, labels: Sequence[str]
                         ) -> tuple[dict[str, dict[str, CorrelationResult | None]], dict[str, str]]:
    """``segment`` table (METEOR paper Tables 2–5): Pearson r within each judged system and the
    mean over systems (None where undefined); the metrics with no mean, with the reason."""
    out: dict[str, dict[str, CorrelationResult | None]] = {}
    failures: dict[str, str] = {}
    judged = human.judged
    for label in labels:
        per = {s: _segment_pearson(sc.segments[label][s], human.segments[kind][s]) for s in judged}
        mean = _attempt(label, failures, segment_correlation,
                        np.stack([sc.segments[label][s] for s in judged]),
                        np.stack([human.segments[kind][s] for s in judged]), "pearson", "system")
        out[label] = {**per, "mean": mean}
    return out, failures


def significance(ex: Extracted, resamples: int, seed: int, apart: Sequence[str] = ()
                 ) -> tuple[dict[str, SignificanceResult], dict[str, dict[str, BootstrapCI]],
                            dict[str, str]]:
    """``significance`` table: paired bootstrap resampling of every pair of systems, per metric.

    The systems ``apart`` (human translations, by default) are left out of the ranking, the Holm
    family and the clusters; each gets its bootstrap interval alone, from the same resamples
    (same seed, same segment draws): metric -> system -> interval."""
    out: dict[str, SignificanceResult] = {}
    alone: dict[str, dict[str, BootstrapCI]] = {}
    failures: dict[str, str] = {}
    for spec in ex.specs:
        stats = ex.stats[spec.label]
        ranked = {s: v for s, v in stats.items() if s not in apart}
        if len(ranked) >= 2:
            res = _attempt(spec.label, failures, paired_bootstrap, spec.metric, ranked,
                           resamples=resamples, seed=seed)
            if res is not None:
                out[spec.label] = res
        alone[spec.label] = {s: bootstrap_ci(spec.metric, stats[s], resamples, seed)
                             for s in stats if s in apart}
    return out, alone, failures


def block_analysis(ex: Extracted, segments: int, blocks: int | None, block_size: int,
                   notes: list[str]) -> BlockTestResult | None:
    """``blocks`` and ``ttest`` tables (BLEU paper Tables 1–2): BLEU on blocks of ``block_size``
    segments — ``blocks`` of them, or as many as the corpus holds (None) — and paired t-tests."""
    fit = segments // block_size if blocks is None else min(blocks, segments // block_size)
    if fit < 2:
        notes.append(f"{segments} segments: fewer than 2 blocks of {block_size}; the block "
                     "test (BLEU paper Tables 1–2) is skipped")
        return None
    if blocks is not None and fit < blocks:
        notes.append(f"block test: the data set has {segments} segments, fewer than "
                     f"{blocks} × {block_size} = {blocks * block_size}; {fit} blocks of "
                     f"{block_size} are used")
    spec = _bleu_spec(ex)
    return block_test(spec.metric, ex.stats[spec.label], blocks=fit, block_size=block_size)


def reference_analysis(data: Statistics, ex: Extracted) -> ReferenceSensitivity:
    """``references`` table: BLEU against every subset of the references."""
    return data.reference_sensitivity(_bleu_spec(ex).metric)


def _bleu_spec(ex: Extracted) -> MetricSpec:
    return next((s for s in ex.specs if s.label == "BLEU"), ex.specs[0])


# ---- run_study ------------------------------------------------------------------------------------

def _positive(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise OptionError(name, value, detail="must be a positive integer")


def _check_options(human: str | None, resamples: int | None, seed: int,
                   tables: Sequence[str] | None, block_size: int, blocks: int | None
                   ) -> tuple[str, ...]:
    if human is not None and human not in HUMAN_KINDS:
        raise OptionError("human score kind", human, HUMAN_KINDS)
    if resamples is not None:
        check_count(resamples, "resamples")
    check_seed(seed, "seed")
    _positive("block size", block_size)
    if blocks is not None:
        _positive("blocks", blocks)
    wanted = tuple(TABLE_IDS if tables is None else tables)
    for t in wanted:
        if t not in TABLE_IDS:
            raise OptionError("table", t, TABLE_IDS)
    return wanted


def _load(dataset: Dataset | str | Path, language_pair: str | None
          ) -> tuple[Dataset, LanguagePair | None]:
    pair = parse_pair(language_pair) if language_pair is not None else None
    ds = dataset if isinstance(dataset, Dataset) else load_dataset(dataset)
    if ds.segments == 0 or not ds.systems:
        what = "no segments" if ds.segments == 0 else "no systems"
        raise InputError(f"the data set has {what}: nothing to study", source=str(ds.path))
    if pair is None and isinstance(ds.meta.get("pair"), str):
        try:
            pair = parse_pair(ds.meta["pair"])
        except OptionError as err:
            raise InputError(f'"pair": {err}', source=str(ds.path / "meta.json")) from None
    if pair is None:
        _refuse_spaceless(ds)
    return ds, pair


def _refuse_spaceless(ds: Dataset) -> None:
    """No language pair: refuse references in a script without spaces between words (the 13a
    tokenizer and English METEOR would give wrong numbers), naming the ``-l`` to give."""
    found = spaceless_script(list(ds.references.values()))
    if found is None:
        return
    script, code = found
    first = next(iter(ds.references))
    raise InputError(f"is written in {script} script but no language pair is given: scoring it with "
                     f"the 13a tokenizer and English METEOR would give wrong numbers; give the pair "
                     f"(--language-pair SRC-{code}, or \"pair\" in meta.json)",
                     source=str(ds.path / "references" / f"{first}.txt"))


def _human_kind(ds: Dataset, human: str | None) -> str:
    available = ds.human_kinds
    if human is None:
        return "z" if "z" in available or not available else available[0]
    if available and human not in available:
        raise OptionError("human score kind", human, available,
                          detail=f"{ds.path / 'human'} has no {human} scores")
    return human


def _choose_metrics(ds: Dataset, wanted: Sequence[str], meteor: bool,
                    metrics: Sequence[MetricSpec] | None, target: str | None,
                    scores: Sequence[str], scores_signature: str | None,
                    notes: list[str], extra: Sequence[MetricSpec] = ()
                    ) -> tuple[list[MetricSpec], list[MetricSpec]]:
    """The main metrics and the module ablation's, only those the wanted tables need."""
    stages: dict[Any, Any] = {}  # METEOR alignments per stage, shared by every METEOR of the study
    if metrics is None:
        specs = default_metrics(meteor, stages, target)
        if not meteor:
            notes.append("METEOR left out on request (--no-meteor)")
    else:
        specs = list(metrics)
    specs += list(extra)
    specs += external_specs(scores, ds, scores_signature)
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise OptionError("metrics", tuple(labels), detail="metric labels must be unique (an "
                          "external metric may not take a built-in metric's name)")
    modules: list[MetricSpec] = []
    if "modules" in wanted and metrics is None and meteor:
        modules = module_specs(stages, target)
    if not any(t in wanted for t in METRIC_TABLES):
        specs = ([s for s in specs if s.label == "BLEU"][:1] or specs[:1]) \
            if any(t in wanted for t in BLEU_TABLES) else []
    return specs, modules


def _correlate(ex: Extracted, sc: Scores, human: Human, kinds: Sequence[str], main: str,
               wanted: Sequence[str], resamples: int, seed: int, notes: Notes) -> Correlations:
    """System- and segment-level correlations of every metric with each human score kind: the
    main kind with bootstrap intervals (and the module ablation), the others as point values."""
    out = Correlations()
    want_system = any(t in wanted for t in ("system", "modules", "human")) and len(human.judged) >= 3
    want_segment = any(t in wanted for t in ("segment", "modules", "human")) and bool(human.judged)
    cache: dict[tuple[Any, ...], CorrelationResult] = {}
    for kind in kinds:
        labels = [s.label for s in ex.specs]
        if kind == main and "modules" in wanted:
            labels += [s.label for s in ex.module_specs]
        table = "system" if kind == main else "human"
        out.system[kind], out.rank[kind], out.segment[kind] = {}, {}, {}
        if want_system:
            out.system[kind], out.rank[kind], failed = system_correlations(
                ex, sc, human, kind, labels, interval=kind == main, resamples=resamples, seed=seed,
                cache=cache)
            _note_failures(notes, table, failed)
        if want_segment:
            out.segment[kind], failed = segment_correlations(sc, human, kind, labels)
            _note_failures(notes, "segment" if kind == main else "human", failed)
    return out


def _settings(ds: Dataset, pair: LanguagePair | None, human: str, resamples: tuple[int, int],
              seed: int, labels: Sequence[str], apart: Sequence[str] = ()) -> dict[str, Any]:
    ref_sets = {s: ds.reference_ids_for(s) for s in ds.systems}
    return {
        "data set": ds.name,
        "references": ", ".join(ds.references),
        "language pair": f"{pair} (the target language picks the tokenizer, as sacreBLEU's -l, and "
                         "METEOR's resources)" if pair else "not given (13a tokenizer, English METEOR)",
        "reference protocol": "each system against all references except, for a human system "
                              "HUMAN-X, reference X (" + ("; ".join(
                                  f"{s}: {'+'.join(r)}" for s, r in ref_sets.items()
                                  if s in ds.human_systems) or "the data set has none") + ")",
        "human score": f"{human} (mean of the system's judged segments; segment score = mean of "
                       "its judgments)" if ds.human_kinds else "none (the data set has no human "
                       "scores)",
        "ranking": "human translations (" + ", ".join(apart) + ") apart: not in the paired "
                   "bootstrap's Holm family nor the clusters (--rank-human to rank them)" if apart
                   else "every system in the paired bootstrap's Holm family and clusters",
        "segment-level BLEU": "sentence BLEU, sacreBLEU defaults (exp smoothing, effective order)",
        "segment level": "segments without a human score are left out",
        "resamples": resamples[0],
        "paired bootstrap resamples": resamples[1],
        "seed": seed,
        "metrics": ", ".join(labels),
    }


def run_study(dataset: Dataset | str | Path, *, human: str | None = None, resamples: int | None = None,
              seed: int = DEFAULT_SEED, tables: Sequence[str] | None = None,
              block_size: int = BLOCK_SIZE, blocks: int | None = BLOCKS, meteor: bool = True,
              metrics: Sequence[MetricSpec] | None = None, language_pair: str | None = None,
              scores: Sequence[str] = (), scores_signature: str | None = None, jobs: int = 1,
              extra_metrics: Sequence[MetricSpec] = (), rank_human: bool = False) -> Study:
    """Run the seed papers' analyses on ``dataset`` (a :class:`Dataset` or a folder).

    ``human``: the human score kind of the main tables ("z" or "raw"; default z, or raw when the
    data set has no z scores; Table 8 shows every kind the data set has).
    ``resamples``/``seed``: bootstrap intervals and paired bootstrap (default: 1,000 for the
    intervals; for the paired bootstrap enough for Holm's correction over every pair of systems,
    :func:`mtscore.stats.defaults.resamples_for`, so that the clusters can separate systems).
    ``tables``: compute only these
    table ids (default all). ``block_size``/``blocks``: the BLEU block test (default: as many blocks
    of 25 as the corpus holds; the paper's 20 × 25 with ``blocks=20``).
    ``meteor``: include METEOR when available. ``metrics``: replace the default metric list.
    ``language_pair``: ``SRC-TGT`` (default: meta.json's ``pair``, else none); the target language
    picks the default metrics' tokenizer as sacreBLEU's ``-l`` does.
    ``scores``: long-format files of external metric scores (one score per system and segment;
    :mod:`mtscore.io.scores`), studied like the built-in metrics; ``scores_signature`` replaces
    their signature.
    ``extra_metrics``: studied after the default (or given) metrics, e.g. METEOR with a jar task.
    ``rank_human``: rank human translations (``HUMAN-X`` systems) with the machines, in the paired
    bootstrap's Holm family and clusters (default: apart, with their intervals only).
    ``jobs``: worker processes extracting the statistics, one system at a time (identical numbers;
    started with ``spawn``, so a script calling this with ``jobs`` > 1 needs the
    ``if __name__ == "__main__":`` guard).
    """
    wanted = _check_options(human, resamples, seed, tables, block_size, blocks)
    _positive("jobs", jobs)
    ds, pair = _load(dataset, language_pair)
    kind = _human_kind(ds, human)
    notes: list[str] = []
    table_notes: Notes = {}
    specs, modules = _choose_metrics(ds, wanted, meteor, metrics, pair.target if pair else None,
                                     scores, scores_signature, notes, extra_metrics)
    data = Statistics(ds)
    ex = extract(data, specs, modules, jobs)
    sc = corpus_scores(ex)
    hs = human_scores(ds, notes)
    kinds = (tuple(k for k in HUMAN_KINDS if k in ds.human_kinds) or (kind,)) if "human" in wanted \
        else (kind,)
    apart = () if rank_human else tuple(s for s in ds.systems if s in ds.human_systems)
    ranked = len(ds.systems) - len(apart)
    n_resamples = (resamples or DEFAULT_RESAMPLES,
                   resamples or resamples_for(comparisons_count(max(ranked, 2), False)))
    corr = _correlate(ex, sc, hs, kinds, kind, wanted, n_resamples[0], seed, table_notes)
    sig: dict[str, SignificanceResult] = {}
    alone: dict[str, dict[str, BootstrapCI]] = {}
    if "significance" in wanted:
        if ranked < 2:
            notes.append(f"{ranked} system{'s' if ranked != 1 else ''} to rank (human "
                         "translations apart): no pairwise significance")
        if ranked >= 2 or apart:
            sig, alone, failed = significance(ex, n_resamples[1], seed, apart)
            _note_failures(table_notes, "significance", failed)
    block = block_analysis(ex, ds.segments, blocks, block_size, notes) \
        if ("blocks" in wanted or "ttest" in wanted) and specs else None
    refcounts = reference_analysis(data, ex) if "references" in wanted and specs else None
    labels = tuple(s.label for s in specs)
    study = Study(
        dataset=ds.name, path=str(ds.path), segments=ds.segments, systems=tuple(ds.systems),
        judged_systems=hs.judged, references=tuple(ds.references),
        reference_sets={s: ds.reference_ids_for(s) for s in ds.systems},
        human_systems=dict(ds.human_systems), human_kind=kind, metrics=labels,
        module_metrics=tuple(s.label for s in modules), corpus_scores=sc.corpus,
        corpus_results=sc.results, bleu_precisions=sc.bleu_precisions, human_scores=hs.systems,
        human_segment_scores=hs.segments, segment_scores=sc.segments,
        system_correlations=corr.system, system_rank_correlations=corr.rank,
        segment_correlations=corr.segment, significance=sig, intervals_apart=alone, blocks=block,
        reference_counts=refcounts, signatures=sc.signatures,
        settings=_settings(ds, pair, kind, n_resamples, seed, labels, apart), notes=tuple(notes),
        higher_is_better={s.label: s.metric.higher_is_better for s in specs + modules},
        table_notes={k: tuple(v) for k, v in table_notes.items()})
    return replace(study, wanted_tables=tuple(t for t in TABLE_IDS if t in wanted),
                   machine_correlations=machine_correlations(study))


def machine_correlations(study: Study) -> dict[str, float]:
    """System-level Pearson r of each metric over the judged systems that are not human
    translations (a human translation scored against the other references is an outlier that can
    make r look better than it is); empty when there are no human systems among the judged or
    fewer than 3 others."""
    kind = study.human_kind
    machine = [s for s in study.judged_systems if s not in study.human_systems]
    if len(machine) == len(study.judged_systems) or len(machine) < 3:
        return {}
    human = {s: study.human_scores[kind][s] for s in machine}
    out = {}
    for m in study.system_correlations.get(kind, {}):
        if m not in study.metrics:
            continue
        try:
            out[m] = system_correlation({s: study.corpus_scores[m][s] for s in machine}, human,
                                        "pearson").statistic
        except MtscoreError:
            out[m] = math.nan
    return out

