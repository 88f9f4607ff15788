"""WordNet 3.0 synonyms and base forms for METEOR's ``wn_stem`` and ``wn_synonymy`` modules.

Banerjee & Lavie (2005), §2: "wn_stem" maps words that share a WordNet base form (their "stem" by WordNet's
morphology), "wn_synonymy" maps words that are synonyms, i.e. belong to a common WordNet synset.

The data ship with the package (``data/wordnet-3.0.txt.gz``, built by ``scripts/build_lexicon.py`` from the
WordNet 3.0 database; licence in ``data/WORDNET-LICENSE``). Synset ids are Princeton WordNet 3.0 synset
offsets, as in the METEOR 1.5 jar's ``synonym/english.synsets``. An offset is a byte position in one of four
per-POS files, so 282 offsets name a synset of one part of speech and another of a different one; a plain
``int`` cannot tell them apart -- neither can the jar, whose notion of synonymy this reproduces.

Case: WordNet's lemmas are lowercase with ``_`` joining the words of a collocation, and WordNet's own
morphology (``morphstr`` in morph.c) lowercases its input and maps spaces to ``_``; every method here does
the same, so ``"Car"`` and ``"car"`` are one word. Hyphenated and multiword tokens are looked up whole.
"""

from __future__ import annotations

import gzip
import threading
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from typing import Literal

from .morphology import DETACHMENT_RULES, POS_ORDER

Morphology = Literal["wordnet", "meteor"]

_DATA_FILE = "wordnet-3.0.txt.gz"


def _normalize(word: str) -> str:
    return word.strip().lower().replace(" ", "_")


@dataclass(frozen=True, eq=False)
class WordNet:
    """WordNet 3.0 lemmas, senses and exception lists, with WordNet's morphology.

    Build with ``load_wordnet()``.
    """

    #: POS -> lemma -> the offsets of its synsets of that POS, as the raw field ``"02958343 02959942"``
    _index: dict[str, dict[str, str]] = field(repr=False)
    #: POS -> inflected form -> base forms listed in that POS's exception file (``noun.exc`` ...)
    _exceptions: dict[str, dict[str, tuple[str, ...]]] = field(repr=False)
    _cache: dict[tuple[str, str], object] = field(default_factory=dict, repr=False)

    @cached_property
    def _all(self) -> frozenset[str]:
        return frozenset().union(*self._index.values())

    def __len__(self) -> int:
        """The number of distinct lemmas (147,306 in WordNet 3.0)."""
        return len(self._all)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and _normalize(word) in self._all

    def lemmas(self, pos: str | None = None) -> frozenset[str]:
        """All lemmas (of part of speech ``pos``: n, v, a or r; of any when None)."""
        return self._all if pos is None else frozenset(self._index[pos])

    def is_lemma(self, word: str, pos: str | None = None) -> bool:
        """Whether ``word`` is a WordNet lemma (of part of speech ``pos``: n, v, a or r; of any when None)."""
        word = _normalize(word)
        return word in self._all if pos is None else word in self._index[pos]

    def senses(self, lemma: str) -> tuple[tuple[str, int], ...]:
        """The (POS, synset offset) of every sense of ``lemma``: n, v, a, r, each in WordNet's sense order."""
        lemma = _normalize(lemma)
        return tuple((pos, int(o)) for pos in POS_ORDER for o in self._index[pos].get(lemma, "").split())

    def synsets(self, lemma: str) -> frozenset[int]:
        """The synset offsets of all senses of ``lemma`` (all parts of speech); empty if it is no lemma."""
        key = ("s", _normalize(lemma))
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = frozenset(int(o) for pos in POS_ORDER
                                               for o in self._index[pos].get(key[1], "").split())
        return hit  # type: ignore[return-value]

    def exceptions(self, word: str, pos: str | None = None) -> tuple[str, ...]:
        """Base forms the exception lists give for ``word`` (one POS, or all in n, v, a, r order)."""
        word = _normalize(word)
        found = [b for p in ((pos,) if pos else POS_ORDER) for b in self._exceptions[p].get(word, ())]
        return tuple(dict.fromkeys(found))

    def morph(self, word: str, pos: str) -> tuple[str, ...]:
        """WordNet's morphology for one POS (morph.c ``morphstr``/``morphword``), without the word itself.

        If ``word`` is in the POS's exception list, its bases there (other than itself); otherwise, adverbs
        have nothing, nouns ending in "ss" or of at most 2 letters have nothing, nouns ending in "ful" are
        reduced before "ful" and get it back ("boxesful" -> "boxful"), and the result is the first
        detachment rule's candidate that is a lemma of that POS (checked before "ful" is put back).
        """
        word = _normalize(word)
        exc = self._exceptions[pos].get(word)
        if exc is not None:
            return tuple(b for b in dict.fromkeys(exc) if b != word)
        if pos == "r":
            return ()
        stem, end = word, ""
        if pos == "n":
            if word.endswith("ful"):
                stem, end = word[:-3], "ful"
            elif word.endswith("ss") or len(word) <= 2:
                return ()
        lemmas = self._index[pos]
        for suffix, ending in DETACHMENT_RULES[pos]:
            if stem.endswith(suffix):
                candidate = stem[: len(stem) - len(suffix)] + ending
                if candidate != stem and candidate in lemmas:
                    return (candidate + end,)
        return ()

    def base_forms(self, word: str, morphology: Morphology = "wordnet") -> tuple[str, ...]:
        """The WordNet lemmas ``word`` may be an inflection of: the word itself first when it is a lemma.

        ``"wordnet"``: for each POS (n, v, a, r), WordNet's own morphology (``morph``): the exception list,
        else the first detachment rule whose result is a lemma of that POS -- what WordNet's search does.

        ``"meteor"``: the METEOR 1.5 jar (``SynonymDictionary.getStemSynSets``): if the word is in any
        exception list, all its bases there; else, unless it ends in "ss" or has at most 2 letters, the
        first of all 20 detachment rules (noun, verb, adjective order) whose result is a lemma of any POS.

        Only lemmas are returned, deduplicated, in that deterministic order; a word WordNet cannot reduce
        to any lemma has no base forms.
        """
        word = _normalize(word)
        key = ("b" + morphology, word)
        hit = self._cache.get(key)
        if hit is not None:
            return hit  # type: ignore[return-value]
        found = [word] if word in self._all else []
        if morphology == "wordnet":
            for pos in POS_ORDER:
                found.extend(b for b in self.morph(word, pos) if b in self._index[pos])
        elif morphology == "meteor":
            found.extend(self._meteor_bases(word))
        else:
            raise ValueError(f"unknown morphology {morphology!r}; choose 'wordnet' or 'meteor'")
        result = tuple(b for b in dict.fromkeys(found) if b in self._all)
        self._cache[key] = result
        return result

    def _meteor_bases(self, word: str) -> tuple[str, ...]:
        exc = self.exceptions(word)
        if exc:
            return exc
        if word.endswith("ss") or len(word) <= 2:
            return (word,)
        for pos in ("n", "v", "a"):
            for suffix, ending in DETACHMENT_RULES[pos]:
                if word.endswith(suffix):
                    candidate = word[: len(word) - len(suffix)] + ending
                    if candidate in self._all:
                        return (candidate,)
        return ()

    def synset_ids(self, word: str) -> frozenset[int]:
        """The synsets of all base forms of ``word`` (METEOR 1.5's morphology): what synonym matching
        compares.

        Equals the jar's ``getSynSets(word) ∪ getStemSynSets(word)`` (SynonymMatcher) for every word.
        """
        key = ("i", _normalize(word))
        hit = self._cache.get(key)
        if hit is None:
            ids: set[int] = set()
            for base in self.base_forms(word, "meteor"):
                ids |= self.synsets(base)
            hit = self._cache[key] = frozenset(ids)
        return hit  # type: ignore[return-value]

    def synonymous(self, a: str, b: str) -> bool:
        """Whether the base forms of ``a`` and ``b`` share at least one synset (§2, "wn_synonymy").

        A word WordNet does not know is synonymous with nothing, not even itself.
        """
        return not self.synset_ids(a).isdisjoint(self.synset_ids(b))

    def share_base_form(self, a: str, b: str, morphology: Morphology = "wordnet") -> bool:
        """Whether ``a`` and ``b`` have a WordNet base form in common (§2, "wn_stem")."""
        return not set(self.base_forms(a, morphology)).isdisjoint(self.base_forms(b, morphology))


def _sections(text: str) -> dict[str, list[str]]:
    """``[name]`` line -> the lines that follow it (the data file's layout: scripts/build_lexicon.py)."""
    out: dict[str, list[str]] = {}
    for block in text.split("\n[")[1:]:
        name, _, body = block.partition("]")
        lines = body.removeprefix("\n").split("\n")
        out[name] = lines[:-1] if lines[-1] == "" else lines
    return out


def _parse(text: str) -> WordNet:
    sections = _sections(text)
    index: dict[str, dict[str, str]] = {}
    exceptions: dict[str, dict[str, tuple[str, ...]]] = {}
    for pos in POS_ORDER:
        lemmas, synsets = sections[f"lemmas {pos}"], sections[f"synsets {pos}"]
        if len(lemmas) != len(synsets):
            raise ValueError(f"corrupt WordNet data: {pos} lemma and synset lists differ in length")
        index[pos] = dict(zip(lemmas, synsets))
        table: dict[str, tuple[str, ...]] = {}
        # a form may have several lines ("offer off", "offer offer")
        for row in sections[f"exceptions {pos}"]:
            form, *bases = row.split(" ")
            table[form] = table.get(form, ()) + tuple(b for b in bases if b not in table.get(form, ()))
        exceptions[pos] = table
    return WordNet(index, exceptions)


_lock = threading.Lock()


@lru_cache(maxsize=1)
def _load() -> WordNet:
    raw = resources.files("mtscore.lexicon").joinpath("data", _DATA_FILE).read_bytes()
    return _parse(gzip.decompress(raw).decode("ascii"))


def load_wordnet() -> WordNet:
    """The WordNet 3.0 shipped with mtscore, loaded once (on first use) and shared."""
    with _lock:
        return _load()


__all__ = ["DETACHMENT_RULES", "POS_ORDER", "Morphology", "WordNet", "load_wordnet"]
