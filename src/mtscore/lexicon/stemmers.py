"""Stemmers for METEOR's stem matching module (Banerjee & Lavie 2005, §2: the "porter stem" module).

* ``porter``: the original Porter (1980) algorithm, the stemmer named in the 2005 paper: Snowball's
  ``porter`` algorithm, via PyStemmer (C). Snowball's version keeps a final double c, h, j, k, q, v, w or x
  after removing -ed/-ing ("revving" -> "revv"), where Porter's step 1b would undouble it ("rev").
* ``snowball``: Snowball English ("Porter2"), the stemmer the METEOR 1.5 jar uses, in the version the jar
  ships (``porter2.py``; PyStemmer 3's ``english`` is Snowball 3.0's revision of it and differs).

Neither changes case: the algorithms are defined on lowercase words, so lowercase the text first (as
METEOR does). A word with a lone surrogate (text read with ``surrogateescape``) is its own stem. Both
cache recent words; PyStemmer objects are not thread-safe, so each thread gets its own.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

import Stemmer

Algorithm = Literal["porter", "snowball"]
ALGORITHMS: tuple[str, ...] = ("porter", "snowball")

_local = threading.local()


def _porter() -> Stemmer._Stemmer:
    stemmer = getattr(_local, "porter", None)
    if stemmer is None:
        stemmer = _local.porter = Stemmer.Stemmer("porter")
    return stemmer


def _porter_batch() -> Stemmer._Stemmer:
    """A Porter stemmer without PyStemmer's word cache, for batches of distinct words (the cache
    would only cost time there: ~5 ms for 7,000 new words)."""
    stemmer = getattr(_local, "porter_batch", None)
    if stemmer is None:
        stemmer = _local.porter_batch = Stemmer.Stemmer("porter", 0)
    return stemmer


def porter_stem(word: str) -> str:
    """The original Porter (1980) stem of a lowercase ``word``; a word with a lone surrogate (an
    undecodable input byte kept by ``surrogateescape``) is not stemmed: it is its own stem."""
    try:
        return _porter().stemWord(word)
    except UnicodeEncodeError:
        return word


@lru_cache(maxsize=1 << 18)
def snowball_stem(word: str) -> str:
    """The Snowball English (Porter2) stem of a lowercase ``word``, exactly as the METEOR 1.5 jar stems it."""
    from .porter2 import porter2_stem  # imported on first use: the porter module does not need it

    return porter2_stem(word)


def stem_words(words: Sequence[str], algorithm: Algorithm = "porter") -> list[str]:
    """Stem many words at once with ``algorithm`` (``"porter"`` or ``"snowball"``); order is kept.
    Meant for distinct words (no cache for Porter)."""
    if algorithm == "porter":
        try:
            return _porter_batch().stemWords(list(words))
        except UnicodeEncodeError:  # a word with a lone surrogate: word by word (it is not stemmed)
            return [porter_stem(w) for w in words]
    if algorithm == "snowball":  # (porter2_fast: equal to porter2_stem word by word, faster)
        from .porter2_fast import porter2_stems

        return porter2_stems(words)
    raise ValueError(f"unknown stemming algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")


__all__ = ["ALGORITHMS", "Algorithm", "porter_stem", "snowball_stem", "stem_words"]
