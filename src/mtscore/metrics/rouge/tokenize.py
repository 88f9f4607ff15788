"""How ROUGE reads text: rouge-score 0.1.2's tokenizer (the default), the opt-in Unicode tokenizers,
the Porter stemmer and the sentence splitter of ROUGE-Lsum.

rouge-score's tokenizer (:func:`rouge_score_tokens`): the text is lowercased (``str.lower``), every
run of characters other than ``a-z`` and ``0-9`` becomes a space, and the text is split on spaces;
with the stemmer, tokens longer than 3 characters are replaced by their Porter stem (NLTK's
``PorterStemmer``, its default NLTK_EXTENSIONS mode, re-implemented in :mod:`.porter`). So any
letter outside ``a-z`` (accents, Chinese, Thai, Arabic, ...) is a word break and scores nothing.

The Unicode tokenizers (:func:`unicode_tokens`) are mtscore's BLEU tokenizers (``13a``, ``intl``,
``zh``, ``char``, ``ja-mecab``, ``none``) followed by lowercasing and a split on white space: every
script gets real tokens. Their scores are NOT comparable with rouge-score's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from itertools import compress, filterfalse

#: rouge-score's tokens: maximal runs of a-z and 0-9 after lowercasing (its substitution of
#: ``[^a-z0-9]+`` by a space, split on white space and dropping of empty tokens, in one pattern)
_TOKEN = re.compile(r"[a-z0-9]+")
#: tokens of rouge-score's tokenizer, each followed by a newline
_TOKENS = re.compile(r"(?:[a-z0-9]+\n)*")
#: the tokenizer names ROUGE accepts: the variant's own (``default``), then mtscore's Unicode
#: tokenizers
TOKENIZERS = ("default", "13a", "intl", "zh", "char", "ja-mecab", "none")
#: sentence splitters of ROUGE-Lsum
SPLITTERS = ("newline",)


def porter_stemmer() -> Callable[[str], str]:
    """NLTK's Porter stemmer (``nltk.stem.porter.PorterStemmer().stem``), as rouge-score uses it:
    :func:`.porter.stem`, its re-implementation (tested word for word equal to NLTK; about 8×
    faster, and NLTK need not be installed)."""
    from .porter import stem

    return stem


class Stems:
    """Token -> its stem, for tokens longer than 3 characters (rouge-score's rule), each distinct
    token stemmed once (the corpus path, :func:`.stem_table.stem_ids`, shares the cache through
    :meth:`remembered` and :meth:`remember`)."""

    #: token -> stem, shared by every tokenizer of the process (stems never change)
    _cache: dict[str, str] = {}  # noqa: RUF012

    def __init__(self) -> None:
        from .porter_batch import stems

        #: the stems of many words at once (:func:`.porter_batch.stems`: equal to
        #: :func:`porter_stemmer`'s)
        self._stem_all = stems

    #: stem -> itself if it is ``[a-z0-9]+`` (rouge-score keeps only those tokens), else None
    _valid: dict[str, str | None] = {}  # noqa: RUF012

    @classmethod
    def forget(cls) -> None:
        """Empty the process's stem caches (for cold timings)."""
        cls._cache.clear()
        cls._valid.clear()

    @classmethod
    def remembered(cls, tokens: list[str]) -> list[str | None] | None:
        """The remembered stem of each token (None: not remembered); None if none is."""
        return list(map(cls._cache.get, tokens)) if cls._cache else None

    @classmethod
    def remember(cls, tokens: list[str], stems: list[str]) -> None:
        """Remember these tokens' stems (tokens longer than 3 characters)."""
        cls._cache.update(zip(tokens, stems))

    @classmethod
    def valid(cls, stems: list[str]) -> list[str | None]:
        """Each stem if it is a token of rouge-score's tokenizer (``[a-z0-9]+``), else None."""
        if _TOKENS.fullmatch("\n".join(stems) + "\n"):  # all are (the usual case): one pass
            return list(stems)
        cache = cls._valid
        new = [s for s in dict.fromkeys(stems) if s not in cache]
        cache.update(zip(new, [s if _TOKEN.fullmatch(s) else None for s in new]))
        return list(map(cache.__getitem__, stems))

    def __call__(self, tokens: list[str]) -> list[str]:
        cache = self._cache
        new = list(filterfalse(cache.__contains__, dict.fromkeys(tokens)))
        long = list(compress(new, map((3).__lt__, map(len, new))))
        cache.update(zip(new, new))
        cache.update(zip(long, self._stem_all(long)))
        return list(map(cache.__getitem__, tokens))


def rouge_score_tokens(text: str, stems: Stems | None = None) -> list[str]:
    """rouge-score 0.1.2's tokenizer (``tokenize.tokenize``): lowercase, runs of ``[^a-z0-9]`` as
    breaks, then the stems of tokens longer than 3 characters, keeping tokens that are ``[a-z0-9]+``."""
    tokens = _TOKEN.findall(text.lower())
    if stems is not None:
        tokens = [t for t in stems(tokens) if _TOKEN.fullmatch(t)]
    return tokens


def unicode_tokens(tokenizer: str, lowercase: bool) -> Callable[[str], list[str]]:
    """mtscore's tokenizer ``tokenizer`` (then lowercasing, if asked) and a split on white space."""
    from ...text.tokenizers import get_tokenizer

    tok = get_tokenizer(tokenizer)

    def tokens(text: str) -> list[str]:
        out = tok(text.lower() if lowercase else text)
        return out.split()

    return tokens


def newline_sentences(text: str) -> list[str]:
    """ROUGE-Lsum's sentences: the text split at each ``\\n``, empty pieces dropped (rouge-score
    0.1.2 with ``split_summaries=False``, its default). A text with no newline is one sentence."""
    return [s for s in text.split("\n") if s]


def check_splitter(name: str) -> None:
    from ...errors import OptionError

    if name not in SPLITTERS:
        raise OptionError("ROUGE-Lsum sentence splitter", name, SPLITTERS)


def tokenizer_function(tokenize: str, lowercase: bool, stemmer: bool
                       ) -> Callable[[str], list[str]]:
    """The function from a text to its tokens for these settings."""
    stems = Stems() if stemmer else None
    if tokenize == "default":
        return functools.partial(rouge_score_tokens, stems=stems)
    base = unicode_tokens(tokenize, lowercase)
    if stems is None:
        return base
    return lambda text: stems(base(text))


def tokenize_all(texts: Sequence[str], function: Callable[[str], list[str]]) -> list[list[str]]:
    """Every text's tokens."""
    return [function(t) for t in texts]
