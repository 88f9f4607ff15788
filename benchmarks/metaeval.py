"""The WMT24 task set on the four shared WMT22 pairs: mtscore vs mt-metrics-eval, side by side.

    python benchmarks/metaeval.py --mme /tmp/mme [--data ../shared/data/wmt22] [--draws 10]

Metrics: BLEU, chrF, chrF++, TER, METEOR (scored by mtscore, against the reference shown to the
raters) plus one external metric given through a long-format scores file, as ``--scores`` reads
it (a stand-in: mtscore's NIST segment scores written to a file and read back under the name
EXT). The same matrices go to both tools. Measured (wall and CPU seconds, one process, the tools
alternating):

1. ``mtscore meta-eval``'s whole run: scoring, then the tasks with 1000 permutations per test
   and mt-metrics-eval's early stopping (block 100, bounds 0.02/0.50) — the command's default;
2. the tasks' statistics only (SPA, acc23; no tests): mtscore, and mt-metrics-eval's
   ``CompareMetricsWithPairwiseConfidenceError`` / ``CompareMetrics(KendallWithTiesOpt,
   perm_test='pairs')`` with k = 0 (its task sets' default);
3. the tasks with significance tests of ``--draws`` permutations and no early stopping, both
   tools (mt-metrics-eval's tests are too slow to run with 1000 draws here: its time per draw is
   measured at this size and multiplied out to 1000, and the table says so).

mt-metrics-eval is imported from the given path (outside this repository; ``apache_beam``, which
its data.py imports for an optional parallel mode, is replaced by an empty module).
"""

from __future__ import annotations

import argparse
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


def _ours(data: Path, ext: dict[str, Path], draws: int, stopping: EarlyStopping):  # type: ignore[no-untyped-def]
    sets = {}
    for pair in PAIRS:
        ds = load_dataset(data / pair)
        sets[pair] = pair_data(ds, METRICS, [(str(ext[pair]), read_scores(str(ext[pair])))],
                               human=len(ds.references) > 1)
    return sets, meta_evaluate("wmt24", task_set("wmt24", PAIRS), sets, draws, 12345, stopping)


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mme", type=Path, required=True, help="mt-metrics-eval checkout")
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" /
                    "data" / "wmt22")
    ap.add_argument("--draws", type=int, default=10, help="draws of the side-by-side tests")
    args = ap.parse_args()
    stats, data = _mme_modules(args.mme)
    with tempfile.TemporaryDirectory() as tmp:
        ext = _external(args.data, Path(tmp))
        wall, cpu, (sets, full) = _clock(lambda: _ours(args.data, ext, 1000, EarlyStopping()))
        rows = [("mtscore meta-eval, whole run (scoring + tasks, 1000 draws, early stopping)",
                 wall, cpu)]
        tasks = task_set("wmt24", PAIRS)
        w, c, ours0 = _clock(lambda: meta_evaluate("wmt24", tasks, sets, 0, 1))
        rows.append(("mtscore, statistics only (k = 0)", w, c))
        w, c, mme0 = _clock(lambda: _mme_run(stats, data, sets, 0))
        rows.append(("mt-metrics-eval, statistics only (k = 0)", w, c))
        w, c, _ = _clock(lambda: meta_evaluate("wmt24", tasks, sets, args.draws, 1, NEVER))
        rows.append((f"mtscore, tests with {args.draws} draws, no early stopping", w, c))
        w, c, _ = _clock(lambda: _mme_run(stats, data, sets, args.draws))
        rows.append((f"mt-metrics-eval, tests with {args.draws} draws, no early stopping", w, c))
        scale = 1000 / args.draws
        rows.append(("mt-metrics-eval, tests with 1000 draws (extrapolated: the row above "
                     f"times {scale:g})", w * scale, c * scale))
    print("| run | wall s | CPU s |\n|---|---:|---:|")
    for name, w, c in rows:
        print(f"| {name} | {w:.1f} | {c:.1f} |")
    print()
    print("average:", {m: round(v, 4) for m, v in full.average.items()},
          "ranks:", dict(full.average_ranks))
    for t in ours0.tasks:  # the statistics agree
        pair = t.task.pairs[0]
        theirs = mme0[pair][0 if t.task.statistic == "spa" else 1]
        for m, v in t.statistics.items():
            assert abs(theirs[m][0] - v) < 1e-9, (pair, t.task.statistic, m, theirs[m][0], v)
    print("statistics of both tools agree to 1e-9")


if __name__ == "__main__":
    main()
