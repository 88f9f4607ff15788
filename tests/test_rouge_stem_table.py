"""The one-call stem ids of ROUGE's stemmer (:mod:`mtscore.metrics.rouge.stem_table`, what
:func:`~mtscore.metrics.rouge.corpus.encode_streams` reads) equal the rule up to the numbering:
rouge-score's stem (:func:`.porter.stem` of tokens longer than 3 characters, as
:class:`~mtscore.metrics.rouge.tokenize.Stems` gives it) with equal ids exactly for equal stems
(hypothesis; tokens around the 3- and 4-character and 8- and 16-byte limits, of digits alone, of
digits and letters, NLTK's irregular forms, words that reach every rule; the shared WMT22 texts)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.rouge import porter, porter_batch, stem_table
from mtscore.metrics.rouge.span_table import word_ids
from mtscore.metrics.rouge.tokenize import Stems
from mtscore.text.interning import token_words

from .conftest import WMT22, needs_wmt22
from .test_rouge_porter import STEMS, SUFFIXES

_TOKEN = re.compile(rb"[a-z0-9]+")
_PART = st.sampled_from(["a", "e", "y", "b", "l", "s", "t", "z", "c", "n", "f", "g", "o", "i",
                         "u", "ll", "cc", "ww", "ies", "ied", "ing", "ed", "ly", "alli", "fulli",
                         "logi", "bli", "1", "0", "9", "ness", "ation", "er"])
_WORD = (st.lists(_PART, min_size=1, max_size=6).map("".join)
         | st.text(alphabet="0123456789", min_size=1, max_size=20)
         | st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1, max_size=24)
         | st.sampled_from(sorted(porter.IRREGULAR)))


def _stem_ids(tokens: list[str]) -> np.ndarray:
    """stem_ids of the distinct tokens' spans (the tokens space-separated)."""
    data = np.frombuffer(" ".join(tokens).encode("ascii") + bytes(24), dtype=np.uint8)
    found = [m.span() for m in _TOKEN.finditer(data.tobytes())]
    starts = np.array([s for s, _ in found], dtype=np.int64)
    ends = np.array([e for _, e in found], dtype=np.int64)
    words = token_words(data, starts, ends, {})
    ids, owner = word_ids(words)
    keys = (words[0].take(owner), words[1].take(owner))
    return stem_table.stem_ids(keys, data, starts.take(owner), ends.take(owner)).take(ids)


def _compare(got: list[int], stems: list[str | None]) -> None:
    assert len(got) == len(stems)
    assert [g == -3 for g in got] == [s is None for s in stems]
    kept = {(g, s) for g, s in zip(got, stems) if s is not None}
    # equal ids exactly for equal stems: the map between the numberings is one to one
    assert len(kept) == len({g for g, _ in kept}) == len({s for _, s in kept})
    assert sorted({g for g, _ in kept}) == list(range(len(kept)))


def _check(tokens: list[str]) -> None:
    """Cold (nothing remembered), warm (all remembered by the cold call) and with some tokens'
    stems remembered: the rule's stems (porter.stem of tokens longer than 3 characters)."""
    stems: list[str | None] = [porter.stem(t) if len(t) > 3 else t for t in tokens]
    stems = [s if s is not None and re.fullmatch("[a-z0-9]+", s) else None for s in stems]
    Stems.forget()
    _compare(_stem_ids(tokens).tolist(), stems)
    _compare(_stem_ids(tokens).tolist(), stems)
    Stems.forget()
    some = [t for t in tokens[::2] if len(t) > 3]
    Stems.remember(some, [porter.stem(t) for t in some])
    _compare(_stem_ids(tokens).tolist(), stems)
    Stems.forget()
    assert Stems.valid(Stems()(tokens)) == stems


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORD, max_size=40))
def test_stem_ids_equal_the_rule(tokens: list[str]) -> None:
    _check(tokens)


def test_limits() -> None:
    """No token, one, only short ones, only digits (long ones: a stem of over 15 bytes and a
    token of digits of over 15 bytes are both numbered by a dict of their own), 3 and 4
    characters, stems equal to short tokens."""
    _check([])
    _check(["runs"])
    _check(["a", "ab", "abc", "abc"])
    _check(["1234", "12345678901234567", "0000", "1234"])
    _check(["internationalization", "12345678901234567890", "internationalizations",
            "nationalizations", "1234567890123456"])
    _check(["runs", "run", "cats", "cat", "caress", "ties", "tie", "sky", "skies", "dying", "die",
            "news", "new", "eyes", "eye", "ones", "on", "one", "2020s", "2020", "x2s"])


def test_rules() -> None:
    """Every stem of the Porter tests with every suffix, with digits after it too."""
    words = sorted({s + a for s in STEMS for a in SUFFIXES} - {""})
    _check(words + [w + "7" for w in words[::5]] + ["7" + w for w in words[::7]])


def test_a_stem_outside_a_z0_9_is_dropped() -> None:
    """Stems that are not [a-z0-9]+ get -3 as Stems.valid's None (only bytes outside a-z0-9
    give such stems, and the tokenizer's never hold them: read directly)."""
    data = np.frombuffer(b"RUNS runs AB_S xY1s" + bytes(24), dtype=np.uint8)
    starts, ends = np.array([0, 5, 10, 15]), np.array([4, 9, 14, 19])
    words = token_words(data, starts, ends, {})
    data_text = data.tobytes()
    tokens = [data_text[s:e].decode("ascii") for s, e in zip(starts, ends)]
    Stems.forget()
    got = stem_table.stem_ids(words, data, starts, ends).tolist()
    assert [g == -3 for g in got] == [s is None for s in Stems.valid(Stems()(tokens))]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789", min_size=1, max_size=30))
def test_digits_alone_are_their_own_stem(word: str) -> None:
    """What stem_table leaves unstemmed: no rule reads a word without a letter."""
    assert porter.stem(word) == word == porter_batch.stems([word])[0]


@settings(max_examples=500, deadline=None)
@given(_WORD)
def test_stems_of_tokens_are_tokens(word: str) -> None:
    """A stem of a [a-z0-9]+ word is [a-z0-9]+ (so stem_table drops none of the tokenizer's)."""
    assert re.fullmatch("[a-z0-9]+", porter.stem(word))


@needs_wmt22
def test_tokens_of_the_shared_texts() -> None:
    words: set[str] = set()
    for path in sorted(WMT22.glob("*/references/*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace").lower()
        words.update(m.decode("ascii") for m in _TOKEN.findall(text.encode("ascii", "replace")))
    _check(sorted(words))


def test_stems_and_words_differ_only_where_outside_snowball_says() -> None:
    """The words outside_snowball leaves to Snowball: their stems are Snowball's (a sample of the
    rule's words), so the redone ones are all that may differ."""
    pytest.importorskip("Stemmer")
    words = sorted({s + a for s in STEMS for a in SUFFIXES} - {""})
    layout = porter_batch.joined(words)
    assert layout is not None
    kept = ~porter_batch.outside_snowball(*layout)
    snow = porter_batch.snowball(words)
    short = np.array([len(s) <= 2 for s in snow])
    for w, s, k, sh in zip(words, snow, kept.tolist(), short.tolist()):
        if k and not sh and w not in porter.IRREGULAR:
            assert s == porter.stem(w), w
