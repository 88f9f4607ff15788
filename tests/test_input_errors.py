"""Every bad input gets a clear error that names the file, line and problem; nothing is truncated."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mtscore import InputError, OptionError, corpus_bleu
from mtscore.cli import main
from mtscore.io.text import decode_lines, read_lines


def run_cli(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def write(path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def test_invalid_utf8_names_file_and_line(tmp_path) -> None:
    bad = write(tmp_path / "hyp.txt", b"fine\nalso fine\nbad \xff byte\n")
    with pytest.raises(InputError) as err:
        read_lines(bad)
    assert f"{bad}, line 3" in str(err.value) and "invalid UTF-8" in str(err.value)


def test_bom_and_crlf_are_removed_blank_lines_kept(tmp_path) -> None:
    path = write(tmp_path / "ref.txt", b"\xef\xbb\xbfone\r\n\r\nthree\r\n")
    assert read_lines(path) == ["one", "", "three"]
    assert decode_lines(b"a\n\nb", "x") == ["a", "", "b"]  # no final newline: still three lines


def test_empty_file_is_an_error(tmp_path) -> None:
    path = write(tmp_path / "empty.txt", b"")
    with pytest.raises(InputError, match="empty file"):
        read_lines(path)


def test_missing_file(tmp_path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_lines(tmp_path / "nope.txt")


def test_api_mismatched_lengths_are_explained_not_truncated() -> None:
    with pytest.raises(InputError, match="has 2 segments but the hypotheses have 3"):
        corpus_bleu(["a", "b", "c"], [["a", "b"]])


def test_api_per_segment_layout_is_detected() -> None:
    hyps = ["a b", "c d", "e f"]
    per_segment = [["a b", "a c"], ["c d", "c e"], ["e f", "e g"]]
    with pytest.raises(InputError, match="one list per segment"):
        corpus_bleu(hyps, per_segment)


def test_api_single_stream_and_bare_string_are_detected() -> None:
    with pytest.raises(InputError, match="single stream"):
        corpus_bleu(["a", "b"], ["a", "b"])
    with pytest.raises(InputError, match="single string"):
        corpus_bleu(["a"], "a")


def test_api_empty_corpus_and_missing_hypothesis() -> None:
    with pytest.raises(InputError, match="empty corpus"):
        corpus_bleu([], [[]])
    with pytest.raises(InputError, match="line 2"):
        corpus_bleu(["a", None], [["a", "b"]])  # type: ignore[list-item]


def test_api_segment_without_any_reference() -> None:
    with pytest.raises(InputError, match="segment 2 has no reference"):
        corpus_bleu(["a", "b"], [["a", None], ["a", None]])


def test_api_unknown_options_list_valid_choices() -> None:
    with pytest.raises(OptionError, match="13a"):
        corpus_bleu(["a"], [["a"]], tokenize="moses")
    with pytest.raises(OptionError, match="add-k"):
        corpus_bleu(["a"], [["a"]], smooth="lin")


def test_cli_mismatched_line_counts_name_both_files(tmp_path, capsys) -> None:
    ref = write(tmp_path / "ref.txt", b"a\nb\nc\n")
    hyp = write(tmp_path / "hyp.txt", b"a\nb\n")
    code, _, err = run_cli(["score", "-r", ref, "-i", hyp], capsys)
    assert code == 1
    assert hyp in err and ref in err and "2 lines" in err and "3" in err
    assert err.count("\n") == 1  # one clear line


def test_cli_invalid_utf8(tmp_path, capsys) -> None:
    ref = write(tmp_path / "ref.txt", b"a\nb\n")
    hyp = write(tmp_path / "hyp.txt", b"a\n\xc3\x28\n")
    code, _, err = run_cli(["score", "-r", ref, "-i", hyp], capsys)
    assert code == 1 and f"{hyp}, line 2" in err


def test_cli_unknown_tokenizer_lists_valid_names(tmp_path, capsys) -> None:
    ref = write(tmp_path / "ref.txt", b"a\n")
    with pytest.raises(SystemExit) as exc:
        main(["score", "-r", ref, "-i", ref, "--tokenize", "moses"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "moses" in err and "13a" in err and "intl" in err


def test_cli_reads_stdin(tmp_path) -> None:
    ref = write(tmp_path / "ref.txt", b"the cat sat on the mat\n")
    proc = subprocess.run([sys.executable, "-m", "mtscore", "score", "-r", ref, "-f", "json"],
                          input=b"the cat sat on the mat\n", capture_output=True, check=True)
    (record,) = json.loads(proc.stdout)  # a list of objects, one per system and metric
    assert record["system"] == "stdin" and record["score"] == pytest.approx(100.0, abs=1e-9)
