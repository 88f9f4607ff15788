"""PERM-BOTH of SPA between metrics: the fast path against the rule, side by side.

    python benchmarks/metaeval_spa.py [--data ../shared/data/wmt22] [--draws 1000]

The WMT24 task set's system-level tests on the four shared WMT22 pairs: BLEU, chrF, chrF++, TER,
METEOR and a stand-in external metric (mtscore's NIST segment scores, as benchmarks/metaeval.py
reads it through a scores file), every pair of metrics, ``--draws`` permutations with
mt-metrics-eval's early stopping, seed 12345. Each pair of the four is run with the rule
(``spa_permutation_tests(fast=False)``: each swapped matrix's SPA) and the fast path
(:mod:`mtscore.stats.perm_both_spa_fast`), alternating, in one process; wall and CPU seconds are
printed with the load average, and the p-values and draws used are asserted equal.
"""

from __future__ import annotations

import argparse
import itertools
import os
import tempfile
import time
from functools import partial
from pathlib import Path

from metaeval import PAIRS, _clock, _external, _score, print_timings

from mtscore.stats.early_stopping import EarlyStopping
from mtscore.stats.perm_both import spa_permutation_tests
from mtscore.study.meta_eval import spa_human


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" /
                    "data" / "wmt22")
    ap.add_argument("--draws", type=int, default=1000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sets = _score(args.data, _external(args.data, Path(tmp)))
    start, load = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.getloadavg()
    rows, totals = [], {"rule": [0.0, 0.0], "fast": [0.0, 0.0]}
    for pair in PAIRS:
        d = sets[pair]
        human = spa_human(d.human, True)
        pairs = list(itertools.combinations(sorted(d.metrics), 2))
        got = {}
        for name in ("rule", "fast"):
            w, c, got[name] = _clock(partial(spa_permutation_tests, human, d.metrics, pairs,
                                             args.draws, 12345, EarlyStopping(),
                                             fast=name == "fast"))
            totals[name][0] += w
            totals[name][1] += c
            rows.append((f"{pair}, {name}", w, c))
        for key in pairs:
            r, f = got["rule"][key], got["fast"][key]
            assert (r.pvalue, r.resamples_used) == (f.pvalue, f.resamples_used), (pair, key)
    print_timings(start, load, rows)
    for name, (w, c) in totals.items():
        print(f"| four pairs, {name} | {w:.1f} | {c:.1f} |")
    print(f"CPU ratio rule/fast: {totals['rule'][1] / totals['fast'][1]:.1f}; "
          "p-values and draws used equal")


if __name__ == "__main__":
    main()
