"""The Porter stemmer inside ROUGE-1.5.5.pl (its ``sub stem``), rule for rule.

It is Martin Porter's Perl "Release 1" of the 1980 algorithm (Porter, 1980, "An algorithm for suffix
stripping", Program 14(3)) with one change by Chin-Yew Lin (02/14/2004): in step 4 a word ending in
``-ement`` is not tried again with ``-ment`` and ``-ent`` in the same alternation; instead ``ment`` and
``ent`` are tried as separate later rules on the result. Words shorter than 3 characters are returned
unchanged; an initial ``y`` is treated as a consonant. The regular expressions below are the script's,
evaluated with the same leftmost-match semantics (Python's ``re`` and Perl agree on them).
"""

from __future__ import annotations

import re
from functools import lru_cache

_c = "[^aeiou]"  # consonant
_v = "[aeiouy]"  # vowel
_C = f"{_c}[^aeiouy]*"  # consonant sequence
_V = f"{_v}[aeiou]*"  # vowel sequence

MGR0 = re.compile(f"^({_C})?{_V}{_C}")  # [C]VC... is m>0
MEQ1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")  # [C]VC[V] is m=1
MGR1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")  # [C]VCVC... is m>1
VOWEL_IN_STEM = re.compile(f"^({_C})?{_v}")
CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")

STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize", "bli": "ble",
    "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize", "ation": "ate",
    "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous", "aliti": "al",
    "iviti": "ive", "biliti": "ble", "logi": "log",
}
STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}

_STEP1A_SSES_IES = re.compile(r"(ss|i)es$")
_STEP1A_S = re.compile(r"([^s])s$")
_EED = re.compile(r"eed$")
_ED_ING = re.compile(r"(ed|ing)$")
_AT_BL_IZ = re.compile(r"(at|bl|iz)$")
_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_Y = re.compile(r"y$")
_STEP2 = re.compile(
    r"(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness"
    r"|ousness|aliti|iviti|biliti|logi)$")
_STEP3 = re.compile(r"(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP4 = re.compile(r"(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_MENT = re.compile(r"ment$")
_ENT = re.compile(r"ent$")
_SION_TION = re.compile(r"(s|t)(ion)$")
_E = re.compile(r"e$")
_LL = re.compile(r"ll$")


def step1ab(w: str) -> str:
    """Steps 1a (plurals) and 1b (-eed, -ed, -ing) of the script's ``stem``."""
    if (m := _STEP1A_SSES_IES.search(w)) or (m := _STEP1A_S.search(w)):
        w = w[: m.start()] + m.group(1)
    if m := _EED.search(w):
        if MGR0.search(w[: m.start()]):
            w = w[:-1]
    elif m := _ED_ING.search(w):
        stem = w[: m.start()]
        if VOWEL_IN_STEM.search(stem):
            w = stem
            if _AT_BL_IZ.search(w):
                w += "e"
            elif _DOUBLE.search(w):
                w = w[:-1]
            elif CVC.search(w):
                w += "e"
    return w


def step1c_to_3(w: str) -> str:
    """Step 1c (y -> i after a vowel in the stem) and the suffix tables of steps 2 and 3 (m > 0)."""
    if (m := _Y.search(w)) and VOWEL_IN_STEM.search(w[: m.start()]):
        w = w[: m.start()] + "i"
    if (m := _STEP2.search(w)) and MGR0.search(w[: m.start()]):
        w = w[: m.start()] + STEP2[m.group(1)]
    if (m := _STEP3.search(w)) and MGR0.search(w[: m.start()]):
        w = w[: m.start()] + STEP3[m.group(1)]
    return w


def step4(w: str) -> str:
    """Step 4 (m > 1) as modified in ROUGE (CYL, 02/14/2004): the alternation without ``ment|ent``,
    then ``ment``, then ``ent`` or else ``(s|t)ion``, each on the previous rule's result."""
    if (m := _STEP4.search(w)) and MGR1.search(w[: m.start()]):
        w = w[: m.start()]
    if (m := _MENT.search(w)) and MGR1.search(w[: m.start()]):
        w = w[: m.start()]
    if m := _ENT.search(w):
        if MGR1.search(w[: m.start()]):
            w = w[: m.start()]
    elif (m := _SION_TION.search(w)) and MGR1.search(w[: m.start()] + m.group(1)):
        w = w[: m.start()] + m.group(1)
    return w


def step5(w: str) -> str:
    """Step 5: drop a final e (m > 1, or m = 1 and not *o), then -ll -> -l when m > 1."""
    if m := _E.search(w):
        stem = w[: m.start()]
        if MGR1.search(stem) or (MEQ1.search(stem) and not CVC.search(stem)):
            w = stem
    if _LL.search(w) and MGR1.search(w):
        w = w[:-1]
    return w


@lru_cache(maxsize=1 << 16)
def rouge155_porter_stem(word: str) -> str:
    """``stem($w)`` of ROUGE-1.5.5.pl: the Porter stem of a lowercase word."""
    if len(word) < 3:
        return word
    initial_y = word[0] == "y"
    w = "Y" + word[1:] if initial_y else word
    w = step5(step4(step1c_to_3(step1ab(w))))
    if initial_y:
        w = w[:1].lower() + w[1:]
    return w
