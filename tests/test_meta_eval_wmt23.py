"""WMT23's tasks against mt-metrics-eval's own numbers (committed oracle, the ``wmt23`` and
``wmt23_permutation`` sections of scripts/make_metaeval_oracle.py) on the shared WMT22 data:
system- and segment-level Pearson, acc23 by item (with its ε), the system-level pairwise accuracy
over the four pairs — to 1e-9 — and PERM-BOTH of system Pearson and of pairwise accuracy within
Monte-Carlo error (10,000 draws), with the same rank clusters. Missing oracle: skip locally,
fail under CI."""

from __future__ import annotations

import pytest

from mtscore.stats.correlation import pairwise_accuracy
from mtscore.stats.early_stopping import NEVER
from mtscore.stats.perm_both import perm_both_tests
from mtscore.study.meta_eval import perm_arrays, run_task, statistic_function
from mtscore.study.meta_tasks import MetaTask, task_set

from .metaeval_oracle import check_against_oracle, oracle_pairs, oracle_part, wmt22

PAIRS = ("cs-en", "de-en", "ja-en", "zh-en")
NAMES = {"pearson-system": "pearson_system", "pearson-segment": "pearson_segment",
         "acc23": "acc23_item"}


def _statistics(task: MetaTask) -> dict[str, float]:
    data = [wmt22(p) for p in task.pairs]
    return dict(run_task(task, data, 0, 1, NEVER).statistics)


@pytest.mark.parity
@pytest.mark.slow
def test_wmt23_statistics_equal_mt_metrics_eval() -> None:
    want = oracle_part("wmt23")
    tasks = task_set("wmt23", PAIRS)
    assert [t.statistic for t in tasks[:4]] == ["accuracy", "pearson-system", "pearson-segment",
                                                "acc23"]
    for task in tasks:
        got = _statistics(task)
        if task.statistic == "accuracy":
            assert want["accuracy"]["pairs"] == list(task.pairs)
            assert want["accuracy"]["systems_per_pair"] == [len(wmt22(p).systems) for p in PAIRS]
            for m, v in want["accuracy"]["values"].items():
                assert got[m] == pytest.approx(v, abs=1e-12), m
            continue
        pair = task.pairs[0]
        assert list(wmt22(pair).systems) == want[pair]["systems"]
        for m, values in want[pair]["values"].items():
            assert got[m] == pytest.approx(values[NAMES[task.statistic]], abs=1e-9), \
                (pair, task.statistic, m)
            if task.statistic == "acc23":
                eps = pairwise_accuracy(wmt22(pair).metrics[m], wmt22(pair).human, "item").epsilon
                assert eps == pytest.approx(values["acc23_epsilon"], abs=1e-12)


def _perm_both(task: MetaTask, draws: int, seed: int) -> tuple[dict, dict[str, float]]:
    """PERM-BOTH of a WMT23 system-level task for every oracle pair, and the statistics."""
    data = [wmt22(p) for p in task.pairs]
    stack, human = perm_arrays(task, data)
    statistic = statistic_function(task, data, human)
    got = perm_both_tests(stack, oracle_pairs(sorted(stack)), statistic, draws, seed, NEVER)
    return got, _statistics(task)


@pytest.mark.parity
@pytest.mark.slow
def test_wmt23_perm_both_system_pearson_equals_mt_metrics_eval() -> None:
    perm = oracle_part("wmt23_permutation")
    task = next(t for t in task_set("wmt23", PAIRS)
                if t.statistic == "pearson-system" and t.pairs == (perm["pearson_pair"],))
    got, values = _perm_both(task, perm["draws"], 21)
    check_against_oracle(perm, "perm_both_pearson_system", got, values)


@pytest.mark.parity
@pytest.mark.slow
def test_wmt23_perm_both_accuracy_equals_mt_metrics_eval() -> None:
    perm = oracle_part("wmt23_permutation")
    task = task_set("wmt23", perm["accuracy_pairs"])[0]
    assert task.statistic == "accuracy" and list(task.pairs) == perm["accuracy_pairs"]
    got, values = _perm_both(task, perm["draws"], 22)
    check_against_oracle(perm, "perm_both_accuracy", got, values)
