"""The Snowball English ("Porter2") stemmer as the METEOR 1.5 jar runs it.

METEOR 1.5 stems English with ``org.tartarus.snowball.ext.englishStemmer`` compiled from Snowball's
``english.sbl`` of its day (the algorithm published at snowball.tartarus.org/algorithms/english/stemmer.html,
with the 'gener'/'commun'/'arsen' R1 exceptions). Snowball 3.0 (2025) revised that algorithm -- e.g. -ogist
becomes -og, new R1 prefixes such as 'organ', 'univers', 'inter', 'emerg', 'past', 'later' -- and PyStemmer
3.x ships the revision, so its ``english`` stems 38 of 14,338 WMT22 reference word types ("added",
"evening", "international", "organization", "university", ...) differently from the jar. This module
implements the earlier algorithm, rule by rule, with the sbl's step names.

Input is a lowercase word; only ASCII letters and the apostrophe take part in the rules, as in the sbl.
"""

from __future__ import annotations

_VOWELS = frozenset("aeiouy")
_DOUBLES = ("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt")
_LI_ENDINGS = frozenset("cdeghkmnrt")

#: exception1: whole words with a fixed stem (special changes, -LY cases, invariant forms)
_EXCEPTION1 = {
    "skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie",
    "idly": "idl", "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl",
    "sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias",
    "andes": "andes",
}
#: exception2: words left alone after Step 1a
_EXCEPTION2 = frozenset(("inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"))
_R1_PREFIXES = ("gener", "commun", "arsen")

_STEP1B = ("eedly", "ingly", "edly", "eed", "ing", "ed")  # longest match first
_STEP2 = (  # suffix -> replacement (None: see the rule); longest match first
    ("ization", "ize"), ("ational", "ate"), ("fulness", "ful"), ("ousness", "ous"), ("iveness", "ive"),
    ("tional", "tion"), ("biliti", "ble"), ("lessli", "less"), ("entli", "ent"), ("ation", "ate"),
    ("alism", "al"), ("aliti", "al"), ("ousli", "ous"), ("iviti", "ive"), ("fulli", "ful"), ("enci", "ence"),
    ("anci", "ance"), ("abli", "able"), ("izer", "ize"), ("ator", "ate"), ("alli", "al"), ("bli", "ble"),
    ("ogi", None), ("li", None),
)
_STEP3 = (
    ("ational", "ate"), ("tional", "tion"), ("alize", "al"), ("icate", "ic"), ("iciti", "ic"),
    ("ative", None), ("ical", "ic"), ("ness", ""), ("ful", ""),
)
_STEP4 = (
    "ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti", "ous", "ive", "ize",
    "ion", "al", "er", "ic",
)


def _is_vowel(c: str) -> bool:
    return c in _VOWELS  # 'Y' (a consonant y marked by the prelude) is not a vowel


def _regions(w: str) -> tuple[int, int]:
    """R1 and R2 start positions (mark_regions)."""
    def after_vc(start: int) -> int:
        for i in range(start + 1, len(w)):
            if not _is_vowel(w[i]) and _is_vowel(w[i - 1]):
                return i + 1
        return len(w)

    for prefix in _R1_PREFIXES:
        if w.startswith(prefix):
            p1 = len(prefix)
            break
    else:
        p1 = after_vc(0)
    # R2: the same rule inside R1 (a vowel at p1 or later, then a non-vowel)
    p2 = len(w)
    for i in range(p1 + 1, len(w)):
        if not _is_vowel(w[i]) and _is_vowel(w[i - 1]):
            p2 = i + 1
            break
    return p1, p2


def _short_syllable(w: str) -> bool:
    """``w`` ends in a short syllable (shortv)."""
    n = len(w)
    if n >= 3 and not _is_vowel(w[-1]) and w[-1] not in "wxY" and _is_vowel(w[-2]) and not _is_vowel(w[-3]):
        return True
    return n == 2 and not _is_vowel(w[1]) and _is_vowel(w[0])


def _has_vowel(s: str) -> bool:
    return any(_is_vowel(c) for c in s)


def _step1a(w: str) -> str:
    for suffix in ("'s'", "'s", "'"):  # Step 0
        if w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    if w.endswith("sses"):
        return w[:-2]
    if w.endswith(("ied", "ies")):
        return w[:-2] if len(w) > 4 else w[:-1]
    if w.endswith(("us", "ss")):
        return w
    if w.endswith("s") and _has_vowel(w[:-2]):
        return w[:-1]
    return w


def _step1b(w: str, p1: int) -> str:
    for suffix in _STEP1B:
        if w.endswith(suffix):
            return step1b_with(w, suffix, p1)
    return w


def step1b_with(w: str, suffix: str, p1: int) -> str:
    """Step 1b once its suffix (the longest of the step's that ends ``w``) is found."""
    stem = w[: -len(suffix)]
    if suffix in ("eed", "eedly"):
        return stem + "ee" if len(stem) >= p1 else w
    if not _has_vowel(stem):
        return w
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"
    if stem.endswith(_DOUBLES):
        return stem[:-1]
    if len(stem) == p1 and _short_syllable(stem):
        return stem + "e"
    return stem


def _step1c(w: str) -> str:
    if len(w) > 2 and w[-1] in "yY" and not _is_vowel(w[-2]):
        return w[:-1] + "i"
    return w


def _step2(w: str, p1: int) -> str:
    for suffix, repl in _STEP2:
        if w.endswith(suffix):
            return step2_with(w, suffix, repl, p1)
    return w


def step2_with(w: str, suffix: str, repl: str | None, p1: int) -> str:
    """Step 2 once its suffix (the first of the step's list that ends ``w``) is found."""
    stem = w[: -len(suffix)]
    if len(stem) < p1:
        return w
    if suffix == "ogi":
        return stem + "og" if stem.endswith("l") else w
    if suffix == "li":
        return stem if stem and stem[-1] in _LI_ENDINGS else w
    return stem + repl  # type: ignore[operator]


def _step3(w: str, p1: int, p2: int) -> str:
    for suffix, repl in _STEP3:
        if w.endswith(suffix):
            return step3_with(w, suffix, repl, p1, p2)
    return w


def step3_with(w: str, suffix: str, repl: str | None, p1: int, p2: int) -> str:
    """Step 3 once its suffix (the first of the step's list that ends ``w``) is found."""
    stem = w[: -len(suffix)]
    if len(stem) < p1:
        return w
    if suffix == "ative":
        return stem if len(stem) >= p2 else w
    return stem + repl  # type: ignore[operator]


def _step4(w: str, p2: int) -> str:
    for suffix in _STEP4:
        if w.endswith(suffix):
            return step4_with(w, suffix, p2)
    return w


def step4_with(w: str, suffix: str, p2: int) -> str:
    """Step 4 once its suffix (the first of the step's list that ends ``w``) is found."""
    stem = w[: -len(suffix)]
    if len(stem) < p2:
        return w
    if suffix == "ion":
        return stem if stem.endswith(("s", "t")) else w
    return stem


def _step5(w: str, p1: int, p2: int) -> str:
    if w.endswith("e"):
        stem = w[:-1]
        if len(stem) >= p2 or (len(stem) >= p1 and not _short_syllable(stem)):
            return stem
    elif w.endswith("l"):
        stem = w[:-1]
        if len(stem) >= p2 and stem.endswith("l"):
            return stem
    return w


def porter2_stem(word: str) -> str:
    """The Snowball English (Porter2) stem of a lowercase ``word``, as METEOR 1.5's englishStemmer gives
    it."""
    if word in _EXCEPTION1:
        return _EXCEPTION1[word]
    if len(word) < 3:
        return word
    w = word[1:] if word.startswith("'") else word  # prelude
    chars = list(w)
    for i, c in enumerate(chars):
        if c == "y" and (i == 0 or _is_vowel(chars[i - 1])):
            chars[i] = "Y"
    w = "".join(chars)
    p1, p2 = _regions(w)
    w = _step1a(w)
    if w not in _EXCEPTION2:
        w = _step1b(w, p1)
        w = _step1c(w)
        w = _step2(w, p1)
        w = _step3(w, p1, p2)
        w = _step4(w, p2)
        w = _step5(w, p1, p2)
    return w.replace("Y", "y")


__all__ = ["porter2_stem"]
