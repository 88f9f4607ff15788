"""mtscore: reference-based evaluation of MT and generated text — BLEU, chrF/chrF++, TER, NIST, METEOR,
ROUGE and captioning metrics — faithful to the papers, with the statistics that say whether a score
can be trusted.

Public names are imported on first use (PEP 562), so ``import mtscore`` and the command line load
only what they need; ``from mtscore import corpus_meteor`` works as usual.
"""

import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from .errors import InputError, MissingExtraError, MtscoreError, OptionError
from .metrics import registry as _registry
from .version import __version__

#: public name -> the module that defines it (every metric's names from the registry)
_LAZY: dict[str, str] = {
    **dict.fromkeys(("Metric", "Score", "SegmentStats"), "mtscore.metrics.base"),
    **dict.fromkeys(("Dataset", "load_dataset"), "mtscore.io.dataset"),
    **_registry.exports(),
    "pairwise": "mtscore.metrics.pairwise",
    **dict.fromkeys(("MBRResult", "mbr"), "mtscore.metrics.mbr"),
}

if _TYPE_CHECKING:
    from .io.dataset import Dataset, load_dataset
    from .metrics.base import Metric, Score, SegmentStats
    from .metrics.bleu import BLEU, BLEUResult, corpus_bleu, sentence_bleu
    from .metrics.chrf import CHRF, CHRFResult, corpus_chrf, sentence_chrf
    from .metrics.mbr import MBRResult, mbr
    from .metrics.meteor import (
        METEOR,
        METEORResult,
        METEORSegment,
        WordMatch,
        corpus_meteor,
        sentence_meteor,
    )
    from .metrics.nist import NIST, NISTResult, corpus_nist
    from .metrics.pairwise import pairwise
    from .metrics.ter import TER, TERResult, corpus_ter, sentence_ter
    from .metrics.unigram import Unigram, UnigramResult, corpus_unigram


def __getattr__(name: str) -> _Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mtscore' has no attribute {name!r}")
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({k for k in globals() if not k.startswith("_")} | set(__all__))


__all__ = [
    "BLEU",
    "CHRF",
    "METEOR",
    "NIST",
    "TER",
    "BLEUResult",
    "CHRFResult",
    "Dataset",
    "InputError",
    "MBRResult",
    "METEORResult",
    "METEORSegment",
    "Metric",
    "MissingExtraError",
    "MtscoreError",
    "NISTResult",
    "OptionError",
    "Score",
    "SegmentStats",
    "TERResult",
    "Unigram",
    "UnigramResult",
    "WordMatch",
    "__version__",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_meteor",
    "corpus_nist",
    "corpus_ter",
    "corpus_unigram",
    "load_dataset",
    "mbr",
    "pairwise",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_meteor",
    "sentence_ter",
]
