"""sentence_rouge / ROUGE.sentence_score (the Python path for one segment, counts.by_segments)
equals the corpus path on that one segment, result for result (scores, P/R/F and signature),
under every type and the settings that change the counts; and rouge-score 0.1.2's ``score``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtscore import InputError
from mtscore.metrics.rouge import ROUGE, extract_types, sentence_rouge
from mtscore.metrics.rouge.metric import FEW_SEGMENTS

_WORDS = st.sampled_from(["the", "The", "cat", "cats", "sat", "on", "a", "mat", "running",
                          "runs", "Über", "größe", "猫", "d'or", "2024", "...", "-", "\n"])
_TEXT = st.lists(_WORDS, max_size=24).map(" ".join)
_TYPES = ("rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum")


@settings(max_examples=300, deadline=None)
@given(hyp=_TEXT, refs=st.lists(_TEXT, min_size=1, max_size=3), rouge_type=st.sampled_from(_TYPES),
       options=st.sampled_from([{}, {"stemmer": True}, {"multiref": "average"},
                                {"tokenize": "13a", "lowercase": True}, {"beta": 2.0},
                                {"measure": "recall"}, {"aggregation": "pooled"}]))
def test_sentence_score_equals_the_corpus_path(hyp: str, refs: list[str], rouge_type: str,
                                               options: dict[str, object]) -> None:
    metric = ROUGE(rouge_type, **options)  # type: ignore[arg-type]
    one = metric.sentence_score(hyp, refs)
    corpus = metric.corpus_score([hyp], [[r] for r in refs])
    rules = ROUGE(rouge_type, fast=False, **options).corpus_score(  # type: ignore[arg-type]
        [hyp], [[r] for r in refs])  # the rules, segment by segment: an independent path
    assert one == corpus == rules
    assert str(one.signature) == str(corpus.signature) == str(rules.signature)
    assert sentence_rouge(hyp, refs, rouge_type, **options) == corpus  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(hyps=st.lists(_TEXT, min_size=3, max_size=6), data=st.data(),
       stem=st.booleans())
def test_few_segments_equal_the_kernels(hyps: list[str], data: st.DataObject, stem: bool) -> None:
    """extract_types of one or two segments (counted in Python, few_segments) equals the same
    segments' rows of a corpus the numpy kernels count."""
    refs = [data.draw(st.lists(_TEXT, min_size=len(hyps), max_size=len(hyps)))]
    metrics = [ROUGE(t, stemmer=stem) for t in _TYPES]
    assert len(hyps) > FEW_SEGMENTS
    whole = extract_types(metrics, hyps, refs)
    for start in range(len(hyps) - 1):
        for size in (1, 2):
            part = extract_types(metrics, hyps[start:start + size],
                                 [r[start:start + size] for r in refs])
            for w, p in zip(whole, part):
                assert p.values.tolist() == w.values[start:start + size].tolist()


def test_sentence_score_equals_rouge_score() -> None:
    scorer = pytest.importorskip("rouge_score.rouge_scorer")
    pairs = [("the cat sat on the mat", "the cat was sitting on a mat"),
             ("Running cats ran\nthe mat", "a cat runs\non the mat, running"),
             ("", "a b"), ("x y z", "x z y x")]
    for stem in (False, True):
        rs = scorer.RougeScorer(list(_TYPES), use_stemmer=stem)
        for hyp, ref in pairs:
            want = rs.score(ref, hyp)
            for rouge_type in _TYPES:
                got = sentence_rouge(hyp, ref, rouge_type, stemmer=stem)
                w = want[rouge_type]
                assert (got.precision, got.recall, got.fmeasure) == pytest.approx(
                    (w.precision, w.recall, w.fmeasure), abs=1e-12)


def test_sentence_score_bad_input_and_other_paths() -> None:
    with pytest.raises(InputError):
        sentence_rouge("a", [], "rouge1")
    with pytest.raises(InputError):
        sentence_rouge(["a"], "a", "rouge1")  # type: ignore[arg-type]
    rules = ROUGE("rougeL", fast=False)
    assert rules.sentence_score("a b c", "a c") == ROUGE("rougeL").sentence_score("a b c", "a c")
    perl = ROUGE("rouge2", variant="1.5.5")
    assert perl.sentence_score("a b c", ["a b d"]) == perl.corpus_score(["a b c"], [["a b d"]])
