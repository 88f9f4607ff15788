"""Every bad input gets a clear error that names the file, line and problem; nothing is truncated."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mtscore import InputError, OptionError, corpus_bleu
from mtscore.cli import main
from mtscore.io.dataset import load_dataset
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


# ---- every failure to read a path: one line naming it and the OS's reason (issue 15) -------------
# Through ``compare`` (which reads whole files with mtscore.io.text) and read_lines itself.


def _socket(path) -> object:
    import socket

    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    return sock


def _compare_error(ref: str, bad: str, capsys) -> str:
    other = ref.removesuffix(".txt") + ".copy.txt"
    with open(ref, "rb") as src, open(other, "wb") as dst:
        dst.write(src.read())
    for args in (["compare", "-r", ref, "-i", other, bad, "-q"],
                 ["compare", "-r", bad, "-i", ref, other, "-q"]):
        code, out, err = run_cli(args, capsys)
        assert code == 1 and out == "" and err.count("\n") == 1, err
        assert err.startswith("mtscore compare: error: ")
    with pytest.raises(InputError) as info:
        read_lines(bad)
    assert info.value.source == bad and str(info.value) in err
    return err


@pytest.mark.parametrize("make, words", [
    (lambda p: p.symlink_to(p), ["symbolic links"]),
    (lambda p: None, ["no such file"]),
    (lambda p: p.mkdir(), ["is a directory"]),
    (lambda p: p.symlink_to(p.parent / "gone"), ["broken symbolic link"]),
])
def test_unreadable_paths(tmp_path, capsys, make, words) -> None:
    ref = write(tmp_path / "ref.txt", b"a b\n")
    bad = tmp_path / "bad.txt"
    make(bad)
    err = _compare_error(ref, str(bad), capsys)
    assert str(bad) in err
    for word in words:
        assert word in err


def test_path_through_a_file_name_too_long_and_socket(tmp_path, capsys) -> None:
    ref = write(tmp_path / "ref.txt", b"a b\n")
    sock_path = tmp_path / "s.txt"
    sock = _socket(sock_path)
    try:
        cases = {ref + "/x": "Not a directory", str(tmp_path / ("n" * 300)): "name too long",
                 str(sock_path): "is a socket"}
        for path, reason in cases.items():
            err = _compare_error(ref, path, capsys)
            assert path in err and reason in err, err
    finally:
        sock.close()


def test_nul_in_path(tmp_path) -> None:
    with pytest.raises(InputError) as info:
        read_lines("a\x00b.txt")
    assert str(info.value) == "a\\x00b.txt: cannot be opened: embedded null byte"
    with pytest.raises(InputError, match="embedded null byte"):
        load_dataset(str(tmp_path) + "/a\x00b")


def test_permission_denied_is_one_line(tmp_path, monkeypatch) -> None:
    """(As root nothing is denied: the OS error is simulated.)"""
    import builtins

    real_open = builtins.open

    def deny(file, *args, **kwargs):
        if str(file).endswith("secret.txt"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", deny)
    with pytest.raises(InputError, match=r"secret\.txt: permission denied"):
        read_lines(tmp_path / "secret.txt")


def test_any_other_os_error_names_path_and_reason(tmp_path, monkeypatch) -> None:
    import builtins
    import errno

    def fail(file, *args, **kwargs):
        raise OSError(errno.EIO, "Input/output error", str(file))

    monkeypatch.setattr(builtins, "open", fail)
    with pytest.raises(InputError, match=r"x\.txt: cannot be read: Input/output error"):
        read_lines(tmp_path / "x.txt")


@pytest.mark.parametrize("data", [b"one\rtwo\rthree\r", b"one\rtwo", b"\xef\xbb\xbfa\rb\r"])
def test_cr_only_line_ends_get_a_hint(tmp_path, capsys, data) -> None:
    ref = write(tmp_path / "ref.txt", b"one\ntwo\nthree\n")
    hyp = write(tmp_path / "hyp.txt", data)
    err = _compare_error(ref, hyp, capsys)
    assert hyp in err and "CR line ends" in err and "tr '\\r' '\\n'" in err


def test_cr_crlf_and_trailing_cr_are_still_read() -> None:
    assert decode_lines(b"one\r\ntwo\r\n", "x") == ["one", "two"]
    assert decode_lines(b"one\r", "x") == ["one"]  # a CRLF file missing its last LF
    assert decode_lines(b"a\rb\nc\n", "x") == ["a\rb", "c"]  # a CR inside a LF file is text


def test_error_messages_are_one_line() -> None:
    err = InputError("bad\nthing", source="dir/na\nme\udcff.txt", line=3)
    assert str(err) == "dir/na\\nme\\udcff.txt, line 3: bad\\nthing"
    assert err.source == "dir/na\nme\udcff.txt"  # the attribute keeps the real name
    opt = OptionError("--x", "a\tb", detail="c\x00d")
    assert "\t" not in str(opt) and "\x00" not in str(opt) and "\n" not in str(opt)
    str(err).encode("ascii")


def test_study_of_a_bad_data_set_is_one_line(tmp_path, capsys) -> None:
    """The CLI's view of the loader's refusals: exit 1, one line naming the folder."""
    import shutil

    from mtscore.data import sample_path

    folder = tmp_path / "set"
    shutil.copytree(sample_path(), folder)
    for sub in ("references", "systems"):
        for file in (folder / sub).iterdir():
            file.write_bytes(b"")
    (folder / "source.txt").write_bytes(b"")
    shutil.rmtree(folder / "human")
    (folder / "segments.tsv").unlink()
    for command in ("study", "report"):
        code, out, err = run_cli([command, str(folder), "--no-meteor", "-q"], capsys)
        assert code == 1 and out == "" and err.count("\n") == 1
        assert f"{folder}: empty data set" in err
