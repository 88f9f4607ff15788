"""``mtscore score``: corpus (and per-segment) scores of one or more systems, as sacreBLEU's CLI."""

from __future__ import annotations

import argparse

from ..errors import OptionError
from ..report.tables import Table
from . import options as registry
from .common import add_output_options, emit, read_systems_and_refs


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score", help="score systems against references",
        description="Corpus scores of one or more systems (several -i files print as one table). "
                    "Hypotheses are read from standard input when -i is not given.",
        epilog="examples: mtscore score -r ref.A.txt ref.B.txt -i sysA.txt sysB.txt -m bleu; "
               "mtscore score ref.A.txt < sysA.txt -b (sacreBLEU's positional references)")
    p.add_argument("ref_files", nargs="*", metavar="REF",
                   help="reference files, as sacreBLEU takes them (or give them with -r)")
    p.add_argument("--refs", "-r", nargs="+", metavar="REF",
                   help="reference files, one segment per line (several files: several references)")
    p.add_argument("--input", "-i", nargs="+", metavar="HYP",
                   help="system outputs, one file per system (default: standard input)")
    p.add_argument("--metrics", "-m", nargs="+", default=["bleu"], choices=registry.names(),
                   help="metrics to compute (default bleu)")
    p.add_argument("--lowercase", "-lc", action="store_true", help="lowercase before scoring (BLEU)")
    p.add_argument("--segments", "--sentence-level", "-sl", action="store_true",
                   help="print one score per segment instead of the corpus score")
    p.add_argument("--score-only", "-b", action="store_true",
                   help="print only the scores, one per line (per system and metric; with "
                        "--segments, per segment), as sacreBLEU -b")
    registry.add_all_options(p)
    add_output_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.ref_files and args.refs:
        raise OptionError("references", " ".join(args.ref_files),
                          detail="give the reference files either before the options or with -r, "
                                 "not both")
    ref_paths = args.refs or args.ref_files
    if not ref_paths:
        raise OptionError("references", "", detail="no reference file: give REF … or -r REF …")
    args.refs = ref_paths
    systems, refs = read_systems_and_refs(args.input, ref_paths)
    metrics = [registry.from_args(name, args) for name in args.metrics]
    corpus_rows, segment_rows, records = [], [], []
    signatures: dict[str, str] = {}
    for metric in metrics:
        prepared = metric.prepare_references(refs, names=args.refs) \
            if hasattr(metric, "prepare_references") else refs
        for name, hyps in systems:
            stats = metric.extract(hyps, prepared)
            if args.segments:
                scores = metric.segment_scores(stats)
                segment_rows.extend((name, i + 1, metric.name, float(s)) for i, s in enumerate(scores))
                signatures[metric.name] = metric.signature(stats.meta)
            else:
                result = metric.compute(stats.total(), stats.meta)
                corpus_rows.append((name, result.metric, float(result.score), result.signature))
                records.append({"system": name, **result.to_dict()})
    if args.score_only:
        scores = [row[3] for row in segment_rows] if args.segments else [row[2] for row in corpus_rows]
        print("\n".join(f"{score:.{args.width}f}" for score in scores))
    elif args.segments:
        notes = tuple(signatures.values())
        emit(Table(("system", "seg_id", "metric", "score"), tuple(segment_rows), notes=notes), args)
    elif args.format == "json":
        import json
        print(json.dumps(records, indent=2, ensure_ascii=False))  # always a list, one object per score
    else:
        emit(Table(("system", "metric", "score", "signature"), tuple(corpus_rows)), args)
    return 0
