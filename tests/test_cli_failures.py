"""The ``mtscore`` command's failure behaviour: one line and exit 1 for every OS error on input or
output paths, exit 2 for usage, ``mtscore: interrupted`` and 130 for Ctrl-C at any time (start-up
imports included), silence on a broken pipe — never a traceback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

import mtscore.cli
from mtscore.cli import main
from mtscore.data import sample_path

SAMPLE = sample_path()
REF = str(SAMPLE / "references" / "A.txt")
SYS = str(SAMPLE / "systems" / "LT22.txt")
SYS2 = str(SAMPLE / "systems" / "Online-A.txt")
HUMAN = str(SAMPLE / "human" / "segments.tsv")


def _bad_paths(tmp_path: Path) -> dict[str, str]:
    loop_a, loop_b = tmp_path / "loop-a", tmp_path / "loop-b"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    sock_path = tmp_path / "sock"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    return {"symlink loop": str(loop_a), "name too long": str(tmp_path / ("x" * 300)),
            "a file as a folder": REF + "/x", "socket": str(sock_path),
            "missing": str(tmp_path / "missing.txt")}


@pytest.mark.parametrize("command", ["compare", "correlate", "score"])
def test_os_errors_on_input_paths_are_one_line(tmp_path: Path, capsys, command: str) -> None:
    for what, path in _bad_paths(tmp_path).items():
        argv = {"compare": ["compare", "-r", REF, "-i", path, SYS],
                "correlate": ["correlate", path, HUMAN],
                "score": ["score", "-r", REF, "-i", path]}[command]
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 1, what
        assert err.startswith(f"mtscore {command}: error: ") and err.count("\n") == 1, (what, err)
        assert "Traceback" not in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("argv", [["compare", "-r", REF, "-i", SYS, SYS2, "--resamples", "100"],
                                  ["score", "-r", REF, "-i", SYS]])
def test_writing_to_a_full_disk(argv: list[str]) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "mtscore", *argv], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert proc.returncode == 1
    assert proc.stderr.endswith("No space left on device\n") and proc.stderr.count("\n") == 1


def test_a_broken_pipe_is_quiet() -> None:
    cmd = [sys.executable, "-m", "mtscore", "score", "-r", REF, "-i", SYS, "--segments"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0 and err == ""


def test_interrupted_during_start_up_imports(monkeypatch, capsys) -> None:
    def interrupt(name: str):
        raise KeyboardInterrupt

    monkeypatch.setattr(mtscore.cli.importlib, "import_module", interrupt)
    assert main(["compare", "-r", REF]) == 130
    assert capsys.readouterr().err == "mtscore: interrupted\n"


def test_interrupted_while_running(monkeypatch, capsys) -> None:
    import mtscore.cli.correlate as correlate

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(correlate, "read_human_file", interrupt)
    assert main(["correlate", SYS, HUMAN]) == 130
    assert capsys.readouterr().err == "mtscore: interrupted\n"


def test_usage_errors_exit_2(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["compare", "--no-such-option"])
    assert stop.value.code == 2
    assert main([]) == 2
    capsys.readouterr()
