"""The study's tables, built from the numbers of a :class:`~mtscore.study.model.Study`, one function
per table id; and the study rendered as text, JSON, TSV, Markdown or LaTeX (``mtscore study``).

Each table's notes state its method, grouping, resample count and seed, and the signatures; what
the data could not support (``Study.table_notes``) is a note of its table. Metrics are read only
through the study's labels, scores and ``higher_is_better``: an error rate (TER) is sorted lowest
first and its correlations with human scores are negative when it agrees with the judges (said in
the notes).
"""

from __future__ import annotations

import json
import math
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import OptionError
from ..stats.defaults import p_text
from ..study.model import TABLE_IDS, Study, clean, lower_is_better_note
from .clusters import cluster_rule, inside_note
from .tables import Table, render


def order(study: Study) -> list[str]:
    """Systems by human score (best first) when there are human scores, else by the first metric
    (best first: lowest for an error rate)."""
    human = study.human_scores.get(study.human_kind, {})
    first = study.metrics[0]
    sign = -1.0 if study.better(first) else 1.0
    return sorted(study.systems, key=lambda s: (
        -(human[s] if s in human and not math.isnan(human[s]) else -math.inf),
        sign * study.corpus_scores[first][s], s))


def _refs(study: Study, system: str) -> str:
    return "+".join(study.reference_sets[system])


def signature_notes(study: Study, metrics: Sequence[str],
                    systems: Sequence[str] | None = None) -> list[str]:
    """One note per metric and distinct signature of ``systems`` (default: all): each row's own
    references (a human translation scored against fewer references has its own ``nrefs``)."""
    shown = list(study.systems if systems is None else systems)
    out: list[str] = []
    for m in metrics:
        groups: dict[str, list[str]] = {}
        for s in shown:
            groups.setdefault(study.signature_of(m, s), []).append(s)
        if len(groups) <= 1:
            out.extend(f"{m}: {sig}" for sig in groups or [study.signatures[m]])
            continue
        for sig, members in sorted(groups.items(), key=lambda g: -len(g[1])):
            refs = sorted({_refs(study, s) for s in members})
            who = ", ".join(members) if len(members) <= 3 else f"{len(members)} systems"
            out.append(f"{m} ({who}; refs {' / '.join(refs)}): {sig}")
    return out


def _stat(c: Any) -> float | None:
    return None if c is None else c.statistic


def _number(x: float | None) -> float | None:
    """None (shown as –) for a missing or NaN score."""
    return None if x is None or math.isnan(x) else x


def _direction_notes(study: Study, labels: Sequence[str]) -> tuple[str, ...]:
    note = lower_is_better_note(labels, study.higher_is_better)
    return (note,) if note else ()


def _with_notes(study: Study, table_id: str, table: Table) -> Table:
    """``table`` with the notes on what its section could not show."""
    extra = study.table_notes.get(table_id, ())
    if not extra:
        return table
    return Table(table.columns, table.rows, table.title, (*table.notes, *extra))


def corpus_table(study: Study) -> Table:
    rows = []
    for s in order(study):
        n = study.human_segment_scores.get(study.human_kind, {}).get(s)
        judged = int((~np.isnan(n)).sum()) if n is not None else 0
        rows.append((s, _refs(study, s), judged, _number(study.human_scores["raw"].get(s)),
                     _number(study.human_scores["z"].get(s)),
                     *(study.corpus_scores[m][s] for m in study.metrics)))
    notes = ["human raw/z: mean of the system's judged segments (– where none); refs: the "
             "references each system is scored against",
             *_direction_notes(study, study.metrics),
             *signature_notes(study, study.metrics)]
    return Table(("system", "refs", "judged", "human raw", "human z", *study.metrics), tuple(rows),
                 title="Corpus scores and human scores", notes=tuple(notes))


def bleu_table(study: Study) -> Table:
    rows = []
    for s in sorted(study.systems, key=lambda s: -study.corpus_scores["BLEU"][s]):
        r = study.corpus_results["BLEU"][s].to_dict()
        rows.append((s, _refs(study, s), r["score"], *r["precisions"], r["bp"], r["ratio"],
                     r["hyp_len"], r["ref_len"]))
    order_n = len(next(iter(study.bleu_precisions.values())))
    return Table(("system", "refs", "BLEU", *(f"p{n}" for n in range(1, order_n + 1)), "BP", "ratio",
                  "hyp_len", "ref_len"), tuple(rows),
                 title="BLEU (Papineni et al., 2002): modified n-gram precisions and brevity penalty",
                 notes=tuple(sig.split(": ", 1)[1] if sig.startswith("BLEU: ") else sig
                             for sig in signature_notes(study, ["BLEU"])))


def system_table(study: Study, kind: str, labels: Sequence[str], title: str) -> Table:
    rows, describe = [], ""
    for m in labels:
        c = study.system_correlations[kind][m]
        rk = study.system_rank_correlations[kind][m]
        rows.append((m, c.statistic, c.ci_low, c.ci_high, rk["spearman"], rk["kendall"], c.n))
        describe = c.describe()
    notes = (f"Pearson r between corpus metric scores and human {kind} system scores over "
             f"{len(study.judged_systems)} systems ({', '.join(study.judged_systems)}); {describe}",
             "Spearman ρ and Kendall τ_b: point values (scipy.stats)",
             *_direction_notes(study, labels))
    return Table(("metric", "Pearson r", "95% low", "95% high", "Spearman", "Kendall", "systems"),
                 tuple(rows), title=title, notes=notes)


def segment_table(study: Study, kind: str) -> Table:
    corr = study.segment_correlations[kind]
    labels = [m for m in study.metrics if m in corr]
    rows = []
    for s in study.judged_systems:
        judged = int((~np.isnan(study.human_segment_scores[kind][s])).sum())
        rows.append((s, judged, *(_stat(corr[m][s]) for m in labels)))
    rows.append(("mean", None, *(_stat(corr[m]["mean"]) for m in labels)))
    notes = ("Pearson r between segment metric scores and human segment scores within each system "
             "(judged segments only), then the mean over systems (Banerjee & Lavie, 2005, §4.3; "
             "grouping: system); – where undefined (constant scores)",
             f"segment-level BLEU: {study.signatures.get('BLEU (segment)', '')}",
             "segment-level scores of the other metrics: the metric on one segment's statistics "
             "(NIST with the information weights of the whole reference corpus; chrF, chrF++ and "
             "TER: their sentence scores; external metrics: the file's segment scores)",
             *_direction_notes(study, labels))
    return Table(("system", "judged", *labels), tuple(rows),
                 title=f"METEOR paper Tables 2–5: segment-level correlation with human {kind} scores",
                 notes=notes)


def modules_table(study: Study, kind: str) -> Table:
    rows = []
    describe = ""
    for m in study.module_metrics:
        c = study.system_correlations[kind].get(m)
        seg = study.segment_correlations.get(kind, {}).get(m, {}).get("mean")
        if c is None:
            continue
        rows.append((m, c.statistic, c.ci_low, c.ci_high, _stat(seg)))
        describe = c.describe()
    notes = (f"system level: {describe}", "segment level: Pearson within each system, mean over systems",
             *(f"{m}: {study.signatures[m]}" for m in study.module_metrics))
    return Table(("modules", "system r", "95% low", "95% high", "segment r"), tuple(rows),
                 title=f"METEOR paper Tables 6–7: word-mapping modules (human {kind} scores)",
                 notes=notes)


def human_table(study: Study) -> Table:
    rows = []
    for m in study.metrics:
        rows.append((m, *(study.system_correlations[k][m].statistic
                          if m in study.system_correlations.get(k, {}) else None for k in ("raw", "z")),
                     *(_stat(study.segment_correlations[k][m]["mean"])
                       if m in study.segment_correlations.get(k, {}) else None for k in ("raw", "z"))))
    notes = ("raw: mean 0–100 Direct Assessment scores; z: each judgment standardized by its rater's "
             "mean and standard deviation, then averaged (Banerjee & Lavie, 2005, §4.5)",
             "system: Pearson over systems; segment: Pearson within each system, mean over systems",
             *_direction_notes(study, study.metrics))
    return Table(("metric", "system r (raw)", "system r (z)", "segment r (raw)", "segment r (z)"),
                 tuple(rows), title="METEOR paper Table 8: raw vs normalized human scores", notes=notes)


def _block_notes(study: Study) -> tuple[str, ...]:
    b = study.blocks
    assert b is not None
    notes = [b.describe() + "; Papineni et al. (2002) use 20 blocks of 25 (500 segments)"]
    if study.segments > b.segments_used:
        notes.append(f"segments {b.segments_used + 1}–{study.segments} of {study.segments} are in "
                     "no block")
    notes.append(b.signature)
    return tuple(notes)


def blocks_table(study: Study) -> Table:
    b = study.blocks
    assert b is not None
    rows = tuple((r.system, r.score, r.mean, r.sd) for r in b.rows)
    return Table(("system", f"{b.metric} ({b.segments_used} segments)", "block mean", "block SD"), rows,
                 title=f"BLEU paper Table 1: {b.metric} on {b.blocks} blocks of {b.block_size} segments",
                 notes=(*_block_notes(study), "SD: sample standard deviation over blocks (n − 1)"))


def ttest_table(study: Study) -> Table:
    b = study.blocks
    assert b is not None
    rows = tuple((r.system, r.next_system, r.mean - next(x.mean for x in b.rows if x.system == r.next_system),
                  r.statistic, p_text(r.pvalue), b.blocks - 1) for r in b.rows if r.next_system is not None)
    return Table(("system", "vs", "mean difference", "t", "p", "df"), rows,
                 title=f"BLEU paper Table 2: paired t-statistics on {b.blocks} blocks",
                 notes=(*_block_notes(study),
                        "paired t-test (scipy.stats.ttest_rel, two-sided) of the block scores of "
                        "systems adjacent in the ranking; the paper calls t > 1.7 significant"))


#: the significance level of the clusters
ALPHA = 0.05


def significance_table(study: Study) -> Table:
    rows: list[tuple[Any, ...]] = []
    describe = ""
    inside = []
    for m, res in study.significance.items():
        describe = res.describe()
        clusters = res.clusters(ALPHA) if len(res.systems) > 1 else [list(res.systems)]
        cluster_of = {s: i + 1 for i, c in enumerate(clusters) for s in c}
        pmat = res.p_matrix(corrected=True)
        index = {s: k for k, s in enumerate(res.systems)}
        ranking = res.ranking()
        by_name = dict(zip(res.systems, zip(res.scores, res.intervals)))
        for rank, s in enumerate(ranking, start=1):
            score, ci = by_name[s]
            nxt = ranking[rank] if rank < len(ranking) else None
            p_next = float(pmat[index[s], index[nxt]]) if nxt else None
            rows.append((m, rank, s, score, ci.ci_low, ci.ci_high, cluster_of[s], p_next))
        rows += [(m, None, s, ci.score, ci.ci_low, ci.ci_high, None, None)
                 for s, ci in study.intervals_apart.get(m, {}).items()]
        note = inside_note(m, res, clusters, ALPHA)
        if note:
            inside.append(note)
    notes = [describe, "cluster: " + cluster_rule(ALPHA) + "; p vs next: Holm-adjusted p of the "
             "system against the next one", *inside,
             "rank 1 = best: the highest score, or the lowest for an error rate (TER)",
             "each system is scored against its own reference set (a human system against fewer "
             "references), as in the other tables"]
    apart = sorted({s for d in study.intervals_apart.values() for s in d})
    if apart:
        notes.append(f"{', '.join(apart)}: human translation, apart from the ranking (no rank, "
                     "cluster or test; not in the Holm family); its interval only, from the same "
                     "resamples")
    return Table(("metric", "rank", "system", "score", "95% low", "95% high", "cluster", "p vs next"),
                 tuple(rows), title="Pairwise significance: paired bootstrap resampling",
                 notes=tuple(notes))


def _ranks(scores: dict[str, float], better: bool) -> dict[str, int]:
    sign = -1.0 if better else 1.0
    return {s: i + 1 for i, s in enumerate(sorted(scores, key=lambda s: (sign * scores[s], s)))}


def references_table(study: Study) -> Table:
    rc = study.reference_counts
    assert rc is not None
    labels = ["+".join(s) for s in rc.subsets]
    first = study.metrics[0]
    default = study.corpus_scores[first] if rc.metric.upper() == first.upper() else {}
    better = study.better(first)
    ranks = [_ranks({s: float(v) for s, v in zip(rc.systems, rc.scores[j]) if not math.isnan(v)},
                    better) for j in range(len(rc.subsets))]
    default_ranks = _ranks(dict(default), better)
    rows = []
    for k, s in sorted(enumerate(rc.systems), key=lambda ks: (default_ranks.get(ks[1], 0), ks[1])):
        cells: list[Any] = [s, _refs(study, s), default.get(s), default_ranks.get(s)]
        for j in range(len(rc.subsets)):
            v = float(rc.scores[j, k])
            cells += [None if math.isnan(v) else v, ranks[j].get(s)]
        rows.append(tuple(cells))
    columns = ["system", "refs", "default", "rank"]
    for label in labels:
        columns += [label, f"rank {label}"]
    notes = [f"{rc.metric} against each subset of the references; default: the study's protocol "
             "(all references except a human system's own); – where a human system would be scored "
             "against its own reference"]
    for c, sig in zip(rc.comparisons, rc.signatures):
        notes.append(f"{'+'.join(c.references)}: Kendall τ_b {c.kendall_tau:.3f} against the ranking "
                     f"with all references, {c.swapped_pairs} of {c.pairs} system pairs swapped "
                     f"({c.systems} systems); {sig}")
    return Table(tuple(columns), tuple(rows), title="Scores and rankings by reference set",
                 notes=tuple(notes))


def _main_system_table(study: Study) -> Table:
    kind = study.human_kind
    labels = [m for m in study.metrics if m in study.system_correlations[kind]]
    return system_table(study, kind, labels,
                        f"METEOR paper Table 1: system-level correlation with human {kind} scores")


#: table id -> how to build it (whether the study can: :meth:`Study.can_show`)
BUILDERS: dict[str, Callable[[Study], Table]] = {
    "corpus": corpus_table,
    "bleu": bleu_table,
    "system": _main_system_table,
    "segment": lambda st: segment_table(st, st.human_kind),
    "modules": lambda st: modules_table(st, st.human_kind),
    "human": human_table,
    "blocks": blocks_table,
    "ttest": ttest_table,
    "significance": significance_table,
    "references": references_table,
}

TITLES = {"system": "METEOR paper Table 1: system-level correlation with human scores",
          "segment": "METEOR paper Tables 2–5: segment-level correlation with human scores",
          "human": "METEOR paper Table 8: raw vs normalized human scores",
          "significance": "Pairwise significance: paired bootstrap resampling"}


def build_tables(study: Study) -> dict[str, Table]:
    """Every table of the study (:meth:`Study.table_ids`: those asked for that the data allow;
    what is skipped is in ``study.notes``); a table the data could not support at all is a title
    with the notes saying why."""
    out: dict[str, Table] = {}
    for table_id in study.table_ids():
        if study.can_show(table_id):
            out[table_id] = _with_notes(study, table_id, BUILDERS[table_id](study))
        else:
            out[table_id] = Table(("note",), (), title=TITLES.get(table_id, table_id),
                                  notes=study.table_notes[table_id])
    return out


_BUILT: weakref.WeakKeyDictionary[Study, dict[str, Table]] = weakref.WeakKeyDictionary()


def study_tables(study: Study) -> Mapping[str, Table]:
    """Table id -> table, in TABLE_IDS order (built once per study)."""
    if study not in _BUILT:
        _BUILT[study] = build_tables(study)
    return _BUILT[study]


def table_list(study: Study, ids: Sequence[str] | None = None) -> list[Table]:
    """The tables with the given ids (default: all computed), in TABLE_IDS order."""
    if ids is not None:
        for t in ids:
            if t not in TABLE_IDS:
                raise OptionError("table", t, TABLE_IDS)
    tables = study_tables(study)
    return [tables[t] for t in TABLE_IDS if t in tables and (ids is None or t in ids)]


def long_table(study: Study) -> Table:
    """Corpus scores in the long format: ``system, metric, score, signature``."""
    rows = tuple((s, m, study.corpus_scores[m][s], study.corpus_results[m][s].signature)
                 for s in study.systems for m in study.metrics if s in study.corpus_scores[m])
    return Table(("system", "metric", "score", "signature"), rows,
                 title=f"{study.dataset}: corpus scores")


def render_study(study: Study, fmt: str = "text", width: int = 2, ids: Sequence[str] | None = None,
                 layout: str = "long") -> str:
    """The selected tables in ``fmt``; JSON is one object with settings, notes and tables.

    ``layout="wide"`` adds the systems × metrics table of corpus scores (every metric a column,
    signatures in its notes) after the settings."""
    tables = table_list(study, ids)
    if layout not in ("long", "wide"):
        raise OptionError("layout", layout, ("long", "wide"))
    if layout == "wide":
        tables = [long_table(study).wide(), *tables]
    if fmt == "json":
        selected = {k: table_dict(t) for k, t in study_tables(study).items() if t in tables}
        if layout == "wide":
            selected = {"wide": table_dict(tables[0]), **selected}
        return json.dumps(clean({"dataset": study.dataset, "segments": study.segments,
                                 "settings": dict(study.settings), "notes": list(study.notes),
                                 "tables": selected}), indent=2, ensure_ascii=False)
    header = Table(("setting", "value"), tuple((k, setting_text(v)) for k, v in study.settings.items()),
                   title=f"Study of {study.dataset} ({study.segments} segments, "
                         f"{len(study.systems)} systems)", notes=study.notes)
    return render([header, *tables], fmt, width)


def study_dict(study: Study) -> dict[str, Any]:
    """:meth:`Study.to_dict` with the tables (full precision)."""
    return {**study.to_dict(), "tables": {k: table_dict(t) for k, t in study_tables(study).items()}}


def setting_text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value))
    return str(value)


def table_dict(t: Table) -> dict[str, Any]:
    return {"title": t.title, "columns": list(t.columns), "rows": [list(r) for r in t.rows],
            "notes": list(t.notes)}
