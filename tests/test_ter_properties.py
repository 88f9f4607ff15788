"""TER on random and adversarial text: the numpy search, the rule and sacreBLEU 2.6.0 agree."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore import TER, InputError, corpus_ter, sentence_ter
from mtscore.metrics.ter import fast as ter_fast
from mtscore.metrics.ter import metric as ter_metric
from mtscore.metrics.ter.rules import translation_edit_rate
from mtscore.text.ter_tokenizer import ter_words

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import TER as SacreTER  # noqa: E402
from sacrebleu.metrics.lib_ter import translation_edit_rate as sacre_edits  # noqa: E402
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer  # noqa: E402

WORDS = st.lists(st.integers(0, 6), max_size=40)  # few distinct words: many matches and shifts


@pytest.mark.parity
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS.filter(bool)), min_size=1, max_size=12))
def test_numpy_search_equals_rule_and_sacrebleu(pairs: list) -> None:
    hyps = [np.array(h, dtype=np.int64) for h, _ in pairs]
    refs = [np.array(r, dtype=np.int64) for _, r in pairs]
    fast = ter_fast.edit_counts(hyps, refs).tolist()
    rule = [translation_edit_rate(h, r)[0] for h, r in pairs]
    theirs = [sacre_edits([str(w) for w in h], [str(w) for w in r])[0] for h, r in pairs]
    assert fast == rule == theirs


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(st.integers(0, 3), st.integers(60, 140), st.integers(1, 30), st.randoms(use_true_random=False))
def test_long_and_unequal_lengths(seed: int, n: int, m: int, rnd) -> None:  # type: ignore[no-untyped-def]
    """Long segments (several beams, shifts far apart) and very unequal lengths (a wider beam)."""
    hyp = [rnd.randrange(12) for _ in range(n)]
    for ref in ([rnd.randrange(12) for _ in range(m)], hyp[::-1][:m + seed], [w for w in hyp if w % 3]):
        if not ref:
            continue
        expected = sacre_edits([str(w) for w in hyp], [str(w) for w in ref])[0]
        got = ter_fast.edit_counts([np.array(hyp), np.array(ref)], [np.array(ref), np.array(hyp)])
        assert got[0] == expected
        assert got[1] == sacre_edits([str(w) for w in ref], [str(w) for w in hyp])[0]


TEXT = st.text(st.sampled_from(list("ab cd.,!?;:\"()'s-0123&;amp<>日本語中文。、「」ｶナかな\uff01\uff0c ")),
               max_size=40)
OPTIONS = st.fixed_dictionaries({k: st.booleans() for k in
                                 ("normalized", "no_punct", "asian_support", "case_sensitive")})


@settings(max_examples=300, deadline=None)
@given(TEXT, OPTIONS)
def test_tokenizer_equals_tercom_port(text: str, options: dict) -> None:
    assert ter_words(text, **options) == TercomTokenizer(**options)(text)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT, TEXT), min_size=1, max_size=8), OPTIONS)
def test_corpus_and_sentence_ter(segments: list, options: dict) -> None:
    """Empty lines, punctuation only, CJK with asian_support: corpus and sentence TER."""
    hyps = [h for h, _, _ in segments]
    refs = [[a for _, a, _ in segments], [b for _, _, b in segments]]
    sacre = SacreTER(**options)
    assert abs(corpus_ter(hyps, refs, **options).score - sacre.corpus_score(hyps, refs).score) < 1e-9
    ours = TER(**options).extract(hyps, refs).values
    np.testing.assert_array_equal(ours, np.array(sacre._extract_corpus_statistics(hyps, refs)))
    slow = TER(**options, fast=False).extract(hyps, refs).values
    np.testing.assert_array_equal(ours, slow)
    h, r = segments[0][0], [segments[0][1]]
    assert abs(sentence_ter(h, r, **options).score - sacre.sentence_score(h, r).score) < 1e-9


def test_edge_cases_and_errors() -> None:
    assert sentence_ter("", [""]).score == SacreTER().sentence_score("", [""]).score == 0.0
    assert sentence_ter("a b", [""]).score == SacreTER().sentence_score("a b", [""]).score == 100.0
    assert sentence_ter("", ["a b"]).score == 100.0
    assert TER.higher_is_better is False
    result = corpus_ter(["the cat sat"], [["the cat sat down"]])
    assert str(result.signature).startswith("TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|")
    with pytest.raises(InputError):
        corpus_ter(["a", "b"], [["a"]])
    with pytest.raises(InputError):
        sentence_ter("a", [])


SENTENCE = st.lists(st.sampled_from(["a", "b", "c", "d", "A", "."]), max_size=14).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.lists(st.lists(SENTENCE, min_size=n, max_size=n), min_size=1, max_size=4),
    st.lists(st.lists(st.none() | SENTENCE, min_size=n, max_size=n), min_size=1, max_size=3))),
    st.booleans(), st.integers(1, 5))
def test_extract_systems_equals_extract_one_by_one(data: tuple, fast: bool, chunk: int) -> None:
    """Several systems searched together (repeated pairs once, in chunks of pairs), with and
    without the numpy search: each system's statistics equal its own ``extract`` by a fresh
    metric (empty references and segments without some reference included)."""
    systems, refs = data
    refs = [[r if r is not None or k else "x" for r in s] for k, s in enumerate(refs)]
    systems = systems + systems[:1]  # a repeated system: every pair seen twice
    ter = TER(fast=fast)
    old = ter_metric.SEARCH_CHUNK
    ter_metric.SEARCH_CHUNK = chunk
    try:
        together = ter.extract_systems(systems, ter.prepare_references(refs))
    finally:
        ter_metric.SEARCH_CHUNK = old
    for hyps, stats in zip(systems, together):
        alone = TER(fast=fast).extract(hyps, refs)
        assert np.array_equal(stats.values, alone.values) and stats.meta == alone.meta
