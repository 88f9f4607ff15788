"""The Porter stems of many words at once: the fast path of :func:`.porter.stem` (NLTK's
``PorterStemmer``, NLTK_EXTENSIONS), tested equal to it word for word
(``tests/test_rouge_porter.py``).

Snowball's ``porter`` algorithm (PyStemmer, in C, one call for all words) is Porter (1980) as
published; NLTK's extensions and a few details of Snowball's make the two differ only where

* the word is one of NLTK's irregular forms (:data:`.porter.IRREGULAR`);
* the word holds a ``y`` after ``a``, ``e``, ``i``, ``o``, ``u`` or ``y``, or with none of
  ``aeiou`` before it in the word, that steps 1a and 1b may leave last (step 1c: NLTK turns a
  final ``y`` into ``i`` after a consonant that is not the whole stem, Snowball after a stem
  holding a vowel; the two agree where a consonant precedes the ``y`` and a vowel comes earlier,
  and both read every other ``y`` alike: a consonant at the start of the word and after a vowel,
  else a vowel);
* the word holds a character other than ``a-z`` and ``0-9`` (capitals, others: they go through
  :func:`.porter.stem` unread); a digit is a consonant to both (neither is a vowel, ``y`` or a
  letter of a rule), so only a doubled one is read (below);
* the word holds ``fulli``, ``logi`` or ``bli`` not after ``a`` (NLTK's step 2 rules; Snowball's
  ``abli`` gives NLTK's ``bli`` stem, under the same condition: a final vowel adds nothing to
  the measure), or ``tionalli`` (NLTK's ``alli`` -> ``al`` is Snowball's, but NLTK then runs
  step 2 again, where only ``tional`` and ``ational`` end in ``al``), or those with ``y`` for
  ``i`` (step 1c makes them so), where steps 1a and 1b may leave it last (step 2 reads the
  word's end only);
* the word holds a double consonant that Snowball's step 1b does not undouble (``cc``, ``hh``,
  ``jj``, ``kk``, ``qq``, ``vv``, ``ww``, ``xx``, a doubled digit) where steps 1a and 1b may
  leave it last (only then does step 1b undouble);
* Snowball's stem has at most 2 letters: NLTK's condition *o also holds for a two-letter
  vowel-consonant stem (steps 1b and 5a), where Snowball's stem, which then never grows again,
  lacks NLTK's final ``e``; and a four-letter ``Xies`` or ``Xied`` (NLTK: ``Xie``; a longer
  ``-ied`` is ``-i`` to both).

"May leave last": the letter ends the word or ``s``, ``es``, ``ed``, ``eds``, ``ing`` or
``ings`` follows it (the endings steps 1a and 1b take away; a ``yy`` that step 1b undoubles has
its second ``y`` after a ``y``). Those words go through :func:`.porter.stem`; the rest keep
Snowball's stem. The words are read as one text of bytes with numpy (:func:`outside_snowball`:
a few passes over the text, then the few positions of ``i``, ``y`` and doubled letters with the
bytes around them), which :func:`.stem_table.stem_ids` gathers from the corpus directly.
"""

from __future__ import annotations

import numpy as np

from .porter import IRREGULAR, stem

_VOWEL = np.zeros(256, dtype=bool)
_VOWEL[np.frombuffer(b"aeiou", dtype=np.uint8)] = True
_BEFORE_Y = _VOWEL.copy()
_BEFORE_Y[ord("y")] = True
#: letters whose doubling Snowball's step 1b keeps
_DOUBLE = np.zeros(256, dtype=bool)
_DOUBLE[np.frombuffer(b"chjkqvwx0123456789", dtype=np.uint8)] = True
LEAD = 4  # newlines before the first word: every byte of a word has 4 bytes before it
#: the bytes of ``y`` and ``i`` differ in this bit alone
_I_OR_Y = 0x10


def joined(words: list[str]) -> tuple[np.ndarray, np.ndarray] | None:
    """``words`` as the text :func:`outside_snowball` reads (:data:`LEAD` newlines, then every
    word followed by a newline, UTF-8) and the positions of those newlines; None if a word holds
    a newline."""
    data = ("\n" * LEAD + "\n".join(words) + "\n").encode("utf-8", "surrogatepass")
    if data.count(b"\n") != len(words) + LEAD:
        return None
    text = np.frombuffer(data, dtype=np.uint8)
    return text, np.flatnonzero(text == 10)[LEAD:]


def outside_snowball(text: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Whether Snowball's stem may not be NLTK's, for every word of ``text`` (:func:`joined`'s
    layout; ``ends``: the newline after each word), by its letters alone (the module's rules)."""
    other = text < 97  # not a-z, 0-9, nor the newlines
    other |= text > 122
    other &= (text > 57) | (text < 48)
    other &= text != 10
    at = [np.flatnonzero(other)]
    same = np.flatnonzero(text[1:] == text[:-1])  # (few: doubles)
    at.append(same[_DOUBLE.take(text.take(same))] + 1)  # (at the second letter)
    iy = np.flatnonzero((text | _I_OR_Y) == ord("y"))  # every i and y, with the bytes before
    b1, b2, b3, b4, b5, b6, b7 = (text.take(iy - k, mode="clip") for k in range(1, 8))
    ll = (b1 == ord("l")) & (b2 == ord("l"))
    piece = ll & (b3 == ord("a")) & (b4 == ord("n")) & (b5 == ord("o")) & (b6 == ord("i"))
    piece &= b7 == ord("t")  # tionalli, tionally
    piece |= ll & (b3 == ord("u")) & (b4 == ord("f"))  # fulli, fully
    piece |= (b1 == ord("l")) & (b2 == ord("b")) & (b3 != ord("a"))  # bli, bly, not abli, ably
    piece |= (b1 == ord("g")) & (b2 == ord("o")) & (b3 == ord("l"))  # logi, logy
    at.append(iy[piece])
    y = iy[text.take(iy) == ord("y")]
    if len(y):
        after = _BEFORE_Y.take(text.take(y - 1))  # after a, e, i, o, u or y
        mark = _VOWEL.take(text)
        mark |= text == 10
        marks = np.flatnonzero(mark)  # vowels and newlines (the text starts with newlines)
        last = marks.take(np.searchsorted(marks, y) - 1)
        after |= text.take(last) == 10  # no vowel before the y in its word
        at.append(y[after])
    last = np.concatenate(at[1:])  # doubles, pieces, y: where steps 1a and 1b may end a word
    at[1:] = [last[_ends_step1(text, last)]]
    out = np.zeros(len(ends), dtype=bool)
    out[np.searchsorted(ends, np.concatenate(at))] = True
    return out


def snowball(words: list[str]) -> list[str]:
    """Snowball's ``porter`` stem of every word (PyStemmer, one call, nothing remembered)."""
    import Stemmer

    stemmer = Stemmer.Stemmer("porter")
    stemmer.maxCacheSize = 0  # no stem remembered: every call stems its words
    out: list[str] = stemmer.stemWords(words)
    return out


def redo(out: list[str], words: list[str], which: np.ndarray) -> list[str]:
    """``out`` with the words at the indices ``which`` stemmed by :func:`.porter.stem`."""
    for i in which.tolist():
        out[i] = stem(words[i])
    return out


def _ends_step1(text: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Whether each letter ``text[at]`` may end its word after steps 1a and 1b: it ends the word,
    or ``s``, ``es``, ``ed``, ``eds``, ``ing`` or ``ings`` follows it (step 1a takes a final ``s``,
    ``ies`` to ``i``; step 1b ``ed`` or ``ing``, ``ied`` to ``i``; a ``yy`` it undoubles is
    found by its second ``y``)."""
    # (a byte past the end reads as the last newline: no ending matches there by mistake)
    b1, b2, b3, b4, b5 = (text.take(at + k, mode="clip") for k in range(1, 6))
    nl, s, e, d = (np.uint8(ord(c)) for c in "\nsed")
    ok = b1 == nl
    ok |= (b1 == s) & (b2 == nl)
    ok |= (b1 == e) & ((b2 == s) | (b2 == d)) & (b3 == nl)
    ok |= (b1 == e) & (b2 == d) & (b3 == s) & (b4 == nl)
    ok |= (b1 == ord("i")) & (b2 == ord("n")) & (b3 == ord("g")) & ((b4 == nl) | (b4 == s) & (b5 == nl))
    return ok


def stems(words: list[str]) -> list[str]:
    """:func:`.porter.stem` of every word: Snowball's ``porter`` stem where it
    equals NLTK's (see the module's docstring), else :func:`.porter.stem`."""
    if not words:
        return []
    layout = joined(words)
    if layout is None:  # a newline inside a word: every word through porter.stem
        return [stem(w) for w in words]
    irregular = (np.fromiter(map(IRREGULAR.__contains__, words), dtype=bool, count=len(words))
                 if IRREGULAR.keys() & set(words) else np.zeros(len(words), dtype=bool))
    return stems_of_text(words, *layout, irregular)


def stems_of_text(words: list[str], text: np.ndarray, ends: np.ndarray,
                  irregular: np.ndarray) -> list[str]:
    """:func:`stems` of ``words``, given also as :func:`joined`'s text and newlines, and which of
    them are NLTK's irregular forms: Snowball's stem, redone by :func:`.porter.stem` where
    :func:`outside_snowball` says, for the irregular forms, and where Snowball's stem has at most
    2 letters (the module's rules)."""
    again = outside_snowball(text, ends)
    again |= irregular
    out = snowball(words)
    again |= np.fromiter(map(len, out), dtype=np.int64, count=len(out)) <= 2
    return redo(out, words, np.flatnonzero(again))
