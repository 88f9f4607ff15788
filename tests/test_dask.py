"""The Dask adapter on a real cluster (a ``distributed.LocalCluster`` of 2 worker processes): corpus
scores, rows, bootstrap intervals and paired tests equal the single-process ones exactly; a worker
killed mid-run is retried and the score is still exact; ``mtscore score --scheduler`` equals the
local score."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.metrics.bleu import BLEU
from mtscore.metrics.meteor import METEOR
from mtscore.metrics.nist import NIST
from mtscore.stats.resampling import bootstrap_ci
from mtscore.stats.significance import paired_bootstrap

if os.environ.get("CI"):  # installed with the test extra: a missing dask must fail, not skip
    import dask.bag as db
    import dask.dataframe as dd
    import distributed
    import pandas as pd
else:
    db = pytest.importorskip("dask.bag")
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    pd = pytest.importorskip("pandas")

import mtscore.dask as mdask  # after the optional imports: it needs dask

from . import registry_metrics

FOLDER = sample_path()
REF_PATHS = [str(FOLDER / "references" / f"{r}.txt") for r in ("A", "B")]
HYP_PATHS = {s: str(FOLDER / "systems" / f"{s}.txt") for s in ("Online-A", "LT22")}
REFS = [read_lines(p) for p in REF_PATHS]
HYPS = {s: read_lines(p) for s, p in HYP_PATHS.items()}
METRICS = registry_metrics.metrics()


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """One cluster for the module: 2 single-threaded worker processes on localhost."""
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       host="127.0.0.1", dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _bag(system: str, partitions: int = 5) -> Any:
    return db.from_sequence(list(zip(HYPS[system], *REFS)), npartitions=partitions)


def _frame(system: str, partitions: int = 4) -> Any:
    frame = pd.DataFrame({"hyp": HYPS[system], "ref A": REFS[0], "ref B": REFS[1]})
    return dd.from_pandas(frame, npartitions=partitions)


@pytest.mark.slow
@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.name)
def test_corpus_scores_equal_one_process(client, metric) -> None:
    expected = metric.corpus_score(HYPS["Online-A"], REFS)
    from_bag = mdask.score(metric, _bag("Online-A"))
    from_frame = mdask.score(metric, _frame("Online-A"), hypothesis="hyp")
    for result in (from_bag, from_frame):
        assert result.score == expected.score and result.signature == expected.signature
        assert result == expected


def test_rows_in_order_equal_one_process(client) -> None:
    for metric in (BLEU(), NIST()):
        whole = metric.extract(HYPS["LT22"], REFS)
        rows = mdask.extract(metric, _frame("LT22", partitions=7), hypothesis="hyp",
                             references=["ref A", "ref B"])
        assert rows.columns == whole.columns and np.array_equal(rows.values, whole.values)


def test_bootstrap_and_paired_test_equal_mtscore_stats(client) -> None:
    metric = BLEU()
    stats = {s: metric.extract(HYPS[s], REFS) for s in HYPS}
    ci = mdask.confidence_interval(metric, _bag("Online-A"), resamples=300, seed=7)
    assert ci == bootstrap_ci(metric, stats["Online-A"], resamples=300, seed=7)
    defaults = mdask.confidence_interval(metric, _bag("Online-A"))  # each side's default seed
    assert defaults == bootstrap_ci(metric, stats["Online-A"])
    compared = mdask.compare(metric, {s: _bag(s) for s in HYPS}, baseline="LT22", resamples=200,
                             seed=3)
    assert compared == paired_bootstrap(metric, stats, baseline="LT22", resamples=200, seed=3)


def test_a_worker_killed_mid_run_is_retried_exactly(client, tmp_path) -> None:
    """The first partition to run kills its worker process; Dask reruns the lost tasks."""
    marker = str(tmp_path / "killed")

    def die_once(rows: list[Any]) -> list[Any]:  # nested: pickled by value to the workers
        import os as _os
        import signal

        if not _os.path.exists(marker):
            Path(marker).touch()
            _os.kill(_os.getpid(), signal.SIGKILL)
        return rows

    before = set(client.scheduler_info()["workers"])
    for metric in (BLEU(), METEOR()):
        bag = _bag("Online-A", partitions=6).map_partitions(die_once)
        assert mdask.score(metric, bag) == metric.corpus_score(HYPS["Online-A"], REFS)
    assert os.path.exists(marker)  # a worker was killed
    client.wait_for_workers(2, timeout=60)
    assert set(client.scheduler_info()["workers"]) != before  # and replaced by its nanny


def test_cli_scheduler_equals_local(client, capsys) -> None:
    argv = ["score", "-r", *REF_PATHS, "-i", *HYP_PATHS.values(), "-m", "bleu", "chrf", "meteor",
            "-q", "--chunk-size", "60"]
    address = client.scheduler.address
    for output in (["-f", "json"], ["--segments", "-f", "tsv"]):
        assert main([*argv, *output, "--jobs", "1"]) == 0
        local = capsys.readouterr().out
        assert main([*argv, *output, "--scheduler", address]) == 0
        assert capsys.readouterr().out == local
    assert len(local.splitlines()) == 1 + 3 * 2 * len(REFS[0])  # every segment, metric, system
