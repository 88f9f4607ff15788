"""``run_study(jobs=N)`` / ``study --jobs N``: statistics extracted in worker processes (spawn), one
system at a time, give the study one process gives, number for number."""

from __future__ import annotations

import numpy as np
import pytest

from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.errors import OptionError
from mtscore.io.dataset import load_dataset
from mtscore.study import run_study
from mtscore.study.analysis import extract
from mtscore.study.metrics import Statistics, default_metrics, module_specs

SAMPLE = sample_path()


@pytest.mark.slow
def test_worker_statistics_equal_one_process() -> None:
    ds = load_dataset(SAMPLE)
    stages: dict = {}
    specs = default_metrics(stages=stages, target="en")
    modules = module_specs(stages, target="en")
    one = extract(Statistics(ds), specs, modules, jobs=1)
    two = extract(Statistics(ds), specs, modules, jobs=2)
    assert set(one.stats) == set(two.stats)
    for label, by_system in one.stats.items():
        assert list(by_system) == list(two.stats[label])  # same system order
        for system, stats in by_system.items():
            other = two.stats[label][system]
            assert stats.columns == other.columns and stats.meta == other.meta
            np.testing.assert_array_equal(stats.values, other.values)


@pytest.mark.slow
def test_study_text_is_identical(capsys) -> None:
    args = ["study", str(SAMPLE), "--resamples", "100", "--seed", "3", "-q"]
    assert main([*args, "--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*args, "--jobs", "2"]) == 0
    assert capsys.readouterr().out == one


@pytest.mark.parametrize("jobs", [0, -2, True])
def test_jobs_must_be_a_positive_integer(jobs) -> None:
    with pytest.raises(OptionError, match="jobs"):
        run_study(SAMPLE, tables=["corpus"], jobs=jobs)
