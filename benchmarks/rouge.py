"""ROUGE-1/2/L/Lsum: mtscore against rouge-score 0.1.2, rapidrouge and rouge-score-rs, side by side.

Per-segment F of all four types for one system of a WMT22 pair against its first reference, on
segments and on documents (``--doc-size`` consecutive segments joined with newlines, so ROUGE-Lsum
has sentences), without and with the Porter stemmer. Every tool's F is checked equal to
rouge-score's (1e-12) before its time is kept.

* in-process, alternating between the tools, median of ``--runs``; CPU time (``process_time``) and
  wall time. Cold: new scorer objects every run, mtscore's stem cache emptied. Warm: one scorer
  object per tool kept across runs after an untimed run over the whole corpus (mtscore's stems
  remembered), as a process scoring many systems runs. rouge-score-rs runs on one thread
  (``RAYON_NUM_THREADS=1``) unless ``--rs-threads`` says otherwise. The minor page faults of each
  call (``resource.getrusage``, median) are printed beside: a run whose heap glibc trimmed after
  the last one faults it in again, which costs system time that instruction counts do not show.
  With ``--pairwise``, mtscore and each peer alternate in a run of their own (the row
  ``mtscore|peer`` is mtscore's time in that run): a pure-Python peer's churn of the heap then
  lands only in its own comparison.
* whole process: ``python -c`` reading the texts from a JSON file and scoring them, median wall time
  of ``--runs`` (imports included).

Ratios are other / mtscore (above 1: mtscore is faster).

    python benchmarks/rouge.py [--data ../shared/data/wmt22] [--pair de-en] [--runs 3]
    python benchmarks/rouge.py --check-all   # every system of every pair: P, R, F = rouge-score (1e-12)

``--check-all`` is the full parity check the test suite runs on a sample (``tests/test_rouge.py``):
every system of every WMT22 pair against its first reference, segments and documents, all four
types, without and with the stemmer; it prints the number of values compared and any mismatch.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
TOOLS = ("mtscore", "rouge-score", "rapidrouge", "rouge-score-rs")
_NAME = 24  # width of the tool column (``mtscore|rouge-score-rs`` with --pairwise)
REPO = Path(__file__).resolve().parents[1]

# whole-process scripts: argv[1] = JSON file {"hyps", "refs", "stem"}
_MTSCORE = """import json, sys
from mtscore.metrics.rouge import ROUGE, extract_types
d = json.load(open(sys.argv[1], encoding="utf-8"))
extract_types([ROUGE(t, stemmer=d["stem"]) for t in {types!r}], d["hyps"], [d["refs"]])
"""
_PEER = """import json, sys
from {module} import RougeScorer
d = json.load(open(sys.argv[1], encoding="utf-8"))
s = RougeScorer(list({types!r}), use_stemmer=d["stem"])
{call}
"""
_SCRIPTS = {
    "mtscore": _MTSCORE.format(types=TYPES),
    "rouge-score": _PEER.format(module="rouge_score.rouge_scorer", types=TYPES,
                                call="[s.score(r, h) for h, r in zip(d['hyps'], d['refs'])]"),
    "rapidrouge": _PEER.format(module="rapidrouge", types=TYPES,
                               call="[s.score(r, h) for h, r in zip(d['hyps'], d['refs'])]"),
    "rouge-score-rs": _PEER.format(module="rouge_score_rs", types=TYPES,
                                   call="s.score_batch(d['refs'], d['hyps'])"),
}


def available() -> dict[str, bool]:
    """Which peers import here."""
    out = {"mtscore": True}
    for tool, module in (("rouge-score", "rouge_score"), ("rapidrouge", "rapidrouge"),
                         ("rouge-score-rs", "rouge_score_rs")):
        try:
            __import__(module)
            out[tool] = True
        except ImportError:
            out[tool] = False
    return out


def scorer(tool: str, stem: bool, warm: bool) -> Callable[[list[str], list[str]], list[list[float]]]:
    """A scoring function: F of every type for every segment. Cold: new scorer objects each call
    (and mtscore's stem cache emptied); warm: one scorer object kept across calls (and mtscore's
    stems remembered from the untimed first call), as a process scoring many systems runs."""
    if tool == "mtscore":
        from mtscore.metrics.rouge import ROUGE, extract_types
        from mtscore.metrics.rouge.tokenize import Stems

        kept = [ROUGE(t, stemmer=stem) for t in TYPES]

        def run(hyps: list[str], refs: list[str]) -> list[list[float]]:
            if not warm:
                Stems.forget()  # cold: no stem remembered from an earlier run
            metrics = kept if warm else [ROUGE(t, stemmer=stem) for t in TYPES]
            stats = extract_types(metrics, hyps, [refs])
            return [s.column("fmeasure").tolist() for s in stats]
        return run
    module = {"rouge-score": "rouge_score.rouge_scorer", "rapidrouge": "rapidrouge",
              "rouge-score-rs": "rouge_score_rs"}[tool]
    cls = __import__(module, fromlist=["RougeScorer"]).RougeScorer
    one = cls(list(TYPES), use_stemmer=stem)

    def run_peer(hyps: list[str], refs: list[str]) -> list[list[float]]:
        s = one if warm else cls(list(TYPES), use_stemmer=stem)
        if tool == "rouge-score-rs":
            rows = s.score_batch(refs, hyps)
        else:
            rows = [s.score(r, h) for h, r in zip(hyps, refs)]
        return [[row[t].fmeasure for row in rows] for t in TYPES]
    return run_peer


def _minor_faults() -> int:
    """Minor page faults of this process so far."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def in_process(tools: list[str], hyps: list[str], refs: list[str], stem: bool, runs: int,
               warm: bool) -> dict[str, tuple[float, float, float]]:
    """Median (CPU, wall) seconds and minor page faults per tool, alternating; F checked against
    rouge-score."""
    fns = {tool: scorer(tool, stem, warm) for tool in tools}
    for fn in fns.values():
        fn(hyps if warm else hyps[:1], refs if warm else refs[:1])  # imports, first calls: untimed
    # numpy's OpenBLAS starts an idle worker thread that spins about 0.1 s after the import; the
    # CPU time of the process (process_time, which counts every thread, as rouge-score-rs's
    # rayon worker needs) would count that spin against whichever tool runs first
    time.sleep(0.5)
    times: dict[str, list[tuple[float, float, int]]] = {tool: [] for tool in tools}
    results: dict[str, Any] = {}
    for _ in range(runs):
        for tool, fn in fns.items():
            f, c, w = _minor_faults(), time.process_time(), time.perf_counter()
            results[tool] = fn(hyps, refs)
            times[tool].append((time.process_time() - c, time.perf_counter() - w,
                                _minor_faults() - f))
    if "rouge-score" in results:
        want = results["rouge-score"]
        for tool, got in results.items():
            for t, g, e in zip(TYPES, got, want):
                worst = max((abs(a - b) for a, b in zip(g, e)), default=0.0)
                if worst > 1e-12:
                    raise SystemExit(f"{tool} {t}: F differs from rouge-score by {worst}")
    return {tool: (statistics.median(c for c, _, _ in ts), statistics.median(w for _, w, _ in ts),
                   statistics.median(f for _, _, f in ts))
            for tool, ts in times.items()}


def whole_process(tools: list[str], hyps: list[str], refs: list[str], stem: bool,
                  runs: int) -> dict[str, float]:
    """Median wall seconds of a new Python process per tool."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    out: dict[str, list[float]] = {tool: [] for tool in tools}
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as f:
        json.dump({"hyps": hyps, "refs": refs, "stem": stem}, f)
        path = f.name
    try:
        for _ in range(runs):
            for tool in tools:
                start = time.perf_counter()
                subprocess.run([sys.executable, "-c", _SCRIPTS[tool], path], check=True, env=env)
                out[tool].append(time.perf_counter() - start)
    finally:
        os.unlink(path)
    return {tool: statistics.median(ts) for tool, ts in out.items()}


def documents(lines: list[str], size: int) -> list[str]:
    return ["\n".join(lines[i:i + size]) for i in range(0, len(lines), size)]


def check_all(data: Path, doc_size: int) -> int:
    """Every per-segment P, R and F of mtscore against rouge-score 0.1.2 (1e-12): mismatches."""
    from rouge_score.rouge_scorer import RougeScorer

    from mtscore.metrics.rouge import ROUGE, extract_types

    compared, bad = 0, 0
    for pair in sorted(p for p in data.iterdir() if (p / "meta.json").is_file()):
        first = json.loads((pair / "meta.json").read_text(encoding="utf-8"))["references"][0]
        ref = (pair / "references" / f"{first}.txt").read_text(encoding="utf-8").splitlines()
        for path in sorted((pair / "systems").glob("*.txt")):
            hyp = path.read_text(encoding="utf-8").splitlines()
            for h, r in ((hyp, ref), (documents(hyp, doc_size), documents(ref, doc_size))):
                for stem in (False, True):
                    stats = extract_types([ROUGE(t, stemmer=stem) for t in TYPES], h, [r])
                    peer = RougeScorer(list(TYPES), use_stemmer=stem)
                    rows = [peer.score(b, a) for a, b in zip(h, r)]
                    for t, st in zip(TYPES, stats):
                        for column, field in (("precision", "precision"), ("recall", "recall"),
                                              ("fmeasure", "fmeasure")):
                            ours = st.column(column)
                            theirs = [getattr(row[t], field) for row in rows]
                            diff = [i for i, (x, y) in enumerate(zip(ours, theirs)) if abs(x - y) > 1e-12]
                            compared += len(theirs)
                            bad += len(diff)
                            if diff:
                                print(f"MISMATCH {pair.name} {path.name} {t} {column} stem={stem}: "
                                      f"{len(diff)} values, first at {diff[0]}")
            print(f"{pair.name} {path.name}: checked", flush=True)
    print(f"{compared:,} values compared, {bad} mismatches")
    return bad


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default=str(REPO.parent / "shared" / "data" / "wmt22"))
    p.add_argument("--pair", default="de-en")
    p.add_argument("--system", default=None, help="system file name (default: the first)")
    p.add_argument("--doc-size", type=int, default=5)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--rs-threads", default="1", help="RAYON_NUM_THREADS of rouge-score-rs")
    p.add_argument("--no-process", action="store_true", help="skip the whole-process runs")
    p.add_argument("--pairwise", action="store_true",
                   help="time mtscore against each peer in a run of its own (the two alternating), "
                        "so no third tool's heap use lands between them")
    p.add_argument("--tools", nargs="+", choices=TOOLS, default=None,
                   help="only these tools (default: every installed one; mtscore always)")
    p.add_argument("--check-all", action="store_true",
                   help="compare every system of every pair with rouge-score instead of timing")
    args = p.parse_args(argv)
    if args.check_all:
        sys.exit(1 if check_all(Path(args.data), args.doc_size) else 0)
    os.environ["RAYON_NUM_THREADS"] = args.rs_threads
    pair = Path(args.data) / args.pair
    first = json.loads((pair / "meta.json").read_text(encoding="utf-8"))["references"][0]
    refs = (pair / "references" / f"{first}.txt").read_text(encoding="utf-8").splitlines()
    system = args.system or sorted(x.name for x in (pair / "systems").glob("*.txt"))[0]
    hyps = (pair / "systems" / system).read_text(encoding="utf-8").splitlines()
    have = available()
    tools = [t for t in TOOLS if have[t] and (t == "mtscore" or args.tools is None or t in args.tools)]
    for t in TOOLS:
        if not have[t]:
            print(f"note: {t} is not installed; left out")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average {load}; "
          f"{os.cpu_count()} CPUs")
    print(f"{args.pair} {system} vs {first}; rouge-score-rs threads: {args.rs_threads}; "
          f"median of {args.runs}; ratio = tool / mtscore (above 1: mtscore is faster)")
    for corpus, (h, r) in (("segments", (hyps, refs)),
                           (f"documents of {args.doc_size}",
                            (documents(hyps, args.doc_size), documents(refs, args.doc_size)))):
        for stem in (False, True):
            label = f"{corpus} ({len(h)}), {'stemmer' if stem else 'no stemmer'}"
            groups = ([["mtscore", t] for t in tools if t != "mtscore"] if args.pairwise
                      else [tools])
            print(f"\nin-process, rouge1+2+L+Lsum, {label}")
            print(f"{'tool':<{_NAME}}{'cold CPU s':>11}{'ratio':>8}{'warm CPU s':>11}{'ratio':>8}"
                  f"{'cold wall s':>12}{'cold faults':>12}{'warm faults':>12}")
            for group in groups:
                _rows(group, h, r, stem, args.runs, args.pairwise)
            if not args.no_process:
                wall = whole_process(tools, h, r, stem, args.runs)
                print(f"whole process, {label}")
                for tool, secs in wall.items():
                    print(f"{tool:<16}{secs:>9.3f}{secs / wall['mtscore']:>9.2f}")


def _rows(tools: list[str], hyps: list[str], refs: list[str], stem: bool, runs: int,
          pairwise: bool) -> None:
    """Time these tools alternating in this process (cold, then warm) and print a row each."""
    cold = in_process(tools, hyps, refs, stem, runs, warm=False)
    warm = in_process(tools, hyps, refs, stem, runs, warm=True)
    base_c, base_w = cold["mtscore"][0], warm["mtscore"][0]
    for tool in tools:
        c, w = cold[tool][0], warm[tool][0]
        name = f"mtscore|{tools[1]}" if pairwise and tool == "mtscore" else tool
        print(f"{name:<{_NAME}}{c:>11.4f}{c / base_c:>8.2f}{w:>11.4f}{w / base_w:>8.2f}"
              f"{cold[tool][1]:>12.4f}{cold[tool][2]:>12.0f}{warm[tool][2]:>12.0f}")

if __name__ == "__main__":
    main()
