"""The lexicon behind METEOR's matching modules (Banerjee & Lavie 2005, §2).

It holds the stemmers, WordNet and the function-word lists.

Names are imported on first use (PEP 562): the METEOR command loads only the parts its modules need.
"""

import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from .function_words import function_words  # eager: the name is also its module's

_LAZY: dict[str, str] = {
    **dict.fromkeys(("Algorithm", "porter_stem", "snowball_stem", "stem_words"), "stemmers"),
    **dict.fromkeys(("Morphology", "WordNet", "load_wordnet"), "wordnet"),
    **dict.fromkeys(("SynonymIndex", "load_synonyms"), "synonyms"),
}

if _TYPE_CHECKING:
    from .stemmers import Algorithm, porter_stem, snowball_stem, stem_words
    from .synonyms import SynonymIndex, load_synonyms
    from .wordnet import Morphology, WordNet, load_wordnet


def __getattr__(name: str) -> _Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mtscore.lexicon' has no attribute {name!r}")
    value = getattr(_importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = ["Algorithm", "Morphology", "SynonymIndex", "WordNet", "function_words", "load_synonyms",
           "load_wordnet", "porter_stem", "snowball_stem", "stem_words"]
