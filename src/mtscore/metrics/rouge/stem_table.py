"""Dense stem ids for the distinct tokens of a corpus, all found at once: the stemmer's fast path
of :func:`.corpus.encode_streams` (tested equal to :class:`.tokenize.Stems` up to the numbering:
equal ids exactly for equal stems).

The tokens are rouge-score's (``[a-z0-9]+``), each given once by its bytes and its two words
(:func:`mtscore.text.interning.token_words`). rouge-score stems only tokens longer than 3
characters; a token of digits alone is its own stem (no rule of :mod:`.porter` reads a word without
a letter: step 1a wants a final ``s``, 1b ``ed``/``ing``, 1c a ``y``, steps 2 to 4 suffixes of
letters, 5 an ``e`` or ``ll``), and so is every shorter token. Both are told from the words alone,
with no string made. The others are gathered into one text with numpy, stemmed by Snowball in one
call and redone by :func:`.porter.stem` where :func:`.porter_batch.outside_snowball` says
Snowball's stem may not be NLTK's (the irregular forms found by their words). A stem of a
``[a-z0-9]+`` token is ``[a-z0-9]+`` (letters of the token and of the rules' replacements, never
empty), so none is dropped here; stems that are not (impossible) would be dropped all the same.
The stems' words, in place of the tokens', are grouped by :func:`.span_table.word_ids` (a token
of over 15 bytes, whose words are a number of its own dict, is always stemmed: every such number
then comes from the stems' one dict). Stems remembered by :class:`.tokenize.Stems` (a warm
process) are taken from it, and a cold call's stems are remembered.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from ...text.interning import token_words
from . import porter_batch
from .porter import IRREGULAR
from .span_table import word_ids
from .tokenize import Stems

_LETTER_BITS = np.uint64(0x4040404040404040)  # a-z have this bit, 0-9 and the zero padding not


def _irregular_words() -> np.ndarray:
    """The first words of NLTK's irregular forms (all of at most 8 bytes: one word each)."""
    forms = sorted(IRREGULAR)
    assert max(map(len, forms)) <= 8
    data = np.frombuffer("".join(forms).encode("ascii") + bytes(24), dtype=np.uint8)
    ends = np.cumsum([len(f) for f in forms])
    return token_words(data, ends - [len(f) for f in forms], ends, {})[0]


_IRREGULAR = _irregular_words()


def stem_ids(words: tuple[np.ndarray, np.ndarray], data: np.ndarray, starts: np.ndarray,
             ends: np.ndarray) -> np.ndarray:
    """The stem id of every distinct token ``data[starts[i]:ends[i]]`` (runs of a-z0-9, given
    also as their two ``words``: :func:`mtscore.text.interning.token_words`; changed in place):
    ids 0 … S-1 equal exactly for equal stems (rouge-score's: tokens longer than 3 characters
    stemmed), -3 for a stem that is not ``[a-z0-9]+``."""
    first, second = words
    if not len(first):
        return np.zeros(0, dtype=np.int64)
    letters = (first | second) & _LETTER_BITS  # (a token of over 15 bytes: its top byte is 255)
    stemmed = np.flatnonzero((second >> np.uint64(56) > 3) & (letters != 0))
    dropped = None
    if len(stemmed):
        stems, dropped = _stems(data, starts.take(stemmed), ends.take(stemmed),
                                first.take(stemmed), second.take(stemmed))
        first[stemmed], second[stemmed] = stems
        dropped = stemmed[dropped]
    ids, _ = word_ids((first, second))
    if dropped is not None:
        ids[dropped] = -3
    return ids


def _stems(data: np.ndarray, starts: np.ndarray, ends: np.ndarray, first: np.ndarray,
           second: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray]:
    """The two words of the stems of the tokens ``data[starts[i]:ends[i]]`` (their own two words
    ``first`` and ``second``) and the indices of those whose stem is not ``[a-z0-9]+``; the stems
    remembered by :class:`.tokenize.Stems`'s cache are taken from it, the others remembered."""
    text, word_ends = _gather(data, starts, ends)
    tokens = text[porter_batch.LEAD:].tobytes().decode("ascii").split("\n")[:-1]
    known = Stems.remembered(tokens)
    if known is None:  # nothing remembered (a cold call): all stemmed here
        out = _new_stems(text, word_ends, tokens, first, second)
        Stems.remember(tokens, out)
    else:
        missing = [i for i, stem in enumerate(known) if stem is None]
        new = porter_batch.stems([tokens[i] for i in missing])
        Stems.remember([tokens[i] for i in missing], new)
        for i, stem in zip(missing, new):
            known[i] = stem
        out = cast("list[str]", known)  # (no None left)
    del text, word_ends
    layout = porter_batch.joined(out)
    assert layout is not None  # (stems of a-z0-9 tokens hold no newline)
    text, word_ends = layout
    word_starts = np.empty_like(word_ends)
    word_starts[0] = porter_batch.LEAD
    np.add(word_ends[:-1], 1, out=word_starts[1:])
    bad = text < 48  # not a-z, 0-9 (nor the newlines)
    bad |= text > 122
    bad |= (text > 57) & (text < 97)
    bad &= text != 10
    dropped = np.unique(np.searchsorted(word_ends, np.flatnonzero(bad)))
    return token_words(text, word_starts, word_ends, {}), dropped


def _new_stems(text: np.ndarray, word_ends: np.ndarray, tokens: list[str], first: np.ndarray,
               second: np.ndarray) -> list[str]:
    """:func:`.porter_batch.stems` of ``tokens`` (also given as :func:`.porter_batch.joined`'s
    text and newlines, and as their two words, which tell NLTK's irregular forms)."""
    irregular = np.isin(first, _IRREGULAR)
    irregular &= second << np.uint64(8) == 0  # (no byte past the 8th)
    return porter_batch.stems_of_text(tokens, text, word_ends, irregular)


def _gather(data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The tokens ``data[starts[i]:ends[i]]`` as one text in :func:`.porter_batch.joined`'s
    layout (their bytes gathered with numpy) and the positions of the newlines after them."""
    n = ends - starts
    n += 1  # each with its newline
    place = np.cumsum(n)
    place += porter_batch.LEAD - 1  # where each token's newline goes
    at = np.repeat(starts - (place - n + 1), n)  # the token's start, less its place
    at += np.arange(porter_batch.LEAD, porter_batch.LEAD + len(at))
    text = np.empty(porter_batch.LEAD + len(at), dtype=np.uint8)
    data.take(at, out=text[porter_batch.LEAD:], mode="clip")
    text[:porter_batch.LEAD] = 10
    text[place] = 10
    return text, place
