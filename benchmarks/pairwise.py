"""Pairwise sentence scores (MBR's N × N utility matrices): mtscore vs sacreBLEU loops vs fastchrf.

Data: WMT22 de-en (the 10 system outputs and 2 references), built deterministically: source s takes
the distinct lines of all 12 files at segments ``s * 50``, ``s * 50 + 1``, ... until it has N
candidates (distinct, so that mtscore's scoring of distinct strings once gains nothing). Two
configurations: 20 sources × 64 candidates and 5 × 256, every candidate against every candidate.

In one process, per metric: the per-pair loop (sacreBLEU's ``sentence_score``; mtscore's
``sentence_meteor`` for METEOR) over a deterministic sample of at most --loop-pairs pairs (evenly
spread; its time per pair × all pairs is the loop's time; 0: every pair), ``fastchrf.pairwise_chrf``
(chrF; Rust, all cores) and ``mtscore.pairwise`` over every pair, best of --runs. Scores asserted:
mtscore equal to the loop on the sample (1e-9) and to fastchrf on every pair (1e-3: fastchrf computes
in float32). ``--mbr`` also runs ``mtscore mbr`` on a 1,000-source × 32-candidate file (and on
100 and 4,000 sources) as a child process and prints its wall time and peak RSS.

    python benchmarks/pairwise.py [--data ../shared/data/wmt22] [--runs 3] [--loop-pairs 20000] [--mbr]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import mtscore
from mtscore.io.text import read_lines

CONFIGS = ((20, 64), (5, 256))


def load_lines(data: Path) -> list[list[str]]:
    folder = data / "de-en"
    files = sorted((folder / "systems").glob("*.txt")) + sorted((folder / "references").glob("*.txt"))
    return [read_lines(f) for f in files]


def candidate_sets(lines: list[list[str]], sources: int, n: int, stride: int = 50) -> list[list[str]]:
    """Per source, the first ``n`` distinct lines of all files from segment ``s * stride`` on."""
    out = []
    segments = len(lines[0])
    for s in range(sources):
        seen: dict[str, None] = {}
        seg = s * stride
        while len(seen) < n:
            for file in lines:
                seen.setdefault(file[seg % segments], None)
            seg += 1
        out.append(list(seen)[:n])
    return out


def best_time(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def sample_pairs(batch: list[list[str]], limit: int) -> list[tuple[int, int, int]]:
    """(source, hypothesis, reference) of at most ``limit`` pairs, evenly spread (0: all)."""
    pairs = [(s, i, j) for s, cands in enumerate(batch) for i in range(len(cands)) for j in range(len(cands))]
    if limit and len(pairs) > limit:
        pairs = [pairs[k] for k in np.linspace(0, len(pairs) - 1, limit).astype(int)]
    return pairs


def loop_time(fn: Callable[[str, str], float], batch: list[list[str]], limit: int
              ) -> tuple[float, list[tuple[int, int, int]], list[float]]:
    """Seconds for every pair (per pair time on the sample × pairs), the sample and its scores."""
    pairs = sample_pairs(batch, limit)
    start = time.perf_counter()
    scores = [fn(batch[s][i], batch[s][j]) for s, i, j in pairs]
    per_pair = (time.perf_counter() - start) / len(pairs)
    total = sum(len(c) ** 2 for c in batch)
    return per_pair * total, pairs, scores


def check_sample(matrices: Any, pairs: list[tuple[int, int, int]], scores: list[float], what: str) -> None:
    ours = np.array([matrices[s][i, j] for s, i, j in pairs])
    diff = float(np.abs(ours - np.array(scores)).max())
    assert diff <= 1e-9, f"{what}: differs from the loop by {diff}"


def bench_config(sources: int, n: int, lines: list[list[str]], args: argparse.Namespace) -> list[str]:
    import sacrebleu

    batch = candidate_sets(lines, sources, n)
    rows = []
    label = f"{sources} × {n} × {n}"
    chrf, bleu = sacrebleu.metrics.CHRF(), sacrebleu.metrics.BLEU(effective_order=True)
    # chrF
    loop, pairs, scores = loop_time(lambda h, r: chrf.sentence_score(h, [r]).score, batch, args.loop_pairs)
    ours_t, ours = best_time(lambda: mtscore.pairwise("chrf", batch), args.runs)
    check_sample(ours, pairs, scores, "chrF")
    fast_t = float("nan")
    try:
        import fastchrf

        fast_t, fast = best_time(lambda: fastchrf.pairwise_chrf(batch, batch), args.runs)
        diff = float(np.abs(np.asarray(fast) - ours).max())
        assert diff <= 1e-3, f"chrF: differs from fastchrf by {diff}"
    except ImportError:
        print("fastchrf is not installed (pip install fastchrf): its column is empty", file=sys.stderr)
    rows.append(_row("chrF", label, loop, fast_t, ours_t))
    # sentence BLEU
    loop, pairs, scores = loop_time(lambda h, r: bleu.sentence_score(h, [r]).score, batch, args.loop_pairs)
    ours_t, ours = best_time(lambda: mtscore.pairwise("bleu", batch), args.runs)
    check_sample(ours, pairs, scores, "BLEU")
    rows.append(_row("sentence BLEU", label, loop, float("nan"), ours_t))
    # METEOR (no sacreBLEU: mtscore's own sentence_meteor per pair)
    loop, pairs, scores = loop_time(lambda h, r: mtscore.sentence_meteor(h, [r]).score, batch,
                                    min(args.loop_pairs or 2000, 2000))
    ours_t, ours = best_time(lambda: mtscore.pairwise("meteor", batch), max(1, args.runs - 1))
    check_sample(ours, pairs, scores, "METEOR")
    rows.append(_row("METEOR", label, loop, float("nan"), ours_t))
    # chrF with reference aggregation (not the same scores: times only)
    agg_t, _ = best_time(lambda: mtscore.pairwise("chrf", batch, aggregate=True), args.runs)
    fast_agg = float("nan")
    if "fastchrf" in sys.modules:
        fast_agg, _ = best_time(lambda: sys.modules["fastchrf"].aggregate_chrf(batch, batch), args.runs)
    rows.append(_row("chrF aggregated", label, float("nan"), fast_agg, agg_t))
    return rows


def _row(metric: str, label: str, loop: float, fast: float, ours: float) -> str:
    def cell(x: float, unit: str = " s") -> str:
        return "–" if x != x else f"{x:.3f}{unit}"

    return (f"| {metric} | {label} | {cell(loop)} | {cell(fast)} | {cell(ours)} | "
            f"{cell(loop / ours, '×')} | {cell(fast / ours, '×')} |")


def bench_mbr(lines: list[list[str]]) -> None:
    """``mtscore mbr`` as a child process on files of 100, 1,000 and 4,000 sources × 32 candidates."""
    print("\n| sources × candidates | file | mtscore mbr wall | peak RSS |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for sources in (100, 1000, 4000):
            path = Path(tmp) / f"cands{sources}.txt"
            batch = candidate_sets(lines, sources, 32, stride=3)
            path.write_text("".join(c.replace("\n", " ") + "\n" for cands in batch for c in cands),
                            encoding="utf-8")
            out = Path(tmp) / "best.txt"
            command = [sys.executable, "-m", "mtscore", "mbr", str(path), "-n", "32", "-m", "chrf", "-q"]
            wall, rss = _child(command, out)
            assert len(read_lines(out)) == sources
            print(f"| {sources:,} × 32 | {path.stat().st_size / 1e6:.1f} MB | {wall:.2f} s | {rss:.0f} MB |")


#: runs its arguments as a child and reports the child's peak RSS (kB) on its last stderr line;
#: started fresh, so the child's peak is its own (Linux carries a process's peak RSS over exec, so
#: a child forked straight from this big process would report at least this process's RSS)
_LAUNCHER = ("import os, subprocess, sys; child = subprocess.Popen(sys.argv[1:]); "
             "_, status, usage = os.wait4(child.pid, 0); print(usage.ru_maxrss, file=sys.stderr); "
             "sys.exit(os.waitstatus_to_exitcode(status))")


def _child(command: list[str], out: Path) -> tuple[float, float]:
    """Run ``command`` with its output to ``out``: (wall seconds, the child's peak RSS in MB)."""
    start = time.perf_counter()
    with open(out, "w", encoding="utf-8") as sink:
        done = subprocess.run([sys.executable, "-c", _LAUNCHER, *command], stdout=sink,
                              stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    assert done.returncode == 0, done.stderr
    return wall, int(done.stderr.split()[-1]) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared/data/wmt22"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--loop-pairs", type=int, default=20000,
                    help="pairs timed in the per-pair loops (0: all)")
    ap.add_argument("--mbr", action="store_true", help="also time mtscore mbr on 1,000 × 32")
    ap.add_argument("--mbr-only", action="store_true", help="only time mtscore mbr")
    args = ap.parse_args()
    try:
        import sacrebleu
    except ImportError:
        print("sacrebleu is not installed: pip install sacrebleu==2.6.0", file=sys.stderr)
        return 1
    lines = load_lines(Path(args.data))
    load = os.getloadavg()[0]
    print(f"mtscore {mtscore.__version__}, sacreBLEU {sacrebleu.__version__}; {os.cpu_count()} CPUs, "
          f"load average {load:.1f} at start; best of {args.runs} runs")
    if not args.mbr_only:
        print("| metric | sources × hyps × refs | per-pair loop | fastchrf | mtscore | loop / mtscore | "
              "fastchrf / mtscore |")
        print("|---|---|---|---|---|---|---|")
        for sources, n in CONFIGS:
            for row in bench_config(sources, n, lines, args):
                print(row, flush=True)
    if args.mbr or args.mbr_only:
        bench_mbr(lines)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
