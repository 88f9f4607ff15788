"""The contract every registered metric keeps (parametrized over :mod:`mtscore.metrics.registry`,
so a metric added there is checked without editing this file):

* chunked extraction (each chunk against its part of the whole reference corpus) concatenated with
  ``SegmentStats.concat`` equals the extraction of the whole corpus;
* ``compute`` equals ``compute_many``, row by row and for the corpus row;
* a metric, its prepared references and its results survive pickling;
* the signature changes whenever any setting changes; a setting cannot be assigned on a used
  metric (a stale signature), ``replace`` makes a new metric whose results say the new setting,
  and references prepared with the old settings are refused or give the new settings' statistics;
* the fast path equals the rule (``fast=False``), statistic for statistic.

A metric's settings need an alternative value in :data:`ALTERNATIVES` (the test says which).
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mtscore.errors import OptionError
from mtscore.metrics.base import SegmentStats
from mtscore.metrics.coco.document_frequency import DocumentFrequency
from mtscore.metrics.settings import FrozenSettingError

from .registry_metrics import NAMES, metrics

SAMPLE = Path(__file__).resolve().parents[1] / "src" / "mtscore" / "data" / "sample" / "wmt22-de-en"
#: a hand-written paraphrase table and a copy of it under another name
TINY_TABLE = str(Path(__file__).resolve().parent / "data" / "meteor_paraphrase" / "tiny-paraphrase.gz")
TINY_TABLE_COPY = TINY_TABLE.replace("tiny-paraphrase.gz", "tiny-paraphrase-copy.gz")


def _lines(path: Path, n: int) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[:n]


#: long enough that every metric takes its fast path (numpy over the whole corpus)
SEGMENTS = 48
HYPS = _lines(SAMPLE / "systems" / "Online-B.txt", SEGMENTS)
REFS: list[list[str | None]] = [list(_lines(SAMPLE / "references" / "A.txt", SEGMENTS)),
                                list(_lines(SAMPLE / "references" / "B.txt", SEGMENTS))]
REFS[1][5] = None  # a segment with one reference fewer
SMALL = (HYPS[:4], [stream[:4] for stream in REFS])
#: CIDEr-D's document frequencies of other references (named in the signature: ``sample-A(48)``)
CIDER_DF = DocumentFrequency.of_references([[ref.lower()] for ref in REFS[0] if ref is not None],
                                           source="sample-A")

#: per settings class: setting -> (changes the alternatives need, candidate values); the first
#: candidate that differs from the metric's value is used
ALTERNATIVES: dict[str, dict[str, tuple[dict[str, Any], tuple[Any, ...]]]] = {
    "BLEUSettings": {
        "tokenize": ({}, ("intl", "13a")), "lowercase": ({}, (True, False)),
        "smooth": ({}, ("floor", "exp")), "smooth_value": ({"smooth": "floor"}, (0.2,)),
        "max_order": ({}, (3, 4)), "effective_order": ({}, (True, False))},
    "CHRFSettings": {
        "char_order": ({}, (4, 6)), "word_order": ({}, (2, 0)), "beta": ({}, (3, 2)),
        "lowercase": ({}, (True, False)), "whitespace": ({}, (True, False)),
        "eps_smoothing": ({}, (True, False))},
    "TERSettings": {name: ({}, (True, False))
                    for name in ("normalized", "no_punct", "asian_support", "case_sensitive")},
    "NISTSettings": {
        "tokenize": ({}, ("intl", "13a")), "lowercase": ({}, (True, False)),
        "max_order": ({}, (4, 5)), "mteval_zero_quirk": ({}, (False, True))},
    "UnigramSettings": {
        "measure": ({}, ("precision", "recall")), "tokenize": ({}, ("intl", "13a")),
        "lowercase": ({}, (False, True))},
    "METEORSettings": {
        "modules": ({}, (("exact",), ("exact", "porter"))), "variant": ({}, ("1.5", "2005")),
        "alpha": ({}, (0.8,)), "beta": ({}, (2.0,)), "gamma": ({}, (0.4,)), "delta": ({}, (0.7,)),
        "weights": ({}, ((1.0, 0.8, 0.6),)), "tokenize": ({}, ("intl", "13a")),
        "lowercase": ({}, (False, True)), "exclude_stopwords": ({}, (True, False)),
        "language": ({"delta": None}, ("de", "en")), "jar_beam": ({"variant": "1.5"}, (40,)),
        "search": ({"variant": "1.5"}, ("beam", "exact")),
        "task": ({"variant": "1.5"}, ("rank",)),
        # the paraphrase table is named in the signature by file name and SHA-256
        "paraphrase": ({"variant": "1.5", "modules": ("exact", "paraphrase"), "paraphrase": TINY_TABLE},
                       (TINY_TABLE_COPY,))},
    "ROUGESettings": {
        "rouge_type": ({}, ("rouge2", "rouge1")), "variant": ({"rouge_type": "rouge1"}, ("1.5.5",)),
        "stemmer": ({}, (True, False)), "tokenize": ({}, ("13a", "default")),
        "lowercase": ({"tokenize": "13a"}, (False, True)),
        "beta": ({}, (2.0,)),
        "aggregation": ({}, ("pooled", "mean")), "multiref": ({}, ("average", "best-f")),
        "measure": ({}, ("precision", "fmeasure")),
        "stopwords": ({"variant": "1.5.5", "rouge_type": "rouge1"}, (True,)),
        "word_limit": ({"variant": "1.5.5", "rouge_type": "rouge1"}, (100,)),
        "byte_limit": ({"variant": "1.5.5", "rouge_type": "rouge1"}, (75,)),
        "weight": ({"variant": "1.5.5", "rouge_type": "rougeW"}, (1.5,))},
    "CocoBLEUSettings": {"order": ({}, (3, 4)), "tokenize": ({}, ("none", "coco"))},
    "CocoRougeLSettings": {"beta": ({}, (2.0,)), "tokenize": ({}, ("none", "coco"))},
    "CIDErSettings": {
        "df_file": ({}, (CIDER_DF,)), "sigma": ({}, (4.0,)), "max_order": ({}, (3, 4)),
        "tokenize": ({}, ("none", "coco"))},
}

METRICS = dict(zip(NAMES, metrics()))
SCORE_SETTINGS = [(name, setting) for name in NAMES
                  for setting in METRICS[name].settings.score_names()]


def _assert_same(a: SegmentStats, b: SegmentStats) -> None:
    assert a.columns == b.columns
    np.testing.assert_array_equal(a.values, b.values)
    assert dict(a.meta) == dict(b.meta)


def _alternative(metric: Any, setting: str) -> tuple[Any, Any]:
    """(the metric with the changes the alternative needs, the metric with the setting changed)."""
    table = ALTERNATIVES.get(type(metric.settings).__name__, {})
    assert setting in table, (f"give {type(metric.settings).__name__}.{setting} an alternative "
                              "value in tests/test_metric_contract.py ALTERNATIVES")
    needs, candidates = table[setting]
    base = metric.replace(**needs) if needs else metric
    value = next(v for v in candidates if v != getattr(base.settings, setting))
    return base, base.replace(**{setting: value})


@pytest.mark.parametrize("name", NAMES)
def test_chunked_extraction_equals_the_whole_corpus(name):
    metric = METRICS[name]
    whole = metric.extract(HYPS, REFS)
    corpus = metric.reference_corpus(lambda: REFS)
    parts, start = [], 0
    for size in (7, 1, 17, SEGMENTS):
        stop = min(start + size, SEGMENTS)
        refs = [stream[start:stop] for stream in REFS]
        parts.append(metric.extract(HYPS[start:stop], metric.prepare_chunk(refs, corpus, start)))
        start = stop
    _assert_same(SegmentStats.concat(parts), whole)


@pytest.mark.parametrize("name", NAMES)
def test_compute_equals_compute_many(name):
    metric = METRICS[name]
    stats = metric.extract(HYPS, REFS)
    many = metric.compute_many(stats.values)
    one = [metric.compute(row, stats.meta).score for row in stats.values]
    np.testing.assert_array_equal(np.asarray(one, dtype=np.float64), many)
    total = stats.total()
    assert metric.compute(total, stats.meta).score == metric.compute_many(total[None, :])[0]
    assert metric.compute(total, stats.meta).score == metric.corpus_score(HYPS, REFS).score


@pytest.mark.parametrize("name", NAMES)
def test_pickling(name):
    metric = METRICS[name]
    stats = metric.extract(HYPS, REFS)  # a used metric (its caches filled)
    copy = pickle.loads(pickle.dumps(metric))
    assert copy.settings == metric.settings
    assert copy.signature(stats.meta) == metric.signature(stats.meta)
    _assert_same(copy.extract(HYPS, REFS), stats)
    prepared = pickle.loads(pickle.dumps(metric.prepare_references(REFS)))
    _assert_same(copy.extract(HYPS, prepared), stats)
    result = metric.compute(stats.total(), stats.meta)
    assert pickle.loads(pickle.dumps(result)) == result


@pytest.mark.parametrize(("name", "setting"), SCORE_SETTINGS)
def test_signature_changes_with_every_setting(name, setting):
    base, other = _alternative(METRICS[name], setting)
    meta = {"nrefs": "2"}
    assert str(other.signature(meta)) != str(base.signature(meta))
    hyps, refs = SMALL
    result = other.corpus_score(hyps, refs)
    assert str(result.signature) == str(other.signature(result_meta(other, hyps, refs)))
    assert str(result.signature) != str(base.corpus_score(hyps, refs).signature)


def result_meta(metric: Any, hyps: list[str], refs: list[list[str | None]]) -> dict[str, str]:
    return dict(metric.extract(hyps, refs).meta)


@pytest.mark.parametrize(("name", "setting"), SCORE_SETTINGS)
def test_a_used_metric_refuses_a_changed_setting(name, setting):
    base, other = _alternative(METRICS[name], setting)
    hyps, refs = SMALL
    before = base.corpus_score(hyps, refs)
    with pytest.raises(FrozenSettingError, match=f"replace\\({setting}="):
        setattr(base, setting, getattr(other.settings, setting))
    assert base.corpus_score(hyps, refs) == before  # unchanged, signature included


@pytest.mark.parametrize(("name", "setting"), SCORE_SETTINGS)
def test_references_prepared_with_other_settings_are_refused_or_right(name, setting):
    base, other = _alternative(METRICS[name], setting)
    hyps, refs = SMALL
    prepared = base.prepare_references(refs)
    try:
        stats = other.extract(hyps, prepared)
    except OptionError:
        return  # refused: prepared with other settings
    _assert_same(stats, other.extract(hyps, refs))


@pytest.mark.parametrize("name", NAMES)
def test_fast_path_equals_the_rule(name):
    metric = METRICS[name]
    assert "fast" in metric.settings.names(), f"{name} has no fast= switch"
    fast, rule = metric.replace(fast=True), metric.replace(fast=False)
    _assert_same(fast.extract(HYPS, REFS), rule.extract(HYPS, REFS))
    _assert_same(fast.extract(HYPS, fast.prepare_references(REFS)),
                 rule.extract(HYPS, rule.prepare_references(REFS)))


@pytest.mark.parametrize("name", NAMES)
def test_speed_switches_change_no_signature(name):
    metric = METRICS[name]
    speed = [n for n in metric.settings.names() if n not in metric.settings.score_names()]
    for setting in speed:
        value = getattr(metric.settings, setting)
        other = metric.replace(**{setting: (not value) if isinstance(value, bool) else 2})
        assert other.signature({"nrefs": "2"}) == metric.signature({"nrefs": "2"})
        assert other.settings_key() == metric.settings_key()


def test_the_issue_repro_bleu_smooth_cannot_go_stale():
    from mtscore import BLEU

    hyps, refs = SMALL
    bleu = BLEU()
    assert bleu.corpus_score(hyps, refs).signature.get("smooth") == "exp"
    with pytest.raises(FrozenSettingError):
        bleu.smooth = "floor"
    floor = bleu.replace(smooth="floor")
    assert floor.corpus_score(hyps, refs).signature.get("smooth") == "floor[0.10]"
    assert bleu.corpus_score(hyps, refs).signature.get("smooth") == "exp"


def test_meteor_accelerate_is_the_deprecated_name_of_fast():
    from mtscore import METEOR

    with pytest.warns(DeprecationWarning, match="fast"):
        metric = METEOR(accelerate=False)
    assert metric.fast is False and metric.settings == METEOR(fast=False).settings
    with pytest.warns(DeprecationWarning, match="fast"):
        assert metric.accelerate is False
