"""WordNet 3.0's morphology tables (morph.c), shared by :mod:`.wordnet` and :mod:`.synonyms`."""

from __future__ import annotations

#: WordNet parts of speech, in the order base forms are reported
POS_ORDER: tuple[str, ...] = ("n", "v", "a", "r")

#: WordNet 3.0 morph.c detachment rules (suffix, ending) per part of speech, in morph.c's order.
#: Adverbs have none: morph.c uses only the exception list for them.
DETACHMENT_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
          ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}

__all__ = ["DETACHMENT_RULES", "POS_ORDER"]
