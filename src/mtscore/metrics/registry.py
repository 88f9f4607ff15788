"""The metric registry: one entry per metric, the one place that lists them.

Everything that used to keep its own list of metrics reads this one:

* the command line's metric names and option modules (``cli/options``: ``-m NAME``);
* ``-b``'s printed scale (:func:`decimals`: 1 decimal on sacreBLEU's 0–100 scale, 4 for the others);
* the utilities of pairwise scores and MBR (:func:`utility_metric`, :data:`UTILITIES`); the pair
  kernel itself is the metric's own ``pair_kernel()`` hook (:class:`.base.Metric`);
* the study's default metrics (:func:`study_metrics`) and the report's minor metrics
  (:func:`minor_labels`);
* the public names of ``mtscore`` (:func:`exports`), imported lazily;
* the tests, parametrized over :func:`entries`.

This module imports nothing heavy (no numpy, no metric) when imported: an entry names where its
class lives (``module``, ``cls``) and :meth:`MetricEntry.load` imports it on demand, so ``mtscore
score -m meteor`` never loads BLEU's code.

Adding a metric
---------------

1. Write its family package under ``metrics/`` (``rules.py``, ``fast.py``, ``pairwise.py``,
   ``metric.py``, as ``docs/contributing.md`` lays out; ``extract``/``compute``/``compute_many``
   as :mod:`.base` says, with its settings a frozen dataclass from which the signature and
   ``settings_key`` are derived, as :mod:`.settings` says; ``pair_kernel()`` if it has a faster
   pair kernel than the definition), and its option module under ``cli/options/``
   (``add_options``, ``from_args``; literal choices, no heavy import).
2. Add one :class:`MetricEntry` to :data:`ENTRIES` below: its command-line ``name`` (and
   ``aliases``: the ``name`` its objects report, if different), ``module`` and ``cls``, the
   public names it ``exports``, its ``options`` module, ``decimals`` for ``-b``,
   ``higher_is_better``, ``utility`` (the settings it has as an MBR/pairwise utility, or None),
   and ``study``/``minor`` if it belongs in the study's default metrics.
3. Tests: the registry-parametrized suites (streaming, Dask, parallel, fuzzing, the metric
   contract) pick it up; add its own tests against its peer tool.
4. Docs: a section in ``docs/``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .base import Metric

#: study factory: (target language or None, METEOR stage cache or None) ->
#: [(label, corpus metric, segment-level metric)]
StudyFactory = Callable[[str | None, Any], list[tuple[str, Any, Any]]]


def _frozen(mapping: Mapping[str, object] | None = None) -> Mapping[str, object]:
    return MappingProxyType(dict(mapping or {}))


_NO_SETTINGS = _frozen()


class MetricEntry(NamedTuple):
    """One metric, as the command line, the API, MBR, the study and the report know it (a named
    tuple: immutable, and cheaper to define at every start-up than a dataclass)."""

    #: the command-line name (``-m NAME``)
    name: str
    #: the module that defines the class and the public functions
    module: str
    #: the class's name in ``module``
    cls: str
    #: the option module (``add_options``, ``from_args``) under ``mtscore.cli.options``
    options: str
    #: public names ``module`` defines, exported lazily by ``mtscore``
    exports: tuple[str, ...] = ()
    #: the constructor's settings this name stands for (``chrf++``: ``word_order=2``)
    settings: Mapping[str, object] = _NO_SETTINGS
    #: other names the metric's objects report as ``metric.name`` (``Unigram``: its measure)
    aliases: tuple[str, ...] = ()
    #: decimals ``-b`` prints: 1 on sacreBLEU's 0–100 scale (sacreBLEU's default), else 4
    decimals: int = 4
    #: larger is better (False for error rates: TER)
    higher_is_better: bool = True
    #: its settings as a pairwise/MBR utility, over ``settings`` (None: not offered by name)
    utility: Mapping[str, object] | None = None
    #: its metrics in the study's default list (None: not in the study)
    study: StudyFactory | None = None
    #: the study labels it gives (``study``'s labels, known without building the metrics)
    study_labels: tuple[str, ...] = ()
    #: left out of the report's key table, scores figure and significance matrices
    minor: bool = False

    def load(self) -> type[Metric[Any]]:
        """The metric class (imported now)."""
        cls: type[Metric[Any]] = getattr(importlib.import_module(self.module), self.cls)
        return cls

    def create(self, **settings: object) -> Metric[Any]:
        """A metric object with this name's settings, updated by ``settings``."""
        return self.load()(**{**self.settings, **settings})

    def option_module(self) -> str:
        return f"mtscore.cli.options.{self.options}"


# ---- the study's default metrics (target: the target language, which picks tokenizers) ----


def _bleu_study(target: str | None, stages: Any) -> list[tuple[str, Any, Any]]:
    from ..languages import bleu_tokenizer
    from .bleu import BLEU

    tok = bleu_tokenizer(target)
    return [("BLEU", BLEU(tokenize=tok), BLEU(tokenize=tok, effective_order=True))]


def _nist_study(target: str | None, stages: Any) -> list[tuple[str, Any, Any]]:
    from ..languages import bleu_tokenizer
    from .nist import NIST

    tok = bleu_tokenizer(target)
    return [("NIST", NIST(tokenize=tok), NIST(tokenize=tok))]


_UNIGRAM_LABELS = (("precision", "P"), ("recall", "R"), ("f1", "F1"), ("fmean", "Fmean"))


def _unigram_study(target: str | None, stages: Any) -> list[tuple[str, Any, Any]]:
    from ..languages import bleu_tokenizer
    from .unigram import Unigram

    tok = bleu_tokenizer(target)
    out = []
    for measure, label in _UNIGRAM_LABELS:
        m = Unigram(measure, tokenize=tok)
        out.append((label, m, m))
    return out


def _chrf_study(target: str | None, stages: Any) -> list[tuple[str, Any, Any]]:
    from .chrf import CHRF

    out = []
    for label, word_order in (("chrF", 0), ("chrF++", 2)):
        m = CHRF(word_order=word_order)
        out.append((label, m, m))
    return out


def _ter_study(target: str | None, stages: Any) -> list[tuple[str, Any, Any]]:
    from .ter import TER

    m = TER(asian_support=target in ("zh", "ja"))
    return [("TER", m, m)]


def _meteor_study(target: str | None, stages: Any) -> list[tuple[str, Any, Any]]:
    from .meteor import METEOR

    m = METEOR(variant="2005", stage_cache=stages, language=target or "en")
    return [("METEOR", m, m)]


#: every metric, in the study's order (the command line lists them in this order too)
ENTRIES: tuple[MetricEntry, ...] = (
    MetricEntry("bleu", "mtscore.metrics.bleu", "BLEU", "bleu",
                exports=("BLEU", "BLEUResult", "corpus_bleu", "sentence_bleu"), decimals=1,
                utility=_frozen({"effective_order": True}), study=_bleu_study,
                study_labels=("BLEU",)),
    MetricEntry("nist", "mtscore.metrics.nist", "NIST", "nist",
                exports=("NIST", "NISTResult", "corpus_nist"), study=_nist_study,
                study_labels=("NIST",), minor=True),
    MetricEntry("unigram", "mtscore.metrics.unigram", "Unigram", "unigram",
                exports=("Unigram", "UnigramResult", "corpus_unigram"),
                aliases=("precision", "recall", "f1", "fmean"), study=_unigram_study,
                study_labels=tuple(label for _, label in _UNIGRAM_LABELS), minor=True),
    MetricEntry("chrf", "mtscore.metrics.chrf", "CHRF", "chrf",
                exports=("CHRF", "CHRFResult", "corpus_chrf", "sentence_chrf"), decimals=1,
                utility=_frozen(), study=_chrf_study, study_labels=("chrF", "chrF++")),
    MetricEntry("chrf++", "mtscore.metrics.chrf", "CHRF", "chrf_plus",
                settings=_frozen({"word_order": 2}), decimals=1, utility=_frozen()),
    MetricEntry("chrF2", "mtscore.metrics.chrf", "CHRF", "chrf2", decimals=1),
    MetricEntry("ter", "mtscore.metrics.ter", "TER", "ter",
                exports=("TER", "TERResult", "corpus_ter", "sentence_ter"), decimals=1,
                higher_is_better=False, study=_ter_study, study_labels=("TER",)),
    MetricEntry("meteor", "mtscore.metrics.meteor", "METEOR", "meteor",
                exports=("METEOR", "METEORResult", "METEORSegment", "WordMatch", "corpus_meteor",
                         "sentence_meteor"),
                utility=_frozen(), study=_meteor_study, study_labels=("METEOR",)),
    *(MetricEntry(name, "mtscore.metrics.rouge", "ROUGE", "rouge",
                  exports=("ROUGE", "ROUGEResult", "ROUGESettings", "corpus_rouge",
                           "sentence_rouge", "rouge_scores") if name == "rouge1" else (),
                  settings=_frozen({"rouge_type": f"rouge{n}" if name == "rougeN" else name}),
                  aliases=tuple(f"rouge{k}" for k in range(3, 10)) if name == "rougeN" else (),
                  decimals=2, utility=_frozen())
      for name, n in (("rouge1", 1), ("rouge2", 2), ("rougeL", 0), ("rougeLsum", 0),
                      ("rougeN", 3))),
    MetricEntry("coco-bleu", "mtscore.metrics.coco.bleu", "CocoBLEU", "coco_bleu",
                exports=("CocoBLEU", "CocoBLEUResult", "corpus_coco_bleu"), aliases=("bleu_4",)),
    MetricEntry("coco-rouge-l", "mtscore.metrics.coco.rouge", "CocoRougeL", "coco_rouge",
                exports=("CocoRougeL", "CocoRougeResult", "corpus_coco_rouge_l"),
                aliases=("rouge_l",)),
    MetricEntry("cider-d", "mtscore.metrics.coco.cider", "CIDErD", "cider",
                exports=("CIDErD", "CIDErResult", "corpus_cider_d"), aliases=("cider",)),
)

_BY_NAME: dict[str, MetricEntry] = {e.name: e for e in ENTRIES}


def entries() -> tuple[MetricEntry, ...]:
    """Every registered metric, in order."""
    return ENTRIES


def names() -> tuple[str, ...]:
    """Every command-line metric name, in order."""
    return tuple(_BY_NAME)


def get(name: str) -> MetricEntry:
    """The entry of command-line name ``name`` (an :class:`OptionError` for an unknown name)."""
    entry = _BY_NAME.get(name)
    if entry is None:
        from ..errors import OptionError

        raise OptionError("metric", name, names())
    return entry


def find(metric_name: str) -> MetricEntry | None:
    """The entry of a metric object's ``name`` (its command-line name or one of its aliases,
    case-insensitive), or None."""
    key = metric_name.lower()
    for entry in ENTRIES:
        if key == entry.name.lower() or key in entry.aliases:
            return entry
    return None


def decimals(metric_name: str) -> int:
    """The decimals ``-b`` prints for a metric object's ``name`` (4 for metrics not registered)."""
    entry = find(metric_name)
    return 4 if entry is None else entry.decimals


def exports() -> dict[str, str]:
    """Public name -> the module that defines it, for every registered metric."""
    return {name: e.module for e in ENTRIES for name in e.exports}


#: the names a utility (pairwise scores, MBR) can be given by
UTILITIES: tuple[str, ...] = tuple(e.name for e in ENTRIES if e.utility is not None)


def utility_metric(name: str) -> Metric[Any]:
    """The metric utility ``name`` stands for, with the settings of its sentence function
    (``bleu``: ``sentence_bleu``'s effective order; ``chrf++``: word order 2)."""
    entry = _BY_NAME.get(name)
    if entry is None or entry.utility is None:
        from ..errors import OptionError

        raise OptionError("utility metric", name, UTILITIES)
    return entry.create(**entry.utility)


def study_metrics(target: str | None = None, stages: Any = None,
                  meteor: bool = True) -> list[tuple[str, Any, Any]]:
    """(label, corpus metric, segment metric) of every metric in the study's default list, in
    order; ``meteor=False`` leaves METEOR out."""
    out: list[tuple[str, Any, Any]] = []
    for entry in ENTRIES:
        if entry.study is not None and (meteor or entry.name != "meteor"):
            out.extend(entry.study(target, stages))
    return out


def minor_labels() -> tuple[str, ...]:
    """The study labels of the minor metrics (left out of the report's key views)."""
    return tuple(label for e in ENTRIES if e.minor for label in e.study_labels)
