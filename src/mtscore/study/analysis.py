"""The seed papers' analyses on one data set (``mtscore study``): :func:`run_study` -> :class:`Study`.

Tables (ids for ``--tables``):

* ``corpus`` — corpus score of every metric and human system score of every system;
* ``bleu`` — BLEU's n-gram precisions, brevity penalty and lengths (Papineni et al., 2002, §2);
* ``system`` — METEOR paper Table 1 (Banerjee & Lavie, 2005, §4.2): system-level Pearson
  correlation of BLEU, NIST, P, R, F1, Fmean, METEOR with human scores, percentile-bootstrap
  intervals (segments resampled jointly for metric and human), Spearman and Kendall beside;
* ``segment`` — METEOR paper Tables 2–5 (§4.3): segment-level Pearson correlation within each
  system, and their mean over systems;
* ``modules`` — METEOR paper Tables 6–7 (§4.4): the word-mapping modules (exact; exact+porter;
  exact+wn_stem; exact+porter+synonym) at system and segment level;
* ``human`` — METEOR paper Table 8 (§4.5): raw vs normalized (z) human scores;
* ``blocks`` — BLEU paper Table 1 (§4.1): BLEU on blocks of 25 segments, mean and SD per system;
* ``ttest`` — BLEU paper Table 2 (§4.1): paired t-statistics on the blocks, adjacent systems;
* ``significance`` — paired bootstrap resampling of every pair of systems, Holm-corrected;
* ``references`` — each single reference, every subset, all references (§4.1–4.2 of the BLEU
  paper use 1 to 4 references): scores, ranks and how the ranking changes.

Defaults (stated in every output): a system is scored against all references except, for a human
system ``HUMAN-X``, reference X; a system's human score is the mean of its judged segments' scores
(z by default, raw on request); segment-level BLEU is sentence BLEU with sacreBLEU's defaults
(exp smoothing, effective order); segments without a human score are left out of segment-level
statistics. Each metric's statistics are extracted once per system and reference set and reused by
every analysis (references prepared once per reference set).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy.stats

from ..errors import InputError, OptionError
from ..io.dataset import HUMAN_KINDS, Dataset, load_dataset
from ..languages import bleu_tokenizer, meteor_language, parse_pair
from ..metrics.base import Metric, Score, SegmentStats
from ..metrics.bleu import BLEU, BLEUResult
from ..metrics.nist import NIST
from ..metrics.unigram import Unigram
from ..progress import track
from ..report.tables import Table, render
from ..stats.blocks import BlockTestResult, block_test
from ..stats.correlation import (
    CorrelationResult,
    segment_correlation,
    system_correlation,
    system_correlation_ci,
)
from ..stats.references import ReferenceSensitivity, reference_sensitivity
from ..stats.significance import SignificanceResult, paired_bootstrap
from ..text.tokenizers import preprocess

#: table ids, in output order
TABLE_IDS = ("corpus", "bleu", "system", "segment", "modules", "human", "blocks", "ttest",
             "significance", "references")

#: METEOR module sets of the paper's Tables 6–7
MODULE_SETS = (("exact",), ("exact", "porter"), ("exact", "wn_stem"), ("exact", "porter", "synonym"))

DEFAULT_SEED = 12345
DEFAULT_RESAMPLES = 1000
BLOCK_SIZE = 25
BLOCKS = 20


# ---- metrics of the study -----------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class MetricSpec:
    """A metric of the study: ``metric`` scores summed statistics (corpus, resamples, blocks);
    ``segment_metric`` scores single rows of the *same* statistics (e.g. sentence BLEU)."""

    label: str
    metric: Metric[Any]
    segment_metric: Metric[Any]


def _meteor_class() -> tuple[Any, str]:
    """The METEOR metric class if the package provides it, else (None, why not)."""
    try:
        from ..metrics.meteor import METEOR  # type: ignore[attr-defined]
    except ImportError as err:
        return None, f"METEOR is not available in this installation ({err})"
    return METEOR, ""


def default_metrics(meteor: bool = True, stages: dict[Any, Any] | None = None,
                    target: str | None = None) -> tuple[list[MetricSpec], list[str]]:
    """BLEU, NIST, P, R, F1, Fmean (and METEOR 2005 when available), and notes on what is missing.

    ``stages``: a METEOR stage cache to share with the module ablation's METEOR objects.
    ``target``: the target language, which picks the tokenizer as sacreBLEU does (zh: zh, ja:
    ja-mecab; default 13a)."""
    tok = bleu_tokenizer(target)
    bleu = BLEU(tokenize=tok)
    specs = [MetricSpec("BLEU", bleu, BLEU(tokenize=tok, effective_order=True)),
             MetricSpec("NIST", NIST(tokenize=tok), NIST(tokenize=tok))]
    for measure, label in (("precision", "P"), ("recall", "R"), ("f1", "F1"), ("fmean", "Fmean")):
        m = Unigram(measure, tokenize=tok)
        specs.append(MetricSpec(label, m, m))
    notes = []
    if meteor:
        cls, why = _meteor_class()
        if cls is None:
            notes.append(why + "; the study is shown without it")
        else:
            m = cls(variant="2005", stage_cache=stages, language=target or "en")
            specs.append(MetricSpec("METEOR", m, m))
    return specs, notes


def _module_specs(stages: dict[Any, Any], target: str | None = None
                  ) -> tuple[list[MetricSpec], list[str]]:
    cls, why = _meteor_class()
    if cls is None:
        return [], [why + "; the module ablation (METEOR paper Tables 6–7) is skipped"]
    language = meteor_language(target)
    sets = MODULE_SETS if language.english else \
        tuple(language.modules[:k] for k in range(1, len(language.modules) + 1))
    specs = []
    for modules in sets:  # the module sets share their common first stages through ``stages``
        m = cls(modules=modules, variant="2005", stage_cache=stages, language=language.code)
        specs.append(MetricSpec("METEOR[" + "+".join(modules) + "]", m, m))
    return specs, []


def _pretokenized_twin(metric: Metric[Any]) -> Metric[Any] | None:
    """The same metric reading already tokenized (and lowercased) text, for the n-gram metrics.

    Its statistics are identical to ``metric``'s on ``preprocess(text, tokenizer, lowercase)``
    (the ``none`` tokenizer only strips trailing white space and splits on white space), so the
    study tokenizes each text once per tokenizer and case instead of once per metric.
    """
    if type(metric) is BLEU:
        return BLEU(tokenize="none", max_order=metric.max_order)
    if type(metric) is NIST:
        return NIST(tokenize="none", max_order=metric.max_order)
    if type(metric) is Unigram:
        return Unigram(metric.measure, tokenize="none", lowercase=False)
    return None


class _Statistics:
    """Extracts each metric's statistics once per (system, reference set); references prepared once;
    texts tokenized once per (tokenizer, case) for the n-gram metrics."""

    def __init__(self, dataset: Dataset):
        self.dataset = dataset
        self._prepared: dict[tuple[Any, ...], Any] = {}
        self._stats: dict[tuple[Any, ...], SegmentStats] = {}
        self._tokenized: dict[tuple[Any, ...], list[str]] = {}

    @staticmethod
    def _key(metric: Metric[Any]) -> tuple[Any, ...]:
        settings = metric.settings_key() if hasattr(metric, "settings_key") else id(metric)
        return (type(metric).__name__, settings)

    def text(self, metric: Metric[Any], kind: str, name: str) -> list[str]:
        """System output or reference ``name`` (``kind``: systems/references), tokenized as
        ``metric`` tokenizes when it has a pre-tokenized twin, else as it is."""
        texts = (self.dataset.systems if kind == "systems" else self.dataset.references)[name]
        if _pretokenized_twin(metric) is None:
            return texts
        tokenizer, lowercase = metric.tokenizer, metric.lowercase
        key = (tokenizer.signature(), lowercase, kind, name)
        if key not in self._tokenized:
            self._tokenized[key] = preprocess(texts, tokenizer, lowercase)
        return self._tokenized[key]

    def references(self, metric: Metric[Any], ref_ids: tuple[str, ...]) -> Any:
        key = (self._key(metric), ref_ids)
        if key not in self._prepared:
            streams = [self.text(metric, "references", r) for r in ref_ids]
            worker = _pretokenized_twin(metric) or metric
            self._prepared[key] = worker.prepare_references(streams, names=list(ref_ids)) \
                if hasattr(worker, "prepare_references") else streams
        return self._prepared[key]

    def get(self, metric: Metric[Any], system: str, ref_ids: tuple[str, ...]) -> SegmentStats:
        key = (self._key(metric), getattr(metric, "measure", None), metric.signature(), system, ref_ids)
        if key not in self._stats:
            worker = _pretokenized_twin(metric) or metric
            self._stats[key] = worker.extract(self.text(metric, "systems", system),
                                              self.references(metric, ref_ids))
        return self._stats[key]

    def reference_sensitivity(self, metric: Metric[Any]) -> ReferenceSensitivity:
        """:func:`mtscore.stats.references.reference_sensitivity` on the tokenized texts."""
        ds = self.dataset
        worker = _pretokenized_twin(metric) or metric
        result = reference_sensitivity(
            worker, {s: self.text(metric, "systems", s) for s in ds.systems},
            {r: self.text(metric, "references", r) for r in ds.references}, exclude=ds.human_systems)
        if worker is metric:
            return result
        return dataclasses.replace(result, metric=metric.name.upper(), signatures=tuple(
            metric.signature({"nrefs": str(len(subset))}) for subset in result.subsets))


# ---- result objects -----------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Study:
    """Everything ``mtscore study`` computes: the tables and the raw numbers behind them.

    Mappings are keyed by metric label (``BLEU``, ``NIST``, ``P``, ``R``, ``F1``, ``Fmean``,
    ``METEOR``, ``METEOR[exact+porter]``…), system name and human kind (``raw``/``z``).
    Segment arrays have one entry per segment of the data set (human: NaN where unjudged).
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
    #: metric -> paired bootstrap of all pairs of systems
    significance: Mapping[str, SignificanceResult]
    #: BLEU paper §3 block test (20 blocks of 25, or as many as fit)
    blocks: BlockTestResult | None
    #: BLEU against every subset of the references
    reference_counts: ReferenceSensitivity | None
    #: metric -> signature (of the default protocol; systems scored against fewer references
    #: differ only in nrefs)
    signatures: Mapping[str, str]
    settings: Mapping[str, Any]
    #: what was skipped and why
    notes: tuple[str, ...]
    #: table id -> table, in TABLE_IDS order (only the computed ones)
    tables: Mapping[str, Table] = field(default_factory=dict)

    def table_list(self, ids: Sequence[str] | None = None) -> list[Table]:
        """The tables with the given ids (default: all computed), in TABLE_IDS order."""
        if ids is not None:
            for t in ids:
                if t not in TABLE_IDS:
                    raise OptionError("table", t, TABLE_IDS)
        return [self.tables[t] for t in TABLE_IDS if t in self.tables and (ids is None or t in ids)]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: settings, notes, the tables (full precision) and the raw numbers."""
        def arr(m: Mapping[str, Mapping[str, np.ndarray]]) -> dict[str, dict[str, list[Any]]]:
            return {k: {s: [None if math.isnan(x) else float(x) for x in v] for s, v in d.items()}
                    for k, d in m.items()}

        def corr(c: CorrelationResult | None) -> dict[str, Any] | None:
            return None if c is None else _clean(c.to_dict())

        return _clean({
            "dataset": self.dataset, "path": self.path, "segments": self.segments,
            "systems": list(self.systems), "judged_systems": list(self.judged_systems),
            "references": list(self.references),
            "reference_sets": {k: list(v) for k, v in self.reference_sets.items()},
            "human_systems": dict(self.human_systems), "human_kind": self.human_kind,
            "metrics": list(self.metrics), "module_metrics": list(self.module_metrics),
            "settings": dict(self.settings), "notes": list(self.notes),
            "signatures": dict(self.signatures),
            "tables": {k: _table_dict(t) for k, t in self.tables.items()},
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
            "blocks": self.blocks.to_dict() if self.blocks else None,
            "reference_counts": self.reference_counts.to_dict() if self.reference_counts else None,
        })

    def render(self, fmt: str = "text", width: int = 2, ids: Sequence[str] | None = None) -> str:
        """The selected tables in ``fmt``; JSON is one object with settings, notes and tables."""
        tables = self.table_list(ids)
        if fmt == "json":
            selected = {k: _table_dict(t) for k, t in self.tables.items() if t in tables}
            return json.dumps(_clean({"dataset": self.dataset, "segments": self.segments,
                                      "settings": dict(self.settings), "notes": list(self.notes),
                                      "tables": selected}), indent=2, ensure_ascii=False)
        header = Table(("setting", "value"), tuple((k, _setting_text(v)) for k, v in self.settings.items()),
                       title=f"Study of {self.dataset} ({self.segments} segments, "
                             f"{len(self.systems)} systems)", notes=self.notes)
        return render([header, *tables], fmt, width)


def _setting_text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)


def _clean(value: Any) -> Any:
    """NaN/inf -> None, numpy scalars -> Python, recursively (strict JSON)."""
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, np.ndarray):
        return _clean(value.tolist())
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _table_dict(t: Table) -> dict[str, Any]:
    return {"title": t.title, "columns": list(t.columns), "rows": [list(r) for r in t.rows],
            "notes": list(t.notes)}


# ---- the analyses -------------------------------------------------------------------------------

def _rank_correlations(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    return {"spearman": float(scipy.stats.spearmanr(x, y).statistic),
            "kendall": float(scipy.stats.kendalltau(x, y).statistic)}


def _segment_pearson(metric_row: np.ndarray, human_row: np.ndarray) -> CorrelationResult | None:
    try:
        return segment_correlation(metric_row[None, :], human_row[None, :], "pearson", "system")
    except InputError:  # fewer than two judged segments, or constant scores
        return None


# ---- run_study ----------------------------------------------------------------------------------

def run_study(dataset: Dataset | str | Path, *, human: str | None = None, resamples: int = DEFAULT_RESAMPLES,
              seed: int = DEFAULT_SEED, tables: Sequence[str] | None = None,
              block_size: int = BLOCK_SIZE, blocks: int = BLOCKS, meteor: bool = True,
              metrics: Sequence[MetricSpec] | None = None, language_pair: str | None = None) -> Study:
    """Run the seed papers' analyses on ``dataset`` (a :class:`Dataset` or a folder).

    ``human``: the human score kind of the main tables ("z" or "raw"; default z, or raw when the
    data set has no z scores; Table 8 shows every kind the data set has).
    ``resamples``/``seed``: bootstrap intervals and paired bootstrap. ``tables``: compute only these
    table ids (default all). ``block_size``/``blocks``: the BLEU block test (20 × 25 in the paper).
    ``meteor``: include METEOR when available. ``metrics``: replace the default metric list.
    ``language_pair``: ``SRC-TGT`` (default: meta.json's ``pair``, else none); the target language
    picks the default metrics' tokenizer as sacreBLEU's ``-l`` does.
    """
    if human is not None and human not in HUMAN_KINDS:
        raise OptionError("human score kind", human, HUMAN_KINDS)
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise OptionError("resamples", resamples, detail="must be a positive integer")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OptionError("seed", seed, detail="must be a non-negative integer (0 is a seed)")
    for name, value in (("block size", block_size), ("blocks", blocks)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise OptionError(name, value, detail="must be a positive integer")
    wanted = tuple(TABLE_IDS if tables is None else tables)
    for t in wanted:
        if t not in TABLE_IDS:
            raise OptionError("table", t, TABLE_IDS)
    pair = parse_pair(language_pair) if language_pair is not None else None
    ds = dataset if isinstance(dataset, Dataset) else load_dataset(dataset)
    if pair is None and isinstance(ds.meta.get("pair"), str):
        try:
            pair = parse_pair(ds.meta["pair"])
        except OptionError as err:
            raise InputError(f'"pair": {err}', source=str(ds.path / "meta.json")) from None
    available = ds.human_kinds
    if human is None:
        human = "z" if "z" in available or not available else available[0]
    elif available and human not in available:
        raise OptionError("human score kind", human, available,
                          detail=f"{ds.path / 'human'} has no {human} scores")

    notes: list[str] = []
    stages: dict[Any, Any] = {}  # METEOR alignments per stage, shared by every METEOR of the study
    if metrics is None:
        specs, missing = default_metrics(meteor, stages, pair.target if pair else None)
        notes += missing
        if not meteor:
            notes.append("METEOR left out on request (--no-meteor)")
    else:
        specs = list(metrics)
    labels = tuple(s.label for s in specs)
    if len(set(labels)) != len(labels):
        raise OptionError("metrics", labels, detail="metric labels must be unique")
    module_specs: list[MetricSpec] = []
    if "modules" in wanted and metrics is None and meteor:
        module_specs, missing = _module_specs(stages, pair.target if pair else None)
        notes += missing

    # only the metrics the wanted tables need: all for the metric tables, BLEU alone for the
    # BLEU-only tables (bleu, blocks, ttest, references)
    if not any(t in wanted for t in ("corpus", "system", "segment", "human", "significance")):
        specs = [s for s in specs if s.label == "BLEU"][:1] or specs[:1] \
            if any(t in wanted for t in ("bleu", "blocks", "ttest", "references")) else []
        labels = tuple(s.label for s in specs)
    data = _Statistics(ds)
    ref_sets = {s: ds.reference_ids_for(s) for s in ds.systems}
    all_specs = specs + module_specs
    stats: dict[str, dict[str, SegmentStats]] = {spec.label: {} for spec in all_specs}
    # human systems last: the first system's statistics give the signatures of pooled results
    order = sorted(ds.systems, key=lambda s: s in ds.human_systems)
    jobs = [(spec, system) for spec in all_specs for system in order]
    for spec, system in track(jobs, total=len(jobs), desc="statistics", min_total=2):
        stats[spec.label][system] = data.get(spec.metric, system, ref_sets[system])

    corpus_results = {label: {s: spec_metric(all_specs, label).compute(st.total(), st.meta)
                              for s, st in by_sys.items()} for label, by_sys in stats.items()}
    corpus_scores = {label: {s: float(r.score) for s, r in d.items()} for label, d in corpus_results.items()}
    segment_scores = {spec.label: {s: spec.segment_metric.segment_scores(st)
                                   for s, st in stats[spec.label].items()} for spec in all_specs}
    signatures = {}
    for spec in all_specs:
        default_stats = max(stats[spec.label].values(), key=lambda st: st.meta.get("nrefs", ""))
        signatures[spec.label] = spec.metric.signature(default_stats.meta)
        if spec.segment_metric is not spec.metric:
            signatures[spec.label + " (segment)"] = spec.segment_metric.signature(default_stats.meta)
    bleu_precisions = {s: tuple(r.precisions) for s, r in corpus_results.get("BLEU", {}).items()
                       if isinstance(r, BLEUResult)}

    judged = ds.judged_systems()
    human_scores = {k: {s: ds.human_system_score(s, k) for s in judged} for k in HUMAN_KINDS}
    human_segments = {k: {s: ds.human_segment_scores(s, k) for s in judged} for k in HUMAN_KINDS}
    if not judged:
        notes.append("the data set has no human scores: correlations (METEOR paper Tables 1–8) "
                     "are skipped")
    elif len(judged) < 3:
        notes.append(f"only {len(judged)} systems have human scores: system-level correlations "
                     "need at least 3 and are skipped")
    unjudged = [s for s in ds.systems if s not in judged]
    if judged and unjudged:
        notes.append(f"without human scores, left out of the correlations: {', '.join(unjudged)}")

    kinds = (tuple(k for k in HUMAN_KINDS if k in available) or (human,)) if "human" in wanted \
        else (human,)
    want_system = any(t in wanted for t in ("system", "modules", "human")) and len(judged) >= 3
    want_segment = any(t in wanted for t in ("segment", "modules", "human")) and bool(judged)
    sys_corr: dict[str, dict[str, CorrelationResult]] = {}
    rank_corr: dict[str, dict[str, dict[str, float]]] = {}
    seg_corr: dict[str, dict[str, dict[str, CorrelationResult | None]]] = {}
    ci_cache: dict[tuple[Any, ...], CorrelationResult] = {}
    for kind in kinds:
        sys_corr[kind], rank_corr[kind], seg_corr[kind] = {}, {}, {}
        for spec in all_specs:
            if spec in module_specs and (kind != human or "modules" not in wanted):
                continue
            if want_system:
                y_by_sys = {s: human_scores[kind][s] for s in judged}
                if kind == human:  # the main tables: bootstrap interval
                    # a module set equal to the main METEOR shares its statistics: compute once
                    key = (spec.metric.signature(), tuple(id(stats[spec.label][s]) for s in judged))
                    if key not in ci_cache:
                        ci_cache[key] = system_correlation_ci(
                            spec.metric, {s: stats[spec.label][s] for s in judged},
                            human_segments[kind], "pearson", resamples=resamples, seed=seed)
                    sys_corr[kind][spec.label] = ci_cache[key]
                else:  # Table 8's other kind: the point value
                    sys_corr[kind][spec.label] = system_correlation(
                        {s: corpus_scores[spec.label][s] for s in judged}, y_by_sys, "pearson")
                x = np.array([corpus_scores[spec.label][s] for s in judged])
                rank_corr[kind][spec.label] = _rank_correlations(x, np.array(list(y_by_sys.values())))
            if want_segment:
                per = {s: _segment_pearson(segment_scores[spec.label][s], human_segments[kind][s])
                       for s in judged}
                try:
                    mean = segment_correlation(
                        np.stack([segment_scores[spec.label][s] for s in judged]),
                        np.stack([human_segments[kind][s] for s in judged]), "pearson", "system")
                except InputError:
                    mean = None
                seg_corr[kind][spec.label] = {**per, "mean": mean}

    significance: dict[str, SignificanceResult] = {}
    if "significance" in wanted:
        if len(ds.systems) < 2:
            notes.append("one system only: no pairwise significance")
        else:
            for spec in specs:
                significance[spec.label] = paired_bootstrap(spec.metric, stats[spec.label],
                                                            resamples=resamples, seed=seed)

    block = None
    bleu_spec = next((s for s in specs if s.label == "BLEU"), specs[0] if specs else None)
    if "blocks" in wanted or "ttest" in wanted:
        fit = min(blocks, ds.segments // block_size)
        if fit < 2:
            notes.append(f"{ds.segments} segments: fewer than 2 blocks of {block_size}; the block "
                         "test (BLEU paper Tables 1–2) is skipped")
        else:
            if fit < blocks:
                notes.append(f"block test: the data set has {ds.segments} segments, fewer than "
                             f"{blocks} × {block_size} = {blocks * block_size}; {fit} blocks of "
                             f"{block_size} are used")
            assert bleu_spec is not None
            block = block_test(bleu_spec.metric, stats[bleu_spec.label], blocks=fit,
                               block_size=block_size)

    refcounts = None
    if "references" in wanted:
        assert bleu_spec is not None
        refcounts = data.reference_sensitivity(bleu_spec.metric)

    settings: dict[str, Any] = {
        "data set": f"{ds.name} ({ds.path})",
        "references": ", ".join(ds.references),
        "language pair": f"{pair} (the target language picks the tokenizer, as sacreBLEU's -l, and "
                         "METEOR's resources)" if pair else "not given (13a tokenizer, English METEOR)",
        "reference protocol": "each system against all references except, for a human system "
                              "HUMAN-X, reference X (" + ("; ".join(
                                  f"{s}: {'+'.join(r)}" for s, r in ref_sets.items()
                                  if s in ds.human_systems) or "the data set has none") + ")",
        "human score": f"{human} (mean of the system's judged segments; segment score = mean of "
                       "its judgments)",
        "segment-level BLEU": "sentence BLEU, sacreBLEU defaults (exp smoothing, effective order)",
        "segment level": "segments without a human score are left out",
        "resamples": resamples,
        "seed": seed,
        "metrics": ", ".join(labels),
    }
    study = Study(
        dataset=ds.name, path=str(ds.path), segments=ds.segments, systems=tuple(ds.systems),
        judged_systems=judged, references=tuple(ds.references), reference_sets=ref_sets,
        human_systems=dict(ds.human_systems), human_kind=human, metrics=labels,
        module_metrics=tuple(s.label for s in module_specs), corpus_scores=corpus_scores,
        corpus_results=corpus_results, bleu_precisions=bleu_precisions, human_scores=human_scores,
        human_segment_scores=human_segments, segment_scores=segment_scores,
        system_correlations=sys_corr, system_rank_correlations=rank_corr,
        segment_correlations=seg_corr, significance=significance, blocks=block,
        reference_counts=refcounts, signatures=signatures, settings=settings, notes=tuple(notes))
    from .tables import build_tables

    object.__setattr__(study, "tables", build_tables(study, wanted))
    return study


def spec_metric(specs: Sequence[MetricSpec], label: str) -> Metric[Any]:
    return next(s.metric for s in specs if s.label == label)
