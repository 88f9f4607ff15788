"""METEOR's word-mapping modules (Banerjee & Lavie 2005, §2.2; METEOR 1.5: Denkowski & Lavie 2014, §2).

A module maps each word to a set of *keys*; a hypothesis word and a reference word match under the
module when their key sets intersect. This one shape covers every module:

* ``exact``   — the surface form itself (§2.2 "exact" module);
* ``porter``  — the original Porter (1980) stem, the stemmer named in the 2005 paper (§2.2 "porter stem");
* ``stem``    — the Snowball stem: English as the METEOR 1.5 jar ships it; for another target
  language (``language=``), that language's Snowball stemmer (PyStemmer), as the jar stems its
  non-English languages;
* ``wn_stem`` — the word's WordNet base forms (morphological exceptions + detachment rules);
* ``synonym`` — the WordNet synsets of the word's base forms, any sense, no disambiguation (§2.2
  "WN synonymy"): two words match when they share at least one synset (keys: integers that two
  words share exactly when they share a synset, :meth:`mtscore.lexicon.SynonymIndex.synset_keys`;
  thousands of words at once by
  :meth:`~mtscore.lexicon.SynonymIndex.synset_keys_many`).

Keys are computed once per word type: a :class:`Vocabulary` gives every distinct word of a corpus an id
and keeps, per module, the key of each id (stems in one batch call; WordNet keys only for the words a
stage actually compares). WordNet is loaded lazily, only when a module that needs it is used (importing
this module stays cheap); the synonym module reads the compact index of :mod:`mtscore.lexicon.synonyms`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import OptionError

if TYPE_CHECKING:
    from ...text.span_encoder import SpanEncoder

#: every module name, in the order ``--help`` lists them
MODULES: tuple[str, ...] = ("exact", "porter", "stem", "wn_stem", "synonym", "paraphrase")

#: the paper's default module sequence (§2.2) and its ablations (§4, Table 3)
DEFAULT_MODULES: tuple[str, ...] = ("exact", "porter", "synonym")
ABLATIONS: tuple[tuple[str, ...], ...] = (
    ("exact",), ("exact", "porter"), ("exact", "wn_stem"), ("exact", "porter", "synonym"))


def _wordnet() -> Any:
    try:
        from ...lexicon.wordnet import load_wordnet
    except ImportError as err:  # the lexicon package ships it; say so clearly if it is missing
        raise OptionError("module", "wn_stem",
                          detail=f"the WordNet lexicon is not available ({err})") from None
    return load_wordnet()


def _synonyms() -> Any:
    try:
        from ...lexicon.synonyms import load_synonyms
    except ImportError as err:
        raise OptionError("module", "synonym",
                          detail=f"the WordNet synonym index is not available ({err})") from None
    return load_synonyms()


#: fewest new words :meth:`Matcher.keys` looks up with the module's batch function (the synonym
#: index's batch lookup breaks even with word-by-word lookups at about 80 words)
MIN_BATCH = 100


class Matcher:
    """One module: ``keys(word)`` is the set of keys (a word matches another when the sets meet)."""

    def __init__(self, name: str, key_fn: Callable[[str], Iterable[Any]], single: bool,
                 batch_fn: Callable[[list[str]], list[Any]] | None = None):
        self.name = name
        self._key_fn = key_fn
        #: keys of many words in one call (PyStemmer's ``stemWords``, the synonym index's batch
        #: lookup); None: word by word. A :class:`Vocabulary` asks it for every new word of a
        #: ``single`` module at once, for a set-valued module's words when a stage compares them
        self._batch_fn = batch_fn
        #: every word has exactly one key (exact, porter, stem): the relation is an equivalence
        self.single = single
        self._cache: dict[str, Any] = {}

    def keys(self, words: Sequence[str]) -> list[Any]:
        """Per word: its key (``single`` modules) or its frozenset of keys. Words not seen before are
        keyed in one ``batch_fn`` call when there are at least ``MIN_BATCH`` of them (below that a
        batch's fixed cost is more than word-by-word lookups: one segment's words in the 1.5
        variant or the study's per-segment stages)."""
        cache, single = self._cache, self.single
        missing = [w for w in dict.fromkeys(words) if w not in cache]
        if missing:
            found: Iterable[Any] = self._batch_fn(missing) \
                if self._batch_fn is not None and len(missing) >= MIN_BATCH else map(self._key_fn, missing)
            for w, k in zip(missing, found):
                cache[w] = k if single else frozenset(k)
        return [cache[w] for w in words]


class Vocabulary:
    """Word ids for a corpus and, per module, the key of every id, each computed once per distinct word.

    ``keys[k][x]`` is module k's key of word ``words[x]``: the word id itself for ``exact``, the stem for
    ``porter``/``stem`` (all new words stemmed in one call), and for the WordNet modules ``None`` until
    :meth:`keys_of` computes it — they are needed only for words that earlier stages leave unmatched.

    Words come as token lists (:meth:`encode`) or straight from raw text through a span encoder
    (:meth:`encode_text`: its token ids become word ids through a numpy table); both give a word the
    same id.
    """

    def __init__(self, matchers: Sequence[Matcher]):
        self.matchers = list(matchers)
        self.index: dict[str, int] = {}
        self.words: list[str] = []
        self.keys: list[list[Any]] = [[] for _ in self.matchers]
        #: the span encoder :meth:`encode_text` reads, and the word id of each of its token ids
        self._encoder: SpanEncoder | None = None
        self._word_of_token = np.empty(0, dtype=np.int64)

    def _add(self, new: list[str]) -> None:
        """Ids and eager keys (stems in one batch call) for distinct words not seen before."""
        start = len(self.words)
        self.index.update(zip(new, range(start, start + len(new))))
        self.words.extend(new)
        for keys, matcher in zip(self.keys, self.matchers):
            if matcher.name == "exact":
                keys.extend(range(start, start + len(new)))
            elif matcher.single and matcher._batch_fn is not None:
                keys.extend(matcher._batch_fn(new))
            else:
                keys.extend([None] * len(new))

    def encode(self, sentences: Sequence[Sequence[str]]) -> list[list[int]]:
        """The id lists of tokenized sentences (new words get ids and their eager keys)."""
        index = self.index
        new = [w for w in set().union(*sentences) if w not in index]
        if new:
            self._add(new)
        get = index.__getitem__
        return [list(map(get, s)) for s in sentences]

    def encode_text(self, encoder: SpanEncoder, lines: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(flat word ids, words per line) of raw ``lines``, tokenized by ``encoder`` — the same
        words as ``encode(tokenized lines)`` — with the text of each token new to the encoder decoded
        once, for its word id and keys. A vocabulary reads the token ids of one encoder only."""
        if self._encoder is None:
            self._encoder = encoder
        elif encoder is not self._encoder:
            raise ValueError("a Vocabulary maps the token ids of one span encoder only")
        tokens, lengths, texts = encoder.encode_text(lines)
        if texts:  # distinct, in token id order
            index = self.index
            new = [w for w in texts if w not in index] if index else texts
            start = len(self.words)
            if new:
                self._add(new)
            if len(new) == len(texts):  # all new: ids in the same order
                word_ids = np.arange(start, start + len(texts), dtype=np.int64)
            else:
                word_ids = np.fromiter(map(index.__getitem__, texts), np.int64, len(texts))
            self._word_of_token = np.concatenate((self._word_of_token, word_ids))
        return self._word_of_token[tokens], lengths

    def keys_of(self, k: int, ids: Sequence[int]) -> list[Any]:
        """Module k's keys of word ids ``ids`` (the missing ones computed in one
        :meth:`Matcher.keys` call, and kept)."""
        table = self.keys[k]
        missing = [x for x in ids if table[x] is None]
        if missing:
            words = self.words
            for x, key in zip(missing, self.matchers[k].keys([words[x] for x in missing])):
                table[x] = key
        return [table[x] for x in ids]


def _porter_stems(words: list[str]) -> list[str]:
    from ...lexicon.stemmers import stem_words
    return stem_words(words, "porter")


def _snowball_stems(words: list[str]) -> list[str]:
    from ...lexicon.stemmers import stem_words
    return stem_words(words, "snowball")


def _porter() -> tuple[Callable[[str], str], Callable[[list[str]], list[str]]]:
    from ...lexicon.stemmers import porter_stem
    return porter_stem, _porter_stems


def _snowball() -> tuple[Callable[[str], str], Callable[[list[str]], list[str]]]:
    from ...lexicon.stemmers import snowball_stem
    return snowball_stem, _snowball_stems


class SnowballStemmer:
    """A PyStemmer Snowball stemmer by algorithm name; picklable (the C object is made on first use)."""

    def __init__(self, algorithm: str):
        self.algorithm = algorithm
        self._stemmer: Any = None

    def _get(self) -> Any:
        if self._stemmer is None:
            import Stemmer

            self._stemmer = Stemmer.Stemmer(self.algorithm)
        return self._stemmer

    def __call__(self, word: str) -> str:
        try:
            return self._get().stemWord(word)
        except UnicodeEncodeError:  # a lone surrogate (undecodable input byte): not stemmed
            return word

    def many(self, words: list[str]) -> list[str]:
        try:
            return self._get().stemWords(words)
        except UnicodeEncodeError:
            return [self(w) for w in words]

    def __getstate__(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "_stemmer": None}


def _identity(word: str) -> str:
    return word


def _identities(words: list[str]) -> list[str]:
    return list(words)


def get_matcher(name: str, snowball: str | None = None, paraphrase: Any = None) -> Matcher:
    """A fresh matcher for module ``name`` (each keeps its own key cache). ``snowball``: the Snowball
    algorithm of ``stem`` for a language other than English (None: the jar's English stemmer).
    ``paraphrase``: the table of the ``paraphrase`` module (a
    :class:`mtscore.lexicon.paraphrase.ParaphraseTable`; None: the installed one) — its key of a
    word is the word's id in the table (-1: in no entry); :mod:`.paraphrase` matches phrases."""
    if name == "paraphrase":
        if paraphrase is None:
            from ...lexicon.paraphrase import load_paraphrase_table

            paraphrase = load_paraphrase_table()
        return Matcher(name, paraphrase.word_id, True, paraphrase.word_ids)
    if name == "exact":
        return Matcher(name, _identity, True, _identities)
    if name == "stem" and snowball is not None and snowball != "english":
        stemmer = SnowballStemmer(snowball)
        return Matcher(name, stemmer, True, stemmer.many)
    if name == "porter":
        fn, batch = _porter()
        return Matcher(name, fn, True, batch)
    if name == "stem":
        fn, batch = _snowball()
        return Matcher(name, fn, True, batch)
    if name == "wn_stem":
        wn = _wordnet()
        return Matcher(name, wn.base_forms, False)
    if name == "synonym":
        index = _synonyms()
        return Matcher(name, index.synset_keys, False, index.synset_keys_many)
    raise OptionError("METEOR module", name, MODULES)


def paraphrase_module(modules: Sequence[str]) -> int | None:
    """The index of the paraphrase module in ``modules`` (None without it)."""
    return list(modules).index("paraphrase") if "paraphrase" in modules else None


def check_modules(modules: Sequence[str] | str, language: Any = None) -> tuple[str, ...]:
    """Validate a module sequence (names or ``"exact+porter"``-style string); no repeats.

    ``language`` (a :class:`mtscore.languages.MeteorLanguage`): outside English only ``exact`` and,
    where the language has a Snowball stemmer, ``stem`` (Porter and WordNet are English)."""
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
    if language is not None and not language.english:
        usable = ("exact", "stem") if language.snowball else ("exact",)
        for m in modules:
            if m not in usable:
                raise OptionError("METEOR module", m, usable,
                                  detail=f"for target language {language.code!r}: porter, wn_stem "
                                         "and synonym use English resources (Porter stemmer, "
                                         "WordNet)" + ("" if language.snowball else
                                                       "; no Snowball stemmer for it"))
    return modules
