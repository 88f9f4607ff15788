"""Oracle numbers for the meta-evaluation (SPA, permutation tests, rank clusters) from
mt-metrics-eval's own code, run on mtscore's metric scores of the shared WMT22 data.

    python scripts/make_metaeval_oracle.py /tmp/mme --commit <id> [--out tests/data/metaeval/oracle.json]

MME is a checkout (or ``git archive``) of google-research/mt-metrics-eval OUTSIDE this repository;
nothing of it is copied here: its modules are imported from that path at run time. Its ``data.py``
imports ``apache_beam`` at the top, used only for its optional parallel mode; the script puts an
empty module in its place so that the rest imports without installing Beam.

The matrices are built by :func:`mtscore.study.meta_data.pair_data` (the systems of the WMT24 task
set: every judged system except the metrics' reference, human systems included when a pair has two
references) and handed to mt-metrics-eval as its flat, system-major score lists with ``None`` for
unjudged segments. Written: SPA's fixture, SPA of BLEU, chrF and METEOR on every pair (1000 masks,
seed 4); WMT23's statistics on every pair (system and segment Pearson, acc23 by item with its ε,
system-level pairwise accuracy over the four pairs) and PERM-BOTH p-values of WMT23's system
Pearson and pairwise accuracy; p-values of the pairwise permutation test and PERM-BOTH (numpy's
legacy global stream, seeded with ``np.random.seed``: reproducible, but another stream than
mtscore's, so the tests compare within Monte-Carlo error), and the rank clusters of
``AssignRanks``. ``--parts`` writes the sections named into the existing file (the others are
kept).
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from mtscore.io.dataset import load_dataset  # noqa: E402
from mtscore.study.meta_data import pair_data  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "wmt22"
PAIRS = ("cs-en", "de-en", "ja-en", "zh-en")
SPA_METRICS = ("bleu", "chrf", "meteor")
#: the permutation tests' data: de-en, its first segments judged for every system, three metrics
TEST_PAIR, TEST_SEGMENTS, TEST_DRAWS, TEST_SEED = "de-en", 60, 10_000, 7


def _flat(matrix: np.ndarray) -> list[float | None]:
    """mt-metrics-eval's flat, system-major list, None for NaN (unjudged)."""
    return [None if np.isnan(v) else float(v) for v in matrix.ravel()]


def _mme(path: Path) -> tuple[types.ModuleType, types.ModuleType]:
    sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
    sys.path.insert(0, str(path))
    from mt_metrics_eval import data, stats

    return stats, data


def _common(human: np.ndarray) -> np.ndarray:
    every = (~np.isnan(human)).all(axis=0)
    return np.where(every[None, :], human, np.nan)


def spa_values(stats: types.ModuleType) -> dict[str, object]:
    out: dict[str, object] = {}
    for pair in PAIRS:
        d = pair_data(load_dataset(DATA / pair), SPA_METRICS, human=True)
        gold = _flat(_common(d.human))
        values = {}
        for label, matrix in d.metrics.items():
            corr = stats.Correlation(len(d.systems), gold, _flat(matrix))
            values[label] = float(corr.PairwiseConfidenceError()[0])
        out[pair] = {"systems": list(d.systems), "segments_used": int(
            (~np.isnan(_common(d.human))).all(axis=0).sum()), "spa": values}
    return out


def test_columns(human: np.ndarray) -> np.ndarray:
    """The permutation tests' segments: the first TEST_SEGMENTS judged for every system."""
    return np.flatnonzero((~np.isnan(human)).all(axis=0))[:TEST_SEGMENTS]


def _pair_tests(tests: dict[str, Any], labels: list[str]) -> dict[str, object]:
    """Each test (seeded with np.random.seed(TEST_SEED)) on every pair of metrics, with its CPU time;
    ``fn(a, b)`` tests "a correlates better than b" (delta = corr(a) - corr(b))."""
    out: dict[str, object] = {}
    for name, fn in tests.items():
        np.random.seed(TEST_SEED)
        start = time.process_time()
        res = {}
        for i, a in enumerate(labels):
            for b in labels[i + 1:]:
                p, delta, k = fn(a, b)
                res[f"{a}>{b}"] = {"pvalue": float(p), "delta": float(delta), "draws": int(k)}
        out[name] = {"tests": res, "cpu_seconds": time.process_time() - start}
    out["key_meaning"] = ('"X>Y": the test of "metric X correlates better than metric Y"; '
                          'delta = corr(X) - corr(Y)')
    return out


def permutation_tests(stats: types.ModuleType, data: types.ModuleType,
                      which: tuple[str, ...] = ("pairs_acc23", "perm_both_pearson", "perm_both_spa")
                      ) -> dict[str, object]:
    """Pairwise test (acc23, by item), PERM-BOTH of segment Pearson and of SPA; rank clusters."""
    d = pair_data(load_dataset(DATA / TEST_PAIR), SPA_METRICS, human=True)
    columns = test_columns(d.human)
    human = d.human[:, columns]
    metrics = {k: v[:, columns] for k, v in d.metrics.items()}
    corrs = {k: stats.Correlation(len(d.systems), _flat(human), _flat(v))
             for k, v in metrics.items()}
    spa_corrs = corrs
    never = stats.PermutationSigDiffParams(block_size=TEST_DRAWS)
    out: dict[str, object] = {"pair": TEST_PAIR, "segments": [int(c) + 1 for c in columns],
                              "draws": TEST_DRAWS, "np_random_seed": TEST_SEED,
                              "systems": list(d.systems)}
    tests = {
        "pairs_acc23": lambda a, b: stats.PairwisePermutationSigDiff(
            corrs[b], corrs[a], "acc23", "item", TEST_DRAWS, never, sample_rate=1.0)[:3],
        "perm_both_pearson": lambda a, b: stats.PermutationSigDiff(
            corrs[b], corrs[a], __import__("scipy.stats").stats.pearsonr, "none",
            TEST_DRAWS, never)[:3],
        "perm_both_spa": lambda a, b: stats.PermutationSigDiff(
            spa_corrs[b], spa_corrs[a], stats.PairwiseConfidenceError, "none", TEST_DRAWS,
            never, num_sys=len(d.systems), filter_nones=True)[:3],
    }
    out.update(_pair_tests({k: f for k, f in tests.items() if k in which}, sorted(metrics)))
    out["cluster_cases"] = _clusters(data)
    return out


def _system_vectors(pairs: tuple[str, ...]) -> tuple[list[int], list[float], dict[str, list[float]]]:
    """Systems per pair, and the system-level human (mean of the judged segments, as WMT) and
    metric (corpus) scores of all pairs, concatenated in pair order (WMT23's global accuracy)."""
    sizes, gold, metrics = [], [], {m: [] for m in ("BLEU", "chrF", "METEOR")}
    for pair in pairs:
        d = pair_data(load_dataset(DATA / pair), SPA_METRICS, human=True)
        sizes.append(len(d.systems))
        gold += [float(v) for v in np.nanmean(d.human, axis=1)]
        for m in metrics:
            metrics[m] += [float(v) for v in d.system_metrics[m]]
    return sizes, gold, metrics


def wmt23_values(stats: types.ModuleType) -> dict[str, object]:
    """WMT23's statistics from mt-metrics-eval's functions: per pair system-level Pearson
    (``Correlation.Pearson`` of the system vectors), segment-level Pearson with no grouping (all
    judged cells, ``Correlation.Pearson``), acc23 grouped by item with ε calibrated on every pair
    (``Correlation.KendallWithTiesOpt('item', 'acc23', sample_rate=1.0)``, the task's arguments);
    and the system-level pairwise accuracy of all pairs at once (``stats.Agreement`` per pair,
    agreements over pairs summed, as ``CompareMetricsWithGlobalAccuracy``)."""
    out: dict[str, object] = {}
    for pair in PAIRS:
        d = pair_data(load_dataset(DATA / pair), SPA_METRICS, human=True)
        gold_sys = [float(v) for v in np.nanmean(d.human, axis=1)]
        values = {}
        for label, matrix in d.metrics.items():
            n = len(d.systems)
            sys_corr = stats.Correlation(n, gold_sys, [float(v) for v in d.system_metrics[label]])
            seg_corr = stats.Correlation(n, _flat(d.human), _flat(matrix))
            acc, eps, _ = seg_corr.KendallWithTiesOpt("item", "acc23", sample_rate=1.0)
            values[label] = {"pearson_system": float(sys_corr.Pearson()[0]),
                             "pearson_segment": float(seg_corr.Pearson()[0]),
                             "acc23_item": float(acc), "acc23_epsilon": float(eps)}
        out[pair] = {"systems": list(d.systems), "values": values}
    sizes, gold, metrics = _system_vectors(PAIRS)
    out["accuracy"] = {"pairs": list(PAIRS), "systems_per_pair": sizes,
                       "values": {m: _global_accuracy(stats, sizes, gold, v)
                                  for m, v in metrics.items()}}
    return out


def _global_accuracy(stats: types.ModuleType, sizes: list[int], gold: list[float],
                     metric: list[float] | np.ndarray) -> float:
    """Agreements of every pair's systems (``stats.Agreement``), summed, over the pairs compared."""
    agree = pairs = 0
    start = 0
    for n in sizes:
        a, p = stats.Agreement(gold[start:start + n], list(metric[start:start + n]))
        agree, pairs, start = agree + a, pairs + p, start + n
    return float(agree / pairs)


def wmt23_permutation(stats: types.ModuleType) -> dict[str, object]:
    """PERM-BOTH (``PermutationSigDiff``, no early stopping, TEST_DRAWS draws, ``np.random.seed``)
    of WMT23's system-level Pearson on TEST_PAIR and of its pairwise accuracy over every pair."""
    d = pair_data(load_dataset(DATA / TEST_PAIR), SPA_METRICS, human=True)
    gold_sys = [float(v) for v in np.nanmean(d.human, axis=1)]
    n = len(d.systems)
    sys_corrs = {m: stats.Correlation(n, gold_sys, [float(v) for v in d.system_metrics[m]])
                 for m in d.metrics}
    sizes, gold, metrics = _system_vectors(PAIRS)
    acc_corrs = {m: stats.Correlation(sum(sizes), gold, v) for m, v in metrics.items()}
    never = stats.PermutationSigDiffParams(block_size=TEST_DRAWS)
    scipy_stats = __import__("scipy.stats").stats
    tests = {
        "perm_both_pearson_system": lambda a, b: stats.PermutationSigDiff(
            sys_corrs[b], sys_corrs[a], scipy_stats.pearsonr, "none", TEST_DRAWS, never)[:3],
        "perm_both_accuracy": lambda a, b: stats.PermutationSigDiff(
            acc_corrs[b], acc_corrs[a],
            lambda g, m: (_global_accuracy(stats, sizes, list(g), m), 0), "none",
            TEST_DRAWS, never)[:3],
    }
    out: dict[str, object] = {"pearson_pair": TEST_PAIR, "accuracy_pairs": list(PAIRS),
                              "draws": TEST_DRAWS, "np_random_seed": TEST_SEED}
    out.update(_pair_tests(tests, sorted(metrics)))
    return out


def _clusters(data: types.ModuleType) -> list[dict[str, object]]:
    """AssignRanks on fixed and random p-value matrices (deterministic: compared exactly)."""
    rng = np.random.default_rng(1)
    cases = [np.zeros((3, 3)), np.triu(np.full((4, 4), 0.5), 1),
             np.array([[0, .01, .2, .001], [0, 0, .5, .03], [0, 0, 0, .04], [0, 0, 0, 0]])]
    cases += [np.triu(rng.random((n, n)) ** 3, 1) for n in (5, 8, 12, 12)]
    return [{"pvalues": m.tolist(), "alpha": 0.05, "ranks": list(data.AssignRanks(m, 0.05))}
            for m in cases]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mme", type=Path, help="mt-metrics-eval checkout (outside this repo)")
    ap.add_argument("--commit", help="its commit id (default: git rev-parse HEAD in MME)")
    ap.add_argument("--out", type=Path, default=ROOT / "tests/data/metaeval/oracle.json")
    ap.add_argument("--parts", default="spa,permutation,wmt23",
                    help="what to compute: spa (fixture and WMT22 values), permutation (tests and "
                         "clusters), wmt23 (WMT23's statistics and its PERM-BOTH tests); default "
                         "all; sections not named are kept from an existing --out file")
    ap.add_argument("--tests", default="pairs_acc23,perm_both_pearson,perm_both_spa",
                    help="which permutation tests (default all three)")
    args = ap.parse_args()
    commit = args.commit or subprocess.run(["git", "-C", str(args.mme), "rev-parse", "HEAD"],
                                           capture_output=True, text=True, check=True).stdout.strip()
    stats, data = _mme(args.mme)
    fixture = stats.Correlation(2, [1, 2, 3, 2, 3, 4], [2, 2, 4, 1, 3, 5])
    result = json.loads(args.out.read_text()) if args.out.is_file() else {}
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    parts = args.parts.split(",")
    made = dict(result.get("provenance", {}).get("sections", {}))
    for old in ("spa_wmt22", "permutation"):  # files written before sections were dated
        if old in result and old not in made:
            made[old] = result["provenance"]["date"]
    made |= {name: now for part, names in (("spa", ["spa_wmt22"]), ("permutation", ["permutation"]),
                                           ("wmt23", ["wmt23", "wmt23_permutation"]))
             if part in parts for name in names}
    result |= {
        "provenance": {
            "tool": "google-research/mt-metrics-eval", "commit": commit, "date": now,
            "numpy": np.__version__, "spa_seed": 4, "spa_permutations": 1000,
            "script": "scripts/make_metaeval_oracle.py",
            "data": "shared WMT22 data (cs-en, de-en, ja-en, zh-en), DA z; metric scores by mtscore",
            "sections": made,
        },
        "spa_fixture": float(fixture.PairwiseConfidenceError()[0]),
    }
    if "spa" in parts:
        result["spa_wmt22"] = spa_values(stats)
    if "permutation" in parts:
        result["permutation"] = permutation_tests(stats, data, tuple(args.tests.split(",")))
    if "wmt23" in parts:
        result["wmt23"] = wmt23_values(stats)
        result["wmt23_permutation"] = wmt23_permutation(stats)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
