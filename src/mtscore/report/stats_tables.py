"""Tables of statistics results (``mtscore compare``, ``mtscore correlate``): the statistics return
plain result objects; how they print is decided here, and rendered by :mod:`mtscore.report.tables`.

p-values are cells of text from :func:`mtscore.stats.defaults.p_text`: ``< 1/(R+1)`` at the floor of
R resamples (``< 0.001``), never ``0.000``.
"""

from __future__ import annotations

import math

from ..stats.blocks import BlockTestResult
from ..stats.correlation import CorrelationResult
from ..stats.defaults import p_text
from ..stats.metric_difference import PermutationResult, WilliamsResult
from ..stats.references import ReferenceSensitivity
from ..stats.resampling import BootstrapCI
from ..stats.significance import SignificanceResult
from .clusters import cluster_rule, inside_note
from .tables import Table


def _level(confidence: float | None) -> str:
    return f"{100 * (confidence or 0):g}%"


def significance_tables(result: SignificanceResult, alpha: float | None = None,
                        decimals: int = 4) -> list[Table]:
    """Scores with intervals (and clusters, when all pairs were tested and ``alpha`` is given),
    and the paired tests."""
    level = _level(result.confidence)
    clusters = {} if alpha is None or result.baseline is not None else {
        name: k + 1 for k, group in enumerate(result.clusters(alpha)) for name in group}
    columns: tuple[str, ...] = ("system", result.metric, "mean", f"{level} low", f"{level} high")
    notes = [result.test_signature]
    if clusters and alpha is not None:
        columns += ("cluster",)
        notes.append("cluster: " + cluster_rule(alpha, "Holm"))
        inside = inside_note(result.metric, result, result.clusters(alpha), alpha)
        if inside:
            notes.append(inside)
    rows = tuple((r["system"], r["score"], r["mean"], r["low"], r["high"],
                  *((clusters[r["system"]],) if clusters else ())) for r in result.records())
    scores = Table(columns, rows, title=f"{result.metric} with {level} confidence intervals",
                   notes=tuple(notes))
    pairs = Table(("system", "vs", "difference", "p", "p (Holm)"),
                  tuple((c.system, c.other, c.difference, p_text(c.pvalue, result.resamples, decimals),
                         p_text(c.p_holm, None, decimals)) for c in result.comparisons),
                  title="paired tests" + (f" against {result.baseline}" if result.baseline else
                                          " (all pairs)"),
                  notes=(result.describe(),))
    return [scores, pairs]


def interval_table(ci: BootstrapCI, name: str = "score") -> Table:
    level = _level(ci.confidence)
    return Table(("name", "score", "mean", f"{level} low", f"{level} high"),
                 ((name, ci.score, ci.mean, ci.ci_low, ci.ci_high),),
                 notes=(ci.describe(), ci.test_signature))


def correlation_row(result: CorrelationResult, name: str, decimals: int | None = 4
                    ) -> tuple[tuple[str, ...], tuple[object, ...]]:
    """Columns and row of one correlation; the statistic under its own name (r, rho, tau_b,
    accuracy); the p-value as text (``decimals``), or the number itself (``decimals=None``)."""
    columns = ["metric", "level", "method", "grouping", "n", result.statistic_name, "p"]
    row: list[object] = [name, result.level, result.method, result.grouping, result.n,
                         result.statistic, None if math.isnan(result.pvalue) else
                         result.pvalue if decimals is None else p_text(result.pvalue, None, decimals)]
    if result.ci_low is not None:
        level = _level(result.confidence)
        columns += [f"{level} low", f"{level} high"]
        row += [result.ci_low, result.ci_high]
    return tuple(columns), tuple(row)


def williams_table(result: WilliamsResult, a: str = "A", b: str = "B") -> Table:
    """``a`` is the metric of r12, ``b`` the metric of r13."""
    side = f"one-sided for r({a}) > r({b})" if result.one_sided else "two-sided"
    return Table(("metric A", "metric B", "r12", "r13", "r23", "n", "t", "df", "p"),
                 ((a, b, result.r12, result.r13, result.r23, result.n, result.statistic, result.df,
                   p_text(result.pvalue)),),
                 title="Williams test", notes=(f"{result.method}; {side}",))


def permutation_table(result: PermutationResult, a: str = "A", b: str = "B") -> Table:
    return Table(("metric A", "metric B", "stat A", "stat B", "delta", "p (B > A)"),
                 ((a, b, result.statistic_a, result.statistic_b, result.statistic,
                   p_text(result.pvalue, result.resamples)),),
                 title="permutation test",
                 notes=(f"{result.test}; {result.level}-level {result.method}, grouping "
                        f"{result.grouping}; {result.resamples} permutations, seed {result.seed}",))


def block_table(result: BlockTestResult) -> Table:
    return Table(("system", result.metric, "block mean", "block sd", "vs next", "t", "p"),
                 tuple((r.system, r.score, r.mean, r.sd, r.next_system, r.statistic,
                        None if r.pvalue is None else p_text(r.pvalue))
                       for r in result.rows),
                 title=f"{result.metric} on {result.blocks} blocks of {result.block_size} segments",
                 notes=(result.describe(), result.signature))


def reference_tables(result: ReferenceSensitivity) -> list[Table]:
    labels = ["+".join(s) for s in result.subsets]
    score_rows = tuple((name, *[None if math.isnan(v) else float(v) for v in result.scores[:, k]])
                       for k, name in enumerate(result.systems))
    scores = Table(("system", *labels), score_rows,
                   title=f"{result.metric} with every subset of the references",
                   notes=("–: the subset holds the system's own reference",))
    changes = Table(("references", "systems", "Kendall tau", "swapped pairs", "pairs"),
                    tuple(("+".join(c.references), c.systems, c.kendall_tau, c.swapped_pairs,
                           c.pairs) for c in result.comparisons),
                    title=f"rankings against all references ({'+'.join(result.subsets[-1])})",
                    notes=(f"{result.rankings_changed} of {len(result.comparisons)} subsets change "
                           "the ranking",))
    return [scores, changes]
