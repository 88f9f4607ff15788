"""Compressed input (gzip, xz, bzip2) gives the same scores as plain input; UTF-16 is refused."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import subprocess
import sys
from pathlib import Path

import pytest

from mtscore import InputError, corpus_bleu
from mtscore.io.text import read_lines, read_stream
from mtscore.streaming import score_files

LINES = ["The cat sat on the mat.", "", "Ein Beispiel mit Umlauten: äöü ß", "tabs\tinside", "last"]
REFS = ["The cat is on the mat.", "x", "An example with umlauts: äöü ß", "tabs inside", "last one"]
PACK = {"gz": gzip.compress, "xz": lzma.compress, "bz2": bz2.compress}


def _write(folder: Path, name: str, lines: list[str], kind: str | None) -> Path:
    data = ("\n".join(lines) + "\n").encode("utf-8")
    path = folder / (f"{name}.txt.{kind}" if kind else f"{name}.txt")
    path.write_bytes(PACK[kind](data) if kind else data)
    return path


@pytest.mark.parametrize("kind", sorted(PACK))
def test_read_lines_decompresses_by_content(tmp_path: Path, kind: str) -> None:
    path = _write(tmp_path, "hyp", LINES, kind)
    assert read_lines(path) == LINES
    renamed = path.rename(tmp_path / "no-ending")  # recognized by its first bytes, not its name
    assert read_lines(renamed) == LINES
    assert read_stream(io.BufferedReader(io.BytesIO(renamed.read_bytes())), "<stdin>") == LINES


@pytest.mark.parametrize("kind", sorted(PACK))
def test_cli_scores_equal_plain_input(tmp_path: Path, kind: str) -> None:
    plain = [_write(tmp_path, "sys", LINES, None), _write(tmp_path, "ref", REFS, None)]
    packed = [_write(tmp_path, "sys", LINES, kind), _write(tmp_path, "ref", REFS, kind)]
    outputs = []
    for hyp, ref in (plain, packed):
        proc = subprocess.run([sys.executable, "-m", "mtscore", "score", "-r", str(ref), "-i", str(hyp),
                               "-m", "bleu", "chrf", "ter", "-f", "json"],
                              capture_output=True, text=True, check=True)
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]  # same scores, same system name (sys)
    rows = json.loads(outputs[1])
    assert rows[0]["system"] == "sys" and rows[0]["score"] == corpus_bleu(LINES, [REFS]).score


@pytest.mark.parametrize("kind", sorted(PACK))
def test_streaming_reads_compressed_files(tmp_path: Path, kind: str) -> None:
    from mtscore import BLEU

    hyp, ref = _write(tmp_path, "sys", LINES, kind), _write(tmp_path, "ref", REFS, kind)
    streamed = score_files(str(hyp), [str(ref)], BLEU(), chunk_size=2).results()
    (system,) = streamed
    (result,) = streamed[system].values()
    assert result.score == corpus_bleu(LINES, [REFS]).score


def test_truncated_and_utf16_input_are_one_line_errors(tmp_path: Path) -> None:
    whole = gzip.compress(("\n".join(LINES) + "\n").encode())
    (tmp_path / "cut.gz").write_bytes(whole[:len(whole) // 2])
    with pytest.raises(InputError, match="truncated"):
        read_lines(tmp_path / "cut.gz")
    (tmp_path / "u16.txt").write_bytes("hello\n".encode("utf-16"))
    with pytest.raises(InputError, match=r"UTF-16 little-endian.*iconv"):
        read_lines(tmp_path / "u16.txt")
    proc = subprocess.run([sys.executable, "-m", "mtscore", "score", "-r", str(tmp_path / "u16.txt"),
                           "-i", str(tmp_path / "u16.txt")], capture_output=True, text=True)
    assert proc.returncode != 0 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
