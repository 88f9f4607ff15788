"""Benchmark: METEOR 1.5's jar default run (task rank, with paraphrases), mtscore against the jar.

    python benchmarks/meteor_paraphrase.py [--pair zh-en] [--system AISP-SJTU] [--refs A B]

Side by side in one run, on the same raw WMT22 text (from ../shared), each as a whole process, with
wall-clock and CPU seconds (user + system of all its threads; on a loaded machine compare the CPU
ratios):

* the jar (``pycocoevalcap`` 1.2's ``meteor-1.5.jar``): ``-l en -norm [-r N]``, its default run;
* ``mtscore score -m meteor --meteor-task rank``: the same run (the jar's beam of 40; identical
  scores, checked here), and with ``--meteor-search exact``;
* in this process, the jar's beam over the phrase candidates of every segment: the rule
  (:func:`mtscore.metrics.meteor.align.phrases.align_phrases_beam`) against the fast paths, one
  pair at a time (:mod:`mtscore.metrics.meteor.align.phrases_beam`) and batched
  (:mod:`mtscore.metrics.meteor.align.phrases_batch`, what a corpus uses), alignments compared.

The paraphrase table's cache is built first (once per machine), outside the timings. No timing here
is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from caption import timed  # the same whole-process timing as the captioning benchmark

REPO = Path(__file__).resolve().parents[1]
WMT22 = REPO.parent / "shared" / "data" / "wmt22"


def in_process(hyps: list[str], streams: list[list[str]]) -> tuple[float, float, float, bool]:
    """CPU seconds of the rule's beam over every segment's candidates, the one-pair fast path's
    and the batched one's, and whether every alignment is the same."""
    from mtscore.metrics.meteor import METEOR
    from mtscore.metrics.meteor.align.phrases import align_phrases_beam
    from mtscore.metrics.meteor.align.phrases_batch import align_phrases_beam_many
    from mtscore.metrics.meteor.align.phrases_beam import align_phrases_beam_fast
    from mtscore.metrics.meteor.paraphrase import phrase_candidates

    metric = METEOR(variant="1.5", task="rank")
    vocab, weights = metric.vocabulary(), metric.jar_align_weights()
    cases = []
    for s, hyp in enumerate(metric.tokenize(hyps)):
        for ref in metric.tokenize([stream[s] for stream in streams]):
            h, r = vocab.encode([hyp, ref])
            cases.append((len(h), len(r), phrase_candidates(metric, vocab, h, r)))
    start = time.process_time()
    rule = [align_phrases_beam(n, m, c, weights, 40) for n, m, c in cases]
    middle = time.process_time()
    fast = [align_phrases_beam_fast(n, m, c, weights, 40) for n, m, c in cases]
    third = time.process_time()
    batched = align_phrases_beam_many(cases, weights, 40)
    end = time.process_time()
    return middle - start, third - middle, end - third, rule == fast == batched


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pair", default="zh-en")
    ap.add_argument("--system", default="AISP-SJTU")
    ap.add_argument("--refs", nargs="+", default=["A", "B"])
    args = ap.parse_args()
    from mtscore.lexicon.paraphrase import default_table_path, load_paraphrase_table

    table = default_table_path()
    jar = Path(table).parent.parent / "meteor-1.5.jar" if table is not None else None
    if jar is None or not jar.is_file() or not (WMT22 / args.pair).is_dir():
        print("needs pycocoevalcap 1.2 (its jar and paraphrase table), Java and ../shared/data/wmt22")
        return 1
    load_paraphrase_table()  # the cache, built once
    data = WMT22 / args.pair
    hyp = data / "systems" / f"{args.system}.txt"
    refs = [data / "references" / f"{r}.txt" for r in args.refs]
    hyps = hyp.read_text(encoding="utf-8").splitlines()
    streams = [r.read_text(encoding="utf-8").splitlines() for r in refs]
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    os.environ.update(env)
    with tempfile.TemporaryDirectory() as tmp:
        interleaved = Path(tmp) / "refs.txt"  # the jar's -r N: N references per segment, in turn
        interleaved.write_text("".join(f"{s[k]}\n" for k in range(len(hyps)) for s in streams),
                               encoding="utf-8")
        java = ["java", "-Xmx2G", "-jar", str(jar), str(hyp), str(interleaved), "-l", "en", "-norm",
                "-r", str(len(refs))]
        ours = [sys.executable, "-m", "mtscore", "score", "-m", "meteor", "--meteor-task", "rank",
                "-i", str(hyp), "-r", *map(str, refs), "--score-only", "-w", "10", "-q"]
        runs = {"jar": timed(java), "mtscore (beam)": timed(ours),
                "mtscore (exact)": timed([*ours, "--meteor-search", "exact"])}
    print(f"{args.pair} {args.system}, {len(hyps)} segments, references {' '.join(args.refs)}")
    for name, (wall, cpu, out) in runs.items():
        score = re.findall(r"Final score:\s*(\S+)", out) or out.split()
        print(f"  {name:16} wall {wall:7.2f} s  CPU {cpu:7.2f} s  score {float(score[-1]):.10f}")
    jar_cpu = runs["jar"][1]
    print(f"  CPU ratio jar / mtscore (beam):  {jar_cpu / runs['mtscore (beam)'][1]:.2f}")
    print(f"  CPU ratio jar / mtscore (exact): {jar_cpu / runs['mtscore (exact)'][1]:.2f}")
    rule, fast, batched, same = in_process(hyps, streams)
    print(f"  the beam over phrase candidates, CPU: rule {rule:.2f} s, one pair at a time "
          f"{fast:.2f} s (ratio {rule / fast:.2f}), batched {batched:.2f} s (ratio {rule / batched:.2f}); "
          f"identical alignments: {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
