"""One long, repetitive TER pair: ``mtscore.sentence_ter`` vs sacreBLEU 2.6.0's ``TER.sentence_score``.

The case of issue 26: a reference of 800 words drawn from 3 distinct words and a hypothesis made
from it by 60 random edits (substitutions, deletions, insertions), seeded. Repetitive text gives
tercom's shift search many candidates, so the pure-Python rule was slower than sacreBLEU here;
mtscore now searches every input, a single pair included, with the numpy search. Both tools are
timed in this process, each on a fresh metric object (no cache), cold and then warm (--runs
alternating runs each; the median is printed), and their scores asserted identical.

    python benchmarks/ter_long_pair.py [--words 800] [--edits 60] [--runs 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from sacrebleu.metrics import TER as SacreTER

from mtscore import TER, sentence_ter


def make_pair(words: int, edits: int, seed: int) -> tuple[str, str]:
    """A reference of ``words`` words over {a, b, c} and a hypothesis ``edits`` random edits away."""
    rng = random.Random(seed)
    ref = [rng.choice("abc") for _ in range(words)]
    hyp = list(ref)
    for _ in range(edits):
        i, op = rng.randrange(len(hyp)), rng.random()
        if op < 1 / 3:
            hyp[i] = rng.choice("abcd")
        elif op < 2 / 3:
            del hyp[i]
        else:
            hyp.insert(i, rng.choice("abc"))
    return " ".join(hyp), " ".join(ref)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=800)
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    hyp, ref = make_pair(args.words, args.edits, args.seed)
    t = time.perf_counter()
    ours = sentence_ter(hyp, [ref])
    cold = time.perf_counter() - t
    times: dict[str, list[float]] = {"mtscore": [], "sacreBLEU": []}
    for _ in range(args.runs):
        t = time.perf_counter()
        warm = TER().sentence_score(hyp, [ref])  # a new object: nothing cached
        times["mtscore"].append(time.perf_counter() - t)
        t = time.perf_counter()
        theirs = SacreTER().sentence_score(hyp, [ref])
        times["sacreBLEU"].append(time.perf_counter() - t)
        assert warm.score == ours.score == theirs.score, (warm.score, ours.score, theirs.score)
    ours_t, theirs_t = (statistics.median(times[k]) for k in ("mtscore", "sacreBLEU"))
    print(f"{args.words} words over 3 types, {args.edits} edits: TER {ours.score:.4f} (both tools)")
    print(f"mtscore cold first call {cold:.3f} s; median of {args.runs}: mtscore {ours_t:.3f} s, "
          f"sacreBLEU {theirs_t:.3f} s -> {theirs_t / ours_t:.1f}x")


if __name__ == "__main__":
    main()
