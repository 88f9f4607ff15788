"""``mtscore demo``: the whole study of the embedded WMT22 sample, its key tables, and its HTML report."""

from __future__ import annotations

import argparse
import sys

from ..data import sample_path
from ..errors import OptionError
from ..report.figures import EXTRA_HINT, MissingExtraError, require_matplotlib
from ..report.html import check_destination
from ..report.tables import render
from ..study.model import DEFAULT_RESAMPLES, DEFAULT_SEED
from .common import add_output_options
from .report import add_report_options

#: where the demo writes its report unless told otherwise
DEFAULT_OUTPUT = "mtscore-demo-report.html"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo", help="study the embedded WMT22 de-en sample and write its HTML report",
        description="Runs the full study (BLEU, chrF, chrF++, TER, NIST, unigram P/R/F1/Fmean, METEOR; "
                    "correlation with "
                    "the human judgments; confidence intervals; significance of every pair of "
                    "systems; BLEU's block test) on the embedded sample - 427 segments of WMT22 "
                    "de-en with all 10 systems and their human scores, credited in its meta.json - "
                    "prints the key tables and writes the HTML report with the papers' figures.",
        epilog=f"examples: mtscore demo; mtscore demo -o demo.html --figures figs/; "
               f"mtscore demo --no-report -f markdown. The HTML report needs matplotlib "
               f"({EXTRA_HINT}); without it the demo prints its tables and says so.")
    add_report_options(p, output_default=DEFAULT_OUTPUT)
    p.add_argument("--no-report", action="store_true", help="print the tables only, write no HTML")
    p.add_argument("--resamples", type=int, default=None, metavar="N",
                   help=f"bootstrap resamples for intervals and paired tests (default "
                        f"{DEFAULT_RESAMPLES} for intervals; for the paired tests enough for Holm's "
                        "correction over every pair of systems)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S",
                   help=f"random seed of the resampling (default {DEFAULT_SEED}; 0 is a seed)")
    add_output_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..report.study_report import correlation_summary, key_table, key_tables, write_report
    from ..study import run_study

    if args.width < 0:
        raise OptionError("width", args.width, detail="decimals must be a non-negative integer")
    report_error = None
    if not args.no_report:
        try:
            require_matplotlib()
        except MissingExtraError as err:
            report_error = err
        check_destination(args.output)
        if args.figures:
            check_destination(args.figures, folder=True)
    study = run_study(sample_path(), resamples=args.resamples, seed=args.seed)
    # text: a terminal of 100 columns (the key table cut by metrics); other formats: one table
    tables = key_tables(study, args.width) if args.format == "text" else [key_table(study)]
    summary = correlation_summary(study)
    if summary is not None:
        tables.append(summary)
    sys.stdout.write(render(tables, args.format, args.width) + "\n")
    sys.stdout.flush()
    if args.no_report:
        return 0
    if report_error is not None:
        print(f"mtscore demo: no HTML report: {report_error}", file=sys.stderr)
        return 0
    written = write_report(study, args.output, figures_dir=args.figures,
                           figure_formats=args.figure_format, embed=args.embed, width=args.width,
                           title=args.title or "mtscore demo: WMT22 de-en sample")
    where = sys.stderr if args.format == "json" else sys.stdout  # keep JSON output parseable
    print(f"\nreport: {written.html.resolve()}", file=where)
    if written.figures:
        print(f"figures: {len(written.figures)} files in {written.figures[0].parent.resolve()}",
              file=where)
    return 0
