"""Benchmark: ``mtscore caption`` vs pycocoevalcap 1.2, the whole evaluation, as whole processes.

    python benchmarks/caption.py [--pair zh-en] [--system Online-B] [--refs A B] [--repeat 3]
                                 [--no-meteor]

Both processes read the same COCO annotation and results files (written to a temporary folder
from WMT22 ``--pair``'s references and a system's output, each segment an image; from
../shared when present, else the embedded caption sample) and compute the same scores:

* ``mtscore caption -a ANN -R RES -f json`` (the PTB tokenizer port, BLEU-1..4, METEOR, ROUGE-L,
  CIDEr-D);
* a Python process running what ``COCOEvalCap.evaluate`` runs, minus SPICE (it needs a CoreNLP
  download): pycocoevalcap's ``PTBTokenizer`` (Java) on the references and on the results, then
  ``Bleu(4)``, ``Meteor()`` (the jar), ``Rouge()`` and ``Cider()``.

Prints the fastest and the median wall-clock time of ``--repeat`` runs of each and the fastest CPU
time (user + system of every thread: the JVM's compiler and collector threads count), and the
ratios.
No timing is asserted anywhere; numbers depend on the machine and its load, so compare only the
ratio of runs made side by side.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WMT22 = REPO.parent / "shared" / "data" / "wmt22"
SAMPLE = REPO / "src" / "mtscore" / "data" / "sample" / "captions"

PYCOCO = """
import json, sys
from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.rouge.rouge import Rouge
from pycocoevalcap.cider.cider import Cider
ann = json.load(open(sys.argv[1], encoding="utf-8"))
res = json.load(open(sys.argv[2], encoding="utf-8"))
gts, hyp = {}, {}
for a in ann["annotations"]:
    gts.setdefault(a["image_id"], []).append(a)
for r in res:
    hyp[r["image_id"]] = [r]
gts = {i: gts[i] for i in hyp}
tok = PTBTokenizer()
gts, hyp = tok.tokenize(gts), tok.tokenize(hyp)
scorers = [(Bleu(4), ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"])]
if sys.argv[3] == "meteor":
    from pycocoevalcap.meteor.meteor import Meteor
    scorers.append((Meteor(), "METEOR"))
scorers += [(Rouge(), "ROUGE_L"), (Cider(), "CIDEr")]
out = {}
for scorer, method in scorers:
    if isinstance(scorer, Bleu):
        score, _ = scorer.compute_score(gts, hyp, verbose=0)
    else:
        score, _ = scorer.compute_score(gts, hyp)
    for m, s in zip(method if isinstance(method, list) else [method],
                    score if isinstance(method, list) else [score]):
        out[m] = float(s)
print(json.dumps(out))
"""


def write_inputs(folder: Path, pair: str, system: str, refs: list[str]) -> tuple[Path, Path, int]:
    """The COCO annotation and results files of a WMT22 system (or the caption sample)."""
    if not (WMT22 / pair).is_dir():
        print(f"{WMT22 / pair} not found: using the embedded caption sample")
        return SAMPLE / "annotations.json", SAMPLE / "results_a.json", 10
    streams = [(WMT22 / pair / "references" / f"{r}.txt").read_text(encoding="utf-8").splitlines()
               for r in refs]
    hyps = (WMT22 / pair / "systems" / f"{system}.txt").read_text(encoding="utf-8").splitlines()
    ann = {"annotations": [{"image_id": i, "caption": s[i]} for i in range(len(hyps))
                           for s in streams]}
    res = [{"image_id": i, "caption": h} for i, h in enumerate(hyps)]
    (folder / "ann.json").write_text(json.dumps(ann, ensure_ascii=False), encoding="utf-8")
    (folder / "res.json").write_text(json.dumps(res, ensure_ascii=False), encoding="utf-8")
    return folder / "ann.json", folder / "res.json", len(hyps)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """Wall-clock and CPU (user + system, all threads) seconds of one child process, its output."""
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=REPO)
    return time.perf_counter() - start, _children_cpu() - cpu, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pair", default="zh-en")
    parser.add_argument("--system", default="Online-B")
    parser.add_argument("--refs", nargs="+", default=["A", "B"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-meteor", action="store_true")
    parser.add_argument("--annotations", type=Path, default=None,
                        help="a COCO annotation file to use instead of WMT22 (with --results)")
    parser.add_argument("--results", type=Path, default=None, help="its COCO results file")
    args = parser.parse_args()
    if shutil.which("java") is None:
        sys.exit("pycocoevalcap needs Java (java not found)")
    meteor = "none" if args.no_meteor else "meteor"
    with tempfile.TemporaryDirectory() as tmp:
        if args.annotations is not None and args.results is not None:
            ann, res = args.annotations, args.results
            images = len(json.loads(res.read_text(encoding="utf-8")))
        else:
            ann, res, images = write_inputs(Path(tmp), args.pair, args.system, args.refs)
        (Path(tmp) / "pycoco.py").write_text(PYCOCO, encoding="utf-8")
        ours = [sys.executable, "-m", "mtscore", "caption", "-a", str(ann), "-R", str(res),
                "-f", "json", *(["--no-meteor"] if args.no_meteor else [])]
        theirs = [sys.executable, str(Path(tmp) / "pycoco.py"), str(ann), str(res), meteor]
        times: dict[str, list[float]] = {"mtscore": [], "pycocoevalcap": []}
        cpus: dict[str, list[float]] = {"mtscore": [], "pycocoevalcap": []}
        outputs = {}
        for _ in range(args.repeat):
            for name, cmd in (("mtscore", ours), ("pycocoevalcap", theirs)):
                seconds, cpu, out = timed(cmd)
                times[name].append(seconds)
                cpus[name].append(cpu)
                outputs[name] = out
    scores_ours = json.loads(outputs["mtscore"])["systems"][0]["eval"]
    scores_theirs = json.loads(outputs["pycocoevalcap"].strip().splitlines()[-1])
    source = (f"{args.annotations}, {args.results}" if args.annotations is not None else
              f"{len(args.refs)} references each ({args.pair} {args.system})"
              if (WMT22 / args.pair).is_dir() else "the embedded caption sample")
    print(f"{images} images ({source})")
    for name in scores_theirs:
        print(f"  {name:8s} mtscore {scores_ours[name]:.6f}  pycocoevalcap {scores_theirs[name]:.6f}")
    for name, values in times.items():
        print(f"{name:14s} wall fastest {min(values):7.2f} s  median {statistics.median(values):7.2f} s"
              f"   CPU fastest {min(cpus[name]):7.2f} s")
    ratio = min(times["pycocoevalcap"]) / min(times["mtscore"])
    cpu_ratio = min(cpus["pycocoevalcap"]) / min(cpus["mtscore"])
    print(f"ratio (pycocoevalcap / mtscore, fastest runs): wall {ratio:.1f}x, CPU {cpu_ratio:.1f}x")


if __name__ == "__main__":
    main()
