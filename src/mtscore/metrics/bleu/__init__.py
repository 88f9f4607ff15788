"""BLEU (Papineni et al., 2002), computed exactly as sacreBLEU 2.6.0 does.

* :mod:`.rules`: the paper's rules, one function each (the specification);
* :mod:`.fast`: the rules over many rows at once with numpy, tested equal to them (the clipped
  counts of a whole corpus are :mod:`mtscore.metrics.clipping`'s, shared with the unigram metrics);
* :mod:`.pairwise`: the pair kernel of pairwise scores and MBR;
* :mod:`.metric`: :class:`BLEU` on the metric contract, ``corpus_bleu``, ``sentence_bleu``.
"""

from .metric import BLEU, BLEUResult, BLEUSettings, corpus_bleu, sentence_bleu
from .rules import SMOOTH_DEFAULTS

__all__ = ["BLEU", "SMOOTH_DEFAULTS", "BLEUResult", "BLEUSettings", "corpus_bleu", "sentence_bleu"]
