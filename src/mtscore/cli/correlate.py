"""``mtscore correlate``: correlation of metric scores with human scores.

Metric files are in the long format (``mtscore score --segments -f tsv`` output, several metrics in
one file; external scores alike), or the older headerless ``system score`` / ``system seg_id
score``; the human file is any headed table with a ``system`` column, an optional ``seg_id`` and a
score column (``z``, ``score`` or ``--human-column``): a data set's ``human/segments.tsv`` as it is.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..io.score_files import (
    HumanScores,
    check_same_data,
    choose_systems,
    read_human_file,
    read_metric_file,
    segment_matrices,
)
from ..io.scores import LongScores
from ..report.stats_tables import correlation_row
from ..report.tables import Table
from ..stats.correlation import (
    GROUPINGS,
    METHODS,
    CorrelationResult,
    UndefinedCorrelation,
    correlate,
    segment_correlation,
    system_correlation,
)
from ..stats.correlation_ci import (
    segment_correlation_ci,
    system_correlation_ci_from_segments,
    system_correlation_ci_over_systems,
)
from ..stats.defaults import DEFAULT_CONFIDENCE, DEFAULT_SEED, check_count, check_finite, check_seed
from ..stats.metric_difference import permutation_test, williams_test
from .common import add_output_options, emit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "correlate", help="correlation of metric scores with human scores",
        description="Correlation between metrics' scores and human scores. FILES: metric score "
                    "files, then the human score file (or give it with --human). A metric file is "
                    "the long format (system, seg_id, metric, score, signature: TSV, CSV or JSON "
                    "Lines; e.g. mtscore score --segments -f tsv) with one or more metrics, or a "
                    "headerless 'system<TAB>score' / 'system<TAB>seg_id<TAB>score'. The human file "
                    "may hold several rows per (system, seg_id): they are averaged. At system "
                    "level a human file of segment scores gives each system the mean over its "
                    "judged segments (WMT), and a metric file of segment scores the mean over all "
                    "segments (unless it has system rows).",
        epilog="examples: mtscore correlate s.tsv ../wmt22/de-en/human/segments.tsv; "
               "mtscore correlate s.tsv --scores comet.tsv --human da.tsv --level segment "
               "--method kendall --resamples 1000")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="metric score files, then the human score file")
    p.add_argument("--metric", action="append", default=[], metavar="FILE",
                   help="a metric score file (may be repeated)")
    p.add_argument("--scores", nargs="+", default=[], metavar="FILE",
                   help="external scores in the long format (COMET, BERTScore … scored elsewhere)")
    p.add_argument("--scores-signature", metavar="SIG",
                   help="signature of the --scores metrics (default: the file's signature column)")
    p.add_argument("--human", metavar="FILE", help="human scores")
    p.add_argument("--human-column", metavar="NAME",
                   help="the human file's score column (default z, else score, else the only "
                        "numeric one)")
    p.add_argument("--systems", choices=("common", "overlap", "all"), default="common",
                   help="common: correlate the systems with both metric and human scores, naming "
                        "the others, when one file's systems are all in the other (default; two "
                        "files that each have systems the other lacks are refused: another "
                        "language pair's human file); overlap: the common systems whatever the "
                        "rest; all: every system must have both")
    p.add_argument("--versus", metavar="FILE",
                   help="a second metric's scores: also test whether the two metrics' "
                        "correlations differ (Williams test for Pearson; paired permutation test "
                        "PERM-BOTH with --resamples permutations, default 1000)")
    p.add_argument("--level", choices=("system", "segment", "both"), default=None,
                   help="system: one score per system; segment: one per system and segment; both "
                        "(the default when the metric and human files have segment scores, else "
                        "system)")
    p.add_argument("--method", choices=METHODS, default="pearson",
                   help="pearson (default), spearman, kendall (= kendall-b, τ_b), kendall-c (τ_c), "
                        "accuracy (system level: pairwise accuracy, Kocmi et al. 2021; segment "
                        "level: pairwise accuracy with tie calibration, acc_eq, Deutsch et al. 2023)")
    p.add_argument("--grouping", choices=GROUPINGS, default=None,
                   help="segment level: none = all judged cells pooled, item = across systems per "
                        "segment then averaged, system = within each system then averaged "
                        "(METEOR's protocol; default system; default item for accuracy)")
    p.add_argument("--epsilon", type=float, default=None,
                   help="segment-level accuracy: fixed tie threshold instead of tie calibration")
    p.add_argument("--resamples", type=int, default=0,
                   help="bootstrap confidence interval with N resamples (default 0: none); "
                        "segments are resampled jointly for metric and human when the files have "
                        "segment scores, else systems are resampled")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED,
                   help=f"random seed (default {DEFAULT_SEED}; 0 is a seed)")
    p.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE,
                   help="confidence level of the interval (default 0.95)")
    add_output_options(p)
    p.set_defaults(func=run)


@dataclass(frozen=True)
class Aligned:
    """One metric aligned with the human scores: system vectors or systems × segments."""

    name: str
    systems: list[str]
    metric: np.ndarray
    human: np.ndarray
    notes: tuple[str, ...]


def _align(args: argparse.Namespace, name: str, source: str, seg: dict[str, dict[int, float]],
           system: dict[str, float], human: HumanScores) -> Aligned:
    has_segments = bool(seg)
    if args.level == "segment" and (not has_segments or not human.per_segment):
        raise InputError(f"{name}: segment level needs segment scores (a seg_id column) in the "
                         f"metric file and the human file", source=source if not has_segments
                         else human.source)
    if has_segments and not system and not human.per_segment:
        raise InputError(f"{name}: the metric file has segment scores but the human file "
                         f"{human.source} has system scores; give human scores per segment too",
                         source=source)
    systems, notes = choose_systems(system or seg, human.names(), args.systems, source)
    if args.level == "system" and (system or not human.per_segment):
        if not system:
            system = {s: float(np.mean(list(v.values()))) for s, v in seg.items()}
        m = np.array([system[s] for s in systems])
        return Aligned(name, systems, m, np.array([human.system_score(s) for s in systems]),
                       tuple(notes))
    m, h = segment_matrices(seg, human, systems, source, every_segment=args.level == "system")
    if args.level == "system":
        notes.append(f"{name}: system score = mean of its segment scores")
    return Aligned(name, systems, m, h, tuple(notes))


def _read_all(args: argparse.Namespace) -> list[LongScores]:
    """Every metric file, read once: positional and --metric files, then --scores files."""
    paths = [*args.metric, *args.files]
    return [read_metric_file(path, signature) for path, signature in
            [(p, None) for p in paths] + [(p, args.scores_signature) for p in args.scores]]


def _load(args: argparse.Namespace, human: HumanScores) -> list[Aligned]:
    out = []
    for scores in args.metric_scores:
        path = scores.source
        for metric in scores.metrics():
            out.append(_align(args, metric, path, scores.segment_scores(metric),
                              scores.system_scores(metric), human))
    return out


def undefined_reason(d: Aligned) -> str | None:
    """Why a correlation cannot be computed on these scores (constant scores), or None."""
    judged = ~np.isnan(d.human)
    for label, values in (("human", d.human[judged]), ("metric", d.metric[judged])):
        if values.size and np.all(values == values.flat[0]):
            return f"the {label} scores are constant ({values.flat[0]:g}): the correlation is undefined"
    return None


def _correlation(args: argparse.Namespace, d: Aligned, grouping: str) -> CorrelationResult:
    if d.metric.ndim == 1:
        m, h = dict(zip(d.systems, d.metric)), dict(zip(d.systems, d.human))
        if args.resamples:
            return system_correlation_ci_over_systems(m, h, args.method, args.resamples,
                                                      args.seed, args.confidence)
        return system_correlation(m, h, args.method)
    if args.level == "system":
        judged = ~np.isnan(d.human)
        if not judged.any(axis=1).all():
            k = int(np.argmin(judged.any(axis=1)))
            raise InputError(f"system {d.systems[k]!r} has no judged segment", source=args.human)
        if args.resamples:
            return system_correlation_ci_from_segments(d.metric, d.human, d.systems, args.method,
                                                       args.resamples, args.seed, args.confidence)
        return system_correlation(dict(zip(d.systems, d.metric.mean(axis=1))),
                                  dict(zip(d.systems, np.nanmean(d.human, axis=1))), args.method)
    if args.resamples:
        return segment_correlation_ci(d.metric, d.human, args.method, grouping, args.resamples,
                                      args.seed, args.confidence, args.epsilon)
    return segment_correlation(d.metric, d.human, args.method, grouping, args.epsilon)


def _versus(args: argparse.Namespace, a: Aligned, b: Aligned, grouping: str) -> Table:
    """Williams test (one Pearson correlation each) and PERM-BOTH between two metrics."""
    if a.systems != b.systems or a.metric.shape != b.metric.shape:
        raise InputError(f"the two metric files must score the same systems and segments "
                         f"({', '.join(a.systems)} vs {', '.join(b.systems)})", source=args.versus)
    notes, williams = [], None
    if args.method == "pearson" and (a.metric.ndim == 1 or args.level == "system"
                                     or grouping == "none"):
        if a.metric.ndim == 1:
            x, y, h = a.metric, b.metric, a.human
        elif args.level == "system":
            x, y, h = a.metric.mean(axis=1), b.metric.mean(axis=1), np.nanmean(a.human, axis=1)
        else:
            ok = ~np.isnan(a.human)
            x, y, h = a.metric[ok], b.metric[ok], a.human[ok]
        r12, r13, r23 = (correlate(x, h, "pearson")[0], correlate(y, h, "pearson")[0],
                         correlate(x, y, "pearson")[0])
        if len(h) > 3 and not any(math.isnan(r) for r in (r12, r13, r23)):
            williams = williams_test(r13, r12, r23, len(h))  # one-sided: B > A
    else:
        notes.append("Williams test: only for one Pearson correlation (system level, or segment "
                     "level with grouping none)")
    k = args.resamples or 1000
    perm = permutation_test(a.human, a.metric, b.metric, args.method,
                            grouping if args.level == "segment" else "none", k, args.seed,
                            args.epsilon, args.level if a.metric.ndim == 2 else None)
    notes.append(perm.test + f"; {k} permutations, seed {args.seed}")
    if williams is not None:
        notes.append(f"{williams.method}: t = {williams.statistic:.4f}, df = {williams.df}, one-sided for "
                     f"{b.name} > {a.name}")
    return Table(("metric A", "metric B", "r A", "r B", "Williams p (B > A)",
                  "permutation p (B > A)"),
                 ((a.name, b.name, perm.statistic_a, perm.statistic_b,
                   None if williams is None else williams.pvalue, perm.pvalue),),
                 title="do the two metrics differ?", notes=tuple(notes))


def _check_options(args: argparse.Namespace) -> None:
    check_finite(args.confidence, "--confidence", 0, 1)
    check_finite(args.epsilon, "--epsilon", 0, None, open_interval=False)
    if args.resamples:
        check_count(args.resamples, "--resamples", 0)
    check_seed(args.seed)
    if args.epsilon is not None and not (args.method == "accuracy" and args.level != "system"):
        raise InputError("--epsilon applies to --method accuracy at --level segment only")
    if args.grouping is not None and args.level == "system":
        raise InputError("--grouping applies to --level segment only")
    if args.human is None:
        if len(args.files) < 2 and not (args.files and (args.metric or args.scores)):
            raise InputError("give metric score files and the human score file (FILE … HUMAN, "
                             "or --human FILE)")
        args.human = args.files[-1]
        args.files = args.files[:-1]


def _row(args: argparse.Namespace, d: Aligned, grouping: str
         ) -> tuple[tuple[str, ...] | None, tuple[object, ...], list[str]]:
    """Columns (None for a note row), row and notes of one metric at one level."""
    reason = undefined_reason(d)
    if reason is None:
        try:
            result = _correlation(args, d, grouping)
        except UndefinedCorrelation as err:
            reason = str(err)
        else:
            if math.isnan(result.statistic):
                reason = "the correlation is undefined on these scores"
            else:
                cols, row = correlation_row(result, d.name, _decimals(args))
                return cols, row, [f"{d.name}: {result.describe()}", *d.notes]
    n = len(d.systems) if d.metric.ndim == 1 or args.level == "system" else \
        int(np.count_nonzero(~np.isnan(d.human)))
    return None, (d.name, args.level, args.method, grouping if args.level == "segment" else "none",
                  n, None, None), [f"{d.name}, {args.level} level: {reason}", *d.notes]


def _decimals(args: argparse.Namespace) -> int | None:
    """p-values as text in text tables, as numbers in data formats."""
    return None if args.format in ("json", "jsonl", "csv") else args.width


def _table(args: argparse.Namespace, human: HumanScores, grouping: str) -> Table:
    """One row per metric and level; a statistic the data cannot support is a note, not a stop."""
    columns: tuple[str, ...] = ()
    rows, notes = [], []
    for level in _levels(args, human):
        level_args = argparse.Namespace(**{**vars(args), "level": level})
        for d in _load(level_args, human):
            cols, row, more = _row(level_args, d, grouping)
            if cols is not None and len(cols) > len(columns):
                columns = cols
            rows.append(row)
            notes.extend(more)
    if not columns:
        columns = correlation_row(CorrelationResult(math.nan, math.nan, args.method, "system",
                                                    "none", 0), "", args.width)[0]
    return Table(columns, tuple(tuple(r) + (None,) * (len(columns) - len(r)) for r in rows),
                 title="correlation with human scores", notes=tuple(dict.fromkeys(notes)))


def _levels(args: argparse.Namespace, human: HumanScores) -> list[str]:
    if args.level == "both" or (args.level is None and human.per_segment and _segment_metrics(args)):
        return ["system", "segment"]
    return [args.level or "system"]


def _segment_metrics(args: argparse.Namespace) -> bool:
    """Do the metric files have segment scores? (the default level then covers both)"""
    return all(s.segment_scores(m) for s in args.metric_scores for m in s.metrics())


def run(args: argparse.Namespace) -> int:
    _check_options(args)
    human = read_human_file(args.human, args.human_column)
    grouping = args.grouping or ("item" if args.method == "accuracy" else "system")
    if not [*args.metric, *args.files, *args.scores]:
        raise InputError("no metric scores: give metric score files before the human file")
    args.metric_scores = _read_all(args)
    for scores in args.metric_scores:
        check_same_data(scores, human, args.systems)
    table = _table(args, human, grouping)
    tables = [table]
    if args.versus:
        level_args = argparse.Namespace(**{**vars(args), "level": args.level or "system"})
        versus = read_metric_file(args.versus)
        check_same_data(versus, human, args.systems)
        b = [_align(level_args, m, args.versus, versus.segment_scores(m), versus.system_scores(m),
                    human) for m in versus.metrics()]
        a = _load(level_args, human)
        rows = list(table.rows)
        for d in b:
            row = _row(level_args, d, grouping)[1]
            rows.append(tuple(row) + (None,) * (len(table.columns) - len(row)))
        tables = [Table(table.columns, tuple(rows), table.title, table.notes),
                  _versus(level_args, a[0], b[0], grouping)]
    emit(tables, args)
    return 0
