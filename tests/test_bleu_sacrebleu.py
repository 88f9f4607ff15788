"""Differential tests: mtscore BLEU equals sacreBLEU 2.6.0 on every WMT22 system in ../shared (1e-9)."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from mtscore import BLEU, corpus_bleu, sentence_bleu
from mtscore.io.text import read_lines

from .conftest import WMT22, needs_wmt22, pair_meta, wmt22_pairs

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402

pytestmark = [needs_wmt22, pytest.mark.parity]  # a comparison with sacreBLEU on the shared data


def _reference_sets(pair: str) -> list[tuple[str, ...]]:
    ids = pair_meta(pair)["references"]
    sets = [(r,) for r in ids]
    if len(ids) > 1:
        sets.append(tuple(ids))
    return sets


def _cases():
    for pair in wmt22_pairs():
        for ref_ids in _reference_sets(pair):
            yield pytest.param(pair, ref_ids, id=f"{pair}-{'+'.join(ref_ids)}")


@pytest.mark.parametrize("pair,ref_ids", list(_cases()))
def test_corpus_bleu_every_system(pair: str, ref_ids: tuple[str, ...]) -> None:
    folder = WMT22 / pair
    meta = pair_meta(pair)
    refs = [read_lines(folder / "references" / f"{r}.txt") for r in ref_ids]
    metric = BLEU()
    prepared = metric.prepare_references(refs)
    sacre = SacreBLEU()
    for path in sorted((folder / "systems").glob("*.txt")):
        if meta["human_systems"].get(path.stem) in ref_ids:
            continue  # a human system is never scored against itself
        hyps = read_lines(path)
        stats = metric.extract(hyps, prepared)
        ours = metric.compute(stats.total(), stats.meta)
        theirs = sacre.corpus_score(hyps, refs)
        assert abs(ours.score - theirs.score) < 1e-9, path.stem
        assert list(ours.counts) == list(theirs.counts)
        assert list(ours.totals) == list(theirs.totals)
        assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
        assert abs(ours.bp - theirs.bp) < 1e-12
        np.testing.assert_allclose(ours.precisions, theirs.precisions, rtol=0, atol=1e-9)


@pytest.mark.parametrize("pair,ref_ids", list(_cases()))
def test_sentence_bleu_every_segment(pair: str, ref_ids: tuple[str, ...]) -> None:
    """Sentence BLEU (exp smoothing, effective order) of every segment of every system."""
    folder = WMT22 / pair
    meta = pair_meta(pair)
    refs = [read_lines(folder / "references" / f"{r}.txt") for r in ref_ids]
    metric = BLEU(effective_order=True)
    prepared = metric.prepare_references(refs)
    sacre = SacreBLEU(effective_order=True)
    for path in sorted((folder / "systems").glob("*.txt")):
        if meta["human_systems"].get(path.stem) in ref_ids:
            continue
        hyps = read_lines(path)
        ours = metric.compute_many(metric.extract(hyps, prepared).values)
        # sacreBLEU's own per-sentence statistics and score function (what sentence_score runs)
        rows = sacre._extract_corpus_statistics(hyps, refs)
        theirs = np.array([sacre._compute_score_from_stats(list(row)).score for row in rows])
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9, err_msg=path.stem)
    # and sentence_score itself on a sample of segments
    hyps = read_lines(next((folder / "systems").glob("*.txt")))
    for i in range(0, len(hyps), 97):
        expected = sacre.sentence_score(hyps[i], [r[i] for r in refs]).score
        got = metric.compute_many(metric.extract([hyps[i]], [[r[i]] for r in refs]).values)[0]
        assert abs(got - expected) < 1e-9


@needs_wmt22
def test_official_wmt22_scores() -> None:
    """systems.tsv holds the official sacreBLEU scores of WMT22 (single and all references)."""
    with open(WMT22 / "systems.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    checked = 0
    cache: dict[tuple[str, tuple[str, ...]], object] = {}
    metric = BLEU()
    for row in rows:
        pair, system = row["pair"], row["system"]
        meta = pair_meta(pair)
        hyps = read_lines(WMT22 / pair / "systems" / f"{system}.txt")
        for column, ref_ids in [(f"bleu_{r}", (r,)) for r in meta["references"]] + [
                ("bleu_all", tuple(meta["references"]))]:
            if not row.get(column):
                continue
            key = (pair, ref_ids)
            if key not in cache:
                cache[key] = metric.prepare_references(
                    [read_lines(WMT22 / pair / "references" / f"{r}.txt") for r in ref_ids])
            ours = metric.compute(metric.extract(hyps, cache[key]).total())
            assert abs(ours.score - float(row[column])) < 1e-9, (pair, system, column)
            checked += 1
    assert checked > 50


SMOOTHINGS = [("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2.0),
              ("exp", None)]


@pytest.mark.parametrize("smooth,value", SMOOTHINGS)
@pytest.mark.parametrize("effective", [False, True])
def test_sentence_smoothing_variants(smooth: str, value: float | None, effective: bool) -> None:
    folder = WMT22 / "de-en"
    hyps = read_lines(folder / "systems" / "Online-A.txt")[:300]
    refs = [read_lines(folder / "references" / "A.txt")[:300]]
    metric = BLEU(smooth=smooth, smooth_value=value, effective_order=effective)
    ours = metric.compute_many(metric.extract(hyps, refs).values)
    sacre = SacreBLEU(smooth_method=smooth, smooth_value=value, effective_order=effective)
    theirs = [sacre.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)
    # corpus level too
    assert abs(corpus_bleu(hyps, refs, smooth=smooth, smooth_value=value,
                           effective_order=effective).score
               - sacre.corpus_score(hyps, refs).score) < 1e-9


@pytest.mark.parametrize("tokenize", ["13a", "intl", "zh", "char", "none"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_tokenizers_and_case_on_real_data(tokenize: str, lowercase: bool) -> None:
    folder = WMT22 / "zh-en"
    hyps = read_lines(folder / "systems" / "NiuTrans.txt")
    refs = [read_lines(folder / "references" / f"{r}.txt") for r in ("A", "B")]
    ours = corpus_bleu(hyps, refs, tokenize=tokenize, lowercase=lowercase)
    theirs = SacreBLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, refs)
    assert abs(ours.score - theirs.score) < 1e-9
    assert ours.signature.split("|")[1:-1] == [
        "nrefs:2", f"case:{'lc' if lowercase else 'mixed'}", "eff:no", f"tok:{tokenize}", "smooth:exp"]


def test_sentence_bleu_api_matches_sacrebleu() -> None:
    folder = WMT22 / "cs-en"
    hyps = read_lines(folder / "systems" / "Online-B.txt")[:200]
    refs = [read_lines(folder / "references" / f"{r}.txt")[:200] for r in ("B", "C")]
    for i, hyp in enumerate(hyps):
        rs = [refs[0][i], refs[1][i]]
        assert abs(sentence_bleu(hyp, rs).score - sacrebleu.sentence_bleu(hyp, rs).score) < 1e-9


def test_variable_reference_count_with_none() -> None:
    folder = WMT22 / "de-en"
    hyps = read_lines(folder / "systems" / "Online-A.txt")[:400]
    a = read_lines(folder / "references" / "A.txt")[:400]
    b = [r if i % 3 else None for i, r in enumerate(read_lines(folder / "references" / "B.txt")[:400])]
    ours = corpus_bleu(hyps, [a, b])
    theirs = SacreBLEU().corpus_score(hyps, [a, b])
    assert abs(ours.score - theirs.score) < 1e-9
    assert "nrefs:var" in ours.signature


def test_max_order_variants() -> None:
    folder = WMT22 / "ja-en"
    hyps = read_lines(folder / "systems" / "Online-A.txt")
    refs = [read_lines(folder / "references" / "A.txt")]
    for order in (1, 2, 3, 5, 6):
        ours = corpus_bleu(hyps, refs, max_order=order)
        theirs = SacreBLEU(max_ngram_order=order).corpus_score(hyps, refs)
        assert abs(ours.score - theirs.score) < 1e-9
        assert f"order:{order}" in ours.signature
