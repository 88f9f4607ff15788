"""``mtscore meta-eval`` and the task sets: tables, weights, data hygiene and bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mtscore.data import sample_path
from mtscore.io.dataset import load_dataset
from mtscore.stats.correlation import pairwise_accuracy
from mtscore.stats.spa import soft_pairwise_accuracy
from mtscore.study.meta_data import pair_data
from mtscore.study.meta_eval import meta_evaluate, spa_human
from mtscore.study.meta_tasks import includes_human_systems, task_set

SAMPLE = Path(sample_path())


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mtscore", "meta-eval", *args],
                          capture_output=True, text=True)


def _scores_file(tmp: Path, drop: str | None = None) -> Path:
    """Long-format external scores (a stand-in metric: segment length ratios), one system left
    out when ``drop`` names it."""
    ds = load_dataset(SAMPLE)
    ref = ds.references["A"]
    lines = ["system\tseg_id\tmetric\tscore"]
    for system, hyps in ds.systems.items():
        if system == drop:
            continue
        for i, (h, r) in enumerate(zip(hyps, ref), 1):
            lines.append(f"{system}\t{i}\tLenRatio\t{-abs(len(h) - len(r)) / (len(r) + 1)!r}")
    path = tmp / "ext.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_task_sets() -> None:
    wmt23 = task_set("wmt23", ["zh-en", "de-en"])
    assert [t.statistic for t in wmt23] == ["accuracy"] + ["pearson-system", "pearson-segment",
                                                           "acc23"] * 2
    assert wmt23[0].pairs == ("de-en", "zh-en") and wmt23[0].weight == pytest.approx(2 / 8)
    assert sum(t.weight for t in wmt23) == pytest.approx(1.0)
    wmt24 = task_set("wmt24", ["zh-en", "de-en"])
    assert [(t.pairs, t.statistic, t.weight) for t in wmt24] == [
        (("de-en",), "spa", 0.25), (("de-en",), "acc23", 0.25),
        (("zh-en",), "spa", 0.25), (("zh-en",), "acc23", 0.25)]
    assert includes_human_systems("wmt24", 2) and not includes_human_systems("wmt25", 2)
    assert not includes_human_systems("wmt24", 1)


def test_results_equal_the_statistics(tmp_path: Path) -> None:
    ds = load_dataset(SAMPLE)
    d = pair_data(ds, ["bleu"], [("ext", _load(_scores_file(tmp_path)))], human=True)
    assert "HUMAN-B" in d.systems and d.reference == "A"
    res = meta_evaluate("wmt24", task_set("wmt24", [d.name]), {d.name: d}, resamples=200, seed=1)
    spa, acc = res.tasks
    for m, x in d.metrics.items():
        assert spa.statistics[m] == soft_pairwise_accuracy(x, spa_human(d.human, True)).statistic
        assert acc.statistics[m] == pairwise_accuracy(x, d.human, "item").statistic
        assert res.average[m] == pytest.approx((spa.statistics[m] + acc.statistics[m]) / 2)
    again = meta_evaluate("wmt24", task_set("wmt24", [d.name]), {d.name: d}, resamples=200, seed=1)
    assert np.array_equal(again.tasks[0].pvalues, spa.pvalues)


def _load(path: Path):  # type: ignore[no-untyped-def]
    from mtscore.io.scores import read_scores

    return read_scores(str(path))


def test_cli_table_and_json(tmp_path: Path) -> None:
    ext = _scores_file(tmp_path)
    out = _run(str(SAMPLE), "-m", "bleu", "--scores", str(ext), "--resamples", "100")
    assert out.returncode == 0, out.stderr
    assert "task1: wmt22-de-en system SPA" in out.stdout
    assert "SPA on the 115 segments judged for all 10 systems" in out.stdout
    assert "rank clusters of the average:" in out.stdout
    js = _run(str(SAMPLE), "-m", "bleu", "--scores", str(ext), "--resamples", "0", "-f", "json",
              "--tasks", "wmt25")
    data = json.loads(js.stdout)
    assert data["task_set"] == "wmt25" and len(data["tasks"]) == 2
    assert {m["metric"] for m in data["average"]} == {"BLEU", "LenRatio"}


def test_hygiene_options() -> None:
    ds = load_dataset(SAMPLE)
    d = pair_data(ds, ["bleu"], human=False, exclude=["PROMT"], domain="news")
    assert d.excluded == {"HUMAN-B": "human system", "PROMT": "excluded"}
    assert d.human.shape[1] == sum(x == "news" for x in ds.domains or ())


@pytest.mark.parametrize(("args", "message"), [
    (["--exclude-systems", "HUMAN-B,JDExploreAcademy,LT22,Lan-Bridge,Online-A,Online-B,Online-G,"
      "Online-W,Online-Y"], "1 system(s) left to compare"),
    (["--spa-segments", "strict"], "systems judged on different items"),
    (["--exclude-systems", "NoSuchSystem"], "names no system"),
    (["--domain", "sports"], "domain"),
])
def test_bad_input(args: list[str], message: str) -> None:
    out = _run(str(SAMPLE), "-m", "bleu", "--resamples", "0", *args)
    assert out.returncode != 0 and message in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_metric_missing_for_a_system(tmp_path: Path) -> None:
    ext = _scores_file(tmp_path, drop="LT22")
    out = _run(str(SAMPLE), "-m", "", "--scores", str(ext), "--resamples", "0")
    assert out.returncode != 0
    assert "metric 'LenRatio' has no segment scores for system 'LT22'" in out.stderr


def test_all_human_scores_tied(tmp_path: Path) -> None:
    data = tmp_path / "tied"
    shutil.copytree(SAMPLE, data)
    (data / "human" / "judgments.tsv").unlink()
    lines = (data / "human" / "segments.tsv").read_text(encoding="utf-8").splitlines()
    head = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        cells = line.split("\t")
        cells[head.index("z")] = "0.5"
        cells[head.index("raw")] = "50"
        rows.append("\t".join(cells))
    (data / "human" / "segments.tsv").write_text("\n".join([lines[0], *rows]) + "\n",
                                                 encoding="utf-8")
    out = _run(str(data), "-m", "bleu", "--resamples", "0")
    assert out.returncode != 0 and "all human scores are tied" in out.stderr, out.stderr


def test_scoring_in_workers_equals_one_process(tmp_path: Path) -> None:
    """--jobs: the built-in metrics scored in worker processes, one task per (data set, metric),
    give the same matrices as scoring in this process; the command prints the same table."""
    from mtscore.study.meta_scoring import pair_data_jobs

    ds = load_dataset(SAMPLE)
    ext = [("ext", _load(_scores_file(tmp_path)))]
    requests = [(ds, {"external": ext, "human": True}), (ds, {"human": False, "domain": None})]
    metrics = ["bleu", "ter", "chrf"]
    for jobs in (1, 2):
        got = pair_data_jobs(requests, metrics, jobs)
        for d, (_, options) in zip(got, requests):
            want = pair_data(ds, metrics, **options)
            assert d.systems == want.systems and list(d.metrics) == list(want.metrics)
            for m in want.metrics:
                assert np.array_equal(d.metrics[m], want.metrics[m])
                assert np.array_equal(d.system_metrics[m], want.system_metrics[m])
            assert np.array_equal(d.human, want.human, equal_nan=True)
    one = _run(str(SAMPLE), "-m", "bleu,ter", "--resamples", "100", "-j", "1")
    two = _run(str(SAMPLE), "-m", "bleu,ter", "--resamples", "100", "-j", "2")
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout


def test_tasks_in_workers_equal_one_process(tmp_path: Path) -> None:
    """--jobs: the scoring and the tasks in worker processes (a data set's tasks start when its
    metrics are scored) give meta_evaluate's results: statistics, p-values, draws and average."""
    from mtscore.stats.early_stopping import EarlyStopping
    from mtscore.study.meta_scoring import TaskOptions, meta_evaluate_jobs

    sets = []
    for name in ("aa-en", "bb-en"):
        shutil.copytree(SAMPLE, tmp_path / name)
        sets.append(load_dataset(tmp_path / name))
    ext = [("ext", _load(_scores_file(tmp_path)))]
    requests = [(sets[0], {"external": ext, "human": True}), (sets[1], {"external": ext})]
    metrics = ["bleu", "ter"]
    names = [ds.name for ds in sets]
    stopping = EarlyStopping()
    data = {ds.name: pair_data(ds, metrics, **o) for ds, o in requests}
    for year in ("wmt23", "wmt24"):
        tasks = task_set(year, names)
        want = meta_evaluate(year, tasks, data, 200, 7, stopping)
        for jobs in (1, 2):
            got_data, got = meta_evaluate_jobs(year, tasks, requests, metrics, jobs,
                                               TaskOptions(200, 7, stopping))
            assert [d.name for d in got_data] == names
            assert got.average == want.average and got.average_ranks == want.average_ranks
            assert np.array_equal(got.average_pvalues, want.average_pvalues)
            for a, b in zip(got.tasks, want.tasks, strict=True):
                assert a.task == b.task and a.statistics == b.statistics and a.ranks == b.ranks
                assert np.array_equal(a.pvalues, b.pvalues)
                for key, comp in b.comparisons.items():
                    assert a.comparisons[key].resamples_used == comp.resamples_used
                    assert np.array_equal(a.comparisons[key].null, comp.null)
