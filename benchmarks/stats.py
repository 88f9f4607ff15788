"""Paired significance tests: mtscore vs sacreBLEU 2.6.0 (``-pbs`` / ``-par``) on WMT22 zh-en.

Both run in this process through their Python APIs: sacreBLEU's ``significance.PairedTest`` (what its
``-pbs``/``-par`` options call) with references cached in the metric, as its CLI does; mtscore's
``paired_bootstrap`` / ``approximate_randomization``. Every system of the pair is compared with the
first one (sacreBLEU's baseline mode) against reference A. Timings include extracting the statistics
from the text for both tools; the test alone is shown too (mtscore: timed on extracted statistics;
sacreBLEU: its total minus its extraction of the same systems, timed separately).
The same seed gives both tools the same random draws, so p-values are compared directly.

    python benchmarks/stats.py [--data ../shared/data/wmt22] [--pair zh-en] [--resamples 1000]
                               [--trials 10000] [--ar-systems N]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from mtscore import BLEU
from mtscore.io.text import read_lines
from mtscore.stats import approximate_randomization, paired_bootstrap

SEED = 12345  # sacreBLEU's default SACREBLEU_SEED


def clock(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def _compare(kind: str, n: int, subset: list, refs: list, SacreBLEU: Any, PairedTest: Any) -> bool:
    """One test (``bs``: paired bootstrap, ``ar``: approximate randomization) in both tools, timed;
    True when their p-values agree."""
    label = {"bs": f"paired bootstrap, {n} resamples",
             "ar": f"approximate randomization, {n} trials"}[kind]

    def sacre():
        test = PairedTest(subset, {"BLEU": SacreBLEU(references=refs)}, None,
                          test_type=kind, n_samples=n)
        return test()[1]["BLEU"]

    def ours_extract():
        bleu = BLEU()
        prepared = bleu.prepare_references(refs)
        return bleu, {name: bleu.extract(h, prepared) for name, h in subset}

    def ours(bleu, stats):
        if kind == "bs":
            return paired_bootstrap(bleu, stats, baseline=subset[0][0], resamples=n, seed=SEED)
        return approximate_randomization(bleu, stats, baseline=subset[0][0], trials=n,
                                         seed=SEED)

    def sacre_extract():
        metric = SacreBLEU(references=refs)
        return [metric._extract_corpus_statistics(h, None) for _, h in subset]

    t_sacre, theirs = clock(sacre)
    t_sacre_extract, _ = clock(sacre_extract)
    t_sacre_test = max(t_sacre - t_sacre_extract, 1e-9)
    t_extract, (bleu, stats) = clock(ours_extract)
    t_test, result = clock(lambda: ours(bleu, stats))
    t_ours = t_extract + t_test
    p_ours = np.array([c.pvalue for c in result.comparisons])
    p_sacre = np.array([r.p_value for r in theirs[1:]])
    diff = np.abs(p_ours - p_sacre)
    tolerance = 0.0 if kind == "bs" else 3.0 / (n + 1)  # AR: floating ties at the boundary
    same = bool(np.all(diff <= tolerance + 1e-12))

    print(f"\n{label}, {len(subset) - 1} comparisons")
    print(f"  sacreBLEU  {t_sacre:8.2f} s  (its extraction alone, timed separately: "
          f"{t_sacre_extract:.2f} s; so the test ≈ {t_sacre_test:.2f} s)")
    print(f"  mtscore    {t_ours:8.2f} s  (extract {t_extract:.2f} s + test {t_test:.3f} s)")
    print(f"  speed-up   {t_sacre / t_ours:8.1f}× end to end; {t_sacre_test / t_test:.0f}× on "
          "the test alone")
    print(f"  p-values   max |Δ| = {diff.max():.2e} over {len(diff)} comparisons "
          f"({'identical' if diff.max() == 0 else 'within ' + format(tolerance, '.1e')}"
          f"{'' if same else ' — MISMATCH'})")
    if kind == "bs":
        means = np.array([ci.mean for ci in result.intervals])
        theirs_means = np.array([r.mean for r in theirs])
        print(f"  CI means   max |Δ| = {np.abs(means - theirs_means).max():.1e} "
              "(sacreBLEU sums float32 statistics)")
    return same


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared/data/wmt22"))
    ap.add_argument("--pair", default="zh-en")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--trials", type=int, default=10000)
    ap.add_argument("--ar-systems", type=int, default=0,
                    help="limit the randomization comparison to the first N systems (default all)")
    args = ap.parse_args()
    try:
        import sacrebleu
        from sacrebleu.metrics import BLEU as SacreBLEU
        from sacrebleu.significance import PairedTest
    except ImportError:
        print("sacrebleu is not installed: pip install sacrebleu==2.6.0", file=sys.stderr)
        return 1
    folder = Path(args.data) / args.pair
    if not folder.is_dir():
        print(f"no data at {folder}", file=sys.stderr)
        return 1
    os.environ["SACREBLEU_SEED"] = str(SEED)
    refs = [read_lines(folder / "references" / "A.txt")]
    names = sorted(p.stem for p in (folder / "systems").glob("*.txt"))
    systems = [(n, read_lines(folder / "systems" / f"{n}.txt")) for n in names]
    print(f"sacreBLEU {sacrebleu.__version__} vs mtscore; WMT22 {args.pair}: {len(systems)} systems "
          f"× {len(refs[0])} segments, reference A, baseline {names[0]}, seed {SEED}")
    print("both tools in this process via their Python APIs; times include statistics extraction")
    ok = True
    for kind, n, subset in (("bs", args.resamples, systems),
                            ("ar", args.trials, systems[:args.ar_systems or len(systems)])):
        ok &= _compare(kind, n, subset, refs, SacreBLEU, PairedTest)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
