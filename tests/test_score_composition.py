"""``mtscore score -f tsv`` feeds ``mtscore correlate`` at full precision (issue 24): the correlation
from the TSV equals the one computed from the JSON scores, to 1e-12."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

SAMPLE = Path(__file__).resolve().parents[1] / "src" / "mtscore" / "data" / "sample" / "wmt22-de-en"


def _mtscore(*argv: str) -> str:
    return subprocess.run([sys.executable, "-m", "mtscore", *argv], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.parametrize("fmt", ["tsv", "csv", "jsonl"])
def test_corpus_scores_compose_with_correlate_at_full_precision(tmp_path: Path, fmt: str) -> None:
    systems = sorted(str(p) for p in (SAMPLE / "systems").glob("*.txt") if not p.stem.startswith("HUMAN"))
    ref = str(SAMPLE / "references" / "A.txt")
    scores = tmp_path / f"scores.{fmt}"
    scores.write_text(_mtscore("score", "-r", ref, "-i", *systems, "-m", "bleu", "chrf", "-f", fmt, "-q"))
    found = {r["metric"]: r["r"] for r in json.loads(
        _mtscore("correlate", str(scores), str(SAMPLE / "human" / "segments.tsv"), "-f", "json"))}
    # the same correlation from the JSON scores and the human file, computed here
    exact = json.loads(_mtscore("score", "-r", ref, "-i", *systems, "-m", "bleu", "chrf", "-f", "json", "-q"))
    with open(SAMPLE / "human" / "segments.tsv", encoding="utf-8") as f:
        human_rows = list(csv.DictReader(f, delimiter="\t"))
    human = {s: np.mean([float(r["z"]) for r in human_rows if r["system"] == s])
             for s in {r["system"] for r in human_rows}}
    for metric in ("BLEU", "chrF2"):
        pairs = [(r["score"], human[r["system"]]) for r in exact if r["metric"] == metric]
        expected = scipy.stats.pearsonr(*zip(*pairs)).statistic
        assert found[metric] == pytest.approx(expected, abs=1e-12)
