"""ROUGE one sentence pair at a time: mtscore vs rouge-score 0.1.2 (and rouge-score-rs where it is
installed), per-call CPU time and ratio.

Users of rouge-score call ``RougeScorer(types).score(target, prediction)`` in loops, so what counts
is one call. Per type, each tool's own way: rouge-score's and rouge-score-rs's ``score`` on one
scorer object kept (as they are used), mtscore's ``sentence_rouge(hyp, ref, type)`` (the module
function, which keeps one metric per settings) and ``ROUGE(type).sentence_score(hyp, ref)`` on one
metric object; row ``all``: the four types of a pair at once, ``RougeScorer(types).score``
against ``rouge_scores([hyp], [[ref]])`` (in the ``sentence_rouge`` column). Each run is one pass
over the first --pairs segments of a WMT22 system against reference A; the runs alternate between
the tools; per call the median CPU time of --runs runs and the ratio (above 1: mtscore is faster).
F is asserted equal to rouge-score's (1e-12).

    python benchmarks/rouge_sentence.py [--data ../shared/data/wmt22/de-en] [--pairs 500] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from mtscore.io.text import read_lines
from mtscore.metrics.rouge import ROUGE, rouge_scores, sentence_rouge

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _per_call(run: Callable[[], list[float]], calls: int) -> tuple[float, list[float]]:
    """CPU seconds per call of one pass, and the pass's F values."""
    start = time.process_time()
    out = run()
    return (time.process_time() - start) / calls, out


def _tools(rouge_type: str, pairs: list[tuple[str, str]], stem: bool
           ) -> dict[str, Callable[[], list[float]]]:
    """Each tool's pass over the pairs (F of each), its scorer or metric made once."""
    from rouge_score.rouge_scorer import RougeScorer

    types = list(TYPES) if rouge_type == "all" else [rouge_type]
    last = types[-1]  # (the F checked: ROUGE-Lsum's when all four are scored)
    rs = RougeScorer(types, use_stemmer=stem)
    tools: dict[str, Callable[[], list[float]]] = {
        "rouge-score": lambda: [rs.score(r, h)[last].fmeasure for h, r in pairs]}
    try:
        import rouge_score_rs

        rust = rouge_score_rs.RougeScorer(types, use_stemmer=stem)
        tools["rouge-score-rs"] = lambda: [rust.score(r, h)[last].fmeasure for h, r in pairs]
    except ImportError:
        pass
    if rouge_type == "all":  # rouge_scores: the types of one pair at once, as RougeScorer(types)
        tools["sentence_rouge"] = lambda: [rouge_scores([h], [[r]], stemmer=stem)[last].fmeasure
                                           for h, r in pairs]
        return tools
    metric = ROUGE(rouge_type, stemmer=stem)
    tools["sentence_rouge"] = lambda: [sentence_rouge(h, r, rouge_type, stemmer=stem).fmeasure
                                       for h, r in pairs]
    tools["sentence_score"] = lambda: [metric.sentence_score(h, r).fmeasure for h, r in pairs]
    return tools


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2]
                                          / "shared/data/wmt22/de-en"))
    ap.add_argument("--pairs", type=int, default=500)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--stem", action="store_true", help="the Porter stemmer on")
    args = ap.parse_args()
    try:
        import rouge_score.rouge_scorer  # noqa: F401
    except ImportError:
        print("rouge-score is not installed: pip install rouge-score==0.1.2", file=sys.stderr)
        return 1
    folder = Path(args.data)
    system = sorted((folder / "systems").glob("*.txt"))[0]
    hyps = read_lines(system)[:args.pairs]
    refs = read_lines(folder / "references" / "A.txt")[:args.pairs]
    pairs = list(zip(hyps, refs))
    print(f"{folder.name} {system.name} vs A, {len(pairs)} pairs one at a time, stemmer "
          f"{'on' if args.stem else 'off'}; median of {args.runs} runs, CPU µs per call")
    print(f"{'type':10} {'rouge-score':>11} {'rouge-score-rs':>14} {'sentence_rouge':>14} "
          f"{'sentence_score':>14} {'ratio':>6}")
    for rouge_type in (*TYPES, "all"):
        tools = _tools(rouge_type, pairs, args.stem)
        times: dict[str, list[float]] = {name: [] for name in tools}
        want = tools["rouge-score"]()
        for name, run in tools.items():  # an untimed pass each (imports, caches), checked
            got = run()
            assert all(abs(a - b) <= 1e-12 for a, b in zip(got, want)), (name, rouge_type)
        for _ in range(args.runs):
            for name, run in tools.items():
                times[name].append(_per_call(run, len(pairs))[0])
        med = {name: statistics.median(t) * 1e6 for name, t in times.items()}
        cells = [f"{med[name]:14.1f}" if name in med else f"{'-':>14}"
                 for name in ("rouge-score-rs", "sentence_rouge", "sentence_score")]
        print(f"{rouge_type:10} {med['rouge-score']:11.1f} {' '.join(cells)} "
              f"{med['rouge-score'] / med['sentence_rouge']:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
