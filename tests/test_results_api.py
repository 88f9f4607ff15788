"""The results' names (scipy.stats'): ``statistic``, ``pvalue``, ``confidence_interval()``; one
length name (``ref_len``); short reprs; the old names still read, with a DeprecationWarning; one
error when an optional extra (pandas) is missing."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from mtscore import CHRF, TER
from mtscore.errors import MissingExtraError
from mtscore.metrics.base import SegmentStats
from mtscore.metrics.mean import SegmentMean
from mtscore.stats import paired_bootstrap
from mtscore.stats.blocks import block_test
from mtscore.stats.correlation import system_correlation, system_correlation_ci
from mtscore.stats.display import StatisticResult
from mtscore.stats.metric_difference import williams_test
from mtscore.stats.resampling import bootstrap_ci

HYPS = ["the cat sat on the mat", "a dog barked", "it rained all day"]
REFS = [["the cat sat on a mat", "the dog barked", "it was raining all day"]]


def _mean_stats(seed: int) -> SegmentStats:
    return SegmentMean.stats(np.random.default_rng(seed).random(600))


def test_every_statistics_result_has_scipys_names():
    metric = SegmentMean("m")
    systems = {name: _mean_stats(k) for k, name in enumerate("abc")}
    results: list[StatisticResult] = [
        williams_test(0.8, 0.6, 0.7, 20),
        bootstrap_ci(metric, systems["a"], resamples=50, seed=1),
        *paired_bootstrap(metric, systems, resamples=50, seed=1).comparisons,
        system_correlation([1.0, 2.0, 3.5, 4.0], [1.0, 3.0, 2.0, 4.0], "pearson"),
        *block_test(metric, systems).rows,
    ]
    for result in results:
        assert isinstance(result, StatisticResult)
        assert result.statistic is None or isinstance(result.statistic, float)
        assert result.pvalue is None or isinstance(result.pvalue, float)
        low, high = result.confidence_interval()
        assert isinstance(low, float) and isinstance(high, float)
    ci = results[1]
    assert ci.confidence_interval() == (ci.ci_low, ci.ci_high) and math.isnan(ci.pvalue)
    assert results[0].confidence_interval()[0] != results[0].confidence_interval()[0]  # NaN


@pytest.mark.parametrize(("old", "new"), [("t", "statistic"), ("p_value", "pvalue")])
def test_old_names_warn_and_still_read(old, new):
    result = williams_test(0.8, 0.6, 0.7, 20)
    with pytest.warns(DeprecationWarning, match=f"use .{new}"):
        assert getattr(result, old) == getattr(result, new)
    assert result.to_dict()[old] == getattr(result, new)  # the JSON output keeps its keys


def _intervals() -> list[StatisticResult]:
    """A bootstrap interval and a correlation with its interval."""
    metric = SegmentMean("m")
    stats = {name: _mean_stats(k) for k, name in enumerate("abcde")}
    human = {name: np.random.default_rng(10 + k).random(600) for k, name in enumerate("abcde")}
    return [bootstrap_ci(metric, stats["a"], resamples=50, seed=1),
            system_correlation_ci(metric, stats, human, "pearson", resamples=50, seed=1)]


@pytest.mark.parametrize("result", _intervals(), ids=type)
def test_low_and_high_warn_and_equal_the_confidence_interval(result):
    low, high = result.confidence_interval()
    assert math.isfinite(low) and low < high
    with pytest.warns(DeprecationWarning, match=r"use \.confidence_interval\(\)\[0\]"):
        assert result.low == low
    with pytest.warns(DeprecationWarning, match=r"use \.confidence_interval\(\)\[1\]"):
        assert result.high == high
    # the written formats and tables keep their keys
    assert (result.to_dict()["low"], result.to_dict()["high"]) == (low, high)
    assert (result.records()[0]["low"], result.records()[0]["high"]) == (low, high)


def test_no_interval_is_nan_and_reads_none_from_the_old_names():
    result = system_correlation([1.0, 2.0, 3.5, 4.0], [1.0, 3.0, 2.0, 4.0], "pearson")
    assert all(math.isnan(end) for end in result.confidence_interval())
    with pytest.warns(DeprecationWarning):
        assert result.low is None and result.high is None


def test_ter_length_is_ref_len_and_reprs_are_short():
    ter = TER().corpus_score(HYPS, REFS)
    with pytest.warns(DeprecationWarning, match="ref_len"):
        assert ter.ref_length == ter.ref_len
    chrf = CHRF().corpus_score(HYPS, REFS)
    for result in (ter, chrf):
        assert repr(result).startswith(type(result).__name__ + "(")
    assert "statistics=(" in repr(chrf) or "statistics=<" in repr(chrf)


def test_missing_pandas_is_one_error_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    result = williams_test(0.8, 0.6, 0.7, 20)
    score = TER().corpus_score(HYPS, REFS)
    for call in (result.to_pandas, score.to_pandas):
        with pytest.raises(MissingExtraError, match=r"pip install 'mtscore\[pandas\]'"):
            call()
