"""The Porter stems of many words at once: the fast path of :func:`.porter.stem` (NLTK's
``PorterStemmer``, NLTK_EXTENSIONS), tested equal to it word for word
(``tests/test_rouge_porter.py``).

Snowball's ``porter`` algorithm (PyStemmer, in C, one call for all words) is Porter (1980) as
published; NLTK's extensions and a few details of Snowball's make the two differ only where

* the word is one of NLTK's irregular forms (:data:`.porter.IRREGULAR`);
* the word holds a ``y`` after ``a``, ``e``, ``i``, ``o``, ``u`` or ``y``, or with none of
  ``aeiou`` before it in the word (step 1c: NLTK turns a final ``y`` into ``i`` after a consonant
  that is not the whole stem, Snowball after a stem holding a vowel; the two agree where a
  consonant precedes the ``y`` and a vowel comes earlier);
* the word holds a character other than ``a-z`` (digits, capitals, others: they go through
  :func:`.porter.stem` unread);
* the word holds ``alli``, ``bli``, ``fulli`` or ``logi`` (NLTK's step 2 rules), or ``ally``,
  ``bly``, ``fully`` or ``logy`` (step 1c makes them so), or ends in ``ied`` (NLTK's step 1b);
* the word holds a double consonant that Snowball's step 1b does not undouble (``cc``, ``hh``,
  ``jj``, ``kk``, ``qq``, ``vv``, ``ww``, ``xx``);
* Snowball's stem has at most 2 letters: NLTK's condition *o also holds for a two-letter
  vowel-consonant stem (steps 1b and 5a), where Snowball's stem, which then never grows again,
  lacks NLTK's final ``e``; and a four-letter ``Xies`` (NLTK: ``Xie``).

Those words go through :func:`.porter.stem`; the rest keep Snowball's stem.
"""

from __future__ import annotations

from itertools import compress

import numpy as np

from .porter import IRREGULAR, stem

#: bytes that make a word go through porter.stem: all but a-z (and the newline between words)
_ALONE = np.ones(256, dtype=bool)
_ALONE[np.frombuffer(b"abcdefghijklmnopqrstuvwxyz\n", dtype=np.uint8)] = False
_VOWEL = np.zeros(256, dtype=bool)
_VOWEL[np.frombuffer(b"aeiou", dtype=np.uint8)] = True
_BEFORE_Y = _VOWEL.copy()
_BEFORE_Y[ord("y")] = True
#: letters whose doubling Snowball's step 1b keeps
_DOUBLE = np.zeros(256, dtype=bool)
_DOUBLE[np.frombuffer(b"chjkqvwx", dtype=np.uint8)] = True
#: substrings that make a word go through porter.stem (``\n``: the end of a word)
_PIECES = (b"alli", b"bli", b"fulli", b"logi", b"ally", b"bly", b"fully", b"logy", b"ied\n")


def _outside_snowball(words: list[str]) -> np.ndarray:
    """The indices of the words Snowball's stem may not be NLTK's for, by their letters alone."""
    data = ("\n".join(words) + "\n").encode("utf-8", "surrogatepass")
    if data.count(b"\n") != len(words):  # a newline inside a word: every word is redone
        return np.arange(len(words))
    text = np.frombuffer(data, dtype=np.uint8)
    end = text == 10
    word_of = np.cumsum(end) - end  # the newline ends its word
    flag = _ALONE[text]
    flag[:-1] |= (text[1:] == text[:-1]) & _DOUBLE[text[:-1]]
    y = np.flatnonzero(text == ord("y"))
    if len(y):
        vowels = np.cumsum(_VOWEL[text])
        before_word = np.concatenate(([0], vowels[end]))[word_of[y]]  # vowels of earlier words
        after = np.zeros(len(y), dtype=bool)
        after[y > 0] = _BEFORE_Y[text[y[y > 0] - 1]]
        flag[y[after | (vowels[y] == before_word)]] = True
    for piece in _PIECES:
        if len(piece) > len(text):
            continue
        at = text[:len(text) - len(piece) + 1] == piece[0]
        for k in range(1, len(piece)):
            at &= text[k:len(text) - len(piece) + 1 + k] == piece[k]
        flag[:len(at)] |= at
    return np.unique(word_of[flag])


def stems(words: list[str]) -> list[str]:
    """:func:`.porter.stem` of every word: Snowball's ``porter`` stem where it
    equals NLTK's (see the module's docstring), else :func:`.porter.stem`."""
    import Stemmer

    if not words:
        return []
    snowball = Stemmer.Stemmer("porter")
    snowball.maxCacheSize = 0  # no stem remembered: every call stems its words
    out: list[str] = snowball.stemWords(words)
    redo = set(_outside_snowball(words).tolist())
    short = np.fromiter(map(len, out), dtype=np.int64, count=len(out)) <= 2
    redo.update(np.flatnonzero(short).tolist())
    if IRREGULAR.keys() & set(words):
        redo.update(compress(range(len(words)), map(IRREGULAR.__contains__, words)))
    for i in redo:
        out[i] = stem(words[i])
    return out
