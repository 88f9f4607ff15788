"""METEOR's word ids straight from bytes (:meth:`METEOR.encode`, :meth:`Vocabulary.encode_text`,
:meth:`SpanEncoder.encode_text`) against the reference path they replace: ``METEOR.tokenize`` (the
tokenizer line by line, then ``str.split``) and ``Vocabulary.encode`` of the token lists."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore.metrics.meteor import METEOR, corpus_meteor, sentence_meteor
from mtscore.metrics.meteor import metric as metric_module
from mtscore.metrics.meteor.matchers import Vocabulary
from mtscore.text import span_encoder
from mtscore.text.span_encoder import SpanEncoder
from mtscore.text.spans import SPAN_TOKENIZERS
from mtscore.text.tokenizers import get_tokenizer, preprocess

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22"

# pieces that exercise the tokenizers (as tests/test_bleu_speedpaths.py) and lowercasing: characters
# whose lowercase is longer (İ -> i̇) or depends on the context (final sigma), title case, ß/ẞ
PIECES = st.sampled_from(
    [*"aZ09 .,-;:'\"!?()[]{}<>/\\|@#$%^&*_+=~`\t\x0b\x0c\r\x1c\x1f\x00\x85\xa0\u1680\u2000\u2009"
      "\u2028\u202f\u205f\u3000–—“”‘’…中文字日本語カタナ한국абвΣσςÅé١½€☀✂ⓐ𠀀𪛖丽\uff01\uff0c\u3002"
      "İIıẞßǅǄΣ",
     "&amp;", "&quot;", "&lt;", "&gt;", "&amp;quot;", "&am<skipped>p;", "<skipped>", "3.5", "1,000",
     "a.", ".5", "5.", "..", "U.S.", "--", "-3", "3-", "e.g.,", "seven77", "eight888",
     "fifteen15bytes!", "sixteen16bytes!!", "a-very-long-token-of-many-bytes", "naïveté", "😀",
     "x\u0301", "ΟΔΟΣ ", "İSTANBUL", "Running", "RUNS", "ran", "cats", "cat", "\n", "-\n"])
TEXT = st.lists(PIECES, max_size=14).map("".join)
LINES = st.lists(TEXT, min_size=0, max_size=8)
TOKENIZERS = sorted(SPAN_TOKENIZERS)


@contextlib.contextmanager
def threshold(characters: int) -> Iterator[None]:
    """Both line-by-line thresholds (METEOR's and the span encoder's) set to ``characters``:
    0 takes the byte path for any corpus, a huge number the line-by-line path."""
    kept = metric_module.SMALL_CORPUS_CHARACTERS, span_encoder.SMALL_CORPUS_CHARACTERS
    metric_module.SMALL_CORPUS_CHARACTERS = span_encoder.SMALL_CORPUS_CHARACTERS = characters
    try:
        yield
    finally:
        metric_module.SMALL_CORPUS_CHARACTERS, span_encoder.SMALL_CORPUS_CHARACTERS = kept


class LineByLineMETEOR(METEOR):
    """The reference: word ids of ``vocabulary().encode(tokenize(lines))``, as before the byte path."""

    def encode(self, lines: Sequence[str]) -> list[list[int]]:
        return self.vocabulary().encode(self.tokenize(lines))


def words_of(metric: METEOR, ids: Sequence[list[int] | None]) -> list[list[str]]:
    words = metric.vocabulary().words
    return [[words[x] for x in line] for line in ids]


def check_vocabulary(metric: METEOR) -> None:
    """Ids and words agree both ways, and every eagerly computed key is its module's key."""
    vocab = metric.vocabulary()
    assert len(vocab.words) == len(vocab.index) == len(set(vocab.words))
    assert all(vocab.index[w] == x for x, w in enumerate(vocab.words))
    for k, matcher in enumerate(vocab.matchers):
        assert len(vocab.keys[k]) == len(vocab.words)
        for x, key in enumerate(vocab.keys[k]):
            if matcher.name == "exact":
                assert key == x
            elif key is not None:  # the module's key function on the word alone
                alone = matcher._key_fn(vocab.words[x])
                assert key == (alone if matcher.single else frozenset(alone))


# ---- tokens -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", TOKENIZERS)
@settings(max_examples=120, deadline=None)
@given(first=LINES, second=LINES, lowercase=st.booleans(), small=st.sampled_from([0, 10**9]))
def test_encode_gives_the_tokens_of_tokenize(name: str, first: list[str], second: list[str],
                                             lowercase: bool, small: int) -> None:
    """Two calls on one object (the vocabulary grows): the words of the ids are ``tokenize``'s, and
    the ids are what ``Vocabulary.encode`` gives the same token lists (one id per word)."""
    metric = METEOR(tokenize=name, lowercase=lowercase, modules="exact porter")
    with threshold(small):
        for lines in (first, second):
            ids = metric.encode(lines)
            expected = metric.tokenize(lines) if lines else []  # tokenize([]) is [[]]
            assert words_of(metric, ids) == expected
            assert metric.vocabulary().encode(expected) == list(ids)
    check_vocabulary(metric)


@pytest.mark.parametrize("name", TOKENIZERS)
@settings(max_examples=60, deadline=None)
@given(lines=st.lists(LINES, min_size=1, max_size=4), lowercase=st.booleans(),
       paths=st.lists(st.sampled_from([0, 10**9]), min_size=4, max_size=4))
def test_byte_and_line_paths_share_one_vocabulary(name: str, lines: list[list[str]], lowercase: bool,
                                                  paths: list[int]) -> None:
    """Calls that switch between the byte path and the line-by-line path (tiny inputs) on one
    vocabulary give every word one id, whichever path saw it first."""
    metric = METEOR(tokenize=name, lowercase=lowercase, modules="exact porter")
    for batch, small in zip(lines, paths):
        with threshold(small):
            ids = metric.encode(batch)
        assert words_of(metric, ids) == (metric.tokenize(batch) if batch else [])
    check_vocabulary(metric)


def test_tokenize_is_unchanged() -> None:
    """``METEOR.tokenize``: the tokenizer's segment preprocessing (lowercase, rstrip), then split."""
    metric = METEOR()
    lines = ["The CAT's  hat, 3.5 -- ok.", "", "  İstanbul ΟΔΟΣ&amp;x\tend  ", "a-\nb\nc"]
    assert metric.tokenize(lines) == [line.split() for line in preprocess(lines, get_tokenizer("13a"), True)]
    sacre = pytest.importorskip("sacrebleu.tokenizers.tokenizer_13a").Tokenizer13a()
    assert metric.tokenize(lines[:3]) == [sacre(line.lower().rstrip()).split() for line in lines[:3]]
    assert metric.tokenize(lines)[0] == ["the", "cat's", "hat", ",", "3.5", "--", "ok", "."]


@pytest.mark.parametrize("small", [0, 10**9])
def test_line_breaks_empty_lines_and_lone_surrogates(small: int) -> None:
    lines = ["a-\nb c.", "d\ne", "", "x\ud800y. z", "\udfff", "  ", "İI ΑΣ Σ"]
    for name in TOKENIZERS:
        for lowercase in (False, True):
            metric = METEOR(tokenize=name, lowercase=lowercase, modules="exact")
            with threshold(small):
                for part in (lines, lines[2:], [lines[0]]):
                    assert words_of(metric, metric.encode(part)) == metric.tokenize(part)
                assert list(metric.encode([])) == []


def test_ja_mecab_is_tokenized_line_by_line() -> None:
    pytest.importorskip("MeCab")
    pytest.importorskip("ipadic")
    metric = METEOR(language="ja", tokenize="ja-mecab")
    lines = ["これはペンです。", "", "東京へ行きました"] * 800  # above any threshold
    with threshold(0):
        assert words_of(metric, metric.encode(lines)) == metric.tokenize(lines)


# ---- the span encoder and the vocabulary ---------------------------------------------------------

@pytest.mark.parametrize("name", TOKENIZERS)
@settings(max_examples=80, deadline=None)
@given(batches=st.lists(LINES, max_size=3), lowercase=st.booleans(), small=st.sampled_from([0, 10**9]))
def test_span_encoder_encode_text_equals_encode(name: str, batches: list[list[str]], lowercase: bool,
                                                small: int) -> None:
    """The same ids as ``encode(grow=True)``, and the text of exactly the tokens it added."""
    tokenizer = get_tokenizer(name)
    ours, twin = SpanEncoder(tokenizer, lowercase), SpanEncoder(tokenizer, lowercase)
    texts: list[str] = []
    with threshold(small):
        for lines in batches:
            before = ours.size
            ids, lengths, new = ours.encode_text(lines)
            twin_ids, twin_lengths = twin.encode(lines, grow=True)
            assert ids.tolist() == twin_ids.tolist() and lengths.tolist() == twin_lengths.tolist()
            assert len(new) == ours.size - before
            texts += new
    assert {t: i for i, t in enumerate(texts)} == ours.vocab


def test_vocabulary_reads_one_encoder() -> None:
    vocab = Vocabulary(METEOR(modules="exact").matchers())
    tokenizer = get_tokenizer("13a")
    first, other = SpanEncoder(tokenizer, True), SpanEncoder(tokenizer, True)
    ids, lengths = vocab.encode_text(first, ["a b", "b c"])
    assert ids.tolist() == vocab.encode([["a", "b"], ["b", "c"]])[0] + vocab.encode([["b", "c"]])[0]
    assert lengths.tolist() == [2, 2]
    with pytest.raises(ValueError, match="one span encoder"):
        vocab.encode_text(other, ["a"])


# ---- the metric: statistics and alignments -------------------------------------------------------

REF_WORDS = ["the cat sat on the mat .", "a dog ran quickly , running home", "They were ill .",
             "he runs fast", "the the the cat", "An old man's hat", "İstanbul is big", ""]
HYP_WORDS = ["the cat was sitting on a mat", "dog runs home quick", "they are sick .", "fast he ran",
             "cat the the", "an elderly man 's hat", "istanbul is large", "nothing"]


def corpus_lines(seed: int, n: int) -> tuple[list[str], list[list[str | None]]]:
    rng = np.random.default_rng(seed)

    def pick(pool: list[str]) -> str:
        return " ".join(rng.choice(pool, size=rng.integers(0, 4)).tolist())

    hyps = [pick(HYP_WORDS) for _ in range(n)]
    refs: list[list[str | None]] = [[pick(REF_WORDS) for _ in range(n)] for _ in range(2)]
    for i in rng.choice(n, size=n // 5, replace=False).tolist():
        refs[1][i] = None  # a missing second reference
    return hyps, refs


@pytest.mark.parametrize("kw", [{}, {"variant": "1.5", "modules": "exact stem synonym"},
                                {"delta": 0.5}, {"modules": "exact wn_stem", "lowercase": False},
                                {"tokenize": "intl"}, {"exclude_stopwords": True}])
@pytest.mark.parametrize("seed", [0, 1])
def test_statistics_and_alignments_equal_the_line_by_line_path(kw: dict, seed: int) -> None:
    hyps, refs = corpus_lines(seed, 300)
    with threshold(0):
        fast, slow = METEOR(**kw), LineByLineMETEOR(**kw)
        prepared = fast.prepare_references(refs)
        ours, theirs = fast.score_corpus(hyps, prepared), slow.score_corpus(hyps, refs)
        assert ours == theirs  # statistics, every segment's words, kept reference and alignment
        np.testing.assert_array_equal(fast.extract(hyps, prepared).values,
                                      slow.extract(hyps, refs).values)
        assert prepared.words == slow.prepare_references(refs).words
    check_vocabulary(fast)


@settings(max_examples=40, deadline=None)
@given(hyps=st.lists(TEXT, min_size=1, max_size=6), refs=st.lists(TEXT, min_size=6, max_size=6),
       lowercase=st.booleans(), name=st.sampled_from(["13a", "intl", "none"]))
def test_random_text_scores_equal_the_line_by_line_path(hyps: list[str], refs: list[str],
                                                        lowercase: bool, name: str) -> None:
    streams = [refs[:len(hyps)], [r if i % 2 else None for i, r in enumerate(refs[:len(hyps)])]]
    with threshold(0):
        ours = METEOR(tokenize=name, lowercase=lowercase).score_corpus(hyps, streams)
        theirs = LineByLineMETEOR(tokenize=name, lowercase=lowercase).score_corpus(hyps, streams)
    assert ours == theirs


def test_references_prepared_by_another_object() -> None:
    """Prepared references carry their own object's word ids; another METEOR object with the same
    tokenizer and case reads their words."""
    hyps, refs = corpus_lines(3, 200)
    with threshold(0):
        prepared = METEOR(modules="exact").prepare_references(refs)
        other = METEOR()
        other.extract(hyps[:50], [r[:50] for r in refs])  # a vocabulary of its own, already grown
        np.testing.assert_array_equal(other.extract(hyps, prepared).values,
                                      LineByLineMETEOR().extract(hyps, refs).values)


def test_sentence_meteor_and_many_systems() -> None:
    res = sentence_meteor("the cat sat on the mat", ["the cat sat on a mat", "a cat sat"])
    assert res.segments[0].hyp_words == ("the", "cat", "sat", "on", "the", "mat")
    hyps, refs = corpus_lines(4, 150)
    metric, slow = METEOR(), LineByLineMETEOR()
    with threshold(0):
        prepared = metric.prepare_references(refs)
        for system in (hyps, hyps[::-1], [h.upper() for h in hyps]):
            assert metric.score_corpus(system, prepared) == slow.score_corpus(system, refs)
    assert corpus_meteor(hyps, refs) == slow.score_corpus(hyps, refs)


@pytest.mark.parity
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared data not present")
@pytest.mark.parametrize("pair", ["de-en", "zh-en"])
def test_wmt22_statistics_equal_the_line_by_line_path(pair: str) -> None:
    from mtscore.io.text import read_lines

    folder = SHARED / pair
    refs = [read_lines(p) for p in sorted((folder / "references").glob("*.txt"))]
    systems = sorted((folder / "systems").glob("*.txt"))[:2]
    fast, slow = METEOR(), LineByLineMETEOR()
    prepared = fast.prepare_references(refs)
    for path in systems:
        hyps = read_lines(path)
        assert fast.score_corpus(hyps, prepared) == slow.score_corpus(hyps, refs)
    check_vocabulary(fast)
