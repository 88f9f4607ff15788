"""The README's account of NLTK's BLEU: same pooling, different denominators for short segments."""

from __future__ import annotations

import pytest

from mtscore import corpus_bleu

#: a comparison with a peer tool or the shared data (``pytest -m 'not parity'`` skips it)
pytestmark = pytest.mark.parity

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

REFS = [["the cat is on the mat today", "there is a cat on the mat"],
        ["a dog runs in the park", "the dog is running in a park"]]


def test_equal_when_every_segment_has_four_words() -> None:
    hyps = ["the cat sat on the mat", "the dog runs in a park"]
    streams = [[r[0] for r in REFS], [r[1] for r in REFS]]
    ours = corpus_bleu(hyps, streams, tokenize="none", smooth="none")
    theirs = nltk_bleu.corpus_bleu([[r.split() for r in refs] for refs in REFS],
                                   [h.split() for h in hyps])
    assert ours.score / 100 == pytest.approx(theirs, abs=1e-12)


def test_nltk_adds_one_to_the_denominator_of_short_segments() -> None:
    hyps = ["a cat is on the mat today", "dog"]
    streams = [[r[0] for r in REFS], [r[1] for r in REFS]]
    ours = corpus_bleu(hyps, streams, tokenize="none", smooth="none")
    assert ours.totals == (8, 6, 5, 4) and ours.counts[3] > 0
    # NLTK's p_n: the one-word segment contributes max(1, 0) = 1 to each higher-order denominator
    for n in (2, 3, 4):
        p = nltk_bleu.modified_precision([r.split() for r in REFS[1]], ["dog"], n)
        assert (p.numerator, p.denominator) == (0, 1)
    theirs = nltk_bleu.corpus_bleu([[r.split() for r in refs] for refs in REFS],
                                   [h.split() for h in hyps])
    expected_nltk = (ours.bp * (ours.counts[0] / 8 * ours.counts[1] / 7 * ours.counts[2] / 6
                                * ours.counts[3] / 5) ** 0.25)
    assert theirs == pytest.approx(expected_nltk, abs=1e-12)
    assert ours.score / 100 > theirs
