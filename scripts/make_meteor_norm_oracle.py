"""The METEOR 1.5 jar's ``-norm`` normalizer on generated tricky lines: tokenizer ``meteor-norm``'s oracle.

Generates lines (fixed seed) that mix what its rules act on — abbreviations of its nonbreaking list,
dotted acronyms, numbers with commas and dots, runs of dots, every quote and dash it normalises,
contractions, hyphens, non-ASCII letters (Latin, Cyrillic, Greek, CJK), emoji, tabs and Unicode
spaces — and runs the jar's own class on them:

    java -Dfile.encoding=UTF-8 -cp meteor-1.5.jar edu.cmu.meteor.util.Normalizer en true < lines

Writes ``tests/data/meteor_norm/generated.jsonl.gz``: one JSON array ``[line, normalized]`` per line
(the jar's output before ``MeteorScorer`` lowercases it).

    python scripts/make_meteor_norm_oracle.py [--lines 3000]
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import random
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PIECES = [
    "Mr.", "Mrs.", "Dr.", "No.", "Art.", "pp.", "Nos.", "St.", "Inc.", "e.g.", "U.S.", "U.S.-based",
    "A.", "B.C.", "etc.", "vs.", "Jan.", "co.", "Prof.", "x.", "3.", "1,000", "5,000.00", "3.14", "1.2.3",
    "...", "..", "....", "a...b", "!", "?", "?!", ";", ":", ",", ",,", "(", ")", "[", "]", "{", "}", "$", "%",
    "#", "@", "&", "*", "/", "\\", "|", "+", "=", "<", ">", "^", "~", "_", "`", "‘", "’", "“", "”", "''",
    "'", '"', "–", "—", "--", "---", "-", "don't", "Didn't", "it's", "'tis", "rock'n'roll", "1990's",
    "o'clock", "'90s", "students'", "l'homme", "well-known", "x-ray", "e-mail", "state-of-the-art", "-5",
    "5-3", "A-", "-B", "café", "Straße", "naïve", "Ærø", "Москва", "Ёлка", "ΑΘΗΝΑ", "北京", "東京。", "😀",
    "🇩🇪", "x\u00a0y", "a\u2003b", "tab\there", "Hello", "world", "THE", "the", "a", "I", "It", "and", "In",
    "12", "2021", "0.5", "R.I.P.", "Ph.D.", "M.Sc", "www.example.com", "user@mail.com", "C++", "#tag",
]


def generated(n: int, seed: int = 2014) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        words = [rng.choice(PIECES) for _ in range(rng.randint(1, 14))]
        glue = [rng.choice((" ", " ", " ", "", "  ")) for _ in words]
        line = "".join(w + g for w, g in zip(words, glue))
        if rng.random() < 0.3:
            line = rng.choice(("", " ", "\t")) + line
        lines.append(line)
    return lines


def jar_path() -> Path:
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("pycocoevalcap is not installed (pip install pycocoevalcap==1.2)")
    return Path(next(iter(spec.submodule_search_locations))) / "meteor" / "meteor-1.5.jar"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--out", type=Path,
                        default=REPO / "tests" / "data" / "meteor_norm" / "generated.jsonl.gz")
    args = parser.parse_args()
    lines = generated(args.lines)
    out = subprocess.run(["java", "-Dfile.encoding=UTF-8", "-cp", str(jar_path()),
                          "edu.cmu.meteor.util.Normalizer", "en", "true"],
                         input="".join(line + "\n" for line in lines), capture_output=True, check=True,
                         text=True, encoding="utf-8").stdout.split("\n")
    if out[-1] == "":
        out.pop()
    if len(out) != len(lines):
        raise SystemExit(f"{len(lines)} lines in, {len(out)} out")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(json.dumps([a, b], ensure_ascii=False) + "\n" for a, b in zip(lines, out))
    with open(args.out, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
        f.write(body.encode("utf-8"))
    print(args.out, len(lines))


if __name__ == "__main__":
    main()
