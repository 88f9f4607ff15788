"""``mtscore explain``: one segment's METEOR alignment, chunks and the arithmetic of its score."""

from __future__ import annotations

import argparse
import json

from ..errors import InputError
from ..metrics.meteor.metric import METEOR, METEORSegment
from .common import read_systems_and_refs
from .options import add_language_option
from .options import meteor as meteor_cli


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain", help="show how METEOR scored one segment",
        description="Aligns line N of a system output with its references and shows each match and "
                    "the module that made it, the chunks, the reference kept, and the arithmetic "
                    "of the score (P, R, Fmean, penalty).",
        epilog="example: mtscore explain -r ref.txt -i hyp.txt --line 3 --meteor-modules exact porter")
    p.add_argument("--refs", "-r", nargs="+", required=True, metavar="REF",
                   help="reference files, one segment per line")
    p.add_argument("--input", "-i", required=True, metavar="HYP", help="the system output file")
    p.add_argument("--line", "-n", type=int, required=True, metavar="N",
                   help="the segment to explain (1-based line number)")
    p.add_argument("--format", "-f", default="text", choices=("text", "json"),
                   help="output format (default text)")
    add_language_option(p)
    meteor_cli.add_options(p)
    p.set_defaults(func=run)


def chunks_of(segment: METEORSegment) -> list[list[int]]:
    """The alignment's chunks as lists of indices into ``segment.alignment`` (sorted by hyp word)."""
    order = sorted(range(len(segment.alignment)), key=lambda k: segment.alignment[k].hyp_index)
    runs: list[list[int]] = []
    for k in order:
        m = segment.alignment[k]
        if runs:
            p = segment.alignment[runs[-1][-1]]
            if m.hyp_index == p.hyp_index + p.hyp_length and m.ref_index == p.ref_index + p.ref_length:
                runs[-1].append(k)
                continue
        runs.append([k])
    return runs


def explain_text(metric: METEOR, seg: METEORSegment, line: int, ref_names: list[str],
                 ref_scores: list[float | None], signature: str) -> str:
    p = metric.params
    out = [f"METEOR, line {line}: reference kept: {ref_names[seg.reference]}"]
    if len(ref_names) > 1:
        out.append("  scores per reference: " + ", ".join(
            f"{name} {'–' if s is None else format(s, '.4f')}" for name, s in zip(ref_names, ref_scores)))
    out.append(f"hyp ({seg.hyp_len} words): " + " ".join(f"{i}:{w}" for i, w in enumerate(seg.hyp_words)))
    out.append(f"ref ({seg.ref_len} words): " + " ".join(f"{j}:{w}" for j, w in enumerate(seg.ref_words)))
    runs = chunks_of(seg)
    chunk_of = {k: c + 1 for c, run in enumerate(runs) for k in run}
    out.append("")
    out.append(f"{'hyp':>4}  {'hyp word':<18} {'ref':>4}  {'ref word':<18} {'module':<8} chunk")
    for k in sorted(range(len(seg.alignment)), key=lambda k: seg.alignment[k].hyp_index):
        wm = seg.alignment[k]
        out.append(f"{wm.hyp_index:>4}  {wm.hyp_word:<18} {wm.ref_index:>4}  {wm.ref_word:<18} "
                   f"{wm.module:<8} {chunk_of[k]}")
    matched_h = {i for a in seg.alignment for i in range(a.hyp_index, a.hyp_index + a.hyp_length)}
    matched_r = {j for a in seg.alignment for j in range(a.ref_index, a.ref_index + a.ref_length)}
    out.append("unmatched hyp: " + (" ".join(f"{i}:{w}" for i, w in enumerate(seg.hyp_words)
                                             if i not in matched_h) or "–"))
    out.append("unmatched ref: " + (" ".join(f"{j}:{w}" for j, w in enumerate(seg.ref_words)
                                             if j not in matched_r) or "–"))
    out.append(f"chunks ({len(runs)}): " + " ".join(
        "[" + " ".join(seg.alignment[k].hyp_word for k in run) + "]" for run in runs))
    per_module = {name: sum(1 for a in seg.alignment if a.module == name) for name in metric.modules}
    out.append("matches by module: " + ", ".join(f"{n} {c}" for n, c in per_module.items()))
    m: float = seg.matches
    if metric.two_sided:  # phrase matches: words matched on each side, m their mean
        ref_m = sum(a.ref_length for a in seg.alignment)
        out.append(f"matched words: hyp {seg.matches}, ref {ref_m}; m = their mean = {(m + ref_m) / 2:g}")
        m = (m + ref_m) / 2
    out.append("")
    plain = p.delta is None and all(w == 1.0 for w in p.weights)
    if plain:
        out.append(f"P = m/|hyp| = {m}/{seg.hyp_len} = {seg.precision:.6f}")
        out.append(f"R = m/|ref| = {m}/{seg.ref_len} = {seg.recall:.6f}")
    else:
        out.append(f"P = weighted matches / weighted |hyp| (weights {p.weights}, delta {p.delta}) "
                   f"= {seg.precision:.6f}")
        out.append(f"R = weighted matches / weighted |ref| = {seg.recall:.6f}")
    out.append(f"Fmean = P·R / ({p.alpha:g}·P + {1 - p.alpha:g}·R) = {seg.fmean:.6f}")
    if metric.variant == "1.5" and m and seg.chunks == 0:
        out.append("Penalty = 0: every word matched in one chunk (the jar's rule; recorded as 0 chunks)")
    elif m:
        out.append(f"Penalty = {p.gamma:g}·(chunks/m)^{p.beta:g} = "
                   f"{p.gamma:g}·({seg.chunks}/{m:g})^{p.beta:g} "
                   f"= {seg.penalty:.6f}")
    else:
        out.append("no match: score 0")
    out.append(f"Score = Fmean·(1 − Penalty) = {seg.fmean:.6f}·(1 − {seg.penalty:.6f}) = {seg.score:.6f}")
    out.append("")
    out.append(signature)
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    systems, refs = read_systems_and_refs([args.input], args.refs)
    hyps = systems[0][1]
    n = args.line
    if not 1 <= n <= len(hyps):
        raise InputError(f"--line {n} is out of range: the file has {len(hyps)} lines",
                         source=args.input)
    metric = meteor_cli.from_args(args)
    ref_lines = [[r[n - 1]] for r in refs]
    result = metric.score_corpus([hyps[n - 1]], ref_lines)
    seg = result.segments[0]
    ref_scores: list[float | None] = [result.score] if len(refs) == 1 else \
        [float(metric.compute_many(metric.extract([hyps[n - 1]], [r]).values)[0]) for r in ref_lines]
    if args.format == "json":
        print(json.dumps({"line": n, "reference_file": args.refs[seg.reference],
                          "reference_scores": ref_scores, **seg.to_dict(),
                          "signature": result.signature}, indent=2, ensure_ascii=False))
    else:
        print(explain_text(metric, seg, n, list(args.refs), ref_scores, result.signature))
    return 0
