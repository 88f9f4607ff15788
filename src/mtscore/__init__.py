"""mtscore: reference-based MT evaluation faithful to the papers, with statistics you can trust."""

from .errors import InputError, MtscoreError, OptionError
from .metrics.base import Metric, Score, SegmentStats
from .metrics.bleu import BLEU, BLEUResult, corpus_bleu, sentence_bleu
from .io.dataset import Dataset, load_dataset
from .metrics.nist import NIST, NISTResult, corpus_nist
from .metrics.meteor import METEOR, METEORResult, METEORSegment, WordMatch, corpus_meteor, sentence_meteor
from .metrics.unigram import Unigram, UnigramResult, corpus_unigram
from .version import __version__

__all__ = [
    "BLEU", "BLEUResult", "InputError", "Metric", "MtscoreError", "OptionError", "Score",
    "SegmentStats", "corpus_bleu", "sentence_bleu", "__version__",
    "Dataset", "load_dataset", "NIST", "NISTResult", "corpus_nist", "Unigram", "UnigramResult",
    "corpus_unigram",
    "METEOR", "METEORResult", "METEORSegment", "WordMatch", "corpus_meteor", "sentence_meteor",
]
