"""The array paths of coco-caption's BLEU and CIDEr-D against their rules (hypothesis): the
statistics of every image at once (:mod:`mtscore.metrics.coco.bleu_arrays`,
:mod:`mtscore.metrics.coco.cider_arrays`, over :mod:`mtscore.metrics.coco.ngram_table`) equal
those of :func:`~mtscore.metrics.coco.bleu.bleu_row` (integer for integer) and
:func:`~mtscore.metrics.coco.cider.cider_d` (to the last bit)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mtscore.errors import InputError
from mtscore.metrics.coco import CIDErD, CocoBLEU, CocoRougeL, DocumentFrequency
from mtscore.metrics.coco.bleu import bleu_row
from mtscore.metrics.coco.bleu_arrays import bleu_rows
from mtscore.metrics.coco.cider import cider_d
from mtscore.metrics.coco.cider_arrays import cider_d_scores
from mtscore.metrics.coco.ngram_table import ImageNgrams, NgramTable

# few distinct words, so that n-grams repeat within and across captions; runs of white space
WORDS = st.sampled_from(["a", "b", "c", "dog", "the", "-lrb-", "é", "x"])
CAPTION = st.builds(lambda ws, sep: sep.join(ws), st.lists(WORDS, max_size=12),
                    st.sampled_from([" ", "  ", " \t"]))
IMAGE = st.tuples(CAPTION, st.lists(CAPTION, min_size=1, max_size=5))
IMAGES = st.lists(IMAGE, min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(IMAGES, st.integers(min_value=1, max_value=6))
def test_bleu_rows_equal_the_rule(images: list[tuple[str, list[str]]], order: int) -> None:
    hyps, refs = [h for h, _ in images], [r for _, r in images]
    rule = np.array([bleu_row(h, r, order) for h, r in zip(hyps, refs, strict=True)])
    assert np.array_equal(bleu_rows(ImageNgrams.of(hyps, refs, order), order), rule)


@settings(max_examples=200, deadline=None)
@given(IMAGES, st.integers(min_value=1, max_value=5), st.sampled_from([6.0, 0.5, 20.0]),
       st.booleans())
# (found by hypothesis: a weight whose ``** 2``, C's pow, is one ulp above its correctly rounded square)
@example([("a", ["a"]), ("a", ["a b"]), ("a b", ["a b"]), ("a a a b", ["a"]), ("b", ["b"])], 1, 6.0,
         True)
def test_cider_d_scores_equal_the_rule(images: list[tuple[str, list[str]]], order: int,
                                       sigma: float, saved: bool) -> None:
    hyps, refs = [h for h, _ in images], [r for _, r in images]
    # saved frequencies: counted on other captions (some n-grams unseen), more images
    df = DocumentFrequency.of_references(refs[::-1] + [[h] for h in hyps], order) if saved \
        else DocumentFrequency.of_references(refs, order)
    rule = np.array([cider_d(h, r, df, order, sigma) for h, r in zip(hyps, refs, strict=True)])
    fast = cider_d_scores(ImageNgrams.of(hyps, refs, order), order, sigma, df if saved else None)
    assert np.array_equal(fast, rule)  # (to the last bit: the same operations in the same order)


@settings(max_examples=100, deadline=None)
@given(st.lists(CAPTION, max_size=10), st.integers(min_value=1, max_value=5))
def test_ngram_table_counts_every_caption_s_ngrams(captions: list[str], order: int) -> None:
    table = NgramTable.of(captions, order)
    for n in range(1, order + 1):
        rows = table.orders[n - 1]
        got: dict[int, dict[tuple[str, ...], int]] = {}
        for c, g, k in zip(rows.caption.tolist(), rows.ngram.tolist(), rows.count.tolist(),
                           strict=True):
            got.setdefault(c, {})[table.ngram_tuple(n, g)] = k
        for c, caption in enumerate(captions):
            words = caption.split()
            expected: dict[tuple[str, ...], int] = {}
            for i in range(len(words) - n + 1):
                key = tuple(words[i:i + n])
                expected[key] = expected.get(key, 0) + 1
            assert got.get(c, {}) == expected


def test_metrics_fast_and_rule_paths_agree() -> None:
    hyps = ["a dog runs on the grass", "", "two cats"]
    refs = [["a dog is running on the grass", "the dog runs"], ["a b"], ["two cats sit", "cats"]]
    for fast in (True, False):
        bleu = CocoBLEU(tokenize="none", fast=fast).extract_tokenized(hyps, refs)
        cider = CIDErD(tokenize="none", fast=fast).extract_tokenized(hyps, refs)
        if fast:
            fast_bleu, fast_cider = bleu, cider
    assert np.array_equal(fast_bleu.values, bleu.values)
    assert np.array_equal(fast_cider.values, cider.values)
    assert fast_cider.meta == cider.meta


def test_an_image_without_references_is_an_error() -> None:
    with pytest.raises(InputError, match="image 2 has no reference"):
        ImageNgrams.of(["a", "b"], [["a"], []], 4)


def test_coco_metrics_scored_together_tokenize_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import pickle

    import mtscore.text.ptb as ptb
    from mtscore.metrics.coco.common import CaptionTokenization, share_tokenization

    runs: list[tuple[str, ...]] = []
    tokenize = ptb.coco_tokenize

    def counted(captions):  # type: ignore[no-untyped-def]
        runs.append(tuple(captions))
        return tokenize(captions)
    monkeypatch.setattr(ptb, "coco_tokenize", counted)
    hyps = ["A dog runs.", "Two cats (sitting)."]
    refs = [["A dog is running.", "The dog runs!"], ["Cats sit.", None]]
    alone = [m.corpus_score(hyps, refs).score for m in (CocoBLEU(), CIDErD(), CocoRougeL())]
    assert len(runs) == 6  # without a shared tokenization: each metric tokenizes on its own
    runs.clear()
    together = share_tokenization([CocoBLEU(), CIDErD(), CocoRougeL(), CocoBLEU(tokenize="none")])
    shared = {id(m.tokenization) for m in together[:3]}
    assert len(shared) == 1 and together[3].tokenization is None
    assert [m.corpus_score(hyps, refs).score for m in together[:3]] == alone
    assert len(runs) == 2  # references and results once each
    assert together[0].replace(order=2).tokenization is together[0].tokenization
    copied = pickle.loads(pickle.dumps(together[0].tokenization))
    assert isinstance(copied, CaptionTokenization) and copied._sets == {}
    runs.clear()
    assert share_tokenization([CocoBLEU()])[0].tokenization is None
