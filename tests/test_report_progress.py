"""Progress bars: on standard error when it is a terminal (tested with a pty), silent in pipes and
with --quiet, and never on standard output."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import time

import pytest

pty = pytest.importorskip("pty")  # POSIX only
termios = pytest.importorskip("termios")
fcntl = pytest.importorskip("fcntl")

LOOP = ("import sys, time\n"
        "from mtscore import progress\n"
        "progress.set_quiet({quiet})\n"
        "for i in progress.track(range(40), total=40, desc='counting', min_total={min_total}):\n"
        "    time.sleep(0.01)\n"
        "print('done')\n")


def run_with_terminal_stderr(args: list[str], timeout: float = 120.0, cwd: str | None = None
                             ) -> tuple[int, str, str]:
    """Run ``args`` with stderr on a pseudo-terminal and stdout on a pipe: (rc, stdout, terminal)."""
    master, slave = pty.openpty()
    # a real terminal has a size; a fresh pty is 0×0, which tqdm would honour with an empty bar
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = dict(os.environ, COLUMNS="100", TERM="xterm")
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
                            env=env, cwd=cwd)
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed its end
            break
        if not data:
            break
        chunks.append(data)
        if time.monotonic() > deadline:
            proc.kill()
            break
    os.close(master)
    stdout = proc.stdout.read().decode("utf-8", "replace") if proc.stdout else ""
    rc = proc.wait(timeout=timeout)
    return rc, stdout, b"".join(chunks).decode("utf-8", "replace")


def test_bar_is_shown_on_a_terminal():
    rc, out, term = run_with_terminal_stderr(
        [sys.executable, "-c", LOOP.format(quiet=False, min_total=0)])
    assert rc == 0
    assert out == "done\n"  # the bar never goes to stdout
    assert "counting" in term and "%|" in term and "/40" in term


def test_bar_is_silent_with_quiet():
    rc, out, term = run_with_terminal_stderr(
        [sys.executable, "-c", LOOP.format(quiet=True, min_total=0)])
    assert rc == 0 and out == "done\n"
    assert term == ""


def test_bar_is_silent_for_short_work():
    rc, _out, term = run_with_terminal_stderr(
        [sys.executable, "-c", LOOP.format(quiet=False, min_total=1000)])
    assert rc == 0 and term == ""


def test_bar_is_silent_in_a_pipe():
    proc = subprocess.run([sys.executable, "-c", LOOP.format(quiet=False, min_total=0)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout == "done\n"
    assert proc.stderr == ""


def test_track_yields_everything_in_order():
    from mtscore import progress

    assert list(progress.track(iter(range(5)), total=5)) == [0, 1, 2, 3, 4]
    assert list(progress.track([], total=0)) == []


@pytest.mark.slow
@pytest.mark.parametrize("quiet", [False, True])
def test_report_command_bar_only_without_quiet(tmp_path, quiet):
    pytest.importorskip("matplotlib")
    from .test_report_study import make_dataset

    root = make_dataset(tmp_path / "ds", systems={"a": 0.1, "b": 0.3, "c": 0.5}, segments=40)
    args = [sys.executable, "-m", "mtscore", "report", str(root), "-o", str(tmp_path / "r.html"),
            "--no-meteor", "--resamples", "20"] + (["--quiet"] if quiet else [])
    rc, out, term = run_with_terminal_stderr(args, cwd=str(tmp_path))
    assert rc == 0, term
    assert out.startswith("report: ")  # stdout: only the result, never a bar
    if quiet:
        assert term == ""
    else:
        assert "figures" in term and "%|" in term
