"""METEOR (Banerjee & Lavie 2005) and the METEOR 1.5 jar's variant.

* :mod:`.matchers` — the modules (exact, porter, stem, wn_stem, synonym), §2.2;
* :mod:`.align`    — the aligners: the paper's stage rule (``align.stage``), its corpus-wide numpy
  acceleration (``align.corpus``), the 1.5 jar's (``align.jar``), the bounded fallbacks;
* :mod:`.segments` — one segment against one reference (stages, jar, budgets, statistics row);
* :mod:`.extract`  — a corpus's statistics (best reference kept), in worker processes if asked;
* :mod:`.score`    — chunks, P, R, Fmean, fragmentation penalty, §2.3 (vectorised over summed statistics);
* :mod:`.metric`   — :class:`METEOR` (``extract``/``compute``), ``corpus_meteor``, ``sentence_meteor``;
* :mod:`.results`  — the result objects and prepared references.
"""

from .matchers import ABLATIONS, DEFAULT_MODULES, MODULES
from .metric import (
    METEOR,
    VARIANTS,
    METEORResult,
    METEORSegment,
    PreparedReferences,
    WordMatch,
    corpus_meteor,
    sentence_meteor,
)

__all__ = ["ABLATIONS", "DEFAULT_MODULES", "METEOR", "MODULES", "VARIANTS", "METEORResult",
           "METEORSegment", "PreparedReferences", "WordMatch", "corpus_meteor", "sentence_meteor"]
