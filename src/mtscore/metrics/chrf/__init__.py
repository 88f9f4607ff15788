"""chrF and chrF++ (Popović 2015, 2017), computed exactly as sacreBLEU 2.6.0 does.

* :mod:`.rules`: the character and word n-gram counting rules (the specification);
* :mod:`.fast`: a whole corpus counted at once with numpy, tested equal to them;
* :mod:`.pairwise`: the pair kernel of pairwise scores and MBR;
* :mod:`.metric`: :class:`CHRF` on the metric contract, ``corpus_chrf``, ``sentence_chrf``.
"""

from .metric import CHRF, CHRFResult, CHRFSettings, corpus_chrf, sentence_chrf

__all__ = ["CHRF", "CHRFResult", "CHRFSettings", "corpus_chrf", "sentence_chrf"]
