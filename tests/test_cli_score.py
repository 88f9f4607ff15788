"""`mtscore score`: several systems as one table, per-segment sentence BLEU, sacreBLEU's numbers."""

from __future__ import annotations

import csv
import io
import json
import threading
from pathlib import Path

import pytest

from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.io.text import read_lines

sacrebleu = pytest.importorskip("sacrebleu")


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parity
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


@pytest.mark.parity
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
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(Path(hyp).read_bytes())))
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


# ---- streaming, the long format, sacreBLEU's -b and tab-separated stdin (issues 12 and 13) -----------

import subprocess  # noqa: E402
import sys  # noqa: E402

from mtscore.io.scores import read_scores  # noqa: E402


def _sample() -> tuple[str, str, str]:
    folder = sample_path()
    return (str(folder / "references" / "A.txt"), str(folder / "systems" / "LT22.txt"),
            str(folder / "systems" / "PROMT.txt"))


@pytest.mark.parametrize("fmt", ["tsv", "csv", "jsonl"])
def test_segments_long_format_full_precision_with_signature(capsys, tmp_path, fmt) -> None:
    ref, hyp, _ = _sample()
    out = run(capsys, "score", "-r", ref, "-i", hyp, "-m", "bleu", "chrf", "--segments", "-f", fmt,
              "--chunk-size", "100")
    path = tmp_path / f"s.{fmt}"
    path.write_text(out)
    scores = read_scores(str(path))
    hyps, refs = read_lines(hyp), read_lines(ref)
    records = [r for r in scores.records if r.metric == "BLEU"]
    assert [r.seg_id for r in records] == list(range(1, len(hyps) + 1))
    for r in records[::37]:
        expected = sacrebleu.sentence_bleu(hyps[r.seg_id - 1], [refs[r.seg_id - 1]])
        assert r.score == pytest.approx(expected.score, rel=1e-12)  # full precision, not 2 decimals
        assert r.signature.startswith("BLEU|nrefs:1|case:mixed|eff:yes")
    chrf = [r for r in scores.records if r.metric != "BLEU"]
    assert len(chrf) == len(hyps)
    expected = sacrebleu.sentence_chrf(hyps[5], [refs[5]]).score
    assert chrf[5].score == pytest.approx(expected, abs=1e-9)


def test_score_only_prints_sacrebleus_decimals(capsys) -> None:
    ref, hyp, _ = _sample()
    proc = subprocess.run([sys.executable, "-m", "sacrebleu", ref, "-i", hyp, "-b"],
                          capture_output=True, text=True, check=True)
    assert run(capsys, "score", ref, "-i", hyp, "-b") == proc.stdout
    proc = subprocess.run([sys.executable, "-m", "sacrebleu", ref, "-i", hyp, "-b", "-m", "chrf"],
                          capture_output=True, text=True, check=True)
    assert run(capsys, "score", ref, "-i", hyp, "-b", "-m", "chrf") == proc.stdout
    meteor = run(capsys, "score", ref, "-i", hyp, "-b", "-m", "meteor").strip()
    assert len(meteor.split(".")[1]) == 4  # a 0–1 score keeps 4 decimals


def test_tab_separated_stdin_is_read_as_sacrebleu_reads_it(tmp_path) -> None:
    ref, hyp_a, hyp_b = _sample()
    joined = "".join(f"{a}\t{b}\n" for a, b in zip(read_lines(hyp_a), read_lines(hyp_b)))
    proc = subprocess.run([sys.executable, "-m", "mtscore", "score", ref, "-f", "json"],
                          input=joined.encode(), capture_output=True, check=True)
    records = json.loads(proc.stdout)
    assert [r["system"] for r in records] == ["System 1", "System 2"]
    for record, path in zip(records, (hyp_a, hyp_b)):
        expected = sacrebleu.corpus_bleu(read_lines(path), [read_lines(ref)]).score
        assert record["score"] == pytest.approx(expected, abs=1e-9)
    bad = joined.replace("\t", " ", 1).split("\n", 3)
    bad = "\n".join([bad[1], bad[0], *bad[2:]])  # line 2 has one field where line 1 has two
    proc = subprocess.run([sys.executable, "-m", "mtscore", "score", ref], input=bad.encode(),
                          capture_output=True)
    assert proc.returncode == 1 and proc.stdout == b""
    assert b"<stdin>, line 2: 1 tab-separated fields but the first line has 2" in proc.stderr


def test_wide_layout(capsys) -> None:
    ref, hyp_a, hyp_b = _sample()
    out = run(capsys, "score", "-r", ref, "-i", hyp_a, hyp_b, "-m", "bleu", "chrf", "--layout", "wide",
              "-f", "tsv")
    header, *rows = out.splitlines()[:3]
    assert header.split("\t")[:3] == ["system", "BLEU", "chrF2"]
    assert [r.split("\t")[0] for r in rows] == ["LT22", "PROMT"]
    expected = sacrebleu.corpus_bleu(read_lines(hyp_a), [read_lines(ref)]).score
    assert float(rows[0].split("\t")[1]) == pytest.approx(expected, abs=0.005)


def _write(path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def test_bad_input_in_a_later_chunk_while_streaming(tmp_path) -> None:
    """The per-segment lines of the chunks before stay, the error names file and line, exit 1;
    no corpus score is printed."""
    ref = _write(tmp_path / "ref.txt", b"the cat sat\n" * 50)
    hyp = _write(tmp_path / "hyp.txt", b"the cat sat\n" * 33 + b"bad \xff\n" + b"the cat\n" * 16)
    base = [sys.executable, "-m", "mtscore", "score", "-r", ref, "-i", hyp, "--chunk-size", "10",
            "-j", "1"]
    proc = subprocess.run([*base, "--segments", "-f", "tsv"], capture_output=True, text=True)
    assert proc.returncode == 1
    assert f"{hyp}, line 34: invalid UTF-8" in proc.stderr and proc.stderr.count("\n") == 1
    assert proc.stdout.count("\n") == 1 + 30  # header and the first three chunks
    proc = subprocess.run(base, capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout == "" and "line 34" in proc.stderr
    short = _write(tmp_path / "short.txt", b"the cat sat\n" * 47)
    proc = subprocess.run([*base[:7], short, *base[8:], "--segments", "-f", "jsonl"],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout.count("\n") == 40
    assert f"{short}: has 47 lines but reference {ref} has 50" in proc.stderr


def test_segments_are_written_before_the_last_segment_is_read(tmp_path) -> None:
    """The first line comes out while standard input is still open."""
    ref = _write(tmp_path / "ref.txt", b"the cat sat on the mat\n" * 40)
    proc = subprocess.Popen([sys.executable, "-m", "mtscore", "score", "-r", ref, "--segments",
                             "-f", "tsv", "--chunk-size", "10"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    watchdog = threading.Timer(60, proc.kill)  # a failure ends the test, never hangs the suite
    watchdog.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(b"the cat sat on the mat\n" * 15)
        proc.stdin.flush()
        header = proc.stdout.readline()
        first = proc.stdout.readline()
        assert header.startswith(b"system\tseg_id") and first.startswith(b"stdin\t1\tBLEU\t100.0")
        proc.stdin.write(b"the cat sat on the mat\n" * 25)
        proc.stdin.close()
        rest = proc.stdout.read()
        assert proc.wait(timeout=60) == 0 and rest.count(b"\n") == 39
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()
