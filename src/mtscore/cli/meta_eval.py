"""``mtscore meta-eval``: the WMT23/WMT24/WMT25 metrics task sets on data set folders.

A command of its own rather than ``correlate --tasks``: ``correlate`` reads score files and one
human file; a task set reads whole data sets (references, systems, human scores, domains), scores
the built-in metrics itself against each set's main reference, applies mt-metrics-eval's data
hygiene, and runs several tasks with their own tests — other inputs, other options.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import InputError
from ..io.dataset import load_dataset
from ..io.scores import LongScores, read_scores
from ..pool import check_jobs
from ..stats.defaults import DEFAULT_SEED
from ..stats.early_stopping import EarlyStopping
from ..study.meta_data import DEFAULT_METRICS
from ..study.meta_eval import MetaEvaluation
from ..study.meta_scoring import TaskOptions, meta_evaluate_jobs
from ..study.meta_tasks import TASK_SETS, includes_human_systems, task_set


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "meta-eval", help="the WMT23/24/25 metrics task sets (SPA, acc23, rank clusters)",
        description="Meta-evaluate metrics as the WMT metrics shared task does (mt-metrics-eval's "
                    "task sets): per data set (language pair) the year's tasks, each metric's "
                    "statistic and rank cluster, and the weighted average with its clusters.",
        epilog="example: mtscore meta-eval wmt22/de-en wmt22/zh-en --tasks wmt24 "
               "--scores de-en=comet_de.tsv --scores zh-en=comet_zh.tsv")
    p.add_argument("data", nargs="+", metavar="DATA", help="data set folders (one per pair)")
    p.add_argument("--tasks", choices=TASK_SETS, default="wmt24", help="task set (default wmt24)")
    p.add_argument("--metrics", "-m", default=",".join(DEFAULT_METRICS),
                   help="built-in metrics, comma-separated (default %(default)s; '' for none)")
    p.add_argument("--scores", action="append", default=[], metavar="[DATA=]FILE",
                   help="external segment scores in the long format (COMET, MetricX …); with "
                        "several data sets prefix the data set's name: de-en=comet.tsv")
    p.add_argument("--human-kind", choices=("z", "raw"), default="z", help="human score (default z)")
    p.add_argument("--human-systems", choices=("auto", "include", "exclude"), default="auto",
                   help="score human systems other than the metrics' reference (auto: as the task "
                        "set does: wmt23/wmt24 when a pair has several references; wmt25 never)")
    p.add_argument("--reference", help="the reference metrics use (default: the one shown to the "
                                       "raters, else the first)")
    p.add_argument("--exclude-systems", default="", metavar="NAMES",
                   help="systems to leave out (outliers), comma-separated")
    p.add_argument("--include-outliers", action="store_true",
                   help="keep meta.json's outlier_systems")
    p.add_argument("--domain", help="keep only this domain's segments (segments.tsv)")
    p.add_argument("--spa-segments", choices=("common", "strict"), default="common",
                   help="SPA needs every system judged on the same segments: common keeps those "
                        "(default), strict refuses other data")
    p.add_argument("--resamples", type=int, default=1000,
                   help="permutations per significance test (default 1000; 0: no tests, ranks "
                        "are the order)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed (default {DEFAULT_SEED})")
    p.add_argument("--block-size", type=int, default=100, help="early stopping block (default 100)")
    p.add_argument("--early-min", type=float, default=0.02, help="stop below this p (0.02)")
    p.add_argument("--early-max", type=float, default=0.50, help="stop above this p (0.50)")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="worker processes scoring the built-in metrics (one task per data set and "
                        "metric) and running the tasks (default: the cores available; 1: in this "
                        "process); the numbers do not depend on it")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text")
    p.add_argument("--width", "-w", type=int, default=4, help="decimals shown (default 4)")
    p.set_defaults(func=run)


def _external(args: argparse.Namespace, names: list[str]) -> dict[str, list[tuple[str, LongScores]]]:
    out: dict[str, list[tuple[str, LongScores]]] = {n: [] for n in names}
    for spec in args.scores:
        target, sep, path = spec.partition("=")
        if not sep:
            if len(names) > 1:
                raise InputError("with several data sets give --scores as DATA=FILE (DATA: "
                                 f"{', '.join(names)})", source=spec)
            target, path = names[0], spec
        if target not in out:
            raise InputError(f"--scores names no data set {target!r} (given: {', '.join(names)})",
                             source=path)
        out[target].append((path, read_scores(path)))
    return out


def run(args: argparse.Namespace) -> int:
    if args.resamples < 0:
        raise InputError(f"--resamples must be 0 or more, got {args.resamples}")
    stopping = EarlyStopping(args.block_size, args.early_min, args.early_max)
    sets = [load_dataset(path) for path in args.data]
    names = [ds.name for ds in sets]
    if len(set(names)) != len(names):
        raise InputError("two data sets have one name: " + ", ".join(names))
    external = _external(args, names)
    metrics = [m for m in args.metrics.split(",") if m.strip()]
    exclude = [s for s in args.exclude_systems.split(",") if s]
    jobs = check_jobs(args.jobs)
    requests = []
    for ds in sets:
        human = includes_human_systems(args.tasks, len(ds.references)) \
            if args.human_systems == "auto" else args.human_systems == "include"
        requests.append((ds, {"external": external[ds.name], "human": human,
                              "human_kind": args.human_kind, "reference": args.reference,
                              "exclude": [s for s in exclude if s in ds.systems],
                              "include_outliers": args.include_outliers, "domain": args.domain}))
    unknown = [s for s in exclude if not any(s in ds.systems for ds in sets)]
    if unknown:
        raise InputError(f"--exclude-systems names no system of any data set: {unknown[0]!r}")
    options = TaskOptions(args.resamples, args.seed, stopping, args.alpha,
                          args.spa_segments == "common")
    scored, result = meta_evaluate_jobs(args.tasks, task_set(args.tasks, names), requests,
                                        metrics, jobs, options)
    data = {d.name: d for d in scored}
    if args.format == "json":
        json.dump(to_json(result), sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render_text(result, data, args.width, stopping))
    return 0


def to_json(result: MetaEvaluation) -> dict[str, Any]:
    """The results as plain JSON (full precision)."""
    return {
        "task_set": result.year, "resamples": result.resamples, "seed": result.seed,
        "tasks": [{"name": t.task.name, "weight": t.task.weight, "note": t.note,
                   "metrics": [{"metric": m, "statistic": v, "rank": t.ranks[m]}
                               for m, v in t.statistics.items()],
                   "pvalues": t.pvalues.tolist()} for t in result.tasks],
        "average": [{"metric": m, "statistic": v, "rank": result.average_ranks[m]}
                    for m, v in result.average.items()],
        "average_pvalues": result.average_pvalues.tolist()}


def render_text(result: MetaEvaluation, data: Any, width: int, stopping: EarlyStopping) -> str:
    """The per-task table (rank, statistic), the weighted average and the clusters."""
    lines = [f"{result.year.upper()} task set on {len(data)} data set(s): {', '.join(data)}"]
    for name, d in data.items():
        left = "; ".join(f"{s} ({why})" for s, why in d.excluded.items())
        lines.append(f"  {name}: {len(d.systems)} systems, reference {d.reference}"
                     + (f", domain {d.domain}" if d.domain else "") + (f"; left out: {left}"
                                                                       if left else ""))
    if result.resamples:
        lines.append(f"significance: {result.resamples} permutations per test, seed {result.seed}, "
                     f"early stopping every {stopping.block_size} draws outside "
                     f"[{stopping.early_min:g}, {stopping.early_max:g}]")
    else:
        lines.append("no significance tests (--resamples 0): ranks are the order")
    for k, t in enumerate(result.tasks, 1):
        note = f"; {t.note}" if t.note else ""
        lines.append(f"task{k}: {t.task.name}, weight {t.task.weight:.4g}, test {t.task.test}{note}")
    header = ["metric", "average"] + [f"task{k}" for k in range(1, len(result.tasks) + 1)]
    rows = []
    for m, v in result.average.items():
        row = [m, f"{result.average_ranks[m]} {v:.{width}f}"]
        row += [f"{t.ranks[m]} {t.statistics[m]:.{width}f}" for t in result.tasks]
        rows.append(row)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    clusters: dict[int, list[str]] = {}
    for m, rank in result.average_ranks.items():
        clusters.setdefault(rank, []).append(m)
    lines.append("rank clusters of the average: " +
                 " > ".join("{" + ", ".join(ms) + "}" for _, ms in sorted(clusters.items())))
    return "\n".join(lines) + "\n"
