"""Benchmark: mtscore's METEOR vs NLTK's ``meteor_score`` and vs the METEOR 1.5 jar, on the same data.

    python benchmarks/meteor.py [--data ../shared/data/wmt22/de-en] [--system Online-B] [--ref A]

One system against one reference (default: WMT22 de-en Online-B vs reference A, 1,984 segments, from
../shared when present, else the embedded 427-segment sample). Prints wall-clock and CPU times (the
fastest and the median of ``--repeat`` runs) and ratios:

* ``mtscore score -m meteor`` as a whole process (the paper's modules exact porter synonym), and
  with ``--meteor-variant 1.5 --meteor-modules exact stem synonym`` (its default, the exact search;
  and with ``--meteor-search beam``, the jar's beam), and with ``--meteor-workers 2``.
  Python runs as an installed package does: with its bytecode cached (here in a temporary
  ``PYTHONPYCACHEPREFIX``, after one warm-up run), even where ``PYTHONDONTWRITEBYTECODE`` is set — that
  would make every run compile mtscore's sources again, which no installed copy does (``--no-bytecode``
  measures that too: an editable install without ``__pycache__``);
* in-process, warm (the second ``METEOR().extract`` call);
* NLTK's ``meteor_score`` — where WordNet data can be found (NLTK's own ``wordnet`` corpus, or the
  Debian ``wordnet-base`` files in /usr/share/wordnet, copied to a temporary NLTK data folder) —
  on the same tokens (13a, lowercased): as a whole process like mtscore's (Python's start, NLTK's
  import, WordNet's load and the loop; the text is given to it pre-tokenized, so tokenizing is not
  counted), and in this process with WordNet's load and the per-segment loop timed apart;
* the METEOR 1.5 jar — where Java and the jar of the PyPI package ``pycocoevalcap==1.2`` are present —
  run as ``-m 'exact stem synonym' -w '1.0 1.0 1.0' -p '0.9 3.0 0.5 0.5' -norm -lower``.

No timing here is asserted anywhere; numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtscore.metrics.meteor import METEOR

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data" / "wmt22" / "de-en"

_LEXNAMES_TEXT = ("adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute "
                  "noun.body noun.cognition noun.communication noun.event noun.feeling noun.food noun.group "
                  "noun.location noun.motive noun.object noun.person noun.phenomenon noun.plant "
                  "noun.possession noun.process noun.quantity noun.relation noun.shape noun.state "
                  "noun.substance noun.time verb.body verb.change verb.cognition verb.communication "
                  "verb.competition verb.consumption verb.contact verb.creation verb.emotion verb.motion "
                  "verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl")
_LEXNAMES = tuple(_LEXNAMES_TEXT.split())


def _lines(path: Path) -> list[str]:
    from mtscore.io.text import read_lines
    return read_lines(path)


def _run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Wall and CPU (user + system) seconds of one child process, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, out


def _repeat(cmd: list[str], n: int, env: dict[str, str] | None = None, warm_up: bool = True
            ) -> tuple[float, float, float, str]:
    """Fastest wall, median wall and fastest CPU time of ``n`` runs (after one warm-up run)."""
    if warm_up:
        _run(cmd, env)
    runs = [_run(cmd, env) for _ in range(n)]
    return (min(r[0] for r in runs), statistics.median(r[0] for r in runs), min(r[1] for r in runs),
            runs[0][2])


def _installed_env(cache: str) -> dict[str, str]:
    """The environment of an installed package: bytecode cached (in ``cache``), not recompiled."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


#: NLTK as a whole process: Python's start, NLTK's import, WordNet's load and the loop over the
#: segments (read pre-tokenized, so NLTK is not charged for tokenizing); argv: hyp, ref, and the
#: NLTK data folder made from the Debian files ("" when NLTK's own wordnet corpus is used)
_NLTK_PROCESS = """
import sys
import nltk
from nltk.translate.meteor_score import meteor_score
if sys.argv[3]:
    nltk.data.path.insert(0, sys.argv[3])
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    WordNetCorpusReader.map_wn = lambda self, version="wordnet": None
from nltk.corpus import wordnet
with open(sys.argv[1], encoding="utf-8") as h, open(sys.argv[2], encoding="utf-8") as r:
    pairs = [(x.split(), y.split()) for x, y in zip(h, r)]
scores = [meteor_score([y], x, wordnet=wordnet) for x, y in pairs]
print(sum(scores) / len(scores))
"""


def _nltk_wordnet():
    """NLTK's WordNet reader and the NLTK data folder made for it ("" if none was needed), or
    (None, "") when no WordNet data can be found."""
    import nltk
    root = ""
    try:
        nltk.data.find("corpora/wordnet")
    except LookupError:
        src = Path("/usr/share/wordnet")
        if not (src / "data.noun").is_file():
            return None, ""
        root = tempfile.mkdtemp(prefix="mtscore-nltk-wn-")
        dest = Path(root) / "corpora" / "wordnet"
        dest.mkdir(parents=True)
        for f in src.iterdir():
            if f.name.startswith(("data.", "index.")) or f.name.endswith(".exc"):
                shutil.copy(f, dest / f.name)
        pos = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
        (dest / "lexnames").write_text("".join(f"{k:02d}\t{n}\t{pos[n.split('.')[0]]}\n"
                                               for k, n in enumerate(_LEXNAMES)))
        nltk.data.path.insert(0, root)
        from nltk.corpus.reader.wordnet import WordNetCorpusReader
        # the Debian files are WordNet 3.0 itself: no version mapping (it needs index.sense)
        WordNetCorpusReader.map_wn = lambda self, version="wordnet": None  # type: ignore[method-assign]
    from nltk.corpus import wordnet
    return wordnet, root


def _jar() -> Path | None:
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or shutil.which("java") is None:
        return None
    for base in spec.submodule_search_locations or []:
        jar = Path(base) / "meteor" / "meteor-1.5.jar"
        if jar.is_file():
            return jar
    return None


def _time_mtscore_processes(hyp_path: Path, ref_path: Path, repeat: int, no_bytecode: bool,
                            results: dict[str, float]) -> None:
    """``mtscore score -m meteor`` as whole processes, each variant (and, with ``no_bytecode``, with no
    cached bytecode)."""
    cache = tempfile.mkdtemp(prefix="mtscore-bench-pyc-")
    env = _installed_env(cache)
    cmd = [sys.executable, "-m", "mtscore", "score", "-r", str(ref_path), "-i", str(hyp_path),
           "-m", "meteor", "-q", "-f", "json"]
    runs = [("2005", "exact porter synonym", []),
            ("1.5", "exact stem synonym", ["--meteor-variant", "1.5", "--meteor-modules", "exact", "stem",
                                          "synonym"]),
            ("1.5, beam", "exact stem synonym", ["--meteor-variant", "1.5", "--meteor-modules", "exact",
                                                "stem", "synonym", "--meteor-search", "beam"]),
            ("2005, 2 workers", "exact porter synonym", ["--meteor-workers", "2"])]
    for label, modules, extra in runs:
        try:
            wall, median, cpu, out = _repeat(cmd + extra, repeat, env)
        except subprocess.CalledProcessError:  # e.g. an older mtscore without the option
            print(f"mtscore score -m meteor ({label}): failed")
            results[f"mtscore process ({label})"] = float("nan")
            continue
        results[f"mtscore process ({label})"] = wall
        results[f"mtscore process CPU ({label})"] = cpu
        score = float(re.search(r'"score": ([0-9.e-]+)', out).group(1))
        print(f"mtscore score -m meteor ({label}: {modules}), whole process: {wall:.3f} s ({median:.3f}), "
              f"CPU {cpu:.3f} s  METEOR {score:.4f}")
    if no_bytecode:
        plain = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}
        plain["PYTHONDONTWRITEBYTECODE"] = "1"  # an editable install's sources are compiled every run
        wall, median, cpu, _ = _repeat(cmd, repeat, plain)
        print(f"mtscore score -m meteor (2005), no bytecode cached for mtscore (compiled on every run): "
              f"{wall:.3f} s ({median:.3f}), CPU {cpu:.3f} s")
    shutil.rmtree(cache, ignore_errors=True)


def _time_in_process(hyps: list[str], refs: list[str], repeat: int,
                     results: dict[str, float]) -> METEOR:
    """mtscore's METEOR in this process: the first call, then the fastest of ``repeat``."""
    from mtscore.metrics.meteor import METEOR
    metric = METEOR()
    t0 = time.perf_counter()
    metric.extract(hyps, [refs])
    cold = time.perf_counter() - t0
    warm = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        stats = metric.extract(hyps, [refs])
        warm.append(time.perf_counter() - t0)
    results["mtscore in-process warm"] = min(warm)
    print(f"mtscore in-process: first call {cold:.3f} s (loads WordNet), warm {min(warm):.3f} s "
          f"({statistics.median(warm):.3f})  METEOR {metric.compute(stats.total()).score:.4f}")
    return metric


def _time_nltk(metric: METEOR, hyps: list[str], refs: list[str], repeat: int,
               results: dict[str, float]) -> None:
    """NLTK's meteor_score on mtscore's tokens: in this process and as a whole process."""
    wn, nltk_root = _nltk_wordnet()
    if wn is None:
        print("NLTK meteor_score: skipped (no WordNet data found)")
    else:
        from nltk.translate.meteor_score import meteor_score
        hyp_tok = metric.tokenize(hyps)
        ref_tok = metric.tokenize(refs)
        t0 = time.perf_counter()
        c0 = time.process_time()
        wn.ensure_loaded()
        meteor_score([["a"]], ["a"], wordnet=wn)
        load = time.perf_counter() - t0
        t0 = time.perf_counter()
        scores = [meteor_score([r], h, wordnet=wn) for h, r in zip(hyp_tok, ref_tok)]
        loop = time.perf_counter() - t0
        cpu = time.process_time() - c0
        results["nltk total"] = load + loop
        results["nltk loop"] = loop
        print(f"NLTK meteor_score (in this process, not counting Python's start and NLTK's import): "
              f"WordNet load {load:.2f} s, loop {loop:.2f} s, total {load + loop:.2f} s, CPU "
              f"{cpu:.2f} s  (mean sentence score {sum(scores) / len(scores):.4f}; NLTK has no corpus "
              f"score)")
        tok = Path(tempfile.mkdtemp(prefix="mtscore-nltk-tok-"))
        (tok / "hyp.txt").write_text("".join(" ".join(t) + "\n" for t in hyp_tok), encoding="utf-8")
        (tok / "ref.txt").write_text("".join(" ".join(t) + "\n" for t in ref_tok), encoding="utf-8")
        n = max(1, min(repeat, 3))
        wall, median, cpu, out = _repeat([sys.executable, "-c", _NLTK_PROCESS, str(tok / "hyp.txt"),
                                          str(tok / "ref.txt"), nltk_root], n, warm_up=True)
        shutil.rmtree(tok, ignore_errors=True)
        results["nltk process"] = wall
        results["nltk process CPU"] = cpu
        print(f"NLTK meteor_score as a whole process (Python's start, NLTK's import, WordNet's load, "
              f"the loop; text read pre-tokenized): {wall:.2f} s ({median:.2f}), CPU {cpu:.2f} s  "
              f"(mean sentence score {float(out):.4f})")


def _time_jar(hyp_path: Path, ref_path: Path, repeat: int, results: dict[str, float]) -> None:
    """The METEOR 1.5 jar as a whole process, where Java and pycocoevalcap's jar exist."""
    jar = _jar()
    if jar is None:
        print("METEOR 1.5 jar: skipped (needs java and pycocoevalcap==1.2)")
    else:
        wall, median, cpu, out = _repeat(
            ["java", "-Xmx2G", "-jar", str(jar), str(hyp_path), str(ref_path), "-l", "en", "-norm",
             "-lower", "-m", "exact stem synonym", "-w", "1.0 1.0 1.0", "-p", "0.9 3.0 0.5 0.5"],
            max(1, min(repeat, 3)), warm_up=False)
        results["jar"] = wall
        results["jar CPU"] = cpu
        final = re.search(r"Final score:\s+([0-9.]+)", out)
        score = float(final.group(1)) if final else float("nan")
        print(f"METEOR 1.5 jar (exact stem synonym, -norm -lower), whole process: {wall:.2f} s "
              f"({median:.2f}), CPU {cpu:.2f} s  METEOR {score:.4f}")


def _print_ratios(results: dict[str, float]) -> None:
    """The ratios of the peers' times to mtscore's (> 1: mtscore faster)."""
    print("\nratios (> 1: mtscore faster; fastest runs)")
    main_run = results["mtscore process (2005)"]
    if "nltk total" in results:
        print(f"  NLTK process / mtscore process (2005):          {results['nltk process'] / main_run:.2f}")
        print(f"  NLTK process CPU / mtscore process CPU (2005):  "
              f"{results['nltk process CPU'] / results['mtscore process CPU (2005)']:.2f}")
        print(f"  NLTK load+loop / mtscore process (2005):        {results['nltk total'] / main_run:.2f}")
        print(f"  NLTK load+loop / mtscore process (2005, 2 w.): "
              f"{results['nltk total'] / results['mtscore process (2005, 2 workers)']:.2f}")
        print(f"  NLTK loop / mtscore in-process warm:            "
              f"{results['nltk loop'] / results['mtscore in-process warm']:.2f}")
    if "jar" in results:
        jar_15 = results["jar"] / results["mtscore process (1.5)"]
        print(f"  jar / mtscore process (1.5):                    {jar_15:.2f}")
        print(f"  jar / mtscore process (1.5, beam):              "
              f"{results['jar'] / results['mtscore process (1.5, beam)']:.2f}")
        print(f"  jar / mtscore process (2005):                   {results['jar'] / main_run:.2f}")
        print(f"  jar CPU / mtscore process CPU (2005):           "
              f"{results['jar CPU'] / results['mtscore process CPU (2005)']:.2f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None, help="a WMT22 pair folder (default: de-en)")
    ap.add_argument("--system", default="Online-B")
    ap.add_argument("--ref", default="A")
    ap.add_argument("--repeat", type=int, default=5, help="runs per process measurement (default 5)")
    ap.add_argument("--skip-nltk", action="store_true")
    ap.add_argument("--skip-jar", action="store_true")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="also time mtscore with PYTHONDONTWRITEBYTECODE=1 and no cached bytecode")
    args = ap.parse_args()
    from mtscore.data import sample_path
    data = args.data or (SHARED if SHARED.is_dir() else sample_path())
    hyp_path = data / "systems" / f"{args.system}.txt"
    ref_path = data / "references" / f"{args.ref}.txt"
    hyps, refs = _lines(hyp_path), _lines(ref_path)
    print(f"data: {hyp_path} vs {ref_path} ({len(hyps)} segments); load average {os.getloadavg()[0]:.2f}; "
          f"{args.repeat} runs each: fastest (median) wall, fastest CPU")
    results: dict[str, float] = {}
    _time_mtscore_processes(hyp_path, ref_path, args.repeat, args.no_bytecode, results)
    metric = _time_in_process(hyps, refs, args.repeat, results)
    if not args.skip_nltk:
        _time_nltk(metric, hyps, refs, args.repeat, results)
    if not args.skip_jar:
        _time_jar(hyp_path, ref_path, args.repeat, results)
    _print_ratios(results)
    return 0

if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
