"""``mtscore study DATASET``: the seed papers' tables (BLEU and METEOR papers) on one data set."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..data import sample_path
from ..errors import OptionError
from ..report.figures import require_matplotlib
from ..report.html import check_destination
from ..report.study_tables import render_study
from ..report.tables import FORMATS, LAYOUTS
from ..study import TABLE_IDS, run_study
from .common import DEFAULT_DECIMALS
from .meteor_task import add_meteor_task_options, task_metrics
from .report import add_report_options, add_scores_options, add_study_options, study_jobs


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "study", help="the BLEU and METEOR papers' analyses on a data set",
        description="Scores every system of a data set folder (references/, systems/, human/ — the "
                    "WMT22 layout) with BLEU, NIST, unigram P/R/F1/Fmean, chrF, chrF++, TER and METEOR "
                    "(and external scores given with --scores), and prints the "
                    "seed papers' tables: correlation with human scores at system and segment level "
                    "(METEOR paper Tables 1–8), BLEU's block test (BLEU paper Tables 1–2), pairwise "
                    "significance, and scores with every subset of the references. A human system "
                    "HUMAN-X is scored against the references other than X.",
        epilog="tables: corpus, bleu, system (METEOR T1), segment (T2–5), modules (T6–7), human (T8), "
               "blocks (BLEU T1), ttest (BLEU T2), significance, references. "
               "examples: mtscore study sample; mtscore study data/wmt22/de-en --human raw "
               "--tables system segment -f markdown; mtscore study data/wmt22/de-en --scores "
               "comet.tsv --layout wide -f latex")
    p.add_argument("dataset", metavar="DATASET",
                   help="data-set folder, or 'sample' for the embedded WMT22 de-en sample")
    add_study_options(p)
    p.add_argument("--tables", "-t", nargs="+", choices=TABLE_IDS, metavar="ID",
                   help="compute and print only these tables (default all): " + ", ".join(TABLE_IDS))
    p.add_argument("--html", metavar="FILE",
                   help="also write the HTML report with the papers' figures to FILE (as `mtscore "
                        "report`; needs pip install 'mtscore[report]')")
    add_scores_options(p)
    add_meteor_task_options(p)
    add_report_options(p, output_default=None)
    group = p.add_argument_group("output")
    group.add_argument("--format", "-f", default="text", choices=FORMATS,
                       help="output format (default text; json keeps full precision)")
    group.add_argument("--width", "-w", type=int, default=DEFAULT_DECIMALS,
                       help=f"decimals shown (default {DEFAULT_DECIMALS}; not applied to json)")
    group.add_argument("--layout", default="long", choices=LAYOUTS,
                       help="long (default): the tables as they are; wide: also the systems × "
                            "metrics table of corpus scores (every metric a column, signatures "
                            "under it), the layout of a paper's results table")
    group.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.figures and not args.html:
        raise OptionError("--figures", args.figures, detail="saving figures needs --html FILE")
    if args.width < 0:
        raise OptionError("width", args.width, detail="decimals must be a non-negative integer")
    if args.html:
        require_matplotlib()  # before the study: fail fast, naming the extra
        check_destination(args.html)
        if args.figures:
            check_destination(args.figures, folder=True)
    folder = sample_path() if args.dataset == "sample" and not Path("sample").exists() else args.dataset
    study = run_study(folder, human=args.human, resamples=args.resamples, seed=args.seed,
                      tables=args.tables, block_size=args.block_size, blocks=args.blocks,
                      meteor=not args.no_meteor, language_pair=args.language_pair,
                      scores=args.scores or (), scores_signature=args.scores_signature,
                      jobs=study_jobs(args), extra_metrics=task_metrics(args),
                      rank_human=args.rank_human)
    sys.stdout.write(render_study(study, args.format, args.width, args.tables, layout=args.layout) + "\n")
    if args.html:
        from ..report.study_report import write_report

        written = write_report(study, args.html, figures_dir=args.figures,
                               figure_formats=args.figure_format, embed=args.embed, width=args.width,
                               title=args.title)
        print(f"report: {written.html.resolve()}", file=sys.stderr)
    return 0
