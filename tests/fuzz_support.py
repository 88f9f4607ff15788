"""Support for the fuzz suites (tests/test_fuzz_*.py): run the command line in-process and judge the outcome.

The rule every fuzzed run must keep (issue 15): exit 0 with finite numbers, or exit 1 with ONE line on
standard error that names the culprit (a file, an option, a system), or exit 2 (a usage error from the
argument parser, whose last line names the option) — never a traceback, never ``nan``/``inf`` printed
where a score is. The hypothesis settings are derandomized (the same examples on every run) with a
bounded number of examples; ``MTSCORE_FUZZ_EXAMPLES`` raises it for a longer hunt by hand.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import sys
import traceback
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from hypothesis import HealthCheck, settings

from mtscore.cli import main


def fuzz_settings(examples: int) -> settings:
    """Derandomized, no example database, no deadline; ``examples`` unless MTSCORE_FUZZ_EXAMPLES says."""
    n = int(os.environ.get("MTSCORE_FUZZ_EXAMPLES", examples))
    return settings(max_examples=n, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=False)


@dataclass(frozen=True)
class Outcome:
    argv: tuple[str, ...]
    code: int
    out: str
    err: str
    crash: str | None = None  # the traceback of an exception that escaped main()


class _Stdin(io.TextIOWrapper):
    def isatty(self) -> bool:
        return False


@contextlib.contextmanager
def _streams(stdin: bytes) -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    out, err = io.BytesIO(), io.BytesIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = _Stdin(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    wrappers = sys.stdin, sys.stdout, sys.stderr
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        for wrapper in wrappers:
            with contextlib.suppress(ValueError):  # closed by the command
                wrapper.flush()
            with contextlib.suppress(ValueError):
                wrapper.detach()  # so that collecting the wrapper does not close the BytesIO


def run_cli(argv: Sequence[str], stdin: bytes = b"") -> Outcome:
    """``mtscore.cli.main(argv)`` in this process, its output captured (stdout as UTF-8)."""
    crash = None
    with _streams(stdin) as (out, err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # the argument parser's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException:
            code, crash = -1, traceback.format_exc()
    return Outcome(tuple(argv), code, out.getvalue().decode("utf-8", "replace"),
                   err.getvalue().decode("utf-8", "replace"), crash)


_NON_FINITE = re.compile(r"(?<![\w.-])[-+]?(nan|inf|infinity)(?![\w])", re.IGNORECASE)


def non_finite_in(text: str, names: Iterable[str] = ()) -> list[str]:
    """``nan``/``inf`` tokens printed in ``text`` (JSON parsed when it is JSON), ignoring ``names``."""
    for name in names:
        text = text.replace(name, "")
    stripped = text.strip()
    if stripped[:1] in "[{":
        try:
            data = json.loads(stripped, parse_constant=float)
        except ValueError:
            pass
        else:
            return [repr(x) for x in _numbers(data) if not math.isfinite(x)]
    return [m.group() for m in _NON_FINITE.finditer(text)]


def _numbers(data: object) -> Iterator[float]:
    if isinstance(data, float):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _numbers(value)
    elif isinstance(data, list):
        for value in data:
            yield from _numbers(value)


def check(outcome: Outcome, culprits: Iterable[str], names: Iterable[str] = ()) -> None:
    """Assert the rule of the module doc. ``culprits``: strings of which the error must name one
    (paths, option names, values); ``names``: system names that may legitimately contain 'nan'."""
    culprits = [c for c in culprits if c]
    where = f"mtscore {' '.join(map(repr, outcome.argv))}"
    assert outcome.crash is None, f"{where} raised:\n{outcome.crash}"
    if outcome.code == 0:
        bad = non_finite_in(outcome.out, names)
        assert not bad, f"{where} exit 0 printed non-finite values {bad}:\n{outcome.out[:2000]}"
        return
    lines = outcome.err.rstrip("\n").split("\n")
    assert outcome.code in (1, 2), f"{where} exit {outcome.code}:\n{outcome.err[-2000:]}"
    assert "Traceback" not in outcome.err, f"{where}:\n{outcome.err[-3000:]}"
    if outcome.code == 1:
        assert len(lines) == 1 and lines[0], f"{where} exit 1 without ONE line:\n{outcome.err[-2000:]}"
        assert lines[0].startswith("mtscore") and ": error: " in lines[0], f"{where}: {lines[0]}"
    else:
        assert ": error: " in lines[-1], f"{where} exit 2:\n{outcome.err[-2000:]}"
    message = lines[-1]
    if culprits:
        assert any(c in message for c in culprits), \
            f"{where}: the error names none of {culprits[:6]}: {message}"
