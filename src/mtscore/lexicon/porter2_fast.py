"""Many words' Snowball English stems as the METEOR 1.5 jar gives them, faster: equal to
:func:`.porter2.porter2_stem` word by word (the rule; tested equal on every word of the WMT22
English texts and on random words: ``tests/test_porter2_fast.py``).

The rule walks each step's suffix list with ``endswith`` and finds R1 and R2 letter by letter. Here
R1 and R2 come from one regular-expression search each (a vowel followed by a non-vowel, from where
the rule starts looking), the prelude's y-marking runs only for words with a 'y', and each step
asks first whether the word ends in any of its suffixes (one ``endswith`` of them all: most words
end in none), then finds which by set look-ups of the word's endings, longest first — the rule's
lists are ordered longest first and two suffixes of one length cannot both end a word, so this is
the suffix the rule finds. What a step does with its suffix is the rule's own code
(:func:`.porter2.step1b_with`, ``step2_with``, ``step3_with``, ``step4_with``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from . import porter2 as rule

#: a vowel followed by a non-vowel (the rule's R1/R2 boundary: just after the non-vowel)
_VC = re.compile("[aeiouy][^aeiouy]")


def _table(suffixes: Sequence[str]) -> tuple[tuple[str, ...], frozenset[str], tuple[int, ...]]:
    """The suffixes as a tuple and a set, and their lengths, longest first."""
    return tuple(suffixes), frozenset(suffixes), tuple(sorted({len(s) for s in suffixes}, reverse=True))


_T1B, _T2, _T3, _T4 = (_table(rule._STEP1B), _table([s for s, _ in rule._STEP2]),
                       _table([s for s, _ in rule._STEP3]), _table(rule._STEP4))
_REPL2, _REPL3 = dict(rule._STEP2), dict(rule._STEP3)


def _suffix(w: str, table: tuple[tuple[str, ...], frozenset[str], tuple[int, ...]]) -> str | None:
    """The longest suffix of the table that ends ``w``, or None (most words end in none: one
    ``endswith`` of them all says so)."""
    every, suffixes, lengths = table
    if not w.endswith(every):
        return None
    n = len(w)
    for k in lengths:
        if k <= n and w[n - k:] in suffixes:
            return w[n - k:]
    return None


def _regions(w: str) -> tuple[int, int]:
    """:func:`.porter2._regions`."""
    for prefix in rule._R1_PREFIXES:
        if w.startswith(prefix):
            p1 = len(prefix)
            break
    else:
        m = _VC.search(w)
        p1 = m.end() if m else len(w)
    m = _VC.search(w, p1)
    return p1, m.end() if m else len(w)


def _step1a(w: str) -> str:
    """:func:`.porter2._step1a`: it changes only words ending in 's', an apostrophe or 'ied'."""
    return rule._step1a(w) if w.endswith(("s", "'", "ied")) else w


def _step1b(w: str, p1: int) -> str:
    """:func:`.porter2._step1b`."""
    suffix = _suffix(w, _T1B)
    return w if suffix is None else rule.step1b_with(w, suffix, p1)


def _step2(w: str, p1: int) -> str:
    """:func:`.porter2._step2`."""
    suffix = _suffix(w, _T2)
    return w if suffix is None else rule.step2_with(w, suffix, _REPL2[suffix], p1)


def _step3(w: str, p1: int, p2: int) -> str:
    """:func:`.porter2._step3`."""
    suffix = _suffix(w, _T3)
    return w if suffix is None else rule.step3_with(w, suffix, _REPL3[suffix], p1, p2)


def _step4(w: str, p2: int) -> str:
    """:func:`.porter2._step4`."""
    suffix = _suffix(w, _T4)
    return w if suffix is None else rule.step4_with(w, suffix, p2)


def _stem(word: str) -> str:
    """:func:`.porter2.porter2_stem` of a word not in its first exception list."""
    if len(word) < 3:
        return word
    w = word[1:] if word.startswith("'") else word  # prelude
    if "y" in w:
        chars = list(w)
        for i, c in enumerate(chars):
            if c == "y" and (i == 0 or rule._is_vowel(chars[i - 1])):
                chars[i] = "Y"
        w = "".join(chars)
    p1, p2 = _regions(w)
    w = _step1a(w)
    if w not in rule._EXCEPTION2:
        w = rule._step5(_step4(_step3(_step2(rule._step1c(_step1b(w, p1)), p1), p1, p2), p2), p1, p2)
    return w.replace("Y", "y")


def porter2_stems(words: Sequence[str]) -> list[str]:
    """``[porter2_stem(w) for w in words]`` (lowercase words), faster."""
    exceptions = rule._EXCEPTION1
    return [exceptions[w] if w in exceptions else _stem(w) for w in words]


__all__ = ["porter2_stems"]
