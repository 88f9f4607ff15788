"""``mtscore report DATASET -o report.html``: the study of a data set as one self-contained HTML file."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..data import sample_path
from ..errors import OptionError
from ..report.figures import FIGURE_FORMATS, require_matplotlib
from ..report.html import check_destination
from ..study.model import BLOCK_SIZE, DEFAULT_RESAMPLES, DEFAULT_SEED
from .common import DEFAULT_DECIMALS
from .meteor_task import add_meteor_task_options, task_metrics


def add_report_options(parser: argparse.ArgumentParser, *, output_default: str | None) -> None:
    """The options that say where the HTML report and the figure files go."""
    group = parser.add_argument_group("report")
    if output_default is not None:
        group.add_argument("--output", "-o", default=output_default, metavar="HTML",
                           help=f"the HTML file to write (default {output_default})")
    group.add_argument("--figures", metavar="DIR",
                       help="also save every figure in DIR as PNG and SVG files")
    group.add_argument("--figure-format", nargs="+", default=list(FIGURE_FORMATS),
                       choices=FIGURE_FORMATS, metavar="FMT",
                       help="formats of the files written with --figures (default: svg png)")
    group.add_argument("--embed", default="svg", choices=FIGURE_FORMATS,
                       help="how figures are embedded in the HTML (default svg: sharp at any size)")
    group.add_argument("--title", help="title of the report (default: the data set's name)")


def add_study_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("study")
    group.add_argument("--human", default=None, choices=("z", "raw"),
                       help="human scores of the figures and main tables: z (default when the data "
                            "set has them, else raw) or raw")
    group.add_argument("--resamples", type=int, default=None, metavar="N",
                       help=f"bootstrap resamples for intervals and paired tests (default "
                            f"{DEFAULT_RESAMPLES} for intervals; for the paired tests enough for "
                            "Holm's correction over every pair of systems, e.g. 16000 for 13 systems)")
    group.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S",
                       help=f"random seed of the resampling (default {DEFAULT_SEED}; 0 is a seed)")
    group.add_argument("--blocks", type=int, default=None, metavar="K",
                       help="blocks of the BLEU block test (default: as many as the corpus holds; "
                            "the paper uses 20)")
    group.add_argument("--block-size", type=int, default=BLOCK_SIZE, metavar="B",
                       help=f"segments per block (default {BLOCK_SIZE})")
    group.add_argument("--language-pair", "-l", metavar="SRC-TGT", default=None,
                       help="language pair (default: meta.json's \"pair\"); the target language picks "
                            "the tokenizer as sacreBLEU's -l does (zh: zh, ja: ja-mecab; else 13a)")
    group.add_argument("--no-meteor", action="store_true",
                       help="leave METEOR (and its module ablation) out; faster")
    group.add_argument("--rank-human", action="store_true",
                       help="rank human translations (HUMAN-X systems) with the machines: in the "
                            "paired bootstrap's Holm family and the clusters (default: apart, "
                            "with their intervals only)")
    group.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                       help="worker processes extracting the statistics, one system at a time "
                            "(default: the cores available; 1: this process only; same numbers)")


def study_jobs(args: argparse.Namespace) -> int:
    """``--jobs``: checked, or the cores this process may use."""
    from ..streaming import check_jobs

    return check_jobs(args.jobs)


def add_scores_options(parser: argparse.ArgumentParser) -> None:
    """``--scores FILE …``: external metrics (COMET, BERTScore …) in the long score format."""
    group = parser.add_argument_group("external scores")
    group.add_argument("--scores", nargs="+", metavar="FILE",
                       help="files of external segment scores in the long format (columns system, "
                            "seg_id, metric, score[, signature]; TSV, CSV or JSON Lines): each metric "
                            "in them is studied like a built-in one (its corpus score is the mean of "
                            "its segment scores)")
    group.add_argument("--scores-signature", metavar="SIG",
                       help="signature of the external scores (default: the file's signature column)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report", help="the study of a data set as one HTML file with the papers' figures",
        description="Runs the study of a data set folder (as `mtscore study`) and writes one "
                    "self-contained HTML file (figures embedded; no network; opens from disk): scores "
                    "with confidence intervals, BLEU's n-gram precision by order (Fig. 2), each "
                    "metric against human scores with regression line and r (Figs. 5-6), the "
                    "normalized comparison (Fig. 7), segment-level correlations, the significance "
                    "matrix with clusters, the block test, the METEOR module ablation and the "
                    "signature of every number. Needs matplotlib: pip install 'mtscore[report]'.",
        epilog="examples: mtscore report sample -o report.html; "
               "mtscore report data/wmt22/de-en -o de-en.html --figures figs/ --human raw")
    p.add_argument("dataset", metavar="DATASET",
                   help="data-set folder, or 'sample' for the embedded WMT22 de-en sample")
    add_report_options(p, output_default="report.html")
    add_study_options(p)
    add_scores_options(p)
    add_meteor_task_options(p)
    p.add_argument("--width", "-w", type=int, default=DEFAULT_DECIMALS,
                   help=f"decimals shown in the report's tables (default {DEFAULT_DECIMALS})")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..report.study_report import write_report
    from ..study import run_study

    require_matplotlib()  # before the study: fail fast, naming the extra
    check_destination(args.output)
    if args.figures:
        check_destination(args.figures, folder=True)
    if args.width < 0:
        raise OptionError("width", args.width, detail="decimals must be a non-negative integer")
    folder = sample_path() if args.dataset == "sample" and not Path("sample").exists() else args.dataset
    study = run_study(folder, human=args.human, resamples=args.resamples, seed=args.seed,
                      block_size=args.block_size, blocks=args.blocks, meteor=not args.no_meteor,
                      language_pair=args.language_pair, scores=args.scores or (),
                      scores_signature=args.scores_signature, jobs=study_jobs(args),
                      rank_human=args.rank_human, extra_metrics=task_metrics(args))
    written = write_report(study, args.output, figures_dir=args.figures,
                           figure_formats=args.figure_format, embed=args.embed, width=args.width,
                           title=args.title)
    print(f"report: {written.html.resolve()}")
    if written.figures:
        print(f"figures: {len(written.figures)} files in {Path(args.figures).resolve()}")
    return 0
