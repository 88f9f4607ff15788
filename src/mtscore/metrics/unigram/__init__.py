"""Unigram precision, recall, F1 and Fmean (METEOR's components, exact matches only).

* :mod:`.metric`: the measures and :class:`Unigram` on the metric contract, ``corpus_unigram``.
"""

from .metric import MEASURES, Unigram, UnigramResult, UnigramSettings, corpus_unigram

__all__ = ["MEASURES", "Unigram", "UnigramResult", "UnigramSettings", "corpus_unigram"]
