"""METEOR (Banerjee & Lavie 2005) and the METEOR 1.5 jar's variant.

* :mod:`.matchers` — the modules (exact, porter, stem, wn_stem, synonym), §2.2;
* :mod:`.align`    — the staged aligner (max matches, fewest crossings) and the jar's objective, exact;
* :mod:`.score`    — P, R, Fmean, fragmentation penalty, §2.3 (vectorised over summed statistics);
* :mod:`.metric`   — :class:`METEOR` (``extract``/``compute``), ``corpus_meteor``, ``sentence_meteor``.
"""

from .matchers import ABLATIONS, DEFAULT_MODULES, MODULES
from .metric import (METEOR, VARIANTS, METEORResult, METEORSegment, PreparedReferences, WordMatch,
                     corpus_meteor, sentence_meteor)

__all__ = ["ABLATIONS", "DEFAULT_MODULES", "METEOR", "METEORResult", "METEORSegment", "MODULES",
           "PreparedReferences", "VARIANTS", "WordMatch", "corpus_meteor", "sentence_meteor"]
