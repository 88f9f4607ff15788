"""The lexicon behind METEOR's matching modules (Banerjee & Lavie 2005, §2): stemmers, WordNet, function words."""

from .stemmers import Algorithm, porter_stem, snowball_stem, stem_words
from .wordnet import Morphology, WordNet, load_wordnet

__all__ = ["Algorithm", "Morphology", "WordNet", "load_wordnet", "porter_stem", "snowball_stem", "stem_words"]
