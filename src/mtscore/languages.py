"""What the target language changes: BLEU's default tokenizer and METEOR's resources.

* BLEU: sacreBLEU 2.6.0 picks its tokenizer from the target language of ``-l SRC-TGT``:
  ``zh`` -> ``zh``, ``ja`` -> ``ja-mecab``, ``ko`` -> ``ko-mecab``, anything else -> ``13a``.
  mtscore does the same; ``ko-mecab`` is not available here, so Korean is refused with that reason
  instead of being scored with a tokenizer that would make the number incomparable.
* METEOR: the 2005 paper is English-only (Porter stemmer, WordNet). For other languages mtscore
  does what the METEOR 1.5 jar does for its non-English languages (Denkowski & Lavie 2014, §2):
  exact matching, then Snowball stems where a Snowball stemmer exists for the language, and no
  synonyms. Chinese and Japanese text is split as BLEU splits it (``zh``: one token per Han
  character; ``ja-mecab``: MeCab words) so that METEOR has words to align.
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import OptionError

#: sacreBLEU's target-language tokenizers (``BLEU._TOKENIZER_MAP``)
BLEU_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}

#: ISO 639-1 code -> Snowball algorithm name (as PyStemmer names them)
SNOWBALL = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "cs": "czech", "da": "danish",
    "nl": "dutch", "en": "english", "eo": "esperanto", "et": "estonian", "fi": "finnish",
    "fr": "french", "de": "german", "el": "greek", "hi": "hindi", "hu": "hungarian",
    "id": "indonesian", "ga": "irish", "it": "italian", "lt": "lithuanian", "ne": "nepali",
    "no": "norwegian", "nb": "norwegian", "fa": "persian", "pl": "polish", "pt": "portuguese",
    "ro": "romanian", "ru": "russian", "sr": "serbian", "st": "sesotho", "es": "spanish",
    "sv": "swedish", "ta": "tamil", "tr": "turkish", "yi": "yiddish",
}

#: METEOR's tokenizer for languages written without spaces between words
METEOR_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab"}


class LanguagePair(NamedTuple):
    """A ``SRC-TGT`` language pair (ISO 639-1 codes, lowercase). A named tuple, not a dataclass:
    the command line's start-up builds no dataclass methods for it."""

    source: str
    target: str

    def __str__(self) -> str:
        return f"{self.source}-{self.target}"


def parse_pair(text: str) -> LanguagePair:
    """``"de-en"`` -> ``LanguagePair("de", "en")``; an :class:`OptionError` for anything else."""
    parts = text.strip().lower().split("-")
    if len(parts) != 2 or not all(p.isascii() and p.isalpha() and 2 <= len(p) <= 3 for p in parts):
        raise OptionError("language pair", text,
                          detail="expected SRC-TGT with ISO 639-1 codes, e.g. de-en or en-zh")
    return LanguagePair(parts[0], parts[1])


def bleu_tokenizer(target: str | None) -> str:
    """sacreBLEU's default BLEU tokenizer for a target language (``13a`` when none is given)."""
    name = BLEU_TOKENIZERS.get((target or "").lower(), "13a")
    if name == "ko-mecab":
        raise OptionError("target language", target,
                          detail="sacreBLEU tokenizes Korean with ko-mecab, which mtscore does not "
                                 "have; give a tokenizer explicitly (e.g. --tokenize char) to score "
                                 "anyway, knowing the number is not comparable to sacreBLEU's")
    return name


class MeteorLanguage(NamedTuple):
    """METEOR's resources for one target language (a named tuple: cheap to define at start-up)."""

    code: str
    #: default module sequence
    modules: tuple[str, ...]
    #: Snowball algorithm of the ``stem`` module (None: no stemmer for this language)
    snowball: str | None
    #: default tokenizer (a BLEU tokenizer name)
    tokenize: str
    #: whether the English-only resources (Porter, WordNet, the function-word list) apply
    english: bool


def meteor_language(target: str | None) -> MeteorLanguage:
    """METEOR's defaults for a target language (``None`` or ``"en"``: the 2005 paper's English)."""
    code = (target or "en").lower()
    if code == "en":
        return MeteorLanguage("en", ("exact", "porter", "synonym"), "english", "13a", True)
    snowball = SNOWBALL.get(code)
    if snowball is not None and snowball not in _pystemmer_algorithms():
        snowball = None
    modules = ("exact", "stem") if snowball else ("exact",)
    return MeteorLanguage(code, modules, snowball, METEOR_TOKENIZERS.get(code, "13a"), False)


def _pystemmer_algorithms() -> frozenset[str]:
    import Stemmer

    return frozenset(Stemmer.algorithms())
