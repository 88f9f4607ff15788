"""coco-caption's metrics against pycocoevalcap 1.2 (committed outputs, made with its Java by
``scripts/make_coco_oracle.py``): BLEU-1..4, ROUGE-L and CIDEr-D equal to 1e-9, corpus and per image.

Each oracle file holds the captions, the captions as pycocoevalcap's Java tokenizer gave them, and
pycocoevalcap's corpus and per-image scores. The metrics are checked on the Java-tokenized captions
(the metrics alone) and through the whole evaluation from raw captions (tokenizer included). A
missing oracle file fails (no skip).
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mtscore.caption import evaluate_captions
from mtscore.metrics.coco import CIDErD, CocoBLEU, CocoRougeL, DocumentFrequency
from mtscore.metrics.coco.bleu import closest_ref_length

DATA = Path(__file__).resolve().parent / "data" / "coco"
GENERATED = ["eval_generated_0", "eval_generated_1"]
WMT = ["eval_wmt22_cs-en_CUNI-DocTransformer", "eval_wmt22_cs-en_Online-W",
       "eval_wmt22_de-en_JDExploreAcademy", "eval_wmt22_de-en_Online-A", "eval_wmt22_ja-en_NT5",
       "eval_wmt22_ja-en_Online-Y", "eval_wmt22_zh-en_LanguageX", "eval_wmt22_zh-en_Online-B"]
EXACT = ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr")
TOL = 1e-9


def oracle(name: str) -> dict[str, Any]:
    with gzip.open(DATA / f"{name}.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def metric_scores(hyps: list[str], refs: list[list[str]]) -> dict[str, tuple[float, np.ndarray]]:
    """Corpus and per-image scores of the metrics alone on tokenized captions."""
    out = {}
    bleu = CocoBLEU(tokenize="none")
    stats = bleu.extract_tokenized(hyps, refs)
    for k in range(1, 5):
        m = CocoBLEU(k, tokenize="none")
        out[f"Bleu_{k}"] = (m.compute(stats.total()).score, m.segment_scores(stats))
    for name, metric in (("ROUGE_L", CocoRougeL(tokenize="none")), ("CIDEr", CIDErD(tokenize="none"))):
        stats = metric.extract_tokenized(hyps, refs)
        out[name] = (metric.compute(stats.total()).score, metric.segment_scores(stats))
    return out


def check_against(data: dict[str, Any], scores: dict[str, tuple[float, np.ndarray]]) -> None:
    ids = list(data["gts"])
    for name in EXACT:
        corpus, per_image = scores[name]
        assert corpus == pytest.approx(data["corpus"][name], abs=TOL, rel=0), name
        expected = np.array([data["images"][i][name] for i in ids])
        worst = float(np.max(np.abs(np.asarray(per_image) - expected)))
        assert worst <= TOL, f"{name}: per-image difference {worst}"


def _metrics_alone(name: str) -> None:
    data = oracle(name)
    ids = list(data["gts"])
    hyps = [data["res_tokenized"][i][0] for i in ids]
    refs = [data["gts_tokenized"][i] for i in ids]
    check_against(data, metric_scores(hyps, refs))


def _whole_evaluation(name: str) -> None:
    data = oracle(name)
    ids = list(data["gts"])
    ev = evaluate_captions([data["res"][i] for i in ids], [data["gts"][i] for i in ids], ids,
                           meteor=False)
    scores = {n: (ev.eval[n], ev.metrics[n].segment_scores(ev.stats[n])) for n in EXACT}
    check_against(data, scores)


@pytest.mark.parity
@pytest.mark.parametrize("name", GENERATED)
def test_metrics_on_java_tokens_generated(name: str) -> None:
    _metrics_alone(name)


@pytest.mark.parity
@pytest.mark.parametrize("name", GENERATED)
def test_whole_evaluation_generated(name: str) -> None:
    _whole_evaluation(name)


@pytest.mark.parity
@pytest.mark.slow
@pytest.mark.parametrize("name", WMT)
def test_metrics_on_java_tokens_wmt22(name: str) -> None:
    _metrics_alone(name)


@pytest.mark.parity
@pytest.mark.slow
@pytest.mark.parametrize("name", WMT[::2])
def test_whole_evaluation_wmt22(name: str) -> None:
    _whole_evaluation(name)


def test_closest_reference_length_ties_go_to_the_shorter() -> None:
    assert closest_ref_length(5, [3, 7]) == 3
    assert closest_ref_length(5, [7, 3]) == 3
    assert closest_ref_length(5, [6, 9, 2]) == 6


def test_bleu_by_hand() -> None:
    """BLEU-2 of one image, computed by hand with coco-caption's epsilons."""
    stats = CocoBLEU(tokenize="none").extract_tokenized(["a b c d"], [["a b c e f", "a b"]])
    assert stats.values.tolist() == [[4, 5, 4, 3, 2, 1, 3, 2, 1, 0]]
    p1, p2 = (3 + 1e-15) / (4 + 1e-9), (2 + 1e-15) / (3 + 1e-9)
    ratio = (4 + 1e-15) / (5 + 1e-9)
    expected = (p1 * p2) ** 0.5 * math.exp(1 - 1 / ratio)
    assert CocoBLEU(2, tokenize="none").compute(stats.total()).score == pytest.approx(expected, rel=1e-15)


def test_rouge_l_maxes_precision_and_recall_separately() -> None:
    """P from one reference and R from another (coco-caption's rule, not the best reference's F)."""
    stats = CocoRougeL(tokenize="none").extract_tokenized(["a b c d"], [["a b", "a b c d e f g h"]])
    p, r = 4 / 4, 2 / 2
    assert stats.values[0, 0] == pytest.approx((1 + 1.44) * p * r / (r + 1.44 * p))


def test_cider_single_image_scores_zero_with_its_own_frequencies() -> None:
    """coco-caption's document frequencies come from the scored set: one image scores 0."""
    assert CIDErD(tokenize="none").extract_tokenized(["a dog runs"], [["a dog runs"]]).values[0, 0] == 0


def test_cider_saved_frequencies_give_a_single_image_its_score_in_the_set(tmp_path: Path) -> None:
    """With the full set's frequencies saved and loaded, one image alone scores what it scored in
    the set (the per-image statistic depends only on the image and the frequencies)."""
    data = oracle("eval_generated_0")
    ids = list(data["gts"])
    hyps = [data["res_tokenized"][i][0] for i in ids]
    refs = [data["gts_tokenized"][i] for i in ids]
    DocumentFrequency.of_references(refs).save(tmp_path / "df.json.gz")
    metric = CIDErD(df_file=tmp_path / "df.json.gz", tokenize="none")
    assert metric.df is not None and metric.df.images == len(ids)
    for k in (0, 17, 123):
        alone = metric.extract_tokenized([hyps[k]], [refs[k]]).values[0, 0]
        assert alone == pytest.approx(data["images"][ids[k]]["CIDEr"], abs=TOL)
    assert "df.json.gz@" in metric.signature()


def test_cider_frequency_file_errors(tmp_path: Path) -> None:
    from mtscore.errors import InputError

    bad = tmp_path / "bad.json"
    bad.write_text('{"df": {}}', encoding="utf-8")
    with pytest.raises(InputError, match="not a CIDEr document-frequency file"):
        CIDErD(df_file=bad)
    with pytest.raises(InputError, match="cannot read"):
        CIDErD(df_file=tmp_path / "missing.gz")


def test_cider_streaming_uses_the_whole_corpus_frequencies() -> None:
    data = oracle("eval_generated_1")
    ids = list(data["gts"])[:60]
    hyps = [data["res"][i] for i in ids]
    refs = [data["gts"][i] for i in ids]
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(max(map(len, refs)))]
    metric = CIDErD()
    whole = metric.extract(hyps, streams)
    from mtscore.metrics.base import SegmentStats

    chunks = SegmentStats.concat(list(metric.extract_stream(hyps, streams, chunk_size=7, jobs=1)))
    assert np.allclose(chunks.values, whole.values, rtol=0, atol=1e-12)


def test_bit_parallel_lcs_equals_the_dynamic_programme() -> None:
    """coco-rouge-l's fast path (:mod:`.lcs_bits`) against the rule (:func:`.lcs_length`),
    exhaustively over short token lists of a small vocabulary (repeats, empty lists)."""
    import itertools

    from mtscore.metrics.coco.lcs_bits import lcs_length_bits
    from mtscore.metrics.coco.rouge import lcs_length

    lists = [list(t) for n in range(6) for t in itertools.product("abc", repeat=n)]
    for a in lists:
        for b in lists[::7]:
            assert lcs_length_bits(a, b) == lcs_length(a, b), (a, b)
    long_a, long_b = [f"w{i % 13}" for i in range(300)], [f"w{i % 7}" for i in range(250)]
    assert lcs_length_bits(long_a, long_b) == lcs_length(long_a, long_b)


def test_settings_are_frozen_and_replace_makes_a_new_metric() -> None:
    from mtscore.errors import OptionError
    from mtscore.metrics.settings import FrozenSettingError

    bleu = CocoBLEU(2, tokenize="none")
    with pytest.raises(FrozenSettingError, match=r"replace\(order="):
        bleu.order = 3
    three = bleu.replace(order=3)
    assert (three.order, three.tokenize, bleu.order) == (3, "none", 2)
    assert str(three.signature()).startswith("coco-bleu|n:3|")
    assert CocoRougeL().replace(beta=2).settings.beta == 2.0
    cider = CIDErD(tokenize="none").replace(sigma=4)
    assert str(cider.signature({"nrefs": "5"})).startswith(
        "cider-d|n:4|nrefs:5|df:corpus|sigma:4|clip:yes|tok:none|version:")
    with pytest.raises(OptionError):
        CocoBLEU(10)
