"""Stemmers for METEOR's ``stem`` matching module (Banerjee & Lavie 2005, §2: the "porter stem" module).

* ``porter``: the original Porter (1980) algorithm, the stemmer named in the 2005 paper
  (Snowball's ``porter`` algorithm, via PyStemmer).
* ``snowball``: Snowball English ("Porter2"), the stemmer the METEOR 1.5 jar uses for English.

Both are C implementations (PyStemmer) with a per-stemmer cache of recent words. They do not change
case: the algorithms are defined on lowercase words, so lowercase the text first (as METEOR does).
Stemmer objects are not thread-safe, so each thread gets its own.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Literal

import Stemmer

Algorithm = Literal["porter", "snowball"]

#: our algorithm names -> PyStemmer (Snowball) algorithm names
_SNOWBALL_NAMES: dict[str, str] = {"porter": "porter", "snowball": "english"}

_local = threading.local()


def _stemmer(algorithm: str) -> "Stemmer._Stemmer":
    stemmers: dict[str, Stemmer._Stemmer] | None = getattr(_local, "stemmers", None)
    if stemmers is None:
        stemmers = _local.stemmers = {}
    stemmer = stemmers.get(algorithm)
    if stemmer is None:
        try:
            name = _SNOWBALL_NAMES[algorithm]
        except KeyError:
            raise ValueError(f"unknown stemming algorithm {algorithm!r}; "
                             f"choose one of {', '.join(sorted(_SNOWBALL_NAMES))}") from None
        stemmer = stemmers[algorithm] = Stemmer.Stemmer(name)
    return stemmer


def porter_stem(word: str) -> str:
    """The original Porter (1980) stem of a lowercase ``word``."""
    return _stemmer("porter").stemWord(word)


def snowball_stem(word: str) -> str:
    """The Snowball English (Porter2) stem of a lowercase ``word``, as used by the METEOR 1.5 jar."""
    return _stemmer("snowball").stemWord(word)


def stem_words(words: Sequence[str], algorithm: Algorithm = "porter") -> list[str]:
    """Stem many words at once with ``algorithm`` (``"porter"`` or ``"snowball"``); order is kept."""
    return _stemmer(algorithm).stemWords(list(words))


__all__ = ["Algorithm", "porter_stem", "snowball_stem", "stem_words"]
