"""METEOR's word alignment, one room per aligner.

* :mod:`.stage` — one stage of the 2005 aligner as Banerjee & Lavie (2005, §2.2) state it: the largest
  one-to-one matching with the fewest crossings (:func:`.stage.best_stage_matching`, with the one
  :func:`.stage.crosses` predicate and the one :class:`.stage.UnionFind`), its search in
  :mod:`.search`, its bounded fallback :func:`.stage.greedy_matching`;
* :mod:`.shortcut` — the per-segment fast path for small classes of equal keys (equals stage.py);
* :mod:`.corpus` (with :mod:`.classes`, :mod:`.arrays`) — the numpy acceleration of the 2005 stages
  over a whole corpus at once (equals stage.py segment by segment; ``METEOR(fast=False)``
  turns it off);
* :mod:`.jar` — the METEOR 1.5 jar's aligner, exact and with the jar's beam;
* :mod:`.fallback` — the bounded aligner of a 1.5 segment past its work budget.
"""

from .corpus import even_class_stages
from .shortcut import small_classes_choice
from .stage import best_stage_matching, crosses, greedy_matching, key_set_stage

# (the 1.5 aligners, align_jar, align_jar_beam and greedy_stages, are imported from .jar and .fallback
# where used: the 2005 path never loads them)
__all__ = ["best_stage_matching", "crosses", "even_class_stages", "greedy_matching", "key_set_stage",
           "small_classes_choice"]
