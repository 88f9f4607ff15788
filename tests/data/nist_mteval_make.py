"""Remake tests/data/nist_mteval.tsv: NIST's own mteval-v13a.pl on WMT22 de-en and a small example.

The Perl script is not part of this repository (get ``scripts/generic/mteval-v13a.pl`` from the
Moses decoder's repository and keep it outside the tree); it needs perl and XML::Twig.

    python tests/data/nist_mteval_make.py /tmp/mteval-v13a.pl ../shared/data/wmt22/de-en

Every system of the pair against reference A, B and A+B (a HUMAN-X system only against the other
reference), and the example "it ended 0 to 0 today" / "nothing happened" against itself. Each run
wraps the lines as one SGML document (raw text: the script's tokenization, like 13a's, reads the
entities) and calls ``perl mteval-v13a.pl -n -c --metricsMATR-output``: NIST only, case preserved
(mtscore's default ``case:mixed``); the score is read from NIST-sys.scr, which prints it with
Perl's full precision (15 significant digits).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

EXAMPLE = ["it ended 0 to 0 today", "nothing happened"]


def _sgml(kind: str, lines: list[str], name: str) -> str:
    attrs = {"srcset": 'setid="s" srclang="any"',
             "refset": f'setid="s" srclang="any" trglang="en" refid="{name}"',
             "tstset": 'setid="s" srclang="any" trglang="en" sysid="sys"'}[kind]
    doc_attrs = f'docid="d" sysid="{name}"'
    segs = "".join(f'<seg id="{i}">{line}</seg>\n' for i, line in enumerate(lines, start=1))
    return f"<{kind} {attrs}>\n<doc {doc_attrs}>\n{segs}</doc>\n</{kind}>\n"


def mteval_nist(script: Path, hyps: list[str], refs: dict[str, list[str]]) -> str:
    """The score NIST-sys.scr gives for ``hyps`` against the reference sets ``refs`` (name -> lines)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "src.sgm").write_text(_sgml("srcset", hyps, "src"), encoding="utf-8")
        (folder / "tst.sgm").write_text(_sgml("tstset", hyps, "sys"), encoding="utf-8")
        (folder / "ref.sgm").write_text("".join(_sgml("refset", lines, name)
                                                for name, lines in refs.items()), encoding="utf-8")
        subprocess.run(["perl", str(script.resolve()), "-n", "-c", "--metricsMATR-output",
                        "-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm"],
                       cwd=folder, check=True, capture_output=True)
        return (folder / "NIST-sys.scr").read_text(encoding="utf-8").split("\t")[2].strip()


def main() -> int:
    script, pair_dir = Path(sys.argv[1]), Path(sys.argv[2])
    out = Path(__file__).with_name("nist_mteval.tsv")
    meta = json.loads((pair_dir / "meta.json").read_text(encoding="utf-8"))
    references = {r: (pair_dir / "references" / f"{r}.txt").read_text(encoding="utf-8").splitlines()
                  for r in meta["references"]}
    rows = [("example", "example", "self", mteval_nist(script, EXAMPLE, {"self": EXAMPLE}))]
    for path in sorted((pair_dir / "systems").glob("*.txt")):
        hyps = path.read_text(encoding="utf-8").splitlines()
        own = meta.get("human_systems", {}).get(path.stem)
        if own is None:
            ref_sets = [[r] for r in references] + [list(references)]
        else:  # a human translation only against the other references
            ref_sets = [[r for r in references if r != own]]
        for ref_set in ref_sets:
            score = mteval_nist(script, hyps, {r: references[r] for r in ref_set})
            rows.append((pair_dir.name, path.stem, "+".join(ref_set), score))
            print(*rows[-1], sep="\t", flush=True)
    header = ("# NIST by NIST's mteval-v13a.pl (perl, -n -c: case preserved), made by "
              "tests/data/nist_mteval_make.py;\n# score: NIST-sys.scr of --metricsMATR-output "
              "(full precision). refs: reference sets joined by +.\n")
    out.write_text(header + "pair\tsystem\trefs\tscore\n"
                   + "".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
