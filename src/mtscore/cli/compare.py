"""``mtscore compare``: are the systems' scores different? Confidence intervals, paired tests
(paired bootstrap or approximate randomization) with Holm-corrected p-values, clusters, and the
BLEU paper's block test."""

from __future__ import annotations

import argparse

from ..errors import InputError
from ..report.tables import Table
from ..stats.blocks import block_test
from ..stats.significance import approximate_randomization, paired_bootstrap
from . import options
from .common import add_output_options, emit, read_systems_and_refs

#: default resamples (bootstrap) / trials (randomization), as sacreBLEU
DEFAULTS = {"bootstrap": 1000, "ar": 10000}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare", help="significance of differences between systems",
        description="Scores of several systems with bootstrap confidence intervals, and paired tests "
                    "between them: every system against --baseline, or all pairs (then also the "
                    "clusters of systems not significantly different). p-values are printed raw and "
                    "Holm-corrected over all comparisons. With --blocks/--block-size: the BLEU "
                    "paper's block test (paired t-test on per-block scores of systems adjacent in "
                    "the ranking).",
        epilog="example: mtscore compare -r ref.A.txt -i sysA.txt sysB.txt sysC.txt "
               "--baseline sysA --method ar --seed 12345 --blocks 20 --block-size 25")
    p.add_argument("--refs", "-r", nargs="+", required=True, metavar="REF",
                   help="reference files, one segment per line (several files: several references)")
    p.add_argument("--input", "-i", nargs="+", required=True, metavar="SYS",
                   help="system outputs, one file per system (at least two)")
    p.add_argument("--metric", "-m", default="bleu", choices=options.names(),
                   help="metric (default bleu)")
    p.add_argument("--lowercase", "-lc", action="store_true", help="lowercase before scoring (BLEU)")
    p.add_argument("--baseline", metavar="NAME",
                   help="compare every system with this one (a file name without .txt); default: "
                        "all pairs")
    p.add_argument("--method", choices=tuple(DEFAULTS), default="bootstrap",
                   help="bootstrap: paired bootstrap resampling (Koehn 2004; sacreBLEU -pbs); ar: "
                        "approximate randomization (sacreBLEU -par). Default bootstrap")
    p.add_argument("--resamples", type=int, default=None,
                   help="bootstrap resamples (default 1000) or randomization trials (default 10000)")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed (default 0; 0 is a seed; 12345 = sacreBLEU's default)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="level of the confidence intervals (default 0.95)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the clusters, on Holm-corrected p-values "
                        "(default 0.05)")
    p.add_argument("--blocks", type=int, default=None,
                   help="block test: number of blocks K (default 20 when --block-size is given)")
    p.add_argument("--block-size", type=int, default=None,
                   help="block test: segments per block B (default 25 when --blocks is given)")
    options.add_all_options(p)
    add_output_options(p, default_width=3)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if len(args.input) < 2:
        raise InputError("compare needs at least two systems (-i A.txt B.txt ...)")
    systems, refs = read_systems_and_refs(args.input, args.refs)
    metric = options.from_args(args.metric, args)
    prepared = metric.prepare_references(refs, names=args.refs) \
        if hasattr(metric, "prepare_references") else refs
    stats = {name: metric.extract(hyps, prepared) for name, hyps in systems}
    if args.baseline is not None and args.baseline not in stats:
        raise InputError(f"--baseline {args.baseline!r} is not one of the systems "
                         f"({', '.join(stats)})")
    n = args.resamples if args.resamples is not None else DEFAULTS[args.method]
    if args.method == "bootstrap":
        result = paired_bootstrap(metric, stats, args.baseline, n, args.seed, args.confidence)
    else:
        result = approximate_randomization(metric, stats, args.baseline, n, args.seed,
                                           args.confidence)
    tables = result.tables()
    if args.baseline is None:
        clusters = result.clusters(alpha=args.alpha)
        cluster_of = {name: k + 1 for k, group in enumerate(clusters) for name in group}
        scores = tables[0]
        tables[0] = Table(scores.columns + ("cluster",),
                          tuple(row + (cluster_of[row[0]],) for row in scores.rows),
                          title=scores.title,
                          notes=scores.notes + (f"cluster: systems in rank order, cut where every "
                                                f"system above is significantly better (Holm p < "
                                                f"{args.alpha:g}) than every system below",))
    if args.blocks is not None or args.block_size is not None:
        blocks = block_test(metric, stats, blocks=args.blocks or 20,
                            block_size=args.block_size or 25)
        tables.append(blocks.table())
    emit(tables, args)
    return 0
