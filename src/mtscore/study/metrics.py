"""The metrics of a study and their statistics: the default list, the METEOR module ablation,
external scores (``--scores FILE``), and :class:`Statistics`, which extracts each metric's
statistics once per (system, reference set) with references prepared once per reference set.

Only the Metric contract is used (``prepare_references``, ``extract``, ``signature``): no metric
type is tested anywhere in the study. (Each n-gram metric tokenizes for itself: a shared
pre-tokenized copy of the texts used to save time, but with every tokenizer's fast encoder the
metrics' own tokenization is faster — 0.80 s instead of 1.20 s of CPU for BLEU, NIST, P, R, F1,
Fmean on WMT22 de-en, 1.45 s instead of 2.17 s on zh-en.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import InputError
from ..io.dataset import Dataset
from ..languages import meteor_language
from ..metrics import registry
from ..metrics.base import Metric, SegmentStats
from ..stats.correlation import SegmentMean
from ..stats.references import ReferenceSensitivity, reference_sensitivity
from .model import MODULE_SETS, MetricSpec


def default_metrics(meteor: bool = True, stages: dict[Any, Any] | None = None,
                    target: str | None = None) -> list[MetricSpec]:
    """BLEU, NIST, P, R, F1, Fmean, chrF, chrF++, TER (and METEOR 2005): the registry's study
    metrics (:func:`mtscore.metrics.registry.study_metrics`).

    ``stages``: a METEOR stage cache to share with the module ablation's METEOR objects.
    ``target``: the target language, which picks the tokenizer as sacreBLEU does (zh: zh, ja:
    ja-mecab; default 13a) and TER's Asian support (zh, ja)."""
    return [MetricSpec(label, metric, segment_metric)
            for label, metric, segment_metric in registry.study_metrics(target, stages, meteor)]


def module_specs(stages: dict[Any, Any], target: str | None = None) -> list[MetricSpec]:
    """METEOR with each module set of the paper's Tables 6–7 (or the language's own modules)."""
    from ..metrics.meteor import METEOR

    language = meteor_language(target)
    sets = MODULE_SETS if language.english else \
        tuple(language.modules[:k] for k in range(1, len(language.modules) + 1))
    specs = []
    for modules in sets:  # the module sets share their common first stages through ``stages``
        m = METEOR(modules=modules, variant="2005", stage_cache=stages, language=language.code)
        specs.append(MetricSpec("METEOR[" + "+".join(modules) + "]", m, m))
    return specs


def external_specs(paths: Sequence[str], dataset: Dataset,
                   signature: str | None = None) -> list[MetricSpec]:
    """The metrics of long-format score files (``--scores``): each metric's corpus score is the
    mean of its segment scores, so it is resampled, blocked and correlated like any other metric.
    Every system of the data set needs a score for every segment."""
    from ..io.scores import read_scores

    specs = []
    for path in paths:
        scores = read_scores(path)
        if signature:
            scores = scores.with_signature(signature)
        for name in scores.metrics():
            by_system = scores.segment_scores(name)
            stats = {s: _segment_stats(by_system.get(s), dataset.segments, path, name, s)
                     for s in dataset.systems}
            metric = _External(name, scores.signature(name))
            specs.append(MetricSpec(name, metric, metric, stats=stats))
    return specs


def _segment_stats(scores: Mapping[int, float] | None, segments: int, path: str, metric: str,
                   system: str) -> SegmentStats:
    if not scores:
        raise InputError(f"no {metric} segment scores for system {system!r}", source=path)
    missing = [i for i in range(1, segments + 1) if i not in scores]
    extra = sorted(i for i in scores if i > segments)
    if missing or extra:
        what = f"segments {missing[0]}…" if missing else f"seg_id {extra[0]}"
        raise InputError(f"{metric} of system {system!r}: the data set has {segments} segments; "
                         f"{len(missing)} missing, {len(extra)} beyond them ({what})", source=path)
    return SegmentMean.stats(np.array([scores[i] for i in range(1, segments + 1)], dtype=np.float64))


class _External(SegmentMean):
    """An external metric: the mean of given segment scores, with the file's signature."""

    def __init__(self, label: str, signature: str):
        super().__init__(label)
        self.name = label
        self._signature = signature

    def signature(self, meta: Mapping[str, str] | None = None) -> str:
        return self._signature or f"{self.label}|external|mean of segment scores"


class Statistics:
    """Extracts each metric's statistics once per (system, reference set), references prepared
    once per (metric settings, reference set); the key is the metric's signature (every setting
    that can change a number), so two metric objects with the same settings share their work."""

    def __init__(self, dataset: Dataset):
        self.dataset = dataset
        self._prepared: dict[tuple[Any, ...], Any] = {}
        self._stats: dict[tuple[Any, ...], SegmentStats] = {}

    def references(self, metric: Metric[Any], ref_ids: tuple[str, ...]) -> Any:
        key = (metric.signature(), ref_ids)
        if key not in self._prepared:
            streams = [self.dataset.references[r] for r in ref_ids]
            self._prepared[key] = metric.prepare_references(streams, names=list(ref_ids))
        return self._prepared[key]

    def get(self, spec: MetricSpec, system: str, ref_ids: tuple[str, ...]) -> SegmentStats:
        if spec.stats is not None:
            return spec.stats[system]
        metric = spec.metric
        key = (metric.signature(), system, ref_ids)
        if key not in self._stats:
            self._stats[key] = metric.extract(self.dataset.systems[system],
                                              self.references(metric, ref_ids))
        return self._stats[key]

    def store(self, spec: MetricSpec, system: str, ref_ids: tuple[str, ...],
              stats: SegmentStats) -> None:
        """Keep statistics extracted elsewhere (a worker process) as :meth:`get` would have."""
        self._stats[(spec.metric.signature(), system, ref_ids)] = stats

    def reference_sensitivity(self, metric: Metric[Any]) -> ReferenceSensitivity:
        """:func:`mtscore.stats.references.reference_sensitivity` of ``metric`` on the data set."""
        ds = self.dataset
        return reference_sensitivity(metric, ds.systems, ds.references, exclude=ds.human_systems)
