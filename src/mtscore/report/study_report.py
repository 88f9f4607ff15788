"""The HTML report of a study (``mtscore report``, ``mtscore demo``): the papers' figures and tables.

:func:`build_report` turns a :class:`~mtscore.study.Study` into a :class:`~mtscore.report.html.Report`
with these sections, each skipped (with a note) when the data do not allow it:

* scores — every system's corpus scores with bootstrap confidence intervals, and human scores;
* precision — modified n-gram precision by order (Papineni et al. 2002, §2.1, Fig. 2);
* human — each metric against the human system scores with the regression line and r
  (BLEU §5.3, Figs. 5–6) and the system-level correlations (METEOR paper, Table 1);
* normalized — metrics and human scores normalized by their range (BLEU §5.3, Fig. 7);
* segment — segment-level correlations (METEOR paper, Tables 2–5 and 8);
* significance — the significance matrix of all system pairs with clusters (paired bootstrap);
* blocks — BLEU's block test (BLEU §4.1, Tables 1–2);
* modules — METEOR's word-mapping module ablation (METEOR paper, Tables 6–7);
* references — scores and rankings by reference set;
* signatures — the signature of every number and the study's settings.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import OptionError
from ..metrics import registry
from ..progress import track
from ..report.tables import Table, split_columns
from ..version import __version__
from . import figures as F
from .clusters import cluster_rule, inside_note, pairs_inside
from .html import (
    Gallery,
    Paragraph,
    Report,
    Section,
    Signatures,
    save_figures,
    write_html,
)
from .study_tables import ALPHA, signature_notes, study_tables

if TYPE_CHECKING:
    from ..study import Study

#: metrics left out of the key table, the scores figure and the significance matrices (they are in
#: every other table): the unigram measures and NIST; every other metric, external ones included,
#: is shown (BLEU, chrF, chrF++, TER, METEOR, COMET …)
MINOR_METRICS = registry.minor_labels()


def key_metrics(study: Study) -> list[str]:
    """The metrics of the key table, the scores figure and the significance matrices."""
    return [m for m in study.metrics if m not in MINOR_METRICS] or [study.metrics[0]]


def _human_order(study: Study) -> list[str]:
    """Systems by human score (best first), unjudged ones after, by the first metric."""
    human = study.human_scores.get(study.human_kind, {})
    first = study.metrics[0]

    def key(s: str) -> tuple[float, float, str]:
        h = human.get(s, math.nan)
        return (-(h if not math.isnan(h) else -math.inf), -study.corpus_scores[first][s], s)

    return sorted(study.systems, key=key)


def _human_label(kind: str) -> str:
    return f"human ({kind})"


def _clusters(study: Study, metric: str) -> list[list[str]]:
    res = study.significance.get(metric)
    if res is None or len(res.systems) < 2:
        return []
    return [list(c) for c in res.clusters(alpha=ALPHA, corrected=True)]


def resolution_note(res: Any, alpha: float = ALPHA) -> str | None:
    """Why no difference can be significant, when that is a property of the test's settings.

    A resampling p-value is at least 1/(R + 1) with R resamples (or trials); Holm's correction
    multiplies the smallest p-value of m comparisons by m. If m/(R + 1) ≥ α, nothing can be
    significant, whatever the systems: more resamples are needed (at least ⌈m/α⌉).
    """
    m = len(res.comparisons)
    if m == 0 or m / (res.resamples + 1) < alpha:
        return None
    need = math.ceil(m / alpha)
    return (f"With {res.resamples} resamples the smallest possible p-value is 1/{res.resamples + 1}, "
            f"and Holm's correction over {m} comparisons multiplies it by {m}: no difference can "
            f"reach p < {alpha:g}, whatever the systems. Use at least {need} resamples "
            f"(--resamples {need}) for {res.metric} to separate any systems.")


def key_table(study: Study) -> Table:
    """The table a reader wants first: systems (best human score first), human score, and for
    BLEU and METEOR (or the first metric) the score, its confidence interval and its cluster."""
    shown = key_metrics(study)
    kind = study.human_kind
    has_human = bool(study.human_scores.get(kind))
    own_refs = len({study.reference_sets[s] for s in study.systems}) > 1
    columns: list[str] = ["system"] + (["refs"] if own_refs else []) + \
        ([_human_label(kind)] if has_human else [])
    level = ""
    for m in shown:
        res = study.significance.get(m)
        if res is not None:
            level = f"{100 * res.confidence:g}%"
            columns += [m, f"{m} low", f"{m} high", "cluster"]
        else:
            columns.append(m)
    rows = []
    cluster_of = {m: {s: i + 1 for i, c in enumerate(_clusters(study, m)) for s in c} for m in shown}
    for s in _human_order(study):
        row: list[Any] = [s] + (["+".join(study.reference_sets[s])] if own_refs else [])
        if has_human:
            h = study.human_scores[kind].get(s)
            row.append(None if h is None or math.isnan(h) else h)
        for m in shown:
            row.append(study.corpus_scores[m][s])
            res = study.significance.get(m)
            if res is not None:
                ci = study.interval(m, s)
                row += [None if ci is None else ci.ci_low, None if ci is None else ci.ci_high,
                        cluster_of[m].get(s)]
        rows.append(tuple(row))
    notes = []
    if has_human:
        notes.append(f"sorted by human {kind} score (mean of the judged segments)")
    if any(m in study.significance for m in shown):
        res = next(study.significance[m] for m in shown if m in study.significance)
        notes.append(f"low, high: {level} confidence interval, {res.intervals[0].method}, "
                     f"{res.resamples} resamples, seed {res.seed}; cluster (1 = best): "
                     + cluster_rule(ALPHA))
        notes += [n for m in shown if m in study.significance
                  if (n := inside_note(m, study.significance[m], _clusters(study, m), ALPHA))]
    apart = [s for s in study.systems if any(s in d for d in study.intervals_apart.values())]
    if apart:
        notes.append(f"{', '.join(apart)}: human translation, scored against the other references "
                     "and set apart from the machine ranking (no cluster; not in the Holm family)")
    lower = [m for m in shown if not study.better(m)]
    if lower:
        notes.append(f"{', '.join(lower)}: lower is better (an error rate); its cluster 1 holds "
                     "the lowest scores")
    if own_refs:
        notes.append("refs: the references each row is scored against; its signature below")
    notes += signature_notes(study, [m for m in shown if m in study.signatures])
    return Table(tuple(columns), tuple(rows), title=f"{study.dataset}: systems, human scores and "
                 f"metrics ({study.segments} segments)", notes=tuple(notes))


def key_tables(study: Study, width: int, limit: int = 100) -> list[Table]:
    """:func:`key_table` cut into tables of at most ``limit`` text columns (a terminal): each
    repeats the system, refs and human columns and takes whole metrics (score, interval,
    cluster)."""
    t = key_table(study)
    shown = key_metrics(study)
    starts = [t.columns.index(m) for m in shown]
    groups = [list(range(a, b)) for a, b in zip(starts, [*starts[1:], len(t.columns)])]
    return split_columns(t, starts[0], groups, width, limit)


def correlation_summary(study: Study) -> Table | None:
    """System-level Pearson r of every metric with the human scores (with its interval), without
    the human translations when some are judged, and the segment-level r."""
    kind = study.human_kind
    corr = study.system_correlations.get(kind, {})
    if not corr:
        return None
    machine = study.machine_correlations
    rows = []
    seg = study.segment_correlations.get(kind, {})
    for m in study.metrics:
        if m not in corr:
            continue
        c = corr[m]
        s = seg.get(m, {}).get("mean")
        rows.append((m, c.statistic, c.ci_low, c.ci_high, *([machine.get(m)] if machine else []),
                     None if s is None else s.statistic))
    first = next(iter(corr.values()))
    level = f"{100 * (first.confidence or 0.95):g}%"
    notes = [first.describe(), "segment r: within each system, mean over systems"]
    if machine:
        notes.append("system r without human: over the machine systems only (" +
                     ", ".join(s for s in study.judged_systems if s in study.human_systems) +
                     " left out: a human translation scored against another reference is an "
                     "outlier that can move r either way)")
    lower = [m for m in study.metrics if m in corr and not study.better(m)]
    if lower:
        notes.append(f"{', '.join(lower)}: lower is better; agreement with the judges shows as a "
                     "negative r")
    return Table(("metric", "system r", f"{level} low", f"{level} high",
                  *(["system r without human"] if machine else []), "segment r"), tuple(rows),
                 title=f"Correlation with human {kind} scores (Pearson)", notes=tuple(notes))


def _agreement(study: Study, metric: str, r: float) -> float:
    """r with the sign that means agreement (flipped for an error rate such as TER)."""
    return r if study.better(metric) else -r


def _correlation_lines(study: Study) -> list[str]:
    kind = study.human_kind
    corr = {m: c for m, c in study.system_correlations.get(kind, {}).items()
            if m in study.metrics and math.isfinite(c.statistic)}
    out = []
    if corr:
        main = sorted(corr, key=lambda m: -_agreement(study, m, corr[m].statistic))
        best = corr[main[0]]
        text = ", ".join(f"{m} {corr[m].statistic:.2f}" for m in main)
        out.append(f"System-level Pearson r with human {kind} scores over {best.n} systems: {text}. "
                   f"The {100 * (best.confidence or 0.95):g}% interval of the best, {main[0]}, is "
                   f"[{best.ci_low:.2f}, {best.ci_high:.2f}].")
        machine = {m: r for m, r in study.machine_correlations.items() if math.isfinite(r)}
        if machine:
            text = ", ".join(f"{m} {machine[m]:.2f}" for m in main if m in machine)
            out.append(f"Without the human translations ({', '.join(study.human_systems)}), over "
                       f"the {best.n - len([s for s in study.judged_systems if s in study.human_systems])} "
                       f"machine systems: {text}.")
        if any(not study.better(m) for m in corr):
            out.append("TER and other error rates are lower-is-better: their r is negative when "
                       "they agree with the judges; \"best\" above reads r with that sign flipped.")
    seg = study.segment_correlations.get(kind, {})
    means = {m: c.statistic for m, v in seg.items() if m in study.metrics
             and (c := v.get("mean")) is not None and math.isfinite(c.statistic)}
    if means:
        m = max(means, key=lambda k: _agreement(study, k, means[k]))
        out.append(f"Segment level, the best metric is {m} (mean r within systems = {means[m]:.3f}); "
                   "segment-level correlations are far lower than system-level ones.")
    return out


# ---- the report --------------------------------------------------------------------------------


def build_report(study: Study, *, title: str | None = None) -> Report:
    """The report of ``study``; figures are drawn here (matplotlib required, see
    :func:`~mtscore.report.figures.require_matplotlib`)."""
    F.require_matplotlib()
    builders: list[Callable[[], Section | None]] = [
        lambda: _scores_section(study), lambda: _precision_section(study),
        lambda: _human_section(study), lambda: _normalized_section(study),
        lambda: _segment_section(study), lambda: _significance_section(study),
        lambda: _blocks_section(study), lambda: _modules_section(study),
        lambda: _references_section(study), lambda: _signatures_section(study)]
    sections = [s for s in (b() for b in track(builders, total=len(builders), desc="report"))
                if s is not None]
    judged = len(study.judged_systems)
    facts = [("data set", study.dataset), ("segments", str(study.segments)),
             ("systems", str(len(study.systems))),
             ("references", ", ".join(study.references)),
             ("human scores", f"{judged} systems, {study.human_kind}" if judged else "none"),
             ("resampling", f"{study.settings.get('resamples')} resamples (intervals), "
                            f"{study.settings.get('paired bootstrap resamples')} (paired bootstrap), "
                            f"seed {study.settings.get('seed')}")]
    return Report(title=title or f"mtscore study: {study.dataset}", sections=tuple(sections),
                  facts=tuple(facts), summary=tuple(_summary(study)),
                  footer=f"mtscore {__version__} — BLEU (Papineni et al., 2002), METEOR (Banerjee & "
                         "Lavie, 2005). Every number carries its signature (last section).")


def _summary(study: Study) -> list[str]:
    out = []
    kind = study.human_kind
    human = {s: v for s, v in study.human_scores.get(kind, {}).items() if not math.isnan(v)}
    if human:
        ranked = sorted(human, key=lambda s: -human[s])
        line = f"Best system by human judgment: {ranked[0]} ({kind} = {human[ranked[0]]:.3f})"
        if len(ranked) > 1:
            line += f", then {ranked[1]} ({human[ranked[1]]:.3f})"
        out.append(line + ".")
    if any(m in study.significance for m in key_metrics(study)):
        out.append("Clusters: the ranking is cut only where every system above is significantly "
                   f"better than every system below (paired bootstrap, Holm, p < {ALPHA:g}); two "
                   "systems of one cluster can still differ significantly.")
    for m in (m for m in key_metrics(study) if m in study.significance):
        clusters = _clusters(study, m)
        res = study.significance[m]
        note = resolution_note(res)
        if clusters and note is not None:
            out.append(f"{m}: significance is undecidable with these settings: {note}")
        elif clusters:
            top = clusters[0]
            if len(top) == 1:
                out.append(f"{m}: {top[0]} is significantly better than every other ranked system.")
            else:
                line = (f"{m}: no cut separates the top {len(top)} of {len(res.systems)} ranked "
                        f"systems ({', '.join(top)}).")
                inside = [x for x in pairs_inside(res, clusters, ALPHA) if x.cluster == 1]
                if inside:
                    line += " Inside it, " + "; ".join(
                        f"{x.better} > {x.worse} (p = {x.p:.4f})" for x in inside[:3]) + \
                        (f" and {len(inside) - 3} more pairs" if len(inside) > 3 else "") + \
                        " differ significantly."
                out.append(line)
    out += _correlation_lines(study)
    out.extend(study.notes)
    return out


def _intervals(study: Study, metric: str) -> tuple[list[float], list[float]] | None:
    if metric not in study.significance:
        return None
    by = {s: ci for s in study.systems if (ci := study.interval(metric, s)) is not None}
    return ([by[s].ci_low if s in by else math.nan for s in study.systems],
            [by[s].ci_high if s in by else math.nan for s in study.systems])


def _scores_section(study: Study) -> Section:
    tables = study_tables(study)
    systems = list(study.systems)
    kind = study.human_kind
    panels: dict[str, list[float]] = {}
    has_human = bool(study.human_scores.get(kind))
    if has_human:
        panels[_human_label(kind)] = [study.human_scores[kind].get(s, math.nan) for s in systems]
    low, high = {}, {}
    confidence = None
    for m in key_metrics(study):
        panels[m] = [study.corpus_scores[m][s] for s in systems]
        ci = _intervals(study, m)
        if ci is not None:
            low[m], high[m] = ci
            confidence = study.significance[m].confidence
    fig = F.system_scores_figure(systems, panels, low, high, order=_human_order(study),
                                 confidence=confidence, highlight=tuple(study.human_systems),
                                 title="System scores")
    blocks: list[Any] = [fig, key_table(study)]
    if "corpus" in tables:
        blocks.append(tables["corpus"])
    intro = ("Every system's corpus score under the papers' metrics, with its bootstrap confidence "
             "interval (segments resampled)" +
             (", next to the human score. Systems are sorted by human score." if has_human
              else f". Systems are sorted by {study.metrics[0]}."))
    intro += " Every metric's score is in the second table."
    if study.human_systems:
        intro += (" Human translations judged as systems (" + ", ".join(study.human_systems) +
                  ") are scored against the other references only, so their scores are not "
                  "comparable with the others'.")
    return Section("scores", "Scores", tuple(blocks), intro=intro)


def _precision_section(study: Study) -> Section | None:
    tables = study_tables(study)
    if not study.bleu_precisions:
        return None
    systems = [s for s in study.systems if s in study.bleu_precisions]
    notes = {s: f"human, refs {'+'.join(study.reference_sets[s])}" for s in study.human_systems
             if s in systems}
    fig = F.precision_by_order_figure(systems, [study.bleu_precisions[s] for s in systems],
                                      highlight=tuple(study.human_systems), notes=notes)
    blocks: list[Any] = [fig]
    if "bleu" in tables:
        blocks.append(tables["bleu"])
    return Section("precision", "BLEU n-gram precision", tuple(blocks), intro=(
        "BLEU's modified n-gram precision of each system for n = 1 to 4 (Papineni et al., 2002, "
        "§2.1, Fig. 2). Precision falls with n for every system; differences between systems grow "
        "with n." + (" Human translations (dashed) are scored against fewer references than the "
                     "machine translations, which lowers their precision." if notes else "")))


def _human_section(study: Study) -> Section | None:
    tables = study_tables(study)
    kind = study.human_kind
    human = study.human_scores.get(kind, {})
    if len(human) < 3:
        why = ("The data set has no human scores" if not human else
               f"Only {len(human)} systems have human scores; at least 3 are needed")
        return Section("human", "Metrics vs human judgments",
                       (Paragraph(why + " for metric-vs-human plots (BLEU Figs. 5–7) and "
                                  "system-level correlations.", kind="note"),))
    systems = list(study.judged_systems)
    y = [human[s] for s in systems]
    figs = []
    for k, m in enumerate(study.metrics):
        x = [study.corpus_scores[m][s] for s in systems]
        figs.append(F.metric_human_figure(systems, x, y, metric=m, human=_human_label(kind),
                                          highlight=tuple(study.human_systems), colour_index=k,
                                          title=f"{m} vs human judgments"))
    blocks: list[Any] = [Gallery(tuple(figs), caption=(
        f"Each point is a system: its corpus metric score (x) and its mean human {kind} score (y); "
        "line: least-squares fit; r: Pearson correlation over the systems drawn. Hollow points: "
        "human translations scored as systems."))]
    if "system" in tables:
        blocks.append(tables["system"])
    return Section("human", "Metrics vs human judgments", tuple(blocks), intro=(
        f"Each metric's corpus score against the human {kind} score of every judged system, with "
        "the least-squares line and Pearson's r (Papineni et al., 2002, §5.3, Figs. 5–6). The table "
        "gives the system-level correlations with bootstrap intervals (Banerjee & Lavie, 2005, §4.2, "
        "Table 1). With few systems, intervals are wide: read r with its interval."))


def _normalized_section(study: Study) -> Section | None:
    kinds = [k for k in (study.human_kind, *(k for k in ("z", "raw") if k != study.human_kind))
             if study.human_scores.get(k)]
    if not kinds:
        return None
    systems = list(study.judged_systems)
    series: dict[str, list[float]] = {}
    for k in kinds:
        series[_human_label(k)] = [study.human_scores[k][s] for s in systems]
    shown = key_metrics(study)
    for m in shown:
        series[m] = [study.corpus_scores[m][s] for s in systems]
    order = sorted(systems, key=lambda s: -study.human_scores[kinds[0]][s])
    fig = F.normalized_comparison_figure(systems, series, order=order)
    norm_rows = tuple((s, *(float(F.range_normalize(v)[systems.index(s)]) for v in series.values()))
                      for s in order)
    table = Table(("system", *series), norm_rows, title="Normalized scores (0 = worst, 1 = best system)",
                  notes=("(x − min) / (max − min) over the judged systems, per column",))
    return Section("normalized", "Metrics and humans, normalized", (fig, table), intro=(
        "Human and metric scores linearly normalized by their range over the systems, as in "
        "Papineni et al. (2002), §5.3, Fig. 7: where a metric's line leaves the human line, the "
        "metric and the judges disagree on the order of those systems."))


def _segment_section(study: Study) -> Section | None:
    tables = study_tables(study)
    blocks: list[Any] = []
    summary = correlation_summary(study)
    if summary is not None:
        blocks.append(summary)
    for t in ("segment", "human"):
        if t in tables:
            blocks.append(tables[t])
    if not blocks:
        return None
    return Section("segment", "Segment-level correlation", tuple(blocks), intro=(
        "Pearson correlation between segment scores and human segment scores within each system, "
        "then averaged over systems (Banerjee & Lavie, 2005, §4.3, Tables 2–5); raw against "
        "normalized human scores (§4.5, Table 8)."))


def _significance_section(study: Study) -> Section | None:
    tables = study_tables(study)
    if not study.significance:
        return None
    blocks: list[Any] = []
    for m in [m for m in key_metrics(study) if m in study.significance]:
        res = study.significance[m]
        ranking = res.ranking()
        index = [res.systems.index(s) for s in ranking]
        p = res.p_matrix(corrected=True)[np.ix_(index, index)]
        scores = np.asarray(res.scores, dtype=np.float64)[index]
        clusters = _clusters(study, m)
        blocks.append(F.significance_figure(ranking, p, scores[:, None] - scores[None, :], alpha=ALPHA,
                                            clusters=clusters, metric=m,
                                            test="paired bootstrap, Holm-adjusted p"))
        blocks.append(Paragraph(f"{m} clusters (best first): " + "; ".join(
            f"{i + 1}: {', '.join(c)}" for i, c in enumerate(clusters)) + "."))
        inside = inside_note(m, res, clusters, ALPHA)
        if inside is not None:
            blocks.append(Paragraph(inside + ".", kind="note"))
        note = resolution_note(res)
        if note is not None:
            blocks.append(Paragraph(note, kind="note"))
    if "significance" in tables:
        blocks.append(tables["significance"])
    return Section("significance", "Significance of system differences", tuple(blocks), intro=(
        "Paired bootstrap resampling (Koehn, 2004) of every pair of systems, p-values adjusted with "
        "Holm's method over all pairs. Clusters: the systems in rank order, cut where every system "
        "above is significantly better than every system below; two systems of one cluster can "
        "still differ significantly (a coloured cell inside a frame; listed under the matrix)." +
        (" Human translations (" + ", ".join(sorted({s for d in study.intervals_apart.values()
                                                    for s in d})) +
         ") are set apart: not ranked, not in the Holm family (--rank-human to rank them)."
         if study.intervals_apart and any(study.intervals_apart.values()) else "")))


def _blocks_section(study: Study) -> Section | None:
    tables = [study_tables(study)[t] for t in ("blocks", "ttest") if t in study_tables(study)]
    if not tables:
        return None
    b = study.blocks
    blocks: list[Any] = []
    if b is not None:
        blocks.append(F.block_scores_figure([r.system for r in b.rows], [r.block_scores for r in b.rows],
                                            metric=b.metric, block_size=b.block_size,
                                            highlight=tuple(study.human_systems)))
    return Section("blocks", "Block test (BLEU)", tuple(blocks + tables), intro=(
        "Papineni et al. (2002), §4.1, Tables 1–2: the corpus is cut into blocks of 25 segments; "
        "BLEU's mean and standard deviation over blocks, and paired t-tests between systems adjacent "
        "in the ranking."))


def _modules_section(study: Study) -> Section:
    tables = study_tables(study)
    if "modules" in tables:
        return Section("modules", "METEOR module ablation", (tables["modules"],), intro=(
            "METEOR with growing word-mapping modules: exact, then Porter stems, WordNet stems, "
            "WordNet synonyms (Banerjee & Lavie, 2005, §4.4, Tables 6–7)."))
    why = [n for n in study.notes if "METEOR" in n or "module" in n] or \
        ["the module ablation was not computed for this study"]
    return Section("modules", "METEOR module ablation", tuple(Paragraph(n, kind="note") for n in why))


def _references_section(study: Study) -> Section | None:
    tables = study_tables(study)
    if "references" not in tables:
        return None
    return Section("references", "Reference sets", (tables["references"],), intro=(
        "BLEU with each single reference and every combination of references: more references "
        "raise scores (Papineni et al., 2002, §2 and §4), and the ranking may change."))


def _signatures_section(study: Study) -> Section:
    lines: list[tuple[str, str]] = [(k, v) for k, v in study.signatures.items()]
    for m, res in study.significance.items():
        lines.append((f"{m} significance", res.describe()))
    if study.blocks is not None:
        lines.append(("block test", f"{study.blocks.describe()}; {study.blocks.signature}"))
    corr = study.system_correlations.get(study.human_kind, {})
    if corr:
        lines.append(("system correlation", next(iter(corr.values())).describe()))
    settings = Table(("setting", "value"), tuple((k, _text(v)) for k, v in study.settings.items()),
                     title="Settings of the study")
    blocks: list[Any] = [Signatures(tuple(lines)), settings]
    credit = _data_credit(study)
    if credit:
        blocks.append(Paragraph("Data: " + credit))
    return Section("signatures", "Signatures and settings", tuple(blocks), intro=(
        "Every score above was computed with these settings; a signature records everything that "
        "can change a number (metric, version, tokenizer, case, references, resampling)."))


def _data_credit(study: Study) -> str:
    """The test set and credit lines of the data set's meta.json, if it has them."""
    import json

    try:
        meta = json.loads((Path(study.path) / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    if not isinstance(meta, dict):
        return ""
    parts = [str(meta[k]) for k in ("test_set", "credit") if isinstance(meta.get(k), str)]
    return " ".join(p if p.endswith(".") else p + "." for p in parts)


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)


@dataclass(frozen=True)
class ReportFiles:
    """What :func:`write_report` wrote."""

    html: Path
    figures: tuple[Path, ...]


def write_report(study: Study, path: str | os.PathLike[str], *,
                 figures_dir: str | os.PathLike[str] | None = None,
                 figure_formats: Sequence[str] = ("png", "svg"), embed: str = "svg", width: int = 2,
                 title: str | None = None) -> ReportFiles:
    """Build the report of ``study``, write it as one self-contained HTML file at ``path`` and,
    with ``figures_dir``, every figure as ``<name>.png`` / ``<name>.svg`` there."""
    for fmt in (embed, *(figure_formats if figures_dir is not None else ())):
        if fmt not in F.FIGURE_FORMATS:
            raise OptionError("figure format", fmt, F.FIGURE_FORMATS)
    report = build_report(study, title=title)
    figs = report.figures()
    formats = [embed] + [f for f in (figure_formats if figures_dir is not None else ()) if f != embed]
    for fig in track(figs, total=len(figs), desc="figures"):
        for fmt in formats:
            fig.data(fmt)  # rendered once, kept
    html = write_html(report, path, width=width, figure_format=embed)
    saved = save_figures(figs, figures_dir, figure_formats) if figures_dir is not None else []
    return ReportFiles(html, tuple(saved))
