"""METEOR's synonym keys from a compact WordNet 3.0 index that loads in about a millisecond.

The synonym module (Banerjee & Lavie 2005, §2.2 "WN synonymy"; METEOR 1.5's ``SynonymMatcher``) needs
three things of WordNet: whether a string is a lemma of any part of speech, the synsets of a lemma
(all parts of speech), and the exception lists merged over the parts of speech (the jar's morphology,
:meth:`.wordnet.WordNet.base_forms` with ``"meteor"``). ``data/wordnet-3.0-synonyms.txt`` holds exactly
that, derived from ``wordnet-3.0.txt.gz`` by ``scripts/build_lexicon.py``:

* ``[lemmas]``: one line per lemma of any part of speech, sorted: ``lemma offset offset ...`` — its
  synset offsets (n, v, a, r, each in sense order);
* ``[exceptions]``: ``form base base ...`` — the bases of ``form`` in the exception lists of all parts
  of speech, in n, v, a, r order, deduplicated (:meth:`.wordnet.WordNet.exceptions`).

The text is kept as one string: loading reads it (uncompressed, so no decompression) and notes the first
lemma of every ~2 KB block; a lookup bisects those and searches one block. Only the exception lists
(6,000 lines) become a dict. So loading costs about a millisecond instead of parsing 147,306 lemmas, and
only the words a text uses are ever decoded.

:meth:`SynonymIndex.synset_ids` equals :meth:`.wordnet.WordNet.synset_ids` for every word (tests check
every lemma, every exception form and random inflections).
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from functools import lru_cache
from importlib import resources

from .morphology import DETACHMENT_RULES

_DATA_FILE = "wordnet-3.0-synonyms.txt"

#: the jar's morphology tries all 20 detachment rules of morph.c in noun, verb, adjective order
_RULES: tuple[tuple[str, str], ...] = tuple(rule for pos in "nva" for rule in DETACHMENT_RULES[pos])

#: the same rules by the last letter of their suffix (only those can apply to a word ending in it), in
#: that order; a repeated rule (noun and verb "s" -> "", "ies" -> "y") is tried once, as the first try
#: already decided it
_RULES_BY_LAST: dict[str, tuple[tuple[str, str], ...]] = {
    last: tuple(dict.fromkeys(rule for rule in _RULES if rule[0][-1] == last))
    for last in {suffix[-1] for suffix, _ in _RULES}}

#: characters between two block starts (a block ends at the next line start after this many)
_BLOCK = 2048


class SynonymIndex:
    """Lemma lookups, merged exception lists and synset sets for METEOR's synonym module."""

    def __init__(self, text: str):
        head = text.find("\n[lemmas]\n")
        tail = text.find("\n[exceptions]\n")
        if head < 0 or tail < head:
            raise ValueError("corrupt synonym index: a section is missing")
        self._text = text
        #: [lemmas] body: lines from ``start`` (after a newline) to ``end`` (its last newline)
        start, end = head + len("\n[lemmas]\n"), tail + 1
        starts, firsts = [], []
        pos = start
        while pos < end:
            starts.append(pos)
            firsts.append(text[pos:text.find(" ", pos)])
            nxt = text.find("\n", pos + _BLOCK)
            pos = end if nxt < 0 or nxt >= end else nxt + 1
        starts.append(end)
        self._starts = starts
        self._firsts = firsts
        exceptions: dict[str, tuple[str, ...]] = {}
        for row in text[tail + len("\n[exceptions]\n"):].rstrip("\n").split("\n"):
            form, *bases = row.split(" ")
            exceptions[form] = tuple(bases)
        self._exceptions = exceptions
        self._ids: dict[str, frozenset[str]] = {}

    def __len__(self) -> int:
        """The number of distinct lemmas (147,306 in WordNet 3.0)."""
        return self._text.count("\n", self._starts[0], self._starts[-1])

    def _offsets(self, word: str) -> str | None:
        """The synset offsets of lemma ``word`` as the raw field ``"02958343 02959942"``, or None."""
        b = bisect_right(self._firsts, word) - 1
        if b < 0 or "\n" in word:
            return None
        needle = f"\n{word} "
        text = self._text
        pos = text.find(needle, self._starts[b] - 1, self._starts[b + 1])
        if pos < 0:
            return None
        pos += len(needle)
        return text[pos:text.find("\n", pos)]

    def is_lemma(self, word: str) -> bool:
        """Whether ``word`` (lowercase, ``_`` between the words of a collocation) is a lemma."""
        return self._offsets(word) is not None

    def synsets(self, lemma: str) -> frozenset[int]:
        """The synset offsets of every sense of ``lemma`` (empty if it is no lemma)."""
        found = self._offsets(lemma)
        return frozenset(map(int, found.split())) if found is not None else frozenset()

    def _bases(self, word: str) -> dict[str, str]:
        """Base form -> its synset offsets (raw field), in :meth:`base_forms` order."""
        lookup = self._offsets
        found: dict[str, str] = {}
        own = lookup(word)
        if own is not None:
            found[word] = own
        exc = self._exceptions.get(word)
        if exc is not None:
            for base in exc:
                if base not in found:
                    offsets = lookup(base)
                    if offsets is not None:
                        found[base] = offsets
        elif len(word) > 2 and not word.endswith("ss"):
            for suffix, ending in _RULES_BY_LAST.get(word[-1], ()):
                if word.endswith(suffix):
                    candidate = word[: len(word) - len(suffix)] + ending
                    offsets = lookup(candidate)
                    if offsets is not None:
                        found.setdefault(candidate, offsets)
                        break
        return found

    def base_forms(self, word: str) -> tuple[str, ...]:
        """The jar's base forms (``SynonymDictionary.getStemSynSets``), the word itself first when
        it is a lemma: the exception lists' bases if any; else, unless the word ends in "ss" or has at
        most 2 letters, the first detachment rule whose result is a lemma. Only lemmas are kept."""
        return tuple(self._bases(word.strip().lower().replace(" ", "_")))

    def synset_ids(self, word: str) -> frozenset[int]:
        """The synsets of all base forms of ``word``: two words are synonyms when these sets meet."""
        return frozenset(map(int, self.synset_keys(word)))

    def synset_keys(self, word: str) -> frozenset[str]:
        """:meth:`synset_ids` as the data's 8-digit strings (what the synonym module compares: two
        words share a synset exactly when these sets meet; no conversion to numbers)."""
        hit = self._ids.get(word)
        if hit is None:
            norm = word.strip().lower().replace(" ", "_")
            hit = self._ids.get(norm)
            if hit is None:
                bases = self._bases(norm)
                hit = frozenset(" ".join(bases.values()).split()) if bases else frozenset()
                self._ids[norm] = hit
            self._ids[word] = hit
        return hit


_lock = threading.Lock()


@lru_cache(maxsize=1)
def _load() -> SynonymIndex:
    data = resources.files("mtscore.lexicon").joinpath("data", _DATA_FILE).read_bytes()
    return SynonymIndex(data.decode("ascii"))


def load_synonyms() -> SynonymIndex:
    """The shipped synonym index, loaded once (on first use) and shared."""
    with _lock:
        return _load()


__all__ = ["SynonymIndex", "load_synonyms"]
