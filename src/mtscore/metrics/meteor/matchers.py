"""METEOR's word-mapping modules (Banerjee & Lavie 2005, §2.2; METEOR 1.5: Denkowski & Lavie 2014, §2).

A module maps each word to a set of *keys*; a hypothesis word and a reference word match under the
module when their key sets intersect. This one shape covers every module:

* ``exact``   — the surface form itself (§2.2 "exact" module);
* ``porter``  — the original Porter (1980) stem, the stemmer named in the 2005 paper (§2.2 "porter stem");
* ``stem``    — the Snowball English stem, which the METEOR 1.5 jar uses;
* ``wn_stem`` — the word's WordNet base forms (morphological exceptions + detachment rules);
* ``synonym`` — the WordNet synsets of the word's base forms, any sense, no disambiguation (§2.2
  "WN synonymy"): two words match when they share at least one synset.

Keys are computed once per word type and cached; WordNet is loaded lazily, only when a module that
needs it is used (importing this module stays cheap).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ...errors import OptionError

#: every module name, in the order ``--help`` lists them
MODULES: tuple[str, ...] = ("exact", "porter", "stem", "wn_stem", "synonym")

#: the paper's default module sequence (§2.2) and its ablations (§4, Table 3)
DEFAULT_MODULES: tuple[str, ...] = ("exact", "porter", "synonym")
ABLATIONS: tuple[tuple[str, ...], ...] = (
    ("exact",), ("exact", "porter"), ("exact", "wn_stem"), ("exact", "porter", "synonym"))


def _wordnet() -> Any:
    try:
        from ...lexicon.wordnet import load_wordnet
    except ImportError as err:  # the lexicon package ships it; say so clearly if it is missing
        raise OptionError("module", "synonym/wn_stem",
                          detail=f"the WordNet lexicon is not available ({err})") from None
    return load_wordnet()


class Matcher:
    """One module: ``keys(word)`` is the set of keys (a word matches another when the sets meet)."""

    def __init__(self, name: str, key_fn: Callable[[str], Iterable[Any]], single: bool):
        self.name = name
        self._key_fn = key_fn
        #: every word has exactly one key (exact, porter, stem): the relation is an equivalence
        self.single = single
        self._cache: dict[str, Any] = {}

    def keys(self, words: Sequence[str]) -> list[Any]:
        """Per word: its key (``single`` modules) or its frozenset of keys."""
        cache, fn, single = self._cache, self._key_fn, self.single
        out = []
        for w in words:
            k = cache.get(w)
            if k is None:
                k = fn(w)
                if not single:
                    k = frozenset(k)
                cache[w] = k
            out.append(k)
        return out

    def groups(self, hyp: Sequence[str], ref: Sequence[str], hyp_pos: Sequence[int],
               ref_pos: Sequence[int]) -> list[tuple[list[int], list[int]]]:
        """For a ``single`` module: the classes of equal keys present on both sides, as
        (hypothesis positions, reference positions); every pair within a class is a candidate."""
        if not hyp_pos or not ref_pos:
            return []
        cache, fn = self._cache, self._key_fn
        index: dict[Any, tuple[list[int], list[int]]] = {}
        for j in ref_pos:
            w = ref[j]
            k = cache.get(w)
            if k is None:
                k = cache[w] = fn(w)
            entry = index.get(k)
            if entry is None:
                index[k] = ([], [j])
            else:
                entry[1].append(j)
        for i in hyp_pos:
            w = hyp[i]
            k = cache.get(w)
            if k is None:
                k = cache[w] = fn(w)
            entry = index.get(k)
            if entry is not None:
                entry[0].append(i)
        return [g for g in index.values() if g[0]]

    def pairs(self, hyp: Sequence[str], ref: Sequence[str], hyp_pos: Sequence[int],
              ref_pos: Sequence[int]) -> list[tuple[int, int]]:
        """Candidate matches (i, j) among hypothesis positions ``hyp_pos`` and reference ``ref_pos``."""
        if not hyp_pos or not ref_pos:
            return []
        hk = self.keys([hyp[i] for i in hyp_pos])
        rk = self.keys([ref[j] for j in ref_pos])
        index: dict[Any, list[int]] = {}
        if self.single:
            for j, k in zip(ref_pos, rk):
                index.setdefault(k, []).append(j)
            return [(i, j) for i, k in zip(hyp_pos, hk) for j in index.get(k, ())]
        refs = [(j, ks) for j, ks in zip(ref_pos, rk) if ks]
        out: list[tuple[int, int]] = []
        for i, ks in zip(hyp_pos, hk):
            if ks:
                out.extend((i, j) for j, rks in refs if not ks.isdisjoint(rks))
        return out


def _porter() -> Callable[[str], str]:
    from ...lexicon.stemmers import porter_stem
    return porter_stem


def _snowball() -> Callable[[str], str]:
    from ...lexicon.stemmers import snowball_stem
    return snowball_stem


def _identity(word: str) -> str:
    return word


def get_matcher(name: str) -> Matcher:
    """A fresh matcher for module ``name`` (each keeps its own key cache)."""
    if name == "exact":
        return Matcher(name, _identity, True)
    if name == "porter":
        return Matcher(name, _porter(), True)
    if name == "stem":
        return Matcher(name, _snowball(), True)
    if name == "wn_stem":
        wn = _wordnet()
        return Matcher(name, wn.base_forms, False)
    if name == "synonym":
        wn = _wordnet()
        return Matcher(name, wn.synset_ids, False)
    raise OptionError("METEOR module", name, MODULES)


def check_modules(modules: Sequence[str] | str) -> tuple[str, ...]:
    """Validate a module sequence (names or ``"exact+porter"``-style string); no repeats."""
    if isinstance(modules, str):
        modules = [m for m in modules.replace("+", " ").replace(",", " ").split() if m]
    modules = tuple(modules)
    if not modules:
        raise OptionError("METEOR modules", modules, MODULES, detail="give at least one module")
    for m in modules:
        if m not in MODULES:
            raise OptionError("METEOR module", m, MODULES)
    if len(set(modules)) != len(modules):
        raise OptionError("METEOR modules", "+".join(modules), detail="a module is listed twice")
    return modules
