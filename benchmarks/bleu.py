"""Corpus BLEU: mtscore vs sacreBLEU 2.6.0 in the same process, on WMT22 de-en and zh-en.

Cold runs (a new metric object per run: no tokenization cache of either tool is warm), alternating
between the two tools, median of --runs runs each (wall time, and the ratio of CPU times, which is
steadier on a busy machine), peak memory from tracemalloc in a separate run, scores asserted equal
(1e-9) and statistics asserted identical.

    python benchmarks/bleu.py [--data ../shared/data/wmt22] [--runs 5]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

from mtscore import BLEU
from mtscore.io.text import read_lines


def _once(fn) -> tuple[float, float, object]:
    gc.collect()
    start, start_cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - start, time.process_time() - start_cpu, result


def _peak_mib(fn) -> float:
    gc.collect()
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def timed_pair(fn_a, fn_b, runs: int) -> list[tuple[float, float, float, object]]:
    """For each of two functions: median wall time, median CPU time (steadier on a shared machine),
    peak MiB, result. The runs alternate (a, b, a, b, ...) so that both see the same machine load."""
    samples: list[list[tuple[float, float, object]]] = [[], []]
    for _ in range(runs):
        for k, fn in enumerate((fn_a, fn_b)):
            samples[k].append(_once(fn))
    out = []
    for fn, runs_of in zip((fn_a, fn_b), samples):
        out.append((statistics.median(s[0] for s in runs_of), statistics.median(s[1] for s in runs_of),
                    _peak_mib(fn), runs_of[-1][2]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared/data/wmt22"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--system", default="Online-A")
    args = ap.parse_args()
    try:
        import sacrebleu
        from sacrebleu.metrics import BLEU as SacreBLEU
    except ImportError:
        print("sacrebleu is not installed: pip install sacrebleu==2.6.0", file=sys.stderr)
        return 1
    print(f"sacreBLEU {sacrebleu.__version__} vs mtscore, median of {args.runs} cold runs")
    print(f"{'pair':6} {'refs':4} {'segs':>5} {'sacreBLEU s':>11} {'mtscore s':>10} {'speed-up':>8} "
          f"{'CPU speed-up':>12} {'sacre MiB':>9} {'mtscore MiB':>11}  score")
    for pair in ("de-en", "zh-en"):
        folder = Path(args.data) / pair
        hyps = read_lines(folder / "systems" / f"{args.system}.txt")
        all_refs = {r: read_lines(folder / "references" / f"{r}.txt") for r in ("A", "B")}
        for ids in (("A",), ("A", "B")):
            refs = [all_refs[r] for r in ids]
            (t_s, c_s, m_s, r_s), (t_m, c_m, m_m, r_m) = timed_pair(
                lambda h=hyps, r=refs: SacreBLEU().corpus_score(h, r),
                lambda h=hyps, r=refs: BLEU().corpus_score(h, r), args.runs)
            assert abs(r_s.score - r_m.score) < 1e-9, (r_s.score, r_m.score)
            assert list(r_m.counts) == r_s.counts and list(r_m.totals) == r_s.totals
            assert (r_m.hyp_len, r_m.ref_len) == (r_s.sys_len, r_s.ref_len)
            print(f"{pair:6} {len(ids):4d} {len(hyps):5d} {t_s:11.3f} {t_m:10.3f} {t_s / t_m:7.1f}x "
                  f"{c_s / c_m:11.1f}x {m_s:9.1f} {m_m:11.1f}  {r_m.score:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
