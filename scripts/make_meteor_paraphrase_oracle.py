"""Run the METEOR 1.5 jar's default (task rank, with paraphrases) on shared WMT22 data; commit its output.

The jar is the one shipped in ``pycocoevalcap==1.2`` (``meteor-1.5.jar`` next to
``data/paraphrase-en.gz``). For each configuration it runs twice, as METEOR 1.5 users do:

    java -Xmx2G -jar meteor-1.5.jar HYP REF -l en -norm [-r N] [-t rank] -vOut -writeAlignments -f PREFIX
    java -Xmx2G -jar meteor-1.5.jar HYP REF -l en -norm [-r N] [-t rank] -ssOut

(``-r N``: N references, interleaved line by line in REF). Written to
``tests/data/meteor_paraphrase/<pair>/<system>.ref-<ids>.<task>.tsv.gz``, one row per segment:

    seg  precision  recall  frag_penalty  score  stats  alignment  hyp_sha1  ref_sha1

``stats``: the jar's 23 sufficient statistics (``-ssOut``: test/ref length, test/ref function words,
per module (exact stem synonym paraphrase) test-content ref-content test-function ref-function,
chunks, test word matches, ref word matches), space-separated; ``alignment``: the kept reference's
matches ``refStart:refLen:hypStart:hypLen:module`` separated by spaces; ``hyp_sha1``/``ref_sha1``: the
first 12 hex digits of the SHA-1 of the words the jar aligned (after ``-norm``: its normalizer,
lowercased; joined by single spaces), ``ref`` the kept reference — the tests check that they score the
same words. Then one
``corpus`` row: precision, recall, penalty and score of the summed statistics. ``<task>`` is
``default`` (no ``-t``: the jar's default task, rank) or ``rank`` (``-t rank``); a run with a wider
beam than the jar's 40 (``-x N``, :data:`WIDE`) has ``<task>-xN``.

    python scripts/make_meteor_paraphrase_oracle.py [--out tests/data/meteor_paraphrase] [--only-wide]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WMT22 = REPO.parent / "shared" / "data" / "wmt22"
#: (pair, system, references, task): every system scored against both references (the jar's
#: -r 2), the first also against each one alone, and once with -t rank given explicitly
CONFIGS = [(pair, system, refs, "default")
           for pair, systems in (("de-en", ("JDExploreAcademy", "LT22", "Lan-Bridge")),
                                 ("zh-en", ("AISP-SJTU", "DLUT", "HuaweiTSC")))
           for n, system in enumerate(systems)
           for refs in ((("A", "B"), ("A",), ("B",)) if n == 0 else (("A", "B"), ("A",)))]
CONFIGS.append(("zh-en", "AISP-SJTU", ("A", "B"), "rank"))
#: (pair, system, references, task, beam): runs with the jar's beam widened (``-x``; mtscore's
#: ``jar_beam``)
WIDE = [("zh-en", "AISP-SJTU", ("A", "B"), "default", 400)]


def jar_path() -> Path:
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("pycocoevalcap is not installed (pip install pycocoevalcap==1.2)")
    return Path(next(iter(spec.submodule_search_locations))) / "meteor" / "meteor-1.5.jar"


def lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return out


def run_jar(jar: Path, hyp: Path, ref: Path, nrefs: int, task: str, extra: list[str]) -> str:
    cmd = ["java", "-Xmx2G", "-jar", str(jar), str(hyp), str(ref), "-l", "en", "-norm"]
    if nrefs > 1:
        cmd += ["-r", str(nrefs)]
    if task != "default":
        cmd += ["-t", task]
    return subprocess.run(cmd + extra, check=True, capture_output=True, text=True,
                          encoding="utf-8").stdout


def parse_alignments(text: str) -> list[tuple[list[str], str, str, str]]:
    """Per segment: (P R frag score strings, matches, hyp words, ref words) of ``-writeAlignments``."""
    out: list[tuple[list[str], str, str, str]] = []
    rows = text.split("\n")
    k = 0
    while k < len(rows):
        if not rows[k].startswith("Alignment\t"):
            k += 1
            continue
        head = rows[k].split("\t")
        hyp, ref = rows[k + 1], rows[k + 2]
        k += 4  # header, hyp, ref, column names
        matches = []
        while k < len(rows) and rows[k].strip():
            f = rows[k].split()
            (rs, rl), (hs, hl), mod = f[0].split(":"), f[1].split(":"), f[2]
            matches.append(f"{rs}:{rl}:{hs}:{hl}:{mod}")
            k += 1
        out.append((head[2:6], " ".join(matches), hyp, ref))
    return out


def corpus_row(text: str) -> list[str]:
    values = {}
    for row in text.split("\n"):
        if ":" in row:
            name, _, value = row.partition(":")
            values[name.strip()] = value.strip()
    return [values["Precision"], values["Recall"], values["Fragmentation penalty"], values["Final score"]]


def words_sha1(words: str) -> str:
    """The first 12 hex digits of the SHA-1 of a segment's words joined by single spaces."""
    return hashlib.sha1(words.encode("utf-8")).hexdigest()[:12]


def write_rows(target: Path, rows: list[str]) -> None:
    """Gzipped rows, byte-reproducible (no time stamp, no file name in the header)."""
    with open(target, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0,
                                                  compresslevel=9) as f:
        f.write(("\n".join(rows) + "\n").encode("utf-8"))


def make(jar: Path, out: Path, pair: str, system: str, refs: tuple[str, ...], task: str,
         beam: int | None = None) -> Path:
    hyps = lines(WMT22 / pair / "systems" / f"{system}.txt")
    streams = [lines(WMT22 / pair / "references" / f"{r}.txt") for r in refs]
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = Path(tmp) / "hyp.txt", Path(tmp) / "ref.txt"
        hyp.write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
        ref.write_text("".join(s[i] + "\n" for i in range(len(hyps)) for s in streams), encoding="utf-8")
        prefix = str(Path(tmp) / "jar")
        wide = [] if beam is None else ["-x", str(beam)]
        verbose = run_jar(jar, hyp, ref, len(refs), task, [*wide, "-vOut", "-writeAlignments", "-f", prefix])
        stats = run_jar(jar, hyp, ref, len(refs), task, [*wide, "-ssOut"]).strip("\n").split("\n")
        aligned = parse_alignments(Path(prefix + "-align.out").read_text(encoding="utf-8"))
    if not (len(aligned) == len(stats) == len(hyps)):
        raise SystemExit(f"{pair} {system}: {len(aligned)} alignments, {len(stats)} stats, {len(hyps)} lines")
    name = task if beam is None else f"{task}-x{beam}"
    target = out / pair / f"{system}.ref-{'+'.join(refs)}.{name}.tsv.gz"
    target.parent.mkdir(parents=True, exist_ok=True)
    rows = ["seg\tprecision\trecall\tfrag_penalty\tscore\tstats\talignment\thyp_sha1\tref_sha1"]
    for s, ((p, r, frag, score), matches, h, rf) in enumerate(aligned):
        rows.append("\t".join([str(s + 1), p, r, frag, score, stats[s], matches, words_sha1(h),
                               words_sha1(rf)]))
    rows.append("\t".join(["corpus", *corpus_row(verbose), "", "", "", ""]))
    write_rows(target, rows)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "tests" / "data" / "meteor_paraphrase")
    parser.add_argument("--only-wide", action="store_true", help="only the wider-beam runs (WIDE)")
    args = parser.parse_args()
    jar = jar_path()
    for pair, system, refs, task in [] if args.only_wide else CONFIGS:
        print(make(jar, args.out, pair, system, refs, task), flush=True)
    for pair, system, refs, task, beam in WIDE:
        print(make(jar, args.out, pair, system, refs, task, beam), flush=True)


if __name__ == "__main__":
    main()
