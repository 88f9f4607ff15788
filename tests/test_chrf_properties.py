"""chrF on random and adversarial text: the numpy kernel, the rules and sacreBLEU 2.6.0 agree."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtscore import CHRF, InputError, OptionError, corpus_chrf, sentence_chrf
from mtscore.metrics import clipping
from mtscore.metrics.chrf import metric as chrf
from mtscore.metrics.chrf import rules as char_ngrams

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import CHRF as SacreCHRF  # noqa: E402

WORDS = ["a", "b", "the", "cat", "(hi)", "...", "!", "x,", ",y", "Über", "ÜBER", "naïve", "σς", "Σ",
         "日本語", "中文。", "\u3000", "İ", "a" * 40, "--", "é", "'s", "e\u0301"]
SPACES = [" ", "  ", "\t", "\u00a0", "\u2009", " \n "]


@st.composite
def sentences(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["words", "empty", "punct", "long", "repeat", "random"]))
    if kind == "empty":
        return draw(st.sampled_from(["", " ", "\t"]))
    if kind == "punct":
        return " ".join(draw(st.lists(st.sampled_from(list("!?.,;:()[]\"'-")), max_size=12)))
    if kind == "long":
        return draw(st.sampled_from(["x", "ab", "日"])) * draw(st.integers(50, 300))
    if kind == "repeat":
        return " ".join([draw(st.sampled_from(WORDS))] * draw(st.integers(1, 30)))
    if kind == "random":
        return draw(st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40))
    words = draw(st.lists(st.sampled_from(WORDS), max_size=15))
    seps = draw(st.lists(st.sampled_from(SPACES), min_size=len(words), max_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps))


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    n = draw(st.integers(1, 12))
    hyps = draw(st.lists(sentences(), min_size=n, max_size=n))
    k = draw(st.integers(1, 3))
    refs: list[list[str | None]] = [draw(st.lists(sentences(), min_size=n, max_size=n)) for _ in range(k)]
    if k > 1:  # a missing reference here and there (never all of a segment's)
        for i in range(n):
            if draw(st.booleans()):
                refs[draw(st.integers(1, k - 1))][i] = None
    return hyps, refs


OPTIONS = st.fixed_dictionaries({
    "char_order": st.integers(0, 6), "word_order": st.integers(0, 3), "beta": st.integers(1, 3),
    "lowercase": st.booleans(), "whitespace": st.booleans(), "eps_smoothing": st.booleans()},
).filter(lambda o: o["char_order"] + o["word_order"] > 0)


@pytest.fixture
def numpy_always(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole-corpus kernels even for a few characters."""
    monkeypatch.setattr(chrf, "SMALL_CORPUS_CHARACTERS", 0)
    monkeypatch.setattr(clipping, "SMALL_CORPUS_TOKENS", 0)
    monkeypatch.setattr(clipping, "BLOCK_TOKENS", 16)  # several blocks of segments


@pytest.mark.parity
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(corpora(), OPTIONS)
def test_kernel_rules_and_sacrebleu_agree(numpy_always: None, corpus: tuple, options: dict) -> None:
    hyps, refs = corpus
    metric = CHRF(**options)
    fast = metric.extract(hyps, refs).values
    rules = CHRF(**options, fast=False).extract(hyps, refs).values
    np.testing.assert_array_equal(fast, rules)
    sacre = SacreCHRF(**options)
    expected = np.array(sacre._extract_corpus_statistics(hyps, refs)).reshape(fast.shape)
    np.testing.assert_array_equal(fast, expected)
    assert abs(metric.compute(fast.sum(axis=0)).score
               - sacre._compute_score_from_stats(list(expected.sum(axis=0))).score) < 1e-9
    theirs = [sacre._compute_f_score(list(row)) for row in expected]
    np.testing.assert_allclose(metric.compute_many(fast), theirs, rtol=0, atol=1e-9)


@settings(max_examples=150, deadline=None)
@given(sentences(), st.lists(sentences(), min_size=1, max_size=3), OPTIONS)
def test_sentence_chrf(hyp: str, refs: list[str], options: dict) -> None:
    expected = SacreCHRF(**options).sentence_score(hyp, refs).score
    assert abs(sentence_chrf(hyp, refs, **options).score - expected) < 1e-9
    assert abs(corpus_chrf([hyp], [[r] for r in refs], **options).score - expected) < 1e-9


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30), st.integers(1, 6), st.booleans())
def test_char_ngrams_brute_force(text: str, order: int, whitespace: bool) -> None:
    """Every n-gram counted by hand from the characters that are not white space."""
    chars = text if whitespace else "".join(c for c in text if not c.isspace())
    counts = char_ngrams.char_ngram_counts(text, order, whitespace)
    for n, counter in enumerate(counts, start=1):
        assert counter == Counter(chars[i:i + n] for i in range(len(chars) - n + 1))


def test_words_split_punctuation_as_chrfpp() -> None:
    assert char_ngrams.chrf_words("(hi) ! x, ,y 'quoted' a.b.") == \
        ["(hi", ")", "!", "x", ",", ",", "y", "'quoted", "'", "a.b", "."]


def test_empty_hypothesis_and_reference() -> None:
    for hyp, ref in (("", "a b"), ("a b", ""), ("", "")):
        expected = SacreCHRF().sentence_score(hyp, [ref]).score
        assert sentence_chrf(hyp, [ref]).score == expected == 0.0


def test_result_and_signature() -> None:
    result = corpus_chrf(["the cat sat"], [["the cat sat down"]], word_order=2)
    assert result.metric == "chrF2++"
    assert str(result.signature).startswith("chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|")
    assert len(result.statistics) == 24 and str(result).startswith("chrF2++ = ")
    with pytest.raises(AttributeError):
        result.score = 0.0  # type: ignore[misc]


def test_bad_input_and_options() -> None:
    with pytest.raises(InputError):
        corpus_chrf(["a", "b"], [["a"]])
    with pytest.raises(InputError):
        corpus_chrf(["a"], ["a"])
    with pytest.raises(InputError):
        sentence_chrf("a", [])
    for bad in ({"char_order": -1}, {"char_order": 0, "word_order": 0}, {"beta": 0}, {"word_order": 1.5}):
        with pytest.raises(OptionError):
            CHRF(**bad)
    metric = CHRF()
    prepared = CHRF(lowercase=True).prepare_references([["a"]])
    with pytest.raises(OptionError):
        metric.extract(["a"], prepared)
