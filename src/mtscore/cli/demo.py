"""``mtscore demo``: score the embedded WMT22 sample (every system, both references)."""

from __future__ import annotations

import argparse
import json

from ..data import sample_path
from ..io.text import read_lines
from ..metrics.bleu import BLEU
from ..report.tables import Table
from .common import add_output_options, emit


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="score the embedded WMT22 de-en sample",
                       description="Scores every system of the embedded sample (427 segments of WMT22 "
                                   "de-en, credited in its meta.json) against its references.")
    add_output_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    folder = sample_path()
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    refs = {rid: read_lines(folder / "references" / f"{rid}.txt") for rid in meta["references"]}
    bleu = BLEU()
    rows = []
    for path in sorted((folder / "systems").glob("*.txt")):
        name = path.stem
        own = meta.get("human_systems", {}).get(name)
        ids = [rid for rid in meta["references"] if rid != own]
        result = bleu.corpus_score(read_lines(path), [refs[rid] for rid in ids])
        rows.append((name, "+".join(ids), result.score, result.signature))
    rows.sort(key=lambda r: -r[2])
    emit(Table(("system", "refs", "BLEU", "signature"), tuple(rows),
               title=f"{meta['sample']}", notes=(meta["credit"],)), args)
    return 0
