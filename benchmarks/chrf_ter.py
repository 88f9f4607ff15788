"""Corpus chrF, chrF++ and TER: mtscore vs sacreBLEU 2.6.0 in the same process, on WMT22 de-en with
one reference (A) and two (A, B).

Cold runs (a new metric object per run, references not prepared beforehand), imports and a
one-segment warm-up untimed, alternating between the two tools, median of --runs runs each (wall
time, and the ratio of CPU times, steadier on a busy machine), peak memory from tracemalloc in a
separate run; scores asserted equal (1e-9). ``--check`` also compares every system of every WMT22
pair with sacreBLEU (TER takes minutes per pair in sacreBLEU).

    python benchmarks/chrf_ter.py [--data ../shared/data/wmt22] [--runs 5] [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER

from mtscore import CHRF, TER
from mtscore.io.text import read_lines

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bleu import timed_pair  # the same timing protocol as the BLEU benchmark

METRICS: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
    "chrF": (CHRF, SacreCHRF),
    "chrF++": (partial(CHRF, word_order=2), partial(SacreCHRF, word_order=2)),
    "TER": (TER, SacreTER),
}


def _score(new: Callable[[], Any], hyps: list[str], streams: list[list[str]]) -> Any:
    """A cold run: a new metric object scores the corpus."""
    return new().corpus_score(hyps, streams)


def bench(data: Path, system: str, runs: int, only: list[str]) -> None:
    folder = data / "de-en"
    hyps = read_lines(folder / "systems" / f"{system}.txt")
    refs = {r: read_lines(folder / "references" / f"{r}.txt") for r in ("A", "B")}
    print(f"WMT22 de-en {system}, {len(hyps)} segments; median of {runs} cold runs")
    print(f"{'metric':8} {'refs':4} {'mtscore s':>10} {'sacreBLEU s':>12} {'wall x':>7} {'cpu x':>6} "
          f"{'MiB ours':>9} {'MiB sacre':>10}")
    for name in only:
        ours_new, theirs_new = METRICS[name]
        for ref_ids in (("A",), ("A", "B")):
            streams = [refs[r] for r in ref_ids]
            ours_new().corpus_score(hyps[:1], [s[:1] for s in streams])  # warm-up (imports)
            theirs_new().corpus_score(hyps[:1], [s[:1] for s in streams])
            (w1, c1, m1, r1), (w2, c2, m2, r2) = timed_pair(
                partial(_score, ours_new, hyps, streams), partial(_score, theirs_new, hyps, streams), runs)
            assert abs(r1.score - r2.score) < 1e-9, (name, r1.score, r2.score)
            print(f"{name:8} {len(ref_ids):4} {w1:10.3f} {w2:12.3f} {w2 / w1:7.1f} {c2 / c1:6.1f} "
                  f"{m1:9.1f} {m2:10.1f}", flush=True)


def check(data: Path) -> None:
    """Every system of every pair, each reference and all: corpus scores equal sacreBLEU's."""
    for meta_path in sorted(data.glob("*/meta.json")):
        folder, meta = meta_path.parent, json.loads(meta_path.read_text(encoding="utf-8"))
        ids = meta["references"]
        for ref_ids in [(r,) for r in ids] + ([tuple(ids)] if len(ids) > 1 else []):
            streams = [read_lines(folder / "references" / f"{r}.txt") for r in ref_ids]
            for path in sorted((folder / "systems").glob("*.txt")):
                if meta["human_systems"].get(path.stem) in ref_ids:
                    continue
                hyps = read_lines(path)
                for name, (ours_new, theirs_new) in METRICS.items():
                    a = ours_new().corpus_score(hyps, streams).score
                    b = theirs_new().corpus_score(hyps, streams).score
                    assert abs(a - b) < 1e-9, (folder.name, path.stem, ref_ids, name, a, b)
                print(f"{folder.name} {'+'.join(ref_ids)} {path.stem}: chrF, chrF++, TER equal", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared/data/wmt22"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--system", default="Online-A")
    ap.add_argument("--metrics", nargs="+", default=list(METRICS), choices=list(METRICS))
    ap.add_argument("--check", action="store_true", help="compare every system of every pair")
    args = ap.parse_args()
    bench(Path(args.data), args.system, args.runs, args.metrics)
    if args.check:
        check(Path(args.data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
