"""TER (Snover et al., 2006), with tercom's greedy shift search as sacreBLEU 2.6.0 runs it.

* :mod:`.rules`: the edit distance and the shift search, one function per rule (the
  specification);
* :mod:`.fast`: the search for a whole corpus at once with numpy, tested equal to the rules, with
* :mod:`.bitparallel`: edit distances 64 reference words per machine word (Myers);
* :mod:`.metric`: :class:`TER` on the metric contract, ``corpus_ter``, ``sentence_ter``.

TER's tokenizer and normalization are :mod:`mtscore.text.ter_tokenizer`.
"""

from .metric import TER, TERResult, TERSettings, corpus_ter, sentence_ter

__all__ = ["TER", "TERResult", "TERSettings", "corpus_ter", "sentence_ter"]
