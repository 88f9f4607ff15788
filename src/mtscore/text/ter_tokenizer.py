"""TER's text normalization: tercom's ``Normalizer.java`` as sacreBLEU 2.6.0's ``TercomTokenizer``
applies it (Snover et al., 2006, use tercom's normalization; every option off by default).

In order: lowercase unless ``case_sensitive``; with ``normalized``, tercom's general and Western
rules (line joins, XML entities, punctuation split off, possessive ``'s``, periods and commas not
next to digits, a dash after a digit), then with ``asian_support`` the CJK rules (ideographs one
by one, kana runs, CJK and full-width punctuation); with ``no_punct``, the punctuation removed (and
with ``asian_support`` the CJK and full-width punctuation too); finally white space collapsed.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: CJK punctuation and full-width punctuation (tercom's asian punctuation classes)
ASIAN_PUNCT = "[\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb]"
FULL_WIDTH_PUNCT = "[\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09]"

Rule = tuple["re.Pattern[str]", str]


def _rules(pairs: list[tuple[str, str]]) -> tuple[Rule, ...]:
    return tuple((re.compile(pattern), replacement) for pattern, replacement in pairs)


#: tercom's language-independent rules, then its Western ones (the segment is padded in between)
GENERAL = _rules([("\n-", ""), ("\n", " "), ("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"),
                  ("&gt;", ">")])
WESTERN = _rules([
    (r"([{-~[-` -&(-+:-@/])", r" \1 "),  # punctuation and symbols split off
    (r"'s ", r" 's "), (r"'s$", r" 's"),  # possessives
    (r"([^0-9])([\.,])", r"\1 \2 "),  # period and comma not after a digit
    (r"([\.,])([^0-9])", r" \1 \2"),  # ... nor before one
    (r"([0-9])(-)", r"\1 \2 "),  # a dash after a digit
])
#: CJK: ideographs, strokes, radicals, compatibility forms and enclosed letters one by one; a
#: segment that is one run of hiragana, katakana or katakana extensions set apart (tercom's
#: patterns anchor both ends); CJK and full-width punctuation split off
ASIAN = _rules([
    ("([\u4e00-\u9fff\u3400-\u4dbf])", r" \1 "), ("([\u31c0-\u31ef\u2e80-\u2eff])", r" \1 "),
    ("([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])", r" \1 "), ("([\u3200-\u3f22])", r" \1 "),
    *((f"(^|^[{lo}-{hi}])([{lo}-{hi}]+)(?=$|^[{lo}-{hi}])", r"\1 \2 ")
      for lo, hi in (("\u3040", "\u309f"), ("\u30a0", "\u30ff"), ("\u31f0", "\u31ff"))),
    (f"({ASIAN_PUNCT})", r" \1 "), (f"({FULL_WIDTH_PUNCT})", r" \1 "),
])
PUNCT = _rules([(r"[\.,\?:;!\"\(\)]", "")])
ASIAN_PUNCT_REMOVAL = _rules([(ASIAN_PUNCT, ""), (FULL_WIDTH_PUNCT, "")])


def _apply(rules: tuple[Rule, ...], text: str) -> str:
    for pattern, replacement in rules:
        text = pattern.sub(replacement, text)
    return text


@lru_cache(maxsize=2**16)
def ter_words(text: str, normalized: bool = False, no_punct: bool = False,
              asian_support: bool = False, case_sensitive: bool = False) -> str:
    """One segment normalized as tercom does, its words separated by single spaces."""
    if not text:
        return ""
    if not case_sensitive:
        text = text.lower()
    if normalized:
        text = " " + _apply(GENERAL, text) + " "
        text = _apply(WESTERN, text)
        if asian_support:
            text = _apply(ASIAN, text)
    if no_punct:
        text = _apply(PUNCT, text)
        if asian_support:
            text = _apply(ASIAN_PUNCT_REMOVAL, text)
    return " ".join(text.split())
