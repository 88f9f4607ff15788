"""Sentence BLEU one call at a time: mtscore vs sacreBLEU 2.6.0, per-call time and ratio.

Users call sentence BLEU in loops (the NLTK habit), so what counts is the cost of one call. Three
ways to call it, each tool's own:

* ``sentence_bleu(hyp, refs)``: the module function (both make their metric object per call);
* ``BLEU(effective_order=True).sentence_score(hyp, refs)``: one metric object reused;
* ``corpus_bleu([hyp], [[ref], ...])``: a corpus of one segment (smoothing ``exp``, no effective order).

Each run is one pass over every segment of --systems systems of a WMT22 pair (real sentences; the
references repeat from system to system, as in a real loop). Both tools remember tokenized lines
(an ``lru_cache``); both caches are cleared before each run, so every run starts cold and the
repeated references are found in the cache from the second system on. The runs alternate between the tools
(same machine load); per call: median CPU time of --runs runs (steadier than wall time on a busy
machine) and the ratio. Scores are asserted equal (1e-9).

    python benchmarks/sentence_bleu.py [--data ../shared/data/wmt22] [--runs 5] [--systems 3]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import mtscore
from mtscore.io.text import read_lines


def _clear_sacrebleu_caches() -> None:
    """Empty the lru_cache of every sacreBLEU tokenizer (13a's inner regexp tokenizer too)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("sacrebleu.tokenizers."):
            continue
        for cls in vars(module).values():
            for attr in vars(cls).values() if isinstance(cls, type) else ():
                if hasattr(attr, "cache_clear"):
                    attr.cache_clear()


def _clear_mtscore_cache() -> None:
    from mtscore.metrics.bleu import metric as bleu

    bleu._words.cache_clear()


def _per_call(fn: Callable[[str, list[str]], object], pairs: list[tuple[str, list[str]]],
              before: Callable[[], None] | None = None) -> tuple[float, float, list[float]]:
    """(wall, CPU) seconds per call of one pass over ``pairs``, and the scores."""
    if before is not None:
        before()
    gc.collect()
    start, start_cpu = time.perf_counter(), time.process_time()
    scores = [fn(hyp, refs).score for hyp, refs in pairs]  # type: ignore[attr-defined]
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return wall / len(pairs), cpu / len(pairs), scores


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared/data/wmt22"))
    ap.add_argument("--pair", action="append", help="WMT22 pair (repeatable; default de-en and zh-en)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--systems", type=int, default=3, help="systems per pair (one pass each per run)")
    args = ap.parse_args()
    try:
        import sacrebleu
        from sacrebleu.metrics import BLEU as SacreBLEU
    except ImportError:
        print("sacrebleu is not installed: pip install sacrebleu==2.6.0", file=sys.stderr)
        return 1
    print(f"sacreBLEU {sacrebleu.__version__} vs mtscore {mtscore.__version__}: one call at a time, "
          f"median of {args.runs} cold runs, CPU time per call")
    print(f"{'pair':6} {'refs':4} {'calls':>6} {'call':32} {'sacreBLEU ms':>12} {'mtscore ms':>10} "
          f"{'ratio':>6}")
    for pair in args.pair or ["de-en", "zh-en"]:
        folder = Path(args.data) / pair
        if not folder.is_dir():
            print(f"{pair}: no data at {folder}", file=sys.stderr)
            return 1
        systems = sorted((folder / "systems").glob("*.txt"))[:args.systems]
        all_refs = [read_lines(folder / "references" / f"{r}.txt") for r in ("A", "B")]
        for nrefs in (1, 2):
            refs = all_refs[:nrefs]
            pairs = [(hyp, [r[i] for r in refs]) for path in systems
                     for i, hyp in enumerate(read_lines(path))]
            sacre_obj, ours_obj = SacreBLEU(effective_order=True), mtscore.BLEU(effective_order=True)
            calls = {
                "sentence_bleu(h, refs)": (
                    sacrebleu.sentence_bleu, mtscore.sentence_bleu),
                "BLEU().sentence_score(h, refs)": (
                    sacre_obj.sentence_score, ours_obj.sentence_score),
                "corpus_bleu([h], [[r], ...])": (
                    lambda h, r: sacrebleu.corpus_bleu([h], [[x] for x in r]),
                    lambda h, r: mtscore.corpus_bleu([h], [[x] for x in r])),
            }
            for label, (theirs, ours) in calls.items():
                cpu: list[list[float]] = [[], []]
                for _ in range(args.runs):
                    _, c_s, s_s = _per_call(theirs, pairs, _clear_sacrebleu_caches)
                    _, c_m, s_m = _per_call(ours, pairs, _clear_mtscore_cache)
                    cpu[0].append(c_s)
                    cpu[1].append(c_m)
                    worst = max(abs(a - b) for a, b in zip(s_s, s_m))
                    assert worst < 1e-9, (label, worst)
                t_s, t_m = statistics.median(cpu[0]) * 1e3, statistics.median(cpu[1]) * 1e3
                print(f"{pair:6} {nrefs:<4} {len(pairs):6} {label:32} {t_s:12.4f} {t_m:10.4f} "
                      f"{t_s / t_m:5.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
