"""NLTK's Porter stemmer as rouge-score 0.1.2 uses it (``nltk.stem.porter.PorterStemmer()``, mode
NLTK_EXTENSIONS), re-implemented for speed: the fast path of :func:`.tokenize.porter_stemmer`, tested
word for word equal to NLTK (``tests/test_rouge_porter.py``: every word of the shipped WordNet
3.0 lemma list with inflections, the shared WMT22 texts, and hypothesis-generated words).

Porter (1980), "An algorithm for suffix stripping", Program 14(3), with NLTK's extensions: a table
of irregular forms; ``Xies`` -> ``Xie`` and ``Xied`` -> ``Xie`` (four letters), other ``-ied`` ->
``-i``; step 1c turns ``y`` into ``i`` only after a consonant that is not the whole stem; step 2
tries ``alli`` -> ``al`` first (then step 2 again), has ``bli`` -> ``ble``, ``fulli`` -> ``ful`` and
``logi`` -> ``log`` (measure taken with the ``l``); condition *o also holds for a two-letter
vowel-consonant stem. Words of at most 2 characters are returned unchanged.

Each step applies the first rule whose suffix ends the word; if that rule's condition fails, the
step leaves the word as it is (NLTK's ``_apply_rule_list``). The consonant/vowel pattern of a word
is computed once per step: a letter is a consonant unless it is a, e, i, o, u, or a ``y`` after a
consonant (a ``y`` that starts the word is a consonant); the pattern of a prefix is the prefix of
the pattern, so the measure m of a stem ``word[:k]`` is the number of "vc" in ``pattern[:k]``.
Any character other than a vowel or ``y`` (digits included) is a consonant, as in NLTK.
"""

from __future__ import annotations

from collections.abc import Callable

#: NLTK's irregular forms (NLTK_EXTENSIONS): word -> stem
IRREGULAR = {
    "skies": "sky", "sky": "sky", "dying": "die", "lying": "lie", "tying": "tie", "news": "news",
    "innings": "inning", "inning": "inning", "outings": "outing", "outing": "outing",
    "cannings": "canning", "canning": "canning", "howe": "howe", "proceed": "proceed",
    "exceed": "exceed", "succeed": "succeed",
}

#: ASCII -> 'v' (a, e, i, o, u), 'y' (decided by the letter before) or 'c'
_KIND = {c: "v" if chr(c) in "aeiou" else "y" if chr(c) == "y" else "c" for c in range(128)}


def pattern(word: str) -> str:
    """'c' for each consonant and 'v' for each vowel of ``word`` (Porter 1980, §2; NLTK's
    ``_consonant_flags``)."""
    if word.isascii():
        cv = word.translate(_KIND)
        if "y" not in cv:
            return cv
    out = []
    prev = "v"  # so that a ``y`` at the start is a consonant
    for c in word:
        prev = ("v" if c in "aeiou" else
                ("c" if prev == "v" else "v") if c == "y" else "c")
        out.append(prev)
    return "".join(out)


def _measure(cv: str, k: int) -> int:
    """m of the stem ``word[:k]`` (Porter 1980, §2: [C](VC){m}[V]) from the word's pattern."""
    return cv.count("vc", 0, k)


def _ends_cvc(cv: str, stem: str) -> bool:
    """Condition *o of a stem with pattern ``cv``: ends consonant-vowel-consonant, the last not
    w, x or y; NLTK also accepts a two-letter vowel-consonant stem."""
    n = len(stem)
    if n >= 3:
        return cv[n - 3:n] == "cvc" and stem[-1] not in "wxy"
    return n == 2 and cv[:2] == "vc"


def step1a(word: str) -> str:
    """Step 1a: SSES -> SS, IES -> I (NLTK: a four-letter ``Xies`` -> ``Xie``), SS -> SS, S -> ."""
    if word[-1] != "s":
        return word
    if word.endswith("ies"):
        return word[:-3] + "ie" if len(word) == 4 else word[:-2]
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("ss"):
        return word
    return word[:-1]


def step1b(word: str) -> str:
    """Step 1b: (m>0) EED -> EE; (*v*) ED -> ; (*v*) ING -> ; after the last two: AT -> ATE,
    BL -> BLE, IZ -> IZE, (*d and not (*L or *S or *Z)) -> single letter, (m=1 and *o) -> E.
    NLTK first: ``Xied`` -> ``Xie`` (four letters), other ``-ied`` -> ``-i``."""
    if word.endswith("ed"):
        if word.endswith("ied"):
            return word[:-3] + "ie" if len(word) == 4 else word[:-2]
        if word.endswith("eed"):
            return word[:-1] if _measure(pattern(word), len(word) - 3) > 0 else word
        stem = word[:-2]
    elif word.endswith("ing"):
        stem = word[:-3]
    else:
        return word
    cv = pattern(stem)
    if "v" not in cv:
        return word
    if stem.endswith(("at", "bl", "iz")):
        return stem + "e"
    if len(stem) >= 2 and stem[-1] == stem[-2] and cv[-1] == "c":
        return stem if stem[-1] in "lsz" else stem[:-1]
    if _measure(cv, len(cv)) == 1 and _ends_cvc(cv, stem):
        return stem + "e"
    return stem


def step1c(word: str) -> str:
    """Step 1c (NLTK): Y -> I when the y follows a consonant that is not the whole stem."""
    if word[-1] == "y" and len(word) > 2 and pattern(word[:-1])[-1] == "c":
        return word[:-1] + "i"
    return word


def _rules(*rules: tuple[str, str]) -> dict[str, tuple[tuple[str, str], ...]]:
    """Rules (suffix, replacement) in order, grouped by the suffix's last two letters (the order
    kept): only the rules of a word's last two letters can apply."""
    out: dict[str, list[tuple[str, str]]] = {}
    for rule in rules:
        out.setdefault(rule[0][-2:], []).append(rule)
    return {last: tuple(group) for last, group in out.items()}


_STEP2 = _rules(
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
    ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
    ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
    ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
    ("fulli", "ful"), ("logi", "log"))
_STEP3 = _rules(("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
                ("ful", ""), ("ness", ""))
_STEP4 = _rules(("al", ""), ("ance", ""), ("ence", ""), ("er", ""), ("ic", ""), ("able", ""),
                ("ible", ""), ("ant", ""), ("ement", ""), ("ment", ""), ("ent", ""), ("ion", ""),
                ("ou", ""), ("ism", ""), ("ate", ""), ("iti", ""), ("ous", ""), ("ive", ""),
                ("ize", ""))


def step2(word: str) -> str:
    """Step 2, (m>0) rules such as ATIONAL -> ATE, with NLTK's order and additions: ALLI -> AL
    first (then step 2 again), BLI -> BLE, FULLI -> FUL, LOGI -> LOG (m of the stem with its l)."""
    rules = _STEP2.get(word[-2:])
    if rules is None:
        return word
    if word.endswith("alli") and _measure(pattern(word), len(word) - 4) > 0:
        return step2(word[:-2])
    for suffix, replacement in rules:
        if word.endswith(suffix):
            k = len(word) - len(suffix)
            if suffix == "logi":
                k += 1
            if _measure(pattern(word), k) > 0:
                return word[:len(word) - len(suffix)] + replacement
            return word
    return word


def step3(word: str) -> str:
    """Step 3: (m>0) ICATE -> IC, ATIVE -> , ALIZE -> AL, ICITI -> IC, ICAL -> IC, FUL -> ,
    NESS -> ."""
    rules = _STEP3.get(word[-2:])
    if rules is None:
        return word
    for suffix, replacement in rules:
        if word.endswith(suffix):
            k = len(word) - len(suffix)
            return word[:k] + replacement if _measure(pattern(word), k) > 0 else word
    return word


def step4(word: str) -> str:
    """Step 4: (m>1) removes AL, ANCE, ENCE, ER, IC, ABLE, IBLE, ANT, EMENT, MENT, ENT, ION (after
    S or T), OU, ISM, ATE, ITI, OUS, IVE, IZE."""
    rules = _STEP4.get(word[-2:])
    if rules is None:
        return word
    for suffix, _ in rules:
        if word.endswith(suffix):
            k = len(word) - len(suffix)
            ok = _measure(pattern(word), k) > 1
            if ok and suffix == "ion":
                ok = word[k - 1] in "st"
            return word[:k] if ok else word
    return word


def step5(word: str) -> str:
    """Step 5a: (m>1) E -> , (m=1 and not *o) E -> ; step 5b: (m>1 and *d and *L) -> single
    letter (m of the word without its last l)."""
    if word[-1] == "e":
        stem = word[:-1]
        cv = pattern(stem)
        m = _measure(cv, len(stem))
        if m > 1 or (m == 1 and not _ends_cvc(cv, stem)):
            word = stem
    if word.endswith("ll") and _measure(pattern(word), len(word) - 1) > 1:
        return word[:-1]
    return word


def stem(word: str) -> str:
    """The stem of a lowercase word: ``nltk.stem.porter.PorterStemmer().stem(word)``."""
    irregular = IRREGULAR.get(word)
    if irregular is not None:
        return irregular
    if len(word) <= 2:
        return word
    word = step1c(step1b(step1a(word)))
    return step5(step4(step3(step2(word))))


def stemmer() -> Callable[[str], str]:
    """:func:`stem` (for :class:`.tokenize.Stems`)."""
    return stem
