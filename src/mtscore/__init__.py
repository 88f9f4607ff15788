"""mtscore: reference-based MT evaluation faithful to the papers, with statistics you can trust."""

from .errors import InputError, MtscoreError, OptionError
from .metrics.base import Metric, Score, SegmentStats
from .metrics.bleu import BLEU, BLEUResult, corpus_bleu, sentence_bleu
from .version import __version__

__all__ = [
    "BLEU", "BLEUResult", "InputError", "Metric", "MtscoreError", "OptionError", "Score",
    "SegmentStats", "corpus_bleu", "sentence_bleu", "__version__",
]
