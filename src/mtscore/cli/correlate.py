"""``mtscore correlate``: correlation of metric scores with human scores, read from TSV files.

Each file is ``system<TAB>score`` (system level) or ``system<TAB>seg_id<TAB>score`` (segment
level; seg_id is the 1-based line number). A first line whose score is not a number is a header.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from ..errors import InputError
from ..io.text import read_lines
from ..report.tables import Table
from ..stats.correlation import (GROUPINGS, METHODS, CorrelationResult, segment_correlation,
                                 segment_correlation_ci, system_correlation,
                                 system_correlation_ci_from_segments,
                                 system_correlation_ci_over_systems)
from .common import add_output_options, emit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "correlate", help="correlation of metric scores with human scores (TSV files)",
        description="Correlation between a metric's scores and human scores. Each FILE is a TSV of "
                    "'system<TAB>score' or 'system<TAB>seg_id<TAB>score' (seg_id = 1-based line "
                    "number; header line optional). Segment-level human files may have several "
                    "rows per (system, seg_id): they are averaged. At system level a human file of "
                    "segment scores gives each system the mean over its judged segments (WMT), and "
                    "a metric file of segment scores the mean over all segments.",
        epilog="examples: mtscore correlate --metric bleu.tsv --human da.tsv --level system "
               "--method kendall --resamples 1000 --seed 0;  mtscore correlate --metric seg.tsv "
               "--human da-seg.tsv --level segment --method accuracy --grouping item")
    p.add_argument("--metric", required=True, metavar="FILE", help="metric scores (TSV)")
    p.add_argument("--human", required=True, metavar="FILE", help="human scores (TSV)")
    p.add_argument("--level", choices=("system", "segment"), default="system",
                   help="system: one score per system (default); segment: one per system and "
                        "segment")
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
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0; 0 is a seed)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="confidence level of the interval (default 0.95)")
    add_output_options(p, default_width=4)
    p.set_defaults(func=run)


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value


def read_scores(path: str) -> tuple[int, list[tuple[str, int | None, float, int]]]:
    """Rows (system, seg_id or None, score, line) of a score TSV, and its number of columns."""
    lines = read_lines(path)
    rows: list[tuple[str, int | None, float, int]] = []
    width = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if width is None:
            if len(fields) not in (2, 3):
                raise InputError(f"expected 2 columns (system, score) or 3 (system, seg_id, "
                                 f"score), found {len(fields)}", source=path, line=number)
            width = len(fields)
            if _number(fields[-1]) is None and number == 1:
                continue  # header
        if len(fields) != width:
            raise InputError(f"expected {width} tab-separated columns like line 1, found "
                             f"{len(fields)}", source=path, line=number)
        system = fields[0].strip()
        if not system:
            raise InputError("empty system name", source=path, line=number)
        score = _number(fields[-1])
        if score is None or math.isinf(score):
            raise InputError(f"score {fields[-1]!r} is not a number", source=path, line=number)
        seg = None
        if width == 3:
            try:
                seg = int(fields[1])
            except ValueError:
                raise InputError(f"seg_id {fields[1]!r} is not an integer", source=path,
                                 line=number) from None
            if seg < 1:
                raise InputError(f"seg_id {seg} is out of range (seg ids start at 1)",
                                 source=path, line=number)
        rows.append((system, seg, score, number))
    if width is None or not rows:
        raise InputError("no scores", source=path)
    return width, rows


def _system_scores(path: str, rows: list[tuple[str, int | None, float, int]]) -> dict[str, float]:
    out: dict[str, float] = {}
    for system, _, score, line in rows:
        if system in out:
            raise InputError(f"system {system!r} appears twice", source=path, line=line)
        if math.isnan(score):
            raise InputError("score is NaN", source=path, line=line)
        out[system] = score
    return out


def _matrix(rows: list[tuple[str, int | None, float, int]], systems: list[str], n: int,
            path: str, average: bool) -> np.ndarray:
    index = {s: k for k, s in enumerate(systems)}
    sums = np.zeros((len(systems), n))
    counts = np.zeros((len(systems), n))
    for system, seg, score, line in rows:
        assert seg is not None
        if seg > n:
            raise InputError(f"seg_id {seg} is out of range 1..{n} (the metric file's segments)",
                             source=path, line=line)
        if math.isnan(score):
            continue
        k = index[system]
        if counts[k, seg - 1] and not average:
            raise InputError(f"system {system!r}, seg_id {seg} appears twice", source=path,
                             line=line)
        sums[k, seg - 1] += score
        counts[k, seg - 1] += 1
    with np.errstate(invalid="ignore"):
        return np.where(counts > 0, sums / np.where(counts > 0, counts, 1), np.nan)


def _check_systems(metric_systems: list[str], human_systems: list[str], metric_path: str
                   ) -> tuple[list[str], list[str]]:
    missing = [s for s in human_systems if s not in metric_systems]
    if missing:
        raise InputError(f"no metric score for system(s) {', '.join(missing)} (they have human "
                         "scores)", source=metric_path)
    dropped = [s for s in metric_systems if s not in human_systems]
    return [s for s in metric_systems if s in human_systems], dropped


def run(args: argparse.Namespace) -> int:
    m_width, m_rows = read_scores(args.metric)
    h_width, h_rows = read_scores(args.human)
    if m_width == 3 and h_width == 2:
        raise InputError(f"the metric file has segment scores but the human file {args.human} "
                         "has system scores; give human scores per segment too",
                         source=args.metric)
    if args.level == "segment" and m_width == 2:
        raise InputError("segment level needs 'system<TAB>seg_id<TAB>score' files",
                         source=args.metric)
    if args.epsilon is not None and not (args.method == "accuracy" and args.level == "segment"):
        raise InputError("--epsilon applies to --method accuracy at --level segment only")
    if args.grouping is not None and args.level == "system":
        raise InputError("--grouping applies to --level segment only")
    m_systems = list(dict.fromkeys(r[0] for r in m_rows))
    h_systems = list(dict.fromkeys(r[0] for r in h_rows))
    systems, dropped = _check_systems(m_systems, h_systems, args.metric)
    result: CorrelationResult
    if m_width == 2:
        metric_scores = _system_scores(args.metric, m_rows)
        if h_width == 3:  # WMT's system score: the mean over the judged segments
            sums: dict[str, list[float]] = {}
            for system, _, score, _ in h_rows:
                if not math.isnan(score):
                    sums.setdefault(system, []).append(score)
            human_scores = {s: float(np.mean(v)) for s, v in sums.items()}
            systems = [s for s in systems if s in human_scores]
        else:
            human_scores = _system_scores(args.human, h_rows)
        m = {s: metric_scores[s] for s in systems}
        h = {s: human_scores[s] for s in systems}
        result = system_correlation_ci_over_systems(m, h, args.method, args.resamples, args.seed,
                                                    args.confidence) \
            if args.resamples else system_correlation(m, h, args.method)
    else:
        n = max(r[1] or 0 for r in m_rows)
        metric = _matrix([r for r in m_rows if r[0] in systems], systems, n, args.metric, False)
        human = _matrix([r for r in h_rows], systems, n, args.human, True)
        judged = ~np.isnan(human)
        if np.isnan(metric[judged]).any():
            k, i = map(int, np.argwhere(judged & np.isnan(metric))[0])
            raise InputError(f"no metric score for system {systems[k]!r}, seg_id {i + 1}, which "
                             "has a human score", source=args.metric)
        if args.level == "system":
            if np.isnan(metric).any():
                k, i = map(int, np.argwhere(np.isnan(metric))[0])
                raise InputError(f"no score for system {systems[k]!r}, seg_id {i + 1}: a system "
                                 "score is the mean over every segment", source=args.metric)
            if args.resamples:
                result = system_correlation_ci_from_segments(metric, human, systems, args.method,
                                                             args.resamples, args.seed,
                                                             args.confidence)
            else:
                result = system_correlation(
                    dict(zip(systems, metric.mean(axis=1))),
                    {s: float(np.nanmean(row)) if judged[k].any() else math.nan
                     for k, (s, row) in enumerate(zip(systems, human))}, args.method)
        else:
            grouping = args.grouping or ("item" if args.method == "accuracy" else "system")
            result = segment_correlation_ci(metric, human, args.method, grouping, args.resamples,
                                            args.seed, args.confidence, args.epsilon) \
                if args.resamples else segment_correlation(metric, human, args.method, grouping,
                                                           args.epsilon)
    table = result.table(_label(args.metric))
    notes = table.notes
    if dropped:
        notes += (f"left out (no human scores): {', '.join(dropped)}",)
    emit(Table(table.columns, table.rows, title="correlation with human scores", notes=notes), args)
    return 0


def _label(path: str) -> str:
    import os
    base = os.path.basename(path)
    return base[:-4] if base.endswith(".tsv") else base
