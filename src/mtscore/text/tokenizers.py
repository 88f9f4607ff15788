"""Tokenizers that make BLEU scores comparable, with sacreBLEU's exact output.

``13a`` is mteval-v13a.pl's tokenization (the WMT default), ``intl`` is mteval-v14's international
tokenization, ``zh`` splits CJK characters then applies 13a's rules, ``char`` splits every character,
``none`` leaves the text alone, and ``ja-mecab`` (extra ``[ja]``) runs MeCab with the IPA dictionary.

Speed: metrics tokenize with the numpy kernel of :mod:`.spans` where it exists (13a, intl, zh,
zh-fixed, char, none); these classes are the reference it is tested against, and the path for
ja-mecab, tiny corpora and segments with inner line breaks.
The regex tokenizers run a few passes over the whole corpus joined by ``\\n`` instead of one
pass per line. The character classes that look at a neighbour exclude ``\\n``, so no match can span two
segments and the result is identical to line-by-line tokenization (tests check this against sacreBLEU).
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import OptionError


class Tokenizer(ABC):
    """Turns a segment into space-separated tokens."""

    #: the name used to select it (``--tokenize NAME``)
    name: str = ""

    def signature(self) -> str:
        """What the signature records (``tok:<signature>``)."""
        return self.name

    @abstractmethod
    def __call__(self, line: str) -> str:
        """Tokenize one segment; tokens are separated by single spaces."""

    def tokenize_corpus(self, lines: Sequence[str]) -> list[str]:
        """Tokenize many segments (subclasses do it in a few passes over the whole corpus)."""
        return [self(line) for line in lines]


def _apply_joined(lines: Sequence[str], passes: Callable[[str], str]) -> list[str]:
    """Run ``passes`` over the corpus joined by newlines, then split and squeeze white space.

    Lines that contain a newline themselves (possible only through the API) take the slow path so
    that segment boundaries stay unambiguous.
    """
    if any("\n" in line for line in lines):
        return [" ".join(passes(line).split()) for line in lines]
    joined = passes("\n".join(lines))
    return [" ".join(part.split()) for part in joined.split("\n")]


# mteval-v13a's language-dependent rules (sacreBLEU's TokenizerRegexp). The classes that inspect a
# neighbouring character exclude "\n" (see module doc); otherwise these are sacreBLEU's patterns.
# The first class leaves out the space that sacreBLEU's includes: padding a space with spaces changes
# no token and no later match (a space is a non-digit either way), and skipping it is much faster.
# Replacements are functions for `re` (its string templates are expanded in Python on 3.11) and
# templates for `regex` (expanded in C): whichever engine is faster for the pattern.
@functools.cache
def _13a_rule_list() -> list[tuple[Any, Any]]:
    """The rules, compiled on first use (importing the ``regex`` module costs ~10 ms a process)."""
    import regex

    return [
        (re.compile(r"([\{-\~\[-\`\!-\&\(-\+\:-\@\/])"), lambda m: f" {m.group(1)} "),
        (re.compile(r"([^0-9\n])([\.,])"), lambda m: f"{m.group(1)} {m.group(2)} "),
        (regex.compile(r"([\.,])([^0-9\n])", regex.V0), r" \1 \2"),
        (regex.compile(r"([0-9])(-)", regex.V0), r"\1 \2 "),
    ]


def _13a_rules(text: str) -> str:
    for pattern, repl in _13a_rule_list():
        text = pattern.sub(repl, text)
    return text


def _13a_language_independent(line: str) -> str:
    line = line.replace("<skipped>", "")
    line = line.replace("-\n", "")
    line = line.replace("\n", " ")
    if "&" in line:
        line = _unescape_13a(line)
    return line


def _unescape_13a(line: str) -> str:
    """mteval-v13a's entity replacements, in its order (so "&amp;quot;" becomes "&quot;")."""
    line = line.replace("&quot;", '"')
    line = line.replace("&amp;", "&")
    line = line.replace("&lt;", "<")
    return line.replace("&gt;", ">")


class Tokenizer13a(Tokenizer):
    """mteval-v13a.pl: unescape a few HTML entities, split punctuation and symbols, keep decimals."""

    name = "13a"

    def __call__(self, line: str) -> str:
        return " ".join(_13a_rules(f" {_13a_language_independent(line)} ").split())

    def tokenize_corpus(self, lines: Sequence[str]) -> list[str]:
        if any("\n" in line for line in lines):
            return [self(line) for line in lines]
        prepared = [f" {_13a_language_independent(line)} " for line in lines]
        return _apply_joined(prepared, _13a_rules)


@functools.cache
def _intl_rule_list() -> list[tuple[Any, str]]:
    import regex

    return [
        (regex.compile(r"([^\p{N}\n])(\p{P})"), r"\1 \2 "),
        (regex.compile(r"(\p{P})([^\p{N}\n])"), r" \1 \2"),
        (regex.compile(r"(\p{S})"), r" \1 "),
    ]


def _intl_rules(text: str) -> str:
    for pattern, repl in _intl_rule_list():
        text = pattern.sub(repl, text)
    return text


class TokenizerIntl(Tokenizer):
    """mteval-v14 international tokenization: split Unicode punctuation (not between digits) and symbols."""

    name = "intl"

    def __call__(self, line: str) -> str:
        return " ".join(_intl_rules(line).split())

    def tokenize_corpus(self, lines: Sequence[str]) -> list[str]:
        return _apply_joined(lines, _intl_rules)


# sacreBLEU's CJK ranges. Two of its entries were written as 5-hex-digit \u escapes, which Python reads
# as a 4-digit escape followed by a digit ("\u20000" is U+2000 then "0"). sacreBLEU compares one
# character against these 2-character strings, so in effect the ranges are U+2001..U+2A6D and
# U+2F81..U+2FA1 (general punctuation such as curly quotes and dashes counts as Chinese), while the
# intended supplementary-plane ideographs (U+20000..U+2A6D6, U+2F800..U+2FA1D) do not count.
_SACREBLEU_ZH_RANGES = [
    ("\u3400", "\u4db5"), ("\u4e00", "\u9fa5"), ("\u9fa6", "\u9fbb"), ("\uf900", "\ufa2d"),
    ("\ufa30", "\ufa6a"), ("\ufa70", "\ufad9"), ("\u20000", "\u2a6d6"), ("\u2f800", "\u2fa1d"),
    ("\uff00", "\uffef"), ("\u2e80", "\u2eff"), ("\u3000", "\u303f"), ("\u31c0", "\u31ef"),
    ("\u2f00", "\u2fdf"), ("\u2ff0", "\u2fff"), ("\u3100", "\u312f"), ("\u31a0", "\u31bf"),
    ("\ufe10", "\ufe1f"), ("\ufe30", "\ufe4f"), ("\u2600", "\u26ff"), ("\u2700", "\u27bf"),
    ("\u3200", "\u32ff"), ("\u3300", "\u33ff"),
]

# The ranges as they were meant (the two supplementary-plane entries written with 8-digit escapes).
_FIXED_ZH_RANGES = [
    (lo, hi) for lo, hi in _SACREBLEU_ZH_RANGES if len(lo) == 1 and len(hi) == 1
] + [("\U00020000", "\U0002a6d6"), ("\U0002f800", "\U0002fa1d")]


def _char_range(lo: str, hi: str) -> tuple[int, int]:
    """The single characters c with ``lo <= c <= hi`` under Python's string ordering."""
    first = ord(lo[0]) if len(lo) == 1 else ord(lo[0]) + 1  # c == lo[0] sorts before a longer lo
    return first, ord(hi[0])  # c == hi[0] sorts before (or equals) hi, so it is included


@functools.cache
def _class(ranges: tuple[tuple[str, str], ...]) -> Any:
    """The compiled character class of ``ranges`` (a ``regex`` pattern, compiled on first use)."""
    import regex

    parts = []
    for lo, hi in ranges:
        a, b = _char_range(lo, hi)
        parts.append(f"\\U{a:08x}-\\U{b:08x}")
    return regex.compile("([" + "".join(parts) + "])")


class TokenizerZh(Tokenizer):
    """Chinese: every CJK character is a token, the rest is tokenized with 13a's rules.

    Reproduces sacreBLEU's character ranges, including its escape bug (see ``_SACREBLEU_ZH_RANGES``).
    """

    name = "zh"
    _ranges: tuple[tuple[str, str], ...] = tuple(_SACREBLEU_ZH_RANGES)
    #: the same ranges as inclusive code point pairs (for the span kernel, :mod:`.spans`)
    cjk_ranges: tuple[tuple[int, int], ...] = tuple(_char_range(lo, hi) for lo, hi in _SACREBLEU_ZH_RANGES)

    @property
    def _cjk(self) -> Any:
        """The CJK character class as a pattern (compiled on first use)."""
        return _class(self._ranges)

    def _split(self, line: str) -> str:
        return self._cjk.sub(r" \1 ", line.strip())

    def __call__(self, line: str) -> str:
        return " ".join(_13a_rules(self._split(line)).split())

    def tokenize_corpus(self, lines: Sequence[str]) -> list[str]:
        return _apply_joined([self._split(line) for line in lines], _13a_rules)


class TokenizerZhFixed(TokenizerZh):
    """``zh`` with the CJK ranges sacreBLEU intended: general punctuation (U+2001..U+2A6D) is not
    split as Chinese, supplementary ideographs are. Not comparable with sacreBLEU's ``zh``."""

    name = "zh-fixed"
    _ranges = tuple(_FIXED_ZH_RANGES)
    cjk_ranges = tuple(_char_range(lo, hi) for lo, hi in _FIXED_ZH_RANGES)


class TokenizerChar(Tokenizer):
    """Every character (spaces included, as in sacreBLEU) separated by a space."""

    name = "char"

    def __call__(self, line: str) -> str:
        return " ".join(line)


class TokenizerNone(Tokenizer):
    """No tokenization: the segment is split on white space as it is."""

    name = "none"

    def __call__(self, line: str) -> str:
        return line


class TokenizerJaMecab(Tokenizer):
    """Japanese: MeCab with the IPA dictionary (``pip install 'mtscore[ja]'``), as sacreBLEU."""

    name = "ja-mecab"

    def __init__(self) -> None:
        try:
            import ipadic
            import MeCab
        except ImportError:
            raise OptionError(
                "tokenize", "ja-mecab",
                detail="needs MeCab and the IPA dictionary: pip install 'mtscore[ja]'") from None
        self._tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
        info = self._tagger.dictionary_info()
        if info.size != 392126 or info.next is not None:
            raise OptionError("tokenize", "ja-mecab",
                              detail="MeCab must use the IPA dictionary (ipadic) with no user dictionary")

    def __call__(self, line: str) -> str:
        return self._tagger.parse(line.strip()).strip()

    def signature(self) -> str:
        return f"ja-mecab-{self._tagger.version()}-IPA"


class TokenizerMeteorNorm(Tokenizer):
    """The METEOR 1.5 jar's ``-norm`` normalizer for English (:mod:`.meteor_norm`), case kept: its
    rules look at case, so METEOR lowercases after it (``lowercase_after``), as the jar does."""

    name = "meteor-norm"
    #: lowercase the tokenized text, not the raw text (the jar's order)
    lowercase_after = True

    def __call__(self, line: str) -> str:
        from .meteor_norm import normalized_words

        return normalized_words(line)

    def tokenize_corpus(self, lines: Sequence[str]) -> list[str]:
        """Every line at once (:func:`.meteor_norm_corpus.normalized_corpus`, equal to the lines
        one by one)."""
        from .meteor_norm_corpus import normalized_corpus

        return normalized_corpus(lines)


_REGISTRY: dict[str, type[Tokenizer]] = {
    cls.name: cls
    for cls in (Tokenizer13a, TokenizerIntl, TokenizerZh, TokenizerZhFixed, TokenizerChar,
                TokenizerNone, TokenizerJaMecab, TokenizerMeteorNorm)
}

#: every tokenizer name, in the order ``--help`` lists them
TOKENIZERS: tuple[str, ...] = tuple(_REGISTRY)


@functools.cache
def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer called ``name``; an unknown name raises an error listing the valid ones."""
    if name not in _REGISTRY:
        raise OptionError("tokenizer", name, TOKENIZERS)
    return _REGISTRY[name]()


def preprocess(lines: Sequence[str], tokenizer: Tokenizer, lowercase: bool = False) -> list[str]:
    """sacreBLEU's segment preprocessing: optional lowercasing, trailing white space removed, tokenized."""
    if lowercase:
        return tokenizer.tokenize_corpus([line.lower().rstrip() for line in lines])
    return tokenizer.tokenize_corpus([line.rstrip() for line in lines])
