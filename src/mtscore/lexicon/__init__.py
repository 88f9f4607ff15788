"""The lexicon behind METEOR's matching modules (Banerjee & Lavie 2005, §2): stemmers, WordNet, function words."""

from .function_words import function_words
from .stemmers import Algorithm, porter_stem, snowball_stem, stem_words
from .wordnet import Morphology, WordNet, load_wordnet

__all__ = ["Algorithm", "Morphology", "WordNet", "function_words", "load_wordnet", "porter_stem", "snowball_stem", "stem_words"]
