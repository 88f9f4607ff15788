"""Function words: the words METEOR treats as function (not content) words.

METEOR 1.5 (Denkowski & Lavie) weights matches of content and function words differently with its δ
parameter; Banerjee & Lavie (2005), §3.6, ask what scores become when function words are removed. The list
is the METEOR 1.5 jar's ``function/english.words`` (LGPL, Carnegie Mellon University), shipped unchanged
in ``data/function-words-en.txt``: 93 lowercase tokens as the jar's tokenizer writes them -- the most
frequent words of English news text, punctuation included (``,``, ``.``, ``'s``, ``-lrb-`` ...).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

#: language code -> data file (METEOR 1.5 ships a non-empty English list; see the file's header)
_FILES: dict[str, str] = {"en": "function-words-en.txt"}


@cache
def function_words(lang: str = "en") -> frozenset[str]:
    """The function words of ``lang`` (``"en"``): lowercase tokens, as in the METEOR 1.5 jar."""
    try:
        name = _FILES[lang]
    except KeyError:
        raise ValueError(f"no function-word list for language {lang!r}; "
                         f"available: {', '.join(sorted(_FILES))}") from None
    text = resources.files("mtscore.lexicon").joinpath("data", name).read_text(encoding="utf-8")
    return frozenset(line for line in text.split("\n") if line and not line.startswith("# "))


__all__ = ["function_words"]
