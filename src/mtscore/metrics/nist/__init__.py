"""NIST (Doddington, 2002), as mteval-v13a.pl computes it.

* :mod:`.metric`: information weights, the brevity factor and :class:`NIST` on the metric
  contract, ``corpus_nist``;
* :mod:`.pairwise`: the pair kernel of pairwise scores.
"""

from .metric import NIST, NISTResult, NISTSettings, corpus_nist

__all__ = ["NIST", "NISTResult", "NISTSettings", "corpus_nist"]
