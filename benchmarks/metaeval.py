"""The WMT24 task set on the four shared WMT22 pairs: mtscore vs mt-metrics-eval, side by side.

    python benchmarks/metaeval.py [--mme /tmp/mme] [--data ../shared/data/wmt22] [--draws 2,10]
        [--test-pairs de-en] [--jobs 2]

Metrics: BLEU, chrF, chrF++, TER, METEOR (scored by mtscore, against the reference shown to the
raters) plus one external metric given through a long-format scores file, as ``--scores`` reads
it (a stand-in: mtscore's NIST segment scores written to a file and read back under the name
EXT). The same matrices go to both tools. Measured (wall and CPU seconds, one process, the tools
alternating; the load average is printed with the table):

1. mtscore's whole run as ``mtscore meta-eval`` does it: scoring, then the tasks with 1000
   permutations per test and mt-metrics-eval's early stopping (block 100, bounds 0.02/0.50) —
   the command's default; the scoring and the tasks also apart; then the whole command as
   ``--jobs N`` runs it (data loading included; with workers: the scoring and the tasks in
   worker processes, CPU time counted with theirs), for each N of ``--jobs``;
2. the tasks' statistics only (SPA, acc23; no tests) on the four pairs: mtscore, and
   mt-metrics-eval's ``CompareMetricsWithPairwiseConfidenceError`` / ``CompareMetrics(
   KendallWithTiesOpt, perm_test='pairs')`` with k = 0 (its task sets' default);
3. the tasks with significance tests and no early stopping on the pairs of ``--test-pairs``
   (default de-en): mtscore with 1000 draws; mt-metrics-eval with the two draw counts of
   ``--draws`` (its tests are too slow to run with 1000 draws here), extrapolated linearly to
   1000: T(1000) = T(k1) + (1000 − k1)·(T(k2) − T(k1))/(k2 − k1) — a fixed part (each pairwise
   test calibrates both metrics' ε first) plus a time per draw.

Without ``--mme`` only mtscore's rows are measured (1 and its statistics-only row).
mt-metrics-eval is imported from the given path (outside this repository; ``apache_beam``, which
its data.py imports for an optional parallel mode, is replaced by an empty module).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
import types
from pathlib import Path

import numpy as np

from mtscore.io.dataset import load_dataset
from mtscore.io.scores import read_scores
from mtscore.stats.early_stopping import NEVER, EarlyStopping
from mtscore.study.meta_data import builtin_scores, main_reference, pair_data
from mtscore.study.meta_eval import meta_evaluate, spa_human
from mtscore.study.meta_scoring import TaskOptions, meta_evaluate_jobs
from mtscore.study.meta_tasks import task_set

PAIRS = ("cs-en", "de-en", "ja-en", "zh-en")
METRICS = ("bleu", "chrf", "chrf++", "ter", "meteor")


def _clock(fn):  # type: ignore[no-untyped-def]
    start, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - start, time.process_time() - cpu, out


def _external(data: Path, folder: Path) -> dict[str, Path]:
    """Per pair a long-format file of a stand-in external metric (NIST segment scores)."""
    out = {}
    for pair in PAIRS:
        ds = load_dataset(data / pair)
        ref = main_reference(ds)
        systems = [s for s in ds.systems if ds.human_systems.get(s) != ref]
        nist = builtin_scores(ds, systems, ref, ["nist"])[0]["NIST"]
        lines = ["system\tseg_id\tmetric\tscore"]
        for s, row in zip(systems, nist):
            lines += [f"{s}\t{i}\tEXT\t{float(v)!r}" for i, v in enumerate(row, 1)]
        out[pair] = folder / f"{pair}.tsv"
        out[pair].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _score(data: Path, ext: dict[str, Path]):  # type: ignore[no-untyped-def]
    """The four pairs' matrices, as ``mtscore meta-eval --tasks wmt24`` makes them."""
    sets = {}
    for pair in PAIRS:
        ds = load_dataset(data / pair)
        sets[pair] = pair_data(ds, METRICS, [(str(ext[pair]), read_scores(str(ext[pair])))],
                               human=len(ds.references) > 1)
    return sets


def _jobs_run(data: Path, ext: dict[str, Path], jobs: int):  # type: ignore[no-untyped-def]
    """``mtscore meta-eval --jobs N`` on the four pairs (loading, scoring and tasks; workers when
    N > 1): its wall time, and its CPU time with the workers' (they have ended when it returns)."""
    def run():  # type: ignore[no-untyped-def]
        requests = []
        for pair in PAIRS:
            ds = load_dataset(data / pair)
            requests.append((ds, {"external": [(str(ext[pair]), read_scores(str(ext[pair])))],
                                  "human": len(ds.references) > 1}))
        return meta_evaluate_jobs("wmt24", task_set("wmt24", PAIRS), requests, METRICS, jobs,
                                  TaskOptions(1000, 12345, EarlyStopping()))[1]

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, cpu, result = _clock(run)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, cpu + (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime), \
        result


def _mme_modules(path: Path):  # type: ignore[no-untyped-def]
    sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
    sys.path.insert(0, str(path))
    from mt_metrics_eval import data, stats

    return stats, data


def _flat(m: np.ndarray) -> list[float | None]:
    return [None if np.isnan(v) else float(v) for v in m.ravel()]


def _mme_run(stats, data, sets, k: int):  # type: ignore[no-untyped-def]
    """mt-metrics-eval's two WMT24 comparisons per pair; returns {pair: (spa ranks, acc ranks)}."""
    psd = stats.PermutationSigDiffParams(block_size=max(k, 1), early_min=0.02, early_max=0.5)
    out = {}
    for pair, d in sets.items():
        n = len(d.systems)
        spa_gold = _flat(spa_human(d.human, True))
        gold = _flat(d.human)
        spa = {m: stats.Correlation(n, spa_gold, _flat(x)) for m, x in d.metrics.items()}
        acc = {m: stats.Correlation(n, gold, _flat(x)) for m, x in d.metrics.items()}
        np.random.seed(1)
        r1 = data.CompareMetricsWithPairwiseConfidenceError(spa, k, psd)
        r2 = data.CompareMetrics(acc, stats.KendallWithTiesOpt, "item", k, psd,
                                 perm_test="pairs", sample_rate=1.0)
        out[pair] = (r1[0], r2[0])
    return out


def _rows(args: argparse.Namespace, stats, data, ext: dict[str, Path]):  # type: ignore[no-untyped-def]
    """The table's rows: (what, wall s, CPU s), and the full run and both tools' statistics."""
    w1, c1, sets = _clock(lambda: _score(args.data, ext))
    w2, c2, full = _clock(lambda: meta_evaluate("wmt24", task_set("wmt24", PAIRS), sets, 1000,
                                                12345, EarlyStopping()))
    rows = [("mtscore meta-eval, whole run: scoring + tasks (1000 draws, early stopping)",
             w1 + w2, c1 + c2),
            ("  of which scoring (BLEU, chrF, chrF++, TER, METEOR; EXT read)", w1, c1),
            ("  of which tasks (1000 draws, early stopping)", w2, c2)]
    for jobs in args.jobs:
        w, c, piped = _jobs_run(args.data, ext, jobs)
        assert piped.average == full.average and piped.average_ranks == full.average_ranks
        rows.append((f"mtscore meta-eval --jobs {jobs}: loading, scoring and tasks (1000 draws, "
                     "early stopping; CPU with the workers')", w, c))
    w, c, ours0 = _clock(lambda: meta_evaluate("wmt24", task_set("wmt24", PAIRS), sets, 0, 1))
    rows.append(("mtscore, statistics only (k = 0), 4 pairs", w, c))
    if stats is None:
        return rows, full, ours0, None
    w, c, mme0 = _clock(lambda: _mme_run(stats, data, sets, 0))
    rows.append(("mt-metrics-eval, statistics only (k = 0), 4 pairs", w, c))
    sub = {p: sets[p] for p in args.test_pairs}
    tasks = task_set("wmt24", tuple(sub))
    names = ", ".join(sub)
    w, c, _ = _clock(lambda: meta_evaluate("wmt24", tasks, sub, 1000, 1, NEVER))
    rows.append((f"mtscore, tests with 1000 draws, no early stopping ({names})", w, c))
    k1, k2 = args.draws
    timed = []
    for k in (k1, k2):
        w, c, _ = _clock(lambda: _mme_run(stats, data, sub, k))  # noqa: B023
        timed.append((w, c))
        rows.append((f"mt-metrics-eval, tests with {k} draws, no early stopping ({names})", w, c))

    def line(i: int) -> float:
        return timed[0][i] + (1000 - k1) * (timed[1][i] - timed[0][i]) / (k2 - k1)

    rows.append((f"mt-metrics-eval, tests with 1000 draws ({names}; extrapolated linearly "
                 f"from {k1} and {k2} draws)", line(0), line(1)))
    return rows, full, ours0, mme0


def print_timings(start: str, load: tuple[float, float, float],
                  rows: list[tuple[str, float, float]]) -> None:
    """The machine line (cores, load at start and end) and the (run, wall s, CPU s) table."""
    print(f"{start}; {os.cpu_count()} cores; load average (1, 5, 15 min) at start "
          f"{load[0]:.1f}, {load[1]:.1f}, {load[2]:.1f}, at end " +
          ", ".join(f"{v:.1f}" for v in os.getloadavg()))
    print("| run | wall s | CPU s |\n|---|---:|---:|")
    for name, w, c in rows:
        print(f"| {name} | {w:.1f} | {c:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mme", type=Path, help="mt-metrics-eval checkout (without it: mtscore's "
                                             "rows only)")
    ap.add_argument("--jobs", default="2",
                    help="worker counts of the --jobs rows, comma-separated (default 2)")
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" /
                    "data" / "wmt22")
    ap.add_argument("--draws", default="2,10",
                    help="two draw counts of mt-metrics-eval's tests, k1,k2 (default 2,10)")
    ap.add_argument("--test-pairs", default="de-en",
                    help="pairs of the side-by-side tests, comma-separated (default de-en)")
    args = ap.parse_args()
    args.draws = tuple(int(k) for k in args.draws.split(","))
    args.test_pairs = tuple(args.test_pairs.split(","))
    if len(args.draws) != 2 or args.draws[0] >= args.draws[1]:
        ap.error("--draws needs two increasing counts, k1,k2")
    args.jobs = tuple(int(j) for j in args.jobs.split(",") if j)
    stats, data = _mme_modules(args.mme) if args.mme is not None else (None, None)
    start = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        rows, full, ours0, mme0 = _rows(args, stats, data, _external(args.data, Path(tmp)))
    print_timings(start, load, rows)
    print()
    print("average:", {m: round(v, 4) for m, v in full.average.items()},
          "ranks:", dict(full.average_ranks))
    if mme0 is None:
        return
    for t in ours0.tasks:  # the statistics agree
        pair = t.task.pairs[0]
        theirs = mme0[pair][0 if t.task.statistic == "spa" else 1]
        for m, v in t.statistics.items():
            assert abs(theirs[m][0] - v) < 1e-9, (pair, t.task.statistic, m, theirs[m][0], v)
    print("statistics of both tools agree to 1e-9")


if __name__ == "__main__":
    main()
