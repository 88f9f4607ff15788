"""``mtscore correlate``: correlation of metric scores with human scores, read from TSV files.

Each file is ``system<TAB>score`` (system level) or ``system<TAB>seg_id<TAB>score`` (segment
level; seg_id is the 1-based line number). A first line whose score is not a number is a header.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..io.text import read_lines
from ..report.tables import Table
from ..stats.correlation import (
    GROUPINGS,
    METHODS,
    CorrelationResult,
    correlate,
    permutation_test,
    segment_correlation,
    segment_correlation_ci,
    system_correlation,
    system_correlation_ci_from_segments,
    system_correlation_ci_over_systems,
    williams_test,
)
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
    p.add_argument("--versus", metavar="FILE",
                   help="a second metric's scores (same layout): also test whether the two "
                        "metrics' correlations differ (Williams test for Pearson; paired "
                        "permutation test PERM-BOTH with --resamples permutations, default 1000)")
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


@dataclass(frozen=True)
class _Scores:
    """One metric file aligned with the human file: system vectors or systems × segments."""

    systems: list[str]
    dropped: list[str]
    metric: np.ndarray
    human: np.ndarray


def _load(args: argparse.Namespace, path: str, h_width: int,
          h_rows: list[tuple[str, int | None, float, int]],
          n_segments: int | None = None) -> _Scores:
    m_width, m_rows = read_scores(path)
    if m_width == 3 and h_width == 2:
        raise InputError(f"the metric file has segment scores but the human file {args.human} "
                         "has system scores; give human scores per segment too", source=path)
    if args.level == "segment" and m_width == 2:
        raise InputError("segment level needs 'system<TAB>seg_id<TAB>score' files", source=path)
    m_systems = list(dict.fromkeys(r[0] for r in m_rows))
    h_systems = list(dict.fromkeys(r[0] for r in h_rows))
    systems, dropped = _check_systems(m_systems, h_systems, path)
    if m_width == 2:
        metric_scores = _system_scores(path, m_rows)
        if h_width == 3:  # WMT's system score: the mean over the judged segments
            sums: dict[str, list[float]] = {}
            for system, _, score, _ in h_rows:
                if not math.isnan(score):
                    sums.setdefault(system, []).append(score)
            human_scores = {s: float(np.mean(v)) for s, v in sums.items()}
            systems = [s for s in systems if s in human_scores]
        else:
            human_scores = _system_scores(args.human, h_rows)
        return _Scores(systems, dropped, np.array([metric_scores[s] for s in systems]),
                       np.array([human_scores[s] for s in systems]))
    n = n_segments or max(r[1] or 0 for r in m_rows)
    metric = _matrix([r for r in m_rows if r[0] in systems], systems, n, path, False)
    human = _matrix(h_rows, systems, n, args.human, True)
    judged = ~np.isnan(human)
    if np.isnan(metric[judged]).any():
        k, i = map(int, np.argwhere(judged & np.isnan(metric))[0])
        raise InputError(f"no metric score for system {systems[k]!r}, seg_id {i + 1}, which "
                         "has a human score", source=path)
    if args.level == "system" and np.isnan(metric).any():
        k, i = map(int, np.argwhere(np.isnan(metric))[0])
        raise InputError(f"no score for system {systems[k]!r}, seg_id {i + 1}: a system "
                         "score is the mean over every segment", source=path)
    return _Scores(systems, dropped, metric, human)


def _correlation(args: argparse.Namespace, d: _Scores, grouping: str) -> CorrelationResult:
    if d.metric.ndim == 1:
        m, h = dict(zip(d.systems, d.metric)), dict(zip(d.systems, d.human))
        if args.resamples:
            return system_correlation_ci_over_systems(m, h, args.method, args.resamples,
                                                      args.seed, args.confidence)
        return system_correlation(m, h, args.method)
    if args.level == "system":
        if args.resamples:
            return system_correlation_ci_from_segments(d.metric, d.human, d.systems, args.method,
                                                       args.resamples, args.seed, args.confidence)
        judged = ~np.isnan(d.human)
        if not judged.any(axis=1).all():
            k = int(np.argmin(judged.any(axis=1)))
            raise InputError(f"system {d.systems[k]!r} has no judged segment", source=args.human)
        return system_correlation(dict(zip(d.systems, d.metric.mean(axis=1))),
                                  dict(zip(d.systems, np.nanmean(d.human, axis=1))), args.method)
    if args.resamples:
        return segment_correlation_ci(d.metric, d.human, args.method, grouping, args.resamples,
                                      args.seed, args.confidence, args.epsilon)
    return segment_correlation(d.metric, d.human, args.method, grouping, args.epsilon)


def _versus(args: argparse.Namespace, a: _Scores, b: _Scores, grouping: str) -> Table:
    """Williams test (one Pearson correlation each) and PERM-BOTH between two metrics."""
    if a.systems != b.systems:
        raise InputError(f"the two metric files score different systems ({', '.join(a.systems)} "
                         f"vs {', '.join(b.systems)})", source=args.versus)
    if a.metric.shape != b.metric.shape:
        raise InputError("the two metric files must both give system scores or both segment "
                         "scores", source=args.versus)
    human = a.human
    level = args.level
    name_a, name_b = _label(args.metric), _label(args.versus)
    notes = []
    williams = None
    if args.method == "pearson" and (a.metric.ndim == 1 or level == "system" or grouping == "none"):
        if a.metric.ndim == 1:
            x, y, h = a.metric, b.metric, human
        elif level == "system":
            x, y, h = a.metric.mean(axis=1), b.metric.mean(axis=1), np.nanmean(human, axis=1)
        else:
            ok = ~np.isnan(human)
            x, y, h = a.metric[ok], b.metric[ok], human[ok]
        r12, r13, r23 = (correlate(x, h, "pearson")[0], correlate(y, h, "pearson")[0],
                         correlate(x, y, "pearson")[0])
        if len(h) > 3 and not any(math.isnan(r) for r in (r12, r13, r23)):
            williams = williams_test(r13, r12, r23, len(h))  # one-sided: B > A
    else:
        notes.append("Williams test: only for one Pearson correlation (system level, or segment "
                     "level with grouping none)")
    k = args.resamples or 1000
    perm = permutation_test(human, a.metric, b.metric, args.method,
                            grouping if level == "segment" else "none", k, args.seed,
                            args.epsilon, level if a.metric.ndim == 2 else None)
    notes.append(perm.test + f"; {k} permutations, seed {args.seed}")
    if williams is not None:
        notes.append(f"{williams.method}: t = {williams.t:.4f}, df = {williams.df}, one-sided for "
                     f"{name_b} > {name_a}")
    return Table(("metric A", "metric B", "r A", "r B", "Williams p (B > A)",
                  "permutation p (B > A)"),
                 ((name_a, name_b, perm.statistic_a, perm.statistic_b,
                   None if williams is None else williams.p_value, perm.p_value),),
                 title="do the two metrics differ?", notes=tuple(notes))


def run(args: argparse.Namespace) -> int:
    h_width, h_rows = read_scores(args.human)
    if args.epsilon is not None and not (args.method == "accuracy" and args.level == "segment"):
        raise InputError("--epsilon applies to --method accuracy at --level segment only")
    if args.grouping is not None and args.level == "system":
        raise InputError("--grouping applies to --level segment only")
    grouping = args.grouping or ("item" if args.method == "accuracy" else "system")
    first = _load(args, args.metric, h_width, h_rows)
    tables = []
    loaded = [(args.metric, first)]
    if args.versus:
        n = first.metric.shape[1] if first.metric.ndim == 2 else None
        loaded.append((args.versus, _load(args, args.versus, h_width, h_rows, n)))
    rows: list[tuple[object, ...]] = []
    notes: list[str] = []
    columns: tuple[str, ...] = ()
    for path, d in loaded:
        table = _correlation(args, d, grouping).table(_label(path))
        rows.extend(table.rows)
        columns = table.columns
        notes = list(table.notes)
        if d.dropped:
            notes.append(f"{_label(path)}: left out (no human scores): {', '.join(d.dropped)}")
    tables.append(Table(columns, tuple(rows), title="correlation with human scores",
                        notes=tuple(notes)))
    if args.versus:
        tables.append(_versus(args, first, loaded[1][1], grouping))
    emit(tables, args)
    return 0


def _label(path: str) -> str:
    import os
    base = os.path.basename(path)
    return base.removesuffix(".tsv")
