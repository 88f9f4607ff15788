"""The lexicon behind METEOR's matching modules (Banerjee & Lavie 2005, §2): stemmers, WordNet, function words."""

from .stemmers import Algorithm, porter_stem, snowball_stem, stem_words

__all__ = ["Algorithm", "porter_stem", "snowball_stem", "stem_words"]
