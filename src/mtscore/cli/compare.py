"""``mtscore compare``: are the systems' scores different? Confidence intervals, paired tests
(paired bootstrap or approximate randomization) with Holm-corrected p-values, clusters, and the
BLEU paper's block test — for built-in metrics and for external scores (``--scores``) alike.

Defaults that can decide (:mod:`mtscore.stats.defaults`): the number of resamples follows the
number of comparisons (``R + 1 ≥ 10·m/α``), the seed is 12345, and the output says when the
resamples given cannot reach the level.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import InputError, OptionError
from ..io.scores import LongScores, format_table, read_scores
from ..metrics.base import Metric, SegmentStats
from ..metrics.mean import SegmentMean
from ..report.stats_tables import block_table, significance_tables
from ..report.tables import Table
from ..stats.blocks import block_test
from ..stats.defaults import (
    DEFAULT_ALPHA,
    DEFAULT_CONFIDENCE,
    DEFAULT_SEED,
    MAX_RESAMPLES,
    MIN_RESAMPLES,
    check_count,
    check_finite,
    check_seed,
    comparisons_count,
    reachable,
    resamples_for,
)
from ..stats.significance import (
    SignificanceResult,
    approximate_randomization,
    metric_label,
    paired_bootstrap,
)
from . import metric_help, options
from .common import (
    add_output_options,
    check_distinct_files,
    emit,
    read_systems_and_refs,
)

#: a metric to compare: (metric, statistics per system)
Entry = tuple[Metric[Any], dict[str, SegmentStats]]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare", help="significance of differences between systems",
        usage="%(prog)s [-h] [REF ...] [-r REF ...] [-i SYS ...] [-m METRIC ...] [options]",
        description="Scores of several systems with bootstrap confidence intervals, and paired tests "
                    "between them: every system against --baseline (as sacreBLEU), or all pairs "
                    "(then also the clusters: the ranking cut where every system above is "
                    "significantly better than every system below). p-values are "
                    "printed raw and Holm-corrected over all comparisons. The default number of "
                    "resamples is enough for the correction: R + 1 >= 10 m / alpha for m "
                    "comparisons (at least 1,000 bootstrap resamples, 10,000 randomization trials). "
                    "External segment scores (--scores, the long format) are compared like built-in "
                    "metrics: their system score is the mean of the segment scores.",
        epilog="examples: mtscore compare -r ref.A.txt -i sysA.txt sysB.txt sysC.txt; "
               "mtscore compare -r ref.A.txt -i sysA.txt sysB.txt --baseline sysA --method ar; "
               "mtscore compare --scores comet.tsv")
    p.add_argument("ref_files", nargs="*", metavar="REF",
                   help="reference files, as sacreBLEU takes them (or give them with -r)")
    p.add_argument("--refs", "-r", nargs="+", metavar="REF",
                   help="reference files, one segment per line (several files: several references)")
    p.add_argument("--input", "-i", nargs="+", metavar="SYS",
                   help="system outputs, one file per system (at least two)")
    p.add_argument("--metric", "--metrics", "-m", nargs="+", default=None,
                   choices=(*options.names(), "none"), dest="metrics", metavar="METRIC",
                   help="built-in metrics (default bleu, or none when only --scores are given): "
                        f"{', '.join(options.names())}")
    p.add_argument("--lowercase", "-lc", action="store_true", help="lowercase before scoring (BLEU)")
    _add_test_options(p)
    external = p.add_argument_group("external scores")
    external.add_argument("--scores", nargs="+", default=[], metavar="FILE",
                       help="external scores in the long format (system, seg_id, metric, score, "
                            "signature; TSV, CSV or JSON Lines), compared like built-in metrics")
    external.add_argument("--scores-signature", metavar="SIG",
                       help="signature of the --scores metrics (default: the file's signature "
                            "column)")
    external.add_argument("--lower-is-better", nargs="+", default=[], metavar="METRIC",
                       help="external metrics whose lower scores are better (e.g. an error rate)")
    add_output_options(p)
    metric_help.add_all_options(p)
    p.set_defaults(func=run)


def _add_test_options(p: argparse.ArgumentParser) -> None:
    """The paired tests' options."""
    tests = p.add_argument_group("significance")
    tests.add_argument("--baseline", metavar="NAME",
                       help="compare every system with this one (a file name without .txt); "
                            "default: all pairs")
    tests.add_argument("--method", choices=tuple(MIN_RESAMPLES), default="bootstrap",
                       help="bootstrap: paired bootstrap resampling (Koehn 2004; sacreBLEU -pbs); "
                            "ar: approximate randomization (sacreBLEU -par). Default bootstrap")
    tests.add_argument("--resamples", type=int, default=None, metavar="R",
                       help=f"bootstrap resamples or randomization trials (default: enough for the "
                            f"Holm correction, R + 1 >= 10 m / alpha; at most {MAX_RESAMPLES:,})")
    tests.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S",
                       help=f"random seed (default {DEFAULT_SEED}, sacreBLEU's; 0 is a seed)")
    tests.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE, metavar="C",
                       help="level of the confidence intervals (default 0.95)")
    tests.add_argument("--alpha", type=float, default=DEFAULT_ALPHA, metavar="A",
                       help="significance level of the clusters, on Holm-corrected p-values "
                            "(default 0.05)")
    tests.add_argument("--blocks", type=int, default=None, metavar="K",
                       help="block test: number of blocks K (default 20 when --block-size is "
                            "given)")
    tests.add_argument("--block-size", type=int, default=None, metavar="B",
                       help="block test: segments per block B (default 25 when --blocks is "
                            "given)")


def _check_options(args: argparse.Namespace) -> None:
    if args.ref_files and args.refs:
        raise OptionError("references", " ".join(args.ref_files),
                          detail="give the reference files either before the options or with -r, "
                                 "not both")
    args.refs = args.refs or args.ref_files or None
    if args.metrics is None:
        args.metrics = ["none"] if args.scores and not args.input else ["bleu"]
    check_finite(args.alpha, "--alpha", 0, 1)
    check_finite(args.confidence, "--confidence", 0, 1)
    if args.resamples is not None:
        check_count(args.resamples, "--resamples")
    check_seed(args.seed)
    for option, value in (("--blocks", args.blocks), ("--block-size", args.block_size)):
        if value is not None and value < 1:
            raise OptionError(option, value, detail="must be a positive integer")
    if "none" in args.metrics and len(args.metrics) > 1:
        raise InputError("-m none means no built-in metric: give it alone")


def _builtin(args: argparse.Namespace) -> list[Entry]:
    names = [m for m in args.metrics if m != "none"]
    if not names:
        return []
    if not args.input or not args.refs:
        raise InputError("give -r REF … and -i SYS … for the built-in metrics (or -m none with "
                         "--scores)")
    check_distinct_files(args.input, "-i")
    if len(args.input) < 2:
        raise InputError("compare needs at least two systems (-i A.txt B.txt ...)")
    systems, refs = read_systems_and_refs(args.input, args.refs)
    systems = without_reference_copies(systems, refs, args.refs)
    entries = []
    for name in names:
        metric = options.from_args(name, args)
        prepared = metric.prepare_references(refs, names=args.refs)
        entries.append((metric, {sys_name: metric.extract(hyps, prepared)
                                 for sys_name, hyps in systems}))
    return entries


def without_reference_copies(systems: list[tuple[str, list[str]]], refs: list[list[str]],
                             ref_paths: list[str]) -> list[tuple[str, list[str]]]:
    """The systems without those identical to a reference (a human translation that is one of the
    references: scored against itself, 100 with no variance). Each is named in a warning on
    standard error and left out of the comparisons and the Holm family; fewer than two systems
    left is an error."""
    kept = []
    for name, lines in systems:
        same = next((path for path, ref in zip(ref_paths, refs) if ref == lines), None)
        if same is None:
            kept.append((name, lines))
        else:
            print(f"mtscore compare: warning: system {name} is identical to the reference {same}: "
                  "left out (scored against itself it would be a perfect score in the comparisons)",
                  file=sys.stderr)
    if len(kept) < 2:
        raise InputError("compare needs at least two systems that are not copies of a reference")
    return kept


def external_entries(scores: LongScores, lower_is_better: set[str], signature: str | None = None
                     ) -> list[Entry]:
    """One :class:`SegmentMean` per metric of a long-format file, on the segments every system has."""
    entries: list[Entry] = []
    for name in scores.metrics():
        by_system = scores.segment_scores(name)
        if not by_system:
            raise InputError(f"metric {name!r} has no segment scores: significance needs segment "
                             "scores (rows with a seg_id)", source=scores.source)
        common = sorted(set.intersection(*(set(v) for v in by_system.values())))
        if not common:
            raise InputError(f"metric {name!r}: no segment is scored for every system",
                             source=scores.source)
        metric = SegmentMean(name, signature or scores.signature(name),
                             higher_is_better=name not in lower_is_better)
        entries.append((metric, {s: SegmentMean.stats([v[i] for i in common])
                                 for s, v in by_system.items()}))
    return entries


def _significance(args: argparse.Namespace, metric: Metric[Any], stats: dict[str, SegmentStats]
                  ) -> SignificanceResult:
    if len(stats) < 2:
        raise InputError(f"{metric_label(metric)}: compare needs at least two systems")
    if args.baseline is not None and args.baseline not in stats:
        raise InputError(f"--baseline {args.baseline!r} is not one of the systems "
                         f"({', '.join(stats)})")
    m = comparisons_count(len(stats), args.baseline is not None)
    n = args.resamples if args.resamples is not None else resamples_for(m, args.alpha, args.method)
    if args.method == "bootstrap":
        return paired_bootstrap(metric, stats, args.baseline, n, args.seed, args.confidence)
    return approximate_randomization(metric, stats, args.baseline, n, args.seed, args.confidence)


def level_note(result: SignificanceResult, alpha: float) -> str:
    """What the resamples can show at ``alpha``, or why they cannot."""
    m = len(result.comparisons)
    if reachable(result.resamples, m, alpha):
        return (f"{result.resamples} resamples for {m} Holm-corrected comparisons: the smallest "
                f"corrected p-value, {m}/({result.resamples}+1) = {m / (result.resamples + 1):.2g}, "
                f"is below alpha = {alpha:g}")
    return (f"cannot reach the level: with {result.resamples} resamples the smallest Holm-"
            f"corrected p-value is {m}/({result.resamples}+1) = {m / (result.resamples + 1):.3g} "
            f">= alpha = {alpha:g}, so no difference can be significant; use --resamples "
            f"{resamples_for(m, alpha)} or more (or name a --baseline: fewer comparisons)")


def _clusters(result: SignificanceResult, alpha: float) -> dict[str, int]:
    if result.baseline is not None:
        return {}
    return {name: k + 1 for k, group in enumerate(result.clusters(alpha)) for name in group}


def _json(result: SignificanceResult, alpha: float) -> dict[str, Any]:
    clusters = _clusters(result, alpha)
    return {"metric": result.metric, "signature": result.signature,
            "test_signature": result.test_signature, "method": result.method,
            "resamples": result.resamples, "seed": result.seed, "confidence": result.confidence,
            "alpha": alpha, "correction": "holm", "baseline": result.baseline,
            "level_reachable": result.reachable(alpha), "note": level_note(result, alpha),
            "systems": [{**r, "cluster": clusters.get(r["system"])} for r in result.records()],
            "comparisons": result.comparison_records()}


def _long_rows(result: SignificanceResult, alpha: float) -> list[tuple[Any, ...]]:
    """Long-format rows (system, seg_id, metric, score, signature) with the interval, the cluster
    and, against a baseline, the test."""
    clusters = _clusters(result, alpha)
    tests = {c.system: c for c in result.comparisons} if result.baseline else {}
    rows = []
    for r in result.records():
        c = tests.get(r["system"])
        rows.append((r["system"], None, result.metric, r["score"], result.test_signature,
                     r["mean"], r["low"], r["high"], clusters.get(r["system"]),
                     *((c.other, c.difference, c.pvalue, c.p_holm) if c else (None,) * 4)))
    return rows


LONG_COLUMNS = ("system", "seg_id", "metric", "score", "signature", "mean", "low", "high",
                "cluster", "vs", "difference", "p", "p_holm")


def _output(args: argparse.Namespace, results: list[SignificanceResult], blocks: list[Table]
            ) -> None:
    if args.format == "json":
        out = [_json(r, args.alpha) for r in results]
        sys.stdout.write(json.dumps(out[0] if len(out) == 1 else out, indent=2,
                                    ensure_ascii=False) + "\n")
        return
    if args.format in ("tsv", "csv", "jsonl"):  # one table: the long format
        rows = [row for r in results for row in _long_rows(r, args.alpha)]
        sys.stdout.write(format_table(LONG_COLUMNS, rows, args.format) + "\n")
        return
    tables: list[Table] = []
    for r in results:
        scores, pairs = significance_tables(r, None if r.baseline else args.alpha, args.width)
        tables += [Table(scores.columns, scores.rows, scores.title,
                         (*scores.notes, level_note(r, args.alpha))), pairs]
    emit(tables + blocks, args)


def run(args: argparse.Namespace) -> int:
    _check_options(args)
    entries = _builtin(args)
    lower = set(args.lower_is_better)
    for path in args.scores:
        entries += external_entries(read_scores(path), lower, args.scores_signature)
    if not entries:
        raise InputError("nothing to compare: give -r/-i for a built-in metric or --scores FILE")
    results = [_significance(args, metric, stats) for metric, stats in entries]
    blocks = []
    if args.blocks is not None or args.block_size is not None:
        blocks = [block_table(block_test(metric, stats,
                                         blocks=20 if args.blocks is None else args.blocks,
                                         block_size=25 if args.block_size is None else args.block_size))
                  for metric, stats in entries]
    _output(args, results, blocks)
    return 0
