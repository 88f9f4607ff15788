"""`mtscore score`: several systems as one table, per-segment sentence BLEU, sacreBLEU's numbers."""

from __future__ import annotations

import csv
import io
import json

import pytest

from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.io.text import read_lines

sacrebleu = pytest.importorskip("sacrebleu")


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_several_systems_one_table_equal_sacrebleu(capsys) -> None:
    folder = sample_path()
    refs = [str(folder / "references" / f"{r}.txt") for r in ("A", "B")]
    systems = [str(folder / "systems" / f"{s}.txt") for s in ("LT22", "PROMT", "Online-A")]
    records = json.loads(run(capsys, "score", "-r", *refs, "-i", *systems, "-f", "json"))
    assert [r["system"] for r in records] == ["LT22", "PROMT", "Online-A"]
    ref_lines = [read_lines(p) for p in refs]
    for record, path in zip(records, systems):
        expected = sacrebleu.corpus_bleu(read_lines(path), ref_lines)
        assert record["score"] == pytest.approx(expected.score, abs=1e-9)
        assert record["metric"] == "BLEU" and record["signature"].startswith("BLEU|nrefs:2|")


def test_segments_are_sacrebleu_sentence_scores(capsys) -> None:
    folder = sample_path()
    ref, hyp = str(folder / "references" / "A.txt"), str(folder / "systems" / "LT22.txt")
    out = run(capsys, "score", "-r", ref, "-i", hyp, "--segments", "-f", "tsv")
    rows = list(csv.DictReader(io.StringIO(out), delimiter="\t"))
    hyps, refs = read_lines(hyp), read_lines(ref)
    assert len(rows) == len(hyps)
    for row, h, r in zip(rows, hyps, refs):
        assert float(row["score"]) == pytest.approx(sacrebleu.sentence_bleu(h, [r]).score, abs=0.005)
    text = run(capsys, "score", "-r", ref, "-i", hyp, "--segments", "-f", "json")
    first = json.loads(text)[0]
    assert first["score"] == pytest.approx(sacrebleu.sentence_bleu(hyps[0], [refs[0]]).score, abs=1e-9)
    assert "eff:yes" in run(capsys, "score", "-r", ref, "-i", hyp, "--segments")


def test_sacrebleu_habits(capsys, monkeypatch) -> None:
    """Positional references, -b (score only), -sl; the score equals sacreBLEU's."""
    folder = sample_path()
    ref, hyp = str(folder / "references" / "A.txt"), str(folder / "systems" / "LT22.txt")
    expected = sacrebleu.corpus_bleu(read_lines(hyp), [read_lines(ref)]).score
    assert run(capsys, "score", ref, "-i", hyp, "-b", "-w", "6").strip() == f"{expected:.6f}"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(open(hyp, "rb").read())))
    assert run(capsys, "score", ref, "-b", "-w", "4").strip() == f"{expected:.4f}"
    lines = run(capsys, "score", ref, "-i", hyp, "-sl", "-b", "-w", "9").split()
    hyps, refs = read_lines(hyp), read_lines(ref)
    assert len(lines) == len(hyps)
    for i in (0, 7, 100):
        assert float(lines[i]) == pytest.approx(sacrebleu.sentence_bleu(hyps[i], [refs[i]]).score,
                                                abs=1e-8)


def test_references_given_twice_or_not_at_all(capsys) -> None:
    ref = str(sample_path() / "references" / "A.txt")
    assert main(["score", ref, "-r", ref, "-i", ref]) != 0
    assert "not both" in capsys.readouterr().err
    assert main(["score", "-i", ref]) != 0
    assert "no reference file" in capsys.readouterr().err
